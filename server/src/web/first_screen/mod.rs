//! The first screen of a public page, written into the HTML a first visit gets: the
//! header, and the page's content as the app draws it for a visitor: the lists' first
//! cards (`lists.rs`), a product, a post and a course (`detail.rs`), the cooperatives and
//! each one's lots on sale (`cooperatives.rs`), the pages whose words
//! are the catalogues', the account forms (disabled until the app runs) and an empty cart
//! (`pages.rs`). A phone on a slow link shows what it came for from this one response,
//! before any script arrives; every link in it works without script. The app starts out
//! of sight and takes its place, with the same markup and classes, once its page is ready
//! (`pwa/src/lib/first-screen.ts`).
//!
//! Only what the app draws the same way for every visitor; pages that change per person
//! (a cart with something in it, orders, the dashboard) keep the loading shell.

use axum::http::{HeaderMap, Uri};

use crate::domain::settings::Contact;
use crate::labels::Lang;
use crate::state::AppState;

use super::page::escape;

mod cooperatives;
mod detail;
mod lists;
mod pages;
mod prices;

/// The header's links, as the app's header lists them.
const MAIN_LINKS: [(&str, &str); 6] = [
    ("about", "/about"),
    ("programs", "/programs"),
    ("marketplace", "/marketplace"),
    ("prices", "/prices"),
    ("training", "/training"),
    ("news", "/news"),
];

const MARK: &str = "<svg viewBox=\"0 0 100 100\" width=\"36\" height=\"36\" aria-hidden=\"true\" focusable=\"false\">\
<rect width=\"100\" height=\"100\" rx=\"22\" fill=\"#1b5e3b\"></rect><g transform=\"translate(50 50) scale(.9) translate(-50 -50)\">\
<ellipse cx=\"50\" cy=\"80\" rx=\"27\" ry=\"5.5\" fill=\"#e0b84a\"></ellipse><rect x=\"48.2\" y=\"42\" width=\"3.6\" height=\"37\" fill=\"#f4e9c8\"></rect>\
<ellipse cx=\"36\" cy=\"41\" rx=\"17\" ry=\"7.5\" transform=\"rotate(35 36 41)\" fill=\"#f4e9c8\"></ellipse>\
<ellipse cx=\"64\" cy=\"33\" rx=\"20\" ry=\"8.5\" transform=\"rotate(-35 64 33)\" fill=\"#f4e9c8\"></ellipse></g></svg>";

/// An icon as the app's `Icon` draws it (24 px, stroked), with its inner drawing.
fn icon(inner: &str) -> String {
    format!(
        "<svg viewBox=\"0 0 24 24\" width=\"24\" height=\"24\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\" \
         stroke-linecap=\"round\" stroke-linejoin=\"round\" aria-hidden=\"true\" focusable=\"false\">{inner}</svg>"
    )
}

const CART: &str = "<circle cx=\"9\" cy=\"20\" r=\"1.5\"></circle><circle cx=\"18\" cy=\"20\" r=\"1.5\"></circle>\
<path d=\"M2 3h3l2.6 12.2a2 2 0 0 0 2 1.6h8.2a2 2 0 0 0 2-1.5L22 8H6\"></path>";
const MENU: &str = "<path d=\"M4 6h16M4 12h16M4 18h16\"></path>";
const CLOCK: &str = "<circle cx=\"12\" cy=\"12\" r=\"10\"></circle><path d=\"M12 6v6l4 2\"></path>";
const MAIL: &str =
    "<rect x=\"2\" y=\"4\" width=\"20\" height=\"16\" rx=\"2\"></rect><path d=\"M2 6l10 7 10-7\"></path>";
const PHONE: &str = "<path d=\"M22 16.9v3a2 2 0 01-2.2 2 19.8 19.8 0 01-8.6-3.1 19.5 19.5 0 01-6-6A19.8 19.8 0 012.1 4.2 2 2 0 014.1 2h3a2 2 0 012 1.7c.1 1 .4 1.9.7 2.8a2 2 0 01-.5 2.1L8 9.9a16 16 0 006 6l1.3-1.3a2 2 0 012.1-.4c.9.3 1.8.6 2.8.7a2 2 0 011.7 2z\"></path>";
const DOWNLOAD: &str = "<path d=\"M12 3v12M7 10l5 5 5-5M4 21h16\"></path>";
const PIN: &str = "<path d=\"M12 22s7-6.5 7-12a7 7 0 0 0-14 0c0 5.5 7 12 7 12z\"></path><circle cx=\"12\" cy=\"10\" r=\"2.5\"></circle>";

