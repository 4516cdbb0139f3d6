//! The first screens of the pages whose words are the catalogues' (home, about,
//! programs, contact, help, terms), the sign-in, sign-up and password forms
//! (shown disabled until the app runs: nothing typed there could be lost, and no
//! password leaves in a plain form; the sign-in form is `data-early`: the page's first
//! script enables it, keeps what is typed for the app, and sends it as the app's client
//! does when pressed: `pwa/src/lib/first-screen.ts`), and an empty cart.

use crate::labels::Lang;

use super::{CART, PIN, Query, icon, t};
use crate::web::page::escape;

/// The countries of the sign-up form, in the app's order (`lib/account.ts`, `COUNTRIES`).
const COUNTRIES: [&str; 6] = ["DRC", "BDI", "RWA", "UGA", "TZA", "KEN"];

/// The help centre's questions, in the app's order (`features/pages/help-page.tsx`).
const QUESTIONS: [&str; 9] =
    ["offline", "waiting", "buy", "pay", "farmer", "course", "password", "data", "basic_phone"];

/// The sections of the terms, in the app's order (`components/terms-text.tsx`).
const TERMS_SECTIONS: [&str; 8] = ["account", "market", "payments", "data", "sharing", "choices", "phone", "contact"];

/// The home page's hero at its first slide (`features/home/home-page.tsx`).
pub fn home(lang: Lang) -> String {
    format!(
        "<section class=\"hero\" aria-roledescription=\"carousel\" aria-label=\"{}\"><div class=\"hero-inner\">\
         <div class=\"hero-text\" aria-live=\"polite\"><p class=\"eyebrow\">{}</p><h1>{}</h1><p>{}</p>\
         <div class=\"actions\"><a class=\"button gold\" href=\"/about\">{}</a><a class=\"button light\" href=\"/register\">{}</a></div>\
         <p class=\"with-icon address\">{} {}</p></div></div></section>",
        t(lang, "home.hero_label"),
        t(lang, "home.slides.0.eyebrow"),
        t(lang, "home.slides.0.title"),
        t(lang, "home.slides.0.body"),
        t(lang, "home.learn_more"),
        t(lang, "home.join"),
        icon(PIN),
        t(lang, "contact.address"),
    )
}

/// The about page's heading and introduction (`features/pages/about-page.tsx`).
pub fn about(lang: Lang) -> String {
    format!(
        "<div class=\"page\"><h1>{}</h1><p class=\"lead\">{}</p></div>",
        t(lang, "about.title"),
        t(lang, "about.intro")
    )
}

/// The programs page, whole (`features/pages/programs-page.tsx`): its words are the catalogue's.
pub fn programs(lang: Lang) -> String {
    let items = ["climate_smart", "business_school", "water_climate"]
        .iter()
        .enumerate()
        .map(|(index, key)| {
            format!(
                "<li class=\"card program {}\"><span class=\"program-number\" aria-hidden=\"true\">{:02}</span><div>\
                 <h2>{}</h2><p class=\"tagline\">{}</p><p>{}</p></div></li>",
                if index % 2 == 1 { "flip" } else { "" },
                index + 1,
                t(lang, &format!("programs.items.{key}.title")),
                t(lang, &format!("programs.items.{key}.tagline")),
                t(lang, &format!("programs.items.{key}.body")),
            )
        })
        .collect::<String>();
    format!(
        "<div class=\"page\"><h1>{}</h1><p class=\"lead\">{}</p><ol class=\"programs\">{items}</ol></div>",
        t(lang, "programs.title"),
        t(lang, "programs.intro")
    )
}

/// The refusals of a sign-in the page's first script says itself (`lib/first-screen.ts`,
/// `openSignIn`), by the server's code (`network_error`: no answer; the two blank fields:
/// the app's own checks), in the app's words; any other in its words for a failed sign-in.
const SIGN_IN_REFUSALS: [&str; 6] = [
    "invalid_credentials",
    "account_inactive",
    "too_many_attempts",
    "network_error",
    "email_or_phone_required",
    "password_required",
];