/// The cookie the app sets while the phone's cart holds something (`pwa/src/lib/cart.ts`).
const CART_COOKIE: &str = "mavuno_cart";

/// What the request asks of the first screen: a search, a category, a level (each list
/// keeps what it knows of them), no pictures when the browser says `Save-Data: on`,
/// whether the phone's cart holds something, and a password reset's proof.
#[derive(Debug, Default, PartialEq)]
pub struct Query {
    pub q: Option<String>,
    pub category: Option<String>,
    pub level: Option<String>,
    pub save_data: bool,
    pub cart_filled: bool,
    /// A password reset's proof: a link's token (only whether there is one), or the
    /// number a code was texted to.
    pub token: bool,
    pub phone: Option<String>,
    /// Market prices' filters (`/prices?crop=&market=&territory=`).
    pub crop: Option<String>,
    pub market: Option<i64>,
    pub territory: Option<String>,
}

impl Query {
    pub fn parse(uri: &Uri, headers: &HeaderMap) -> Query {
        let pairs = axum::extract::Query::<Vec<(String, String)>>::try_from_uri(uri).map_or(Vec::new(), |q| q.0);
        let save_data = headers.get("save-data").and_then(|v| v.to_str().ok()).is_some_and(|v| v.trim() == "on");
        let cart_filled = super::page::cookie(headers, CART_COOKIE) == Some("1");
        let mut out = Query { save_data, cart_filled, ..Query::default() };
        let bounded = |value: &str, max: usize| Some(value.trim().chars().take(max).collect::<String>());
        for (name, value) in pairs {
            match name.as_str() {
                "q" => out.q = bounded(&value, 100).filter(|q| !q.is_empty()),
                "category" => out.category = bounded(&value, 40).filter(|c| !c.is_empty()),
                "level" => out.level = bounded(&value, 40).filter(|l| !l.is_empty()),
                "token" => out.token = !value.trim().is_empty(),
                "phone" => out.phone = bounded(&value, 40).filter(|p| !p.is_empty()),
                "crop" => out.crop = bounded(&value, 40).filter(|c| !c.is_empty()),
                "market" => out.market = value.trim().parse().ok(),
                "territory" => out.territory = bounded(&value, 60).filter(|t| !t.is_empty()),
                _ => {}
            }
        }
        out
    }
}

/// What of a first screen is asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The page's: header, main content, footer and the public settings.
    Page,
    /// Its main content alone (no page, header or footer), as the first screen's own search
    /// asks for it while the app is not running yet (`X-First-Screen: main`,
    /// lib/first-screen.ts): a list for a word typed is ~2 KB on the wire, not the page's ~11.
    Main,
}

/// The first screen of the page `key` (page.rs's route keys), or `None` where the
/// app's own loading shell stays (pages that need an account, or that change per person).
pub async fn render(
    state: &AppState,
    path: &str,
    (key, id): (&str, Option<i64>),
    query: &Query,
    (lang, part): (Lang, Part),
) -> Option<String> {
    let (body, settings) = body(state, path, (key, id), query, lang).await?;
    if part == Part::Main {
        return Some(format!("<div data-first-screen=\"{key}\"><main>{body}</main></div>"));
    }
    let settings = match settings {
        Some(read) => read,
        None => load_settings(state).await?,
    };
    let footer = footer(path, &settings.contact, &settings.ussd_code, lang);
    Some(format!(
        "<div class=\"first-screen\" data-first-screen=\"{key}\"><a class=\"skip-link\" href=\"#main\">{}</a>{}\
         <main id=\"main\" tabindex=\"-1\">{body}</main>{footer}{}</div>",
        t(lang, "common.skip_to_content"),
        header(key, lang),
        settings_data(settings),
    ))
}

/// A page's first screen's main content, and the settings when it read them.
async fn body(
    state: &AppState,
    path: &str,
    (key, id): (&str, Option<i64>),
    query: &Query,
    lang: Lang,
) -> Option<(String, Option<crate::domain::settings::Settings>)> {
    // Read once, and only for a page that has a first screen (after its body, but before
    // the help page's, which names the USSD code).
    let mut settings = None;
    let body = match key {
        "product" => detail::product(state, id?, query, lang).await?,
        "article" => detail::article(state, id?, query, lang).await?,
        "course" => detail::course(state, id?, query, lang).await?,
        "certificate" => detail::certificate(state, path.trim_start_matches("/certificates/"), lang).await?,
        "home" => pages::home(lang),
        "about" => pages::about(lang),
        "programs" => pages::programs(lang),
        "contact" => pages::contact(lang),
        "help" => {
            let read = settings.insert(load_settings(state).await?);
            pages::help(lang, &read.ussd_code)
        }
        "terms" => pages::terms(lang),
        "login" => pages::login(lang),
        "register" => pages::register(lang),
        "forgot_password" => pages::forgot_password(lang),
        "reset_password" => pages::reset_password(query, lang),
        "cart" if !query.cart_filled => pages::empty_cart(lang),
        "marketplace" => lists::marketplace(state, query, lang).await?,
        "training" => lists::training(state, query, lang).await?,
        "news" => lists::news(state, query, lang).await?,
        "prices" => prices::board(state, query, lang).await?,
        "cooperatives" => cooperatives::list(state, lang).await?,
        "cooperative" => cooperatives::one(state, id?, lang).await?,
        _ => return None,
    };
    Some((body, settings))
}

async fn load_settings(state: &AppState) -> Option<crate::domain::settings::Settings> {
    state.db.read(|conn| Ok(crate::domain::settings::load(conn)?)).await.ok()
}

/// The public settings (`GET /settings`) the footer was drawn from, as data for the app
/// (pwa/src/lib/settings.ts): on a new phone it takes over with them rather than asking
/// and waiting a round trip (its footer says it is busy until it has them). Not a script:
/// `type="application/json"` is never run, and the page's policy does not apply to it.
/// Every `<` is written `\u003c`, so no text in it can close the element.
fn settings_data(settings: crate::domain::settings::Settings) -> String {
    let public = crate::domain::settings::PublicSettings::from(settings);
    let json = serde_json::to_string(&public).unwrap_or_default().replace('<', "\\u003c");
    format!("<script type=\"application/json\" id=\"settings\">{json}</script>")
}

/// How a picture is fetched: the page's first (likely its largest content) at once and
/// before anything else, the others when near the screen.
fn loading(first: bool) -> &'static str {
    if first { "loading=\"eager\" fetchpriority=\"high\"" } else { "loading=\"lazy\"" }
}

/// A post's read time as its admin wrote it, or counted from its words in the reader's
/// language (the app's `readTime`).
fn read_time(f: &crate::model::blog::BlogFields, lang: Lang) -> String {
    match f.read_time.trim() {
        "" => escape(&lang.plural("news.read_minutes", crate::model::blog::read_minutes(&f.full_content), &[])),
        written => escape(written),
    }
}

/// A catalogue text, escaped for HTML.
fn t(lang: Lang, key: &str) -> String {
    escape(&lang.text(key))
}

fn header(key: &str, lang: Lang) -> String {
    let nav = MAIN_LINKS
        .iter()
        .map(|(name, href)| {
            let current = if *name == key { " class=\"active\" aria-current=\"page\"" } else { "" };
            format!("<a href=\"{href}\"{current}>{}</a>", t(lang, &format!("nav.{name}")))
        })
        .collect::<String>();
    format!(
        "<header class=\"site-header\"><div class=\"header-inner\">\
         <a class=\"brand\" aria-label=\"{}\" href=\"/\"><span class=\"logo\">{MARK}<span class=\"logo-word\">MAVUNO</span></span></a>\
         <nav class=\"main-nav desktop-only\" aria-label=\"{}\">{nav}</nav><div class=\"header-actions\">\
         <a class=\"icon-button cart-link\" aria-label=\"{}\" href=\"/cart\">{}</a>\
         <div class=\"auth-links desktop-only\"><a class=\"button secondary small\" href=\"/login\">{}</a>\
         <a class=\"button small\" href=\"/register\">{}</a></div>\
         <a class=\"icon-button mobile-only\" aria-label=\"{}\" href=\"#first-screen-links\">{}</a></div></div></header>",
        t(lang, "nav.home_label"),
        t(lang, "nav.main"),
        t(lang, "nav.cart"),
        icon(CART),
        t(lang, "nav.login"),
        t(lang, "nav.register"),
        t(lang, "nav.open_menu"),
        icon(MENU),
    )
}

/// The footer's quick links, as the app's footer lists them.
const QUICK_LINKS: [(&str, &str); 10] = [
    ("marketplace", "/marketplace"),
    ("prices", "/prices"),
    ("cooperatives", "/cooperatives"),
    ("training", "/training"),
    ("programs", "/programs"),
    ("about", "/about"),
    ("news", "/news"),
    ("contact", "/contact"),
    ("help", "/help"),
    ("terms", "/terms"),
];