/// The sign-in page (`features/auth/login-page.tsx`).
pub fn login(lang: Lang) -> String {
    let mut refusals: serde_json::Map<String, serde_json::Value> =
        SIGN_IN_REFUSALS.iter().map(|code| (code.to_string(), lang.text(&format!("errors.{code}")).into())).collect();
    refusals.insert("fallback".to_owned(), lang.text("auth.login_failed").into());
    format!(
        "<section class=\"page narrow auth-page\"><h1>{}</h1><p class=\"lead\">{}</p>\
         <form class=\"card form\" data-early data-refusals=\"{}\">{}{}\
         <p class=\"form-aside\"><a href=\"/forgot-password\">{}</a></p>\
         <button type=\"submit\" class=\"button wide\" data-busy=\"{}\" data-signed-in=\"{}\" disabled>{}</button>\
         <p class=\"form-footer\">{} <a href=\"/register\">{}</a></p></form></section>",
        t(lang, "auth.login_title"),
        t(lang, "auth.login_intro"),
        escape(&serde_json::Value::Object(refusals).to_string()),
        Field::new("username", "fields.email_or_phone", "text", "username").html(lang),
        Field::new("password", "fields.password", "password", "current-password").html(lang),
        t(lang, "auth.forgot_link"),
        t(lang, "auth.signing_in"),
        t(lang, "auth.signed_in_opening"),
        t(lang, "auth.sign_in"),
        t(lang, "auth.no_account"),
        t(lang, "auth.create_account"),
    )
}

/// The sign-up page (`features/auth/register-page.tsx`), its every field in place.
pub fn register(lang: Lang) -> String {
    let countries = COUNTRIES
        .iter()
        .map(|code| format!("<option value=\"{code}\">{}</option>", t(lang, &format!("countries.{code}"))))
        .collect::<String>();
    let mut password = Field::new("new-password", "fields.password", "password", "new-password");
    password.hint = Some("fields.password_hint");
    // The terms' words carry their link as `<terms>…</terms>`: a plain link here.
    let accept =
        t(lang, "auth.accept_terms").replace("&lt;terms&gt;", "<a href=\"/terms\">").replace("&lt;/terms&gt;", "</a>");
    format!(
        "<section class=\"page narrow auth-page\"><h1>{}</h1><p class=\"lead\">{}</p><form class=\"card form\">\
         <div class=\"field-row\">{}{}</div>{}{}\
         <div class=\"field\"><label for=\"first-country\">{}{REQUIRED}</label>\
         <select id=\"first-country\" required disabled><option value=\"\">{}</option>{countries}</select></div>{}{}\
         <div class=\"field avatar-field\">{}<div><div class=\"image-picker\">\
         <span class=\"picker-label\" id=\"first-avatar-label\">{}</span><input id=\"first-avatar\" \
         class=\"visually-hidden file-input\" type=\"file\" accept=\"image/*\" aria-labelledby=\"first-avatar-label\" disabled>\
         <label for=\"first-avatar\" class=\"button secondary small\">{}</label></div></div></div>\
         <div class=\"field\"><label class=\"checkbox\"><input type=\"checkbox\" disabled><span>{accept}</span></label></div>\
         <button type=\"submit\" class=\"button wide\" disabled>{}</button>\
         <p class=\"form-footer\">{} <a href=\"/login\">{}</a></p></form></section>",
        t(lang, "auth.register_title"),
        t(lang, "auth.register_intro"),
        Field::new("first-name", "fields.first_name", "text", "given-name").html(lang),
        Field::new("last-name", "fields.last_name", "text", "family-name").html(lang),
        Field { required: false, ..Field::new("email", "fields.email_optional", "email", "email") }.html(lang),
        Field::new("phone", "fields.phone_number", "tel", "tel").html(lang),
        t(lang, "fields.country"),
        t(lang, "fields.choose_country"),
        password.html(lang),
        Field::new("password-again", "fields.password_confirmation", "password", "new-password").html(lang),
        avatar(64),
        t(lang, "fields.avatar_optional"),
        t(lang, "fields.choose_picture"),
        t(lang, "auth.create_account"),
        t(lang, "auth.have_account"),
        t(lang, "auth.sign_in"),
    )
}

/// The first step of a forgotten password (`features/auth/password-reset-pages.tsx`).
pub fn forgot_password(lang: Lang) -> String {
    format!(
        "<section class=\"page narrow auth-page\"><h1>{}</h1><form class=\"card form\"><p class=\"lead\">{}</p>{}\
         <button type=\"submit\" class=\"button wide\" disabled>{}</button>\
         <p class=\"form-footer\"><a href=\"/login\">{}</a></p></form></section>",
        t(lang, "auth.forgot_title"),
        t(lang, "auth.forgot_intro"),
        Field::new("username", "fields.email_or_phone", "text", "username").html(lang),
        t(lang, "auth.forgot_send"),
        t(lang, "auth.back_to_sign_in"),
    )
}

/// Choosing a new password (`features/auth/password-reset-pages.tsx`): with a link's
/// token, or with the code texted to `phone`; without either, the way to ask again.
pub fn reset_password(query: &Query, lang: Lang) -> String {
    let texted = query.phone.as_deref().map_or(String::new(), |phone| {
        format!(
            "<p class=\"lead\" role=\"status\">{}</p>",
            escape(&lang.format("auth.forgot_texted", &[("phone", phone)]))
        )
    });
    let ask_again = if query.token || query.phone.is_some() {
        String::new()
    } else {
        format!("<p><a href=\"/forgot-password\">{}</a></p>", t(lang, "auth.reset_ask_again"))
    };
    let code = if query.phone.is_some() {
        Field::new("code", "fields.reset_code", "text", "one-time-code").html(lang)
    } else {
        String::new()
    };
    let mut password = Field::new("new-password", "fields.new_password", "password", "new-password");
    password.hint = Some("fields.password_hint");
    format!(
        "<section class=\"page narrow auth-page\"><h1>{}</h1><form class=\"card form\">{texted}{ask_again}{code}{}{}\
         <button type=\"submit\" class=\"button wide\" disabled>{}</button></form></section>",
        t(lang, "auth.reset_title"),
        password.html(lang),
        Field::new("password-again", "fields.password_confirmation", "password", "new-password").html(lang),
        t(lang, "auth.reset_save"),
    )
}

/// A required field's mark, as the app's `TextField` writes it.
const REQUIRED: &str = "<span class=\"required\" aria-hidden=\"true\"> *</span>";

/// The app's `Avatar` without a picture, at `size` px.
pub(super) fn avatar(size: u32) -> String {
    format!(
        "<svg class=\"avatar\" viewBox=\"0 0 40 40\" width=\"{size}\" height=\"{size}\" aria-hidden=\"true\" \
         focusable=\"false\"><rect width=\"40\" height=\"40\" rx=\"20\" fill=\"#d9e7dc\"></rect>\
         <circle cx=\"20\" cy=\"16\" r=\"7\" fill=\"#1b5e3b\"></circle><path d=\"M7 35a13 13 0 0 1 26 0\" fill=\"#1b5e3b\"></path></svg>"
    )
}

/// A form field as the app's `TextField` draws it, disabled until the app runs.
struct Field {
    id: &'static str,
    label: &'static str,
    kind: &'static str,
    autocomplete: &'static str,
    required: bool,
    hint: Option<&'static str>,
}

impl Field {
    fn new(id: &'static str, label: &'static str, kind: &'static str, autocomplete: &'static str) -> Field {
        Field { id, label, kind, autocomplete, required: true, hint: None }
    }

    fn html(&self, lang: Lang) -> String {
        let Field { id, kind, autocomplete, .. } = self;
        let (required, required_attribute) = if self.required { (REQUIRED, " required") } else { ("", "") };
        let hint = self
            .hint
            .map_or(String::new(), |hint| format!("<p class=\"hint\" id=\"first-{id}-hint\">{}</p>", t(lang, hint)));
        let described = if hint.is_empty() { String::new() } else { format!(" aria-describedby=\"first-{id}-hint\"") };
        format!(
            "<div class=\"field\"><label for=\"first-{id}\">{}{required}</label><input id=\"first-{id}\" type=\"{kind}\" \
             autocomplete=\"{autocomplete}\"{described}{required_attribute} disabled>{hint}</div>",
            t(lang, self.label)
        )
    }
}

/// The contact page's heading and words (`features/pages/contact-page.tsx`); the addresses
/// (the platform's settings) and the form come with the app.
pub fn contact(lang: Lang) -> String {
    format!(
        "<div class=\"page contact\"><h1>{}</h1><p class=\"lead\">{}</p></div>",
        t(lang, "contact.title"),
        t(lang, "contact.intro")
    )
}