/// The app's footer (`app/layout/footer.tsx`): the platform's contact lines as the super
/// admin set them (with the phone menu's USSD code, `components/contact-lines.tsx`), the
/// quick links (where the first screen's menu button leads), the languages as links, the year.
fn footer(path: &str, contact: &Contact, ussd_code: &str, lang: Lang) -> String {
    let line = |icon_inner: &str, label: &str, text: String| {
        format!(
            "<p class=\"with-icon\">{} <span class=\"visually-hidden\">{}</span>{text}</p>",
            icon(icon_inner),
            t(lang, label)
        )
    };
    let mut lines = line(PIN, "contact.address_label", escape(contact.address.in_language(lang)))
        + &line(CLOCK, "contact.hours_label", escape(contact.hours.in_language(lang)));
    if !contact.phone.is_empty() {
        let phone = escape(&contact.phone);
        lines += &line(PHONE, "fields.phone_number", format!("<a href=\"tel:{phone}\">{phone}</a>"));
    }
    if !contact.email.is_empty() {
        let email = escape(&contact.email);
        lines += &line(MAIL, "fields.email", format!("<a href=\"mailto:{email}\">{email}</a>"));
    }
    if !ussd_code.is_empty() {
        // A `tel:` link opens the dialer with the code; its `#` is written `%23`.
        let code = escape(ussd_code);
        let link = format!("<a href=\"tel:{}\">{code}</a>", code.replace('#', "%23"));
        let words = escape(&lang.format("contact.ussd_line", &[("code", "\u{0}")])).replace('\u{0}', &link);
        // One span: the line is a flex row of the icon and its words.
        lines += &format!("<p class=\"with-icon\">{} <span>{words}</span></p>", icon(PHONE));
    }
    let links = QUICK_LINKS
        .iter()
        .map(|(name, href)| format!("<li><a href=\"{href}\">{}</a></li>", t(lang, &format!("nav.{name}"))))
        .collect::<String>();
    let languages = [("en", "English"), ("fr", "Français"), ("sw", "Kiswahili")]
        .iter()
        .map(|(code, name)| {
            let current = if *code == lang.code() { " aria-current=\"true\"" } else { "" };
            format!("<a href=\"{}?lng={code}\" lang=\"{code}\" hreflang=\"{code}\"{current}>{name}</a>", escape(path))
        })
        .collect::<Vec<_>>()
        .join(" · ");
    let year = crate::platform::clock::now().get(..4).unwrap_or("").to_owned();
    format!(
        "<footer class=\"site-footer\"><div class=\"footer-inner\"><div class=\"footer-about\"><span class=\"logo\">{MARK}\
         <span class=\"logo-word\">MAVUNO</span></span><p>{}</p>{lines}</div>\
         <nav id=\"first-screen-links\" aria-label=\"{quick}\"><h2>{quick}</h2><ul>{links}</ul></nav>\
         <div><h2>{}</h2><p class=\"language-links\">{languages}</p></div></div><p class=\"copyright\">{}</p></footer>",
        t(lang, "footer.description"),
        t(lang, "common.language"),
        escape(&lang.format("footer.copyright", &[("year", &year)])),
        quick = t(lang, "footer.quick_links"),
    )
}

/// US dollars as the app writes them (`Intl.NumberFormat(lang, {currency: 'USD'})`):
/// "$1,234.50", "1 234,50 $US", "US$ 1,234.50".
/// The app's `LotBadge`: a cooperative's lot.
fn lot_badge(lang: Lang) -> String {
    format!("<span class=\"badge yellow lot-badge\">{}</span>", t(lang, "cooperative.lot_badge"))
}

/// The app's `LotLine`: whose lot, from how many members, collected when.
fn lot_line(lot: &crate::model::cooperative::LotCard, lang: Lang) -> String {
    let (from, to) = (lang.long_date(&lot.collected_from), lang.long_date(&lot.collected_to));
    let days = if from == to { from } else { format!("{from} – {to}") };
    lang.plural("cooperative.lot_line", lot.members, &[("coop", &lot.cooperative_name), ("days", &days)])
}

fn usd(lang: Lang, cents: i64) -> String {
    let (sign, amount) = (if cents < 0 { "-" } else { "" }, lang.amount(cents.abs()));
    match lang.code() {
        "fr" => format!("{sign}{amount}\u{a0}$US"),
        "sw" => format!("{sign}US$\u{a0}{amount}"),
        _ => format!("{sign}${amount}"),
    }
}