/// The help centre (`features/pages/help-page.tsx`): each question opens its answer
/// without script; the basic phone's names the USSD code when one is set.
pub fn help(lang: Lang, ussd_code: &str) -> String {
    let dial = if ussd_code.is_empty() { lang.text("contact.dial_code") } else { ussd_code.to_owned() };
    let questions = QUESTIONS
        .iter()
        .map(|key| {
            format!(
                "<details class=\"card faq\"><summary>{}</summary><p>{}</p></details>",
                t(lang, &format!("help.questions.{key}.q")),
                escape(&lang.format(&format!("help.questions.{key}.a"), &[("dial", &dial)]))
            )
        })
        .collect::<String>();
    format!(
        "<section class=\"page narrow help-page\" aria-labelledby=\"help-title\"><h1 id=\"help-title\">{}</h1>\
         <p class=\"lead\">{}</p>{questions}<p><a class=\"button secondary\" href=\"/contact\">{}</a> \
         <a href=\"/terms\">{}</a></p></section>",
        t(lang, "help.title"),
        t(lang, "help.intro"),
        t(lang, "nav.contact"),
        t(lang, "nav.terms"),
    )
}

/// The terms of use and privacy notice, whole (`features/pages/terms-page.tsx`); `/privacy`
/// opens them at `#privacy`.
pub fn terms(lang: Lang) -> String {
    let sections = TERMS_SECTIONS
        .iter()
        .map(|key| {
            format!(
                "<section id=\"{}\" aria-labelledby=\"terms-{key}\"><h2 id=\"terms-{key}\">{}</h2><p>{}</p></section>",
                if *key == "data" { "privacy" } else { key },
                t(lang, &format!("terms.sections.{key}.title")),
                t(lang, &format!("terms.sections.{key}.body"))
            )
        })
        .collect::<String>();
    format!(
        "<article class=\"page narrow terms-page\"><h1>{}</h1><div class=\"terms-text\"><p class=\"muted\">{}</p>\
         <p class=\"lead\">{}</p>{sections}</div></article>",
        t(lang, "terms.title"),
        t(lang, "terms.updated"),
        t(lang, "terms.intro"),
    )
}

/// The cart when it is empty (`features/cart/cart-page.tsx`), as it is on a phone that
/// never had one; a phone with a cart says so (`Query::cart_filled`) and keeps the shell.
pub fn empty_cart(lang: Lang) -> String {
    format!(
        "<section class=\"page narrow coming-soon\">{}<h1>{}</h1><a class=\"button\" href=\"/marketplace\">{}</a></section>",
        icon(CART),
        t(lang, "cart.empty"),
        t(lang, "cart.continue"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every catalogue key the page asks for was found (a missing one reads as its key).
    fn no_key_left(html: &str) {
        for prefix in ["auth.", "fields.", "help.", "terms.", "cart.", "countries.", "programs.items.", "nav."] {
            assert!(!html.contains(prefix), "{prefix} left in {html}");
        }
    }

    #[test]
    fn the_pages_are_in_the_readers_language_and_escaped() {
        let fr = Lang::parse(Some("fr"));
        let home = home(fr);
        assert!(home.contains(&format!("<h1>{}</h1>", escape(&fr.text("home.slides.0.title")))));
        assert!(about(fr).contains(&escape(&fr.text("about.intro"))));
        let programs = programs(fr);
        assert_eq!(programs.matches("<li class=\"card program").count(), 3);
        assert!(
            programs.contains(
                "<li class=\"card program flip\"><span class=\"program-number\" aria-hidden=\"true\">02</span>"
            )
        );
        let with_code = help(fr, "*384*12#");
        let help = help(fr, "");
        assert_eq!(help.matches("<details class=\"card faq\">").count(), QUESTIONS.len());
        assert!(help.contains(&escape(&fr.text("help.questions.pay.a"))));
        assert!(help.contains("Composez le code MAVUNO pour les prix"), "no code set: {help}");
        assert!(with_code.contains("Composez *384*12# pour les prix"), "{with_code}");
        let terms = terms(fr);
        assert_eq!(terms.matches("<section id=").count(), TERMS_SECTIONS.len());
        assert!(terms.contains("<section id=\"privacy\" aria-labelledby=\"terms-data\">"), "/privacy's anchor");
        for page in [programs, help, terms, empty_cart(fr)] {
            no_key_left(&page);
        }
    }

    #[test]
    fn the_lists_are_the_apps() {
        let app = [
            (include_str!("../../../../pwa/src/features/pages/help-page.tsx"), &QUESTIONS[..]),
            (include_str!("../../../../pwa/src/components/terms-text.tsx"), &TERMS_SECTIONS[..]),
            (include_str!("../../../../pwa/src/lib/account.ts"), &COUNTRIES[..]),
        ];
        for (source, keys) in app {
            let source = source.split_whitespace().collect::<String>();
            let listed = keys.iter().map(|key| format!("'{key}'")).collect::<Vec<_>>().join(",");
            let whole = [format!("[{listed}]"), format!("[{listed},]")];
            assert!(whole.iter().any(|list| source.contains(list)), "the app lists other than {keys:?}");
        }
    }

    #[test]
    fn the_forms_wait_for_the_app() {
        let sw = Lang::parse(Some("sw"));
        let login = login(sw);
        assert_eq!(login.matches(" disabled").count(), 3, "both fields and the button wait for a script");
        // Only the sign-in form is opened early, by the page's first script, which sends it as the app does.
        assert_eq!(login.matches(" data-early").count(), 1);
        assert!(!login.contains(" name=") && !login.contains(" action="), "nothing of it leaves in a plain form");
        for said in ["data-busy", "data-signed-in"] {
            assert!(login.contains(&format!("{said}=\"")) && !login.contains(&format!("{said}=\"\"")), "{login}");
        }
        // The refusals it says itself, as JSON in an attribute, in the reader's words.
        let start = login.find("data-refusals=\"").expect("refusals") + "data-refusals=\"".len();
        let attribute = &login[start..start + login[start..].find('"').unwrap()];
        let json = attribute.replace("&quot;", "\"").replace("&#39;", "'").replace("&lt;", "<").replace("&gt;", ">");
        let refusals: serde_json::Map<String, serde_json::Value> =
            serde_json::from_str(&json.replace("&amp;", "&")).unwrap();
        assert_eq!(refusals.len(), SIGN_IN_REFUSALS.len() + 1);
        assert_eq!(refusals["invalid_credentials"], sw.text("errors.invalid_credentials").as_str());
        assert!(
            refusals
                .values()
                .all(|text| text.as_str().is_some_and(|text| !text.is_empty() && !text.contains("errors.")))
        );
        no_key_left(&login);
        let by_phone = Query { phone: Some("+243 <970>".to_owned()), ..Query::default() };
        let reset = reset_password(&by_phone, sw);
        assert!(reset.contains("+243 &lt;970&gt;") && reset.contains("autocomplete=\"one-time-code\""), "{reset}");
        assert!(!reset.contains("/forgot-password"));
        let without = reset_password(&Query::default(), sw);
        assert!(without.contains("<a href=\"/forgot-password\">") && !without.contains("one-time-code"));
        let by_link = reset_password(&Query { token: true, ..Query::default() }, sw);
        assert!(!by_link.contains("/forgot-password") && !by_link.contains("one-time-code"));
        for page in [reset, without, by_link] {
            no_key_left(&page);
        }
        let forgot = forgot_password(sw);
        assert_eq!(forgot.matches(" disabled").count(), 2, "the field and the button");
        no_key_left(&forgot);
        let register = register(sw);
        no_key_left(&register);
        assert_eq!(register.matches("<input ").count(), 8);
        assert_eq!(register.matches(" disabled").count(), 10, "eight inputs, the country and the button");
        assert_eq!(register.matches(REQUIRED).count(), 6, "names, phone, country, both passwords");
        assert!(register.contains(&format!("<option value=\"KEN\">{}</option>", t(sw, "countries.KEN"))));
        assert!(register.contains("<a href=\"/terms\">"), "the terms open as a page");
        assert!(!register.contains("&lt;"), "{register}");
        assert!(register.contains("aria-describedby=\"first-new-password-hint\""));
    }
}