/// A duration as the app's `formatMinutes` (Intl's short units, with their own spaces):
/// "1 hr 30 min", "1 h 30 min", "saa 1 dakika 30".
fn minutes(lang: Lang, total: i64) -> String {
    let unit = |value: i64, hours: bool| match (lang.code(), hours) {
        ("fr", true) => format!("{value}\u{202f}h"),
        ("fr", false) => format!("{value}\u{a0}min"),
        ("sw", true) => format!("saa {value}"),
        ("sw", false) => format!("dakika {value}"),
        (_, true) => format!("{value} hr"),
        (_, false) => format!("{value} min"),
    };
    let (hours, rest) = (total / 60, total % 60);
    match (hours, rest) {
        (0, _) => unit(rest, false),
        (_, 0) => unit(hours, true),
        _ => format!("{} {}", unit(hours, true), unit(rest, false)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dollars_read_as_the_app_writes_them() {
        let (en, fr, sw) = (Lang::EN, Lang::parse(Some("fr")), Lang::parse(Some("sw")));
        assert_eq!(usd(en, 123_450), "$1,234.50");
        assert_eq!(usd(fr, 123_450), "1\u{202f}234,50\u{a0}$US");
        assert_eq!(usd(sw, 150), "US$\u{a0}1.50");
        assert_eq!(usd(en, 100_000_005), "$1,000,000.05");
        assert_eq!(usd(en, -5), "-$0.05");
    }

    #[test]
    fn days_and_durations_read_as_the_app_writes_them() {
        let (fr, sw) = (Lang::parse(Some("fr")), Lang::parse(Some("sw")));
        assert_eq!(minutes(Lang::EN, 90), "1 hr 30 min");
        assert_eq!(minutes(fr, 120), "2\u{202f}h");
        assert_eq!(minutes(fr, 61), "1\u{202f}h 1\u{a0}min");
        assert_eq!(minutes(sw, 45), "dakika 45");
    }

    #[test]
    fn the_query_is_read_with_bounds() {
        let parse = |uri: &str| Query::parse(&uri.parse().unwrap(), &HeaderMap::new());
        assert_eq!(parse("/marketplace"), Query::default());
        let q = parse("/training?q=caf%C3%A9+vert&category=farming&level=advanced&lng=fr");
        let some = |s: &str| Some(s.to_owned());
        let asked =
            Query { q: some("café vert"), category: some("farming"), level: some("advanced"), ..Query::default() };
        assert_eq!(q, asked);
        let mut headers = HeaderMap::new();
        headers.insert("save-data", "on".parse().unwrap());
        headers.insert("cookie", "mavuno_lng=fr; mavuno_cart=1".parse().unwrap());
        let asked = Query::parse(&"/news".parse().unwrap(), &headers);
        assert!(asked.save_data && asked.cart_filled);
        assert_eq!(parse("/marketplace?q=%20%20&category=&q"), Query::default());
        assert_eq!(parse(&format!("/marketplace?q={}", "a".repeat(500))).q.map(|q| q.len()), Some(100));
        assert_eq!(parse("/marketplace?q=%ZZ").q.as_deref(), Some("%ZZ"), "a broken escape is the text it is");
        let reset = parse("/reset-password?token=abc&phone=%2B243%20970");
        assert!(reset.token && reset.phone.as_deref() == Some("+243 970"));
        assert!(!parse("/reset-password?token=").token);
    }

    #[test]
    fn the_header_and_footer_are_the_apps() {
        let fr = Lang::parse(Some("fr"));
        let contact = crate::domain::settings::Settings::default().contact;
        let footer = footer("/news", &contact, "", fr);
        assert!(footer.contains(&escape(contact.address.in_language(fr))));
        assert!(!footer.contains("tel:"), "no code set, no line");
        assert!(footer.contains("<a href=\"/news?lng=sw\" lang=\"sw\" hreflang=\"sw\">Kiswahili</a>"));
        assert!(footer.contains("aria-current=\"true\">Français</a>"));
        assert!(footer.contains(&format!("© {} MAVUNO", &crate::platform::clock::now()[..4])), "{footer}");
        let header = header("about", fr);
        assert!(header.contains("<a href=\"/about\" class=\"active\" aria-current=\"page\">"));
        assert!(!header.contains("<a href=\"/news\" class"));
    }
}
