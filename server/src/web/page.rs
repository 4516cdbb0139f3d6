//! The HTML a navigation gets: the PWA's `index.html` with the reader's language,
//! the page's title and description, Open Graph tags for products, courses and
//! articles, and the inline shell's line filled in here. A first visit on a slow
//! link paints the shell in the reader's language from this one response, and a
//! link shared on WhatsApp shows a preview (its crawler runs no script).

use axum::http::HeaderMap;
use axum::http::header;
use base64::Engine as _;
use sha2::{Digest, Sha256};

use crate::labels::{LANGUAGES, Lang};
use crate::model::decimal_amount;
use crate::outbound::media::MediaStore;
use crate::state::AppState;

/// The cookie the PWA keeps the chosen language in (i18next's detector, `lookupCookie`).
pub const LANGUAGE_COOKIE: &str = "mavuno_lng";

/// The shell's line in the template; replaced by `pages.boot` in the reader's language.
const BOOT_LINE: (&str, &str) = ("<p class=\"boot-line\">", "</p>");

/// The app's root and its content in the template: the shell, on one line.
const ROOT: (&str, &str) = ("<div id=\"root\">", "</div>\n");

/// A line of the template that fetches a file of the app's code with the page.
const PRELOAD: &str = "<link rel=\"modulepreload\"";

/// What a page says about itself in `<head>`.
#[derive(Debug, Clone, PartialEq)]
pub struct Head {
    pub lang: Lang,
    pub title: String,
    pub description: String,
    /// A picture for previews: a media path (`/media/…`).
    pub image: Option<String>,
    /// `og:type`: `website`, `article` or `product`.
    pub kind: &'static str,
}

/// The reader's language: `?lng=`, then the PWA's cookie, then `Accept-Language`
/// (by preference), then English, as the PWA's own detector decides.
pub fn language(query: Option<&str>, headers: &HeaderMap) -> Lang {
    let from_query = asked_language(query);
    if let Some(lang) = from_query.or_else(|| cookie(headers, LANGUAGE_COOKIE).and_then(supported)) {
        return lang;
    }
    let accept = headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let mut ranges = accept
        .split(',')
        .filter_map(|range| {
            let mut parts = range.split(';');
            let tag = parts.next()?.trim();
            let q = parts.find_map(|p| p.trim().strip_prefix("q=")).map_or(Some(1.0), |q| q.parse::<f32>().ok())?;
            Some((tag, q))
        })
        .collect::<Vec<_>>();
    ranges.sort_by(|a, b| b.1.total_cmp(&a.1));
    ranges.into_iter().filter(|(_, q)| *q > 0.0).find_map(|(tag, _)| supported(tag)).unwrap_or(Lang::EN)
}

/// The value of the cookie `name`, if the request carries it.
pub fn cookie<'h>(headers: &'h HeaderMap, name: &str) -> Option<&'h str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(name)?.strip_prefix('='))
}

/// The language the address asks for (`?lng=fr`), if it is one of the PWA's.
pub fn asked_language(query: Option<&str>) -> Option<Lang> {
    query.into_iter().flat_map(|q| q.split('&')).filter_map(|pair| pair.strip_prefix("lng=")).find_map(supported)
}

fn supported(code: &str) -> Option<Lang> {
    let base = code.split(['-', '_']).next().unwrap_or("").to_ascii_lowercase();
    LANGUAGES.contains(&base.as_str()).then(|| Lang::parse(Some(&base)))
}

/// The route's key under `pages.` in the catalogues, and the id of a product,
/// course, article or cooperative.
pub fn route(path: &str) -> (&'static str, Option<i64>) {
    let parts = path.trim_matches('/').split('/').collect::<Vec<_>>();
    let id = parts.get(1).and_then(|id| id.parse::<i64>().ok());
    let key = match parts.as_slice() {
        ["" | "index.html"] => "home",
        ["product", _] => "product",
        ["course", _] => "course",
        ["news", _] => "article",
        ["learn", _] => "learn",
        ["certificates", _] => "certificate",
        ["forgot-password"] => "forgot_password",
        ["reset-password"] => "reset_password",
        ["privacy"] => "terms",
        ["marketplace"] => "marketplace",
        ["training"] => "training",
        ["news"] => "news",
        ["prices"] => "prices",
        ["cooperatives"] => "cooperatives",
        ["cooperatives", _] => "cooperative",
        ["about"] => "about",
        ["programs"] => "programs",
        ["contact"] => "contact",
        ["login"] => "login",
        ["register"] => "register",
        ["terms"] => "terms",
        ["help"] => "help",
        ["cart"] => "cart",
        ["checkout"] => "checkout",
        ["orders"] => "orders",
        ["dashboard"] => "dashboard",
        ["profile"] => "profile",
        _ => "not_found",
    };
    (key, id)
}

/// The head of the page at `path`: its own words, or a product's, course's or
/// published article's (what anyone may see; anything else reads as the list's page).
pub async fn head(state: &AppState, path: &str, lang: Lang) -> Head {
    let (key, id) = route(path);
    let page = |key: &str| Head {
        lang,
        title: if key == "home" {
            lang.text("pages.home.title")
        } else {
            lang.format("pages.title_format", &[("page", &lang.text(&format!("pages.{key}.title")))])
        },
        description: lang.text(&format!("pages.{key}.description")),
        image: None,
        kind: "website",
    };
    let Some(id) = id else { return page(key) };
    let found = state
        .db
        .read(move |conn| {
            Ok(match key {
                "product" => crate::db::products::find_listed(conn, id)?.map(|p| {
                    let price = decimal_amount(p.listing.current_price);
                    let unit = lang.text(&format!("market.units.{}", p.listing.unit.as_str()));
                    let description =
                        format!("{price} USD / {unit} · {} · {}", p.farmer.name, p.listing.description_in(lang.code()));
                    let title = p.listing.title_in(lang.code()).to_owned();
                    (title, description, p.listing.images.first().cloned(), "product")
                }),
                "course" => crate::db::courses::find(conn, id)?
                    .filter(|c| c.is_listed())
                    .map(|c| (c.fields.title, c.fields.description, c.fields.cover_image, "website")),
                "cooperative" => crate::db::cooperatives::find(conn, id)?
                    .filter(|c| c.status == crate::model::cooperative::Status::Active)
                    .map(|c| {
                        let summary = format!("{}, {} · {}", c.territory, c.market_name, c.description);
                        (c.name, summary, None, "website")
                    }),
                "article" => crate::db::blogs::find(conn, id)?
                    .filter(|b| b.fields.published && b.deleted_at.is_none())
                    .map(|b| (b.fields.title, b.fields.description, b.fields.image, "article")),
                _ => None,
            })
        })
        .await
        .ok()
        .flatten();
    match found {
        Some((title, description, image, kind)) => Head {
            lang,
            title: lang.format("pages.title_format", &[("page", &title)]),
            description: shorten(&description, 200),
            image: image.map(|hash| MediaStore::url(&hash, crate::outbound::media::DISPLAY)),
            kind,
        },
        None => page(key),
    }
}

/// At most `max` characters, cut at a word with an ellipsis.
fn shorten(text: &str, max: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() <= max {
        return text;
    }
    let cut = text.chars().take(max).collect::<String>();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    format!("{cut}…")
}

/// The template with `head` written in: `<html lang>`, title, description, Open Graph
/// tags (absolute URLs from `origin`), and the shell's line, or in its place the page's
/// first screen (first_screen.rs).
pub fn render(template: &str, head: &Head, origin: &str, path: &str, first_screen: Option<&str>) -> String {
    let title = escape(&head.title);
    let description = escape(&head.description);
    let mut tags = format!(
        "\n    <meta property=\"og:site_name\" content=\"MAVUNO\" />\n    \
         <meta property=\"og:type\" content=\"{}\" />\n    \
         <meta property=\"og:title\" content=\"{title}\" />\n    \
         <meta property=\"og:description\" content=\"{description}\" />\n    \
         <meta property=\"og:url\" content=\"{origin}{}\" />\n    \
         <meta property=\"og:locale\" content=\"{}\" />\n",
        head.kind,
        escape(path),
        head.lang.locale(),
    );
    if let Some(image) = &head.image {
        tags += &format!(
            "    <meta property=\"og:image\" content=\"{origin}{}\" />\n    \
             <meta name=\"twitter:card\" content=\"summary_large_image\" />\n",
            escape(image)
        );
    }
    let mut html = match first_screen {
        Some(_) => styles_into_head(template),
        None => template.to_owned(),
    };
    html = replace_between(&html, "<html lang=\"", "\"", head.lang.code());
    html = replace_between(&html, "<title>", "</title>", &title);
    html = replace_between(&html, "<meta name=\"description\" content=\"", "\"", &description);
    html = match first_screen {
        // A first screen with a main picture (fetched first) or an early form (made usable by
        // the page's first script): the app's code is then fetched by that script once the
        // page has painted (lib/first-screen.ts), so that on a slow link neither shares the
        // line with the app's code (the sign-in form took typing 0.3-0.4 s later).
        Some(screen) if screen.contains("fetchpriority=\"high\"") || screen.contains("data-early") => {
            without_preloads(&replace_between(&html, ROOT.0, ROOT.1, screen))
        }
        // Words only: the code is asked for by the page itself as soon as it has painted
        // (`after_paint`), a round trip before its first script could (~0.4 s on slow 3G).
        // With the links in `<head>` Lighthouse counted the code among what the paint waits
        // for, and estimated it at 3.4 s on its Regular 3G preset (it is 0.6 s).
        Some(screen) => {
            let html = replace_between(&html, ROOT.0, ROOT.1, screen);
            match after_paint(template) {
                Some(script) => {
                    without_preloads(&html).replacen("</body>", &format!("<script>{script}</script>\n  </body>"), 1)
                }
                None => html,
            }
        }
        None => replace_between(&html, BOOT_LINE.0, BOOT_LINE.1, &escape(&head.lang.text("pages.boot"))),
    };
    html.replacen("</head>", &format!("{tags}  </head>"), 1)
}

/// `html` without the template's `<link rel="modulepreload">` lines (the app's code).
fn without_preloads(html: &str) -> String {
    html.lines().filter(|line| !line.contains(PRELOAD)).collect::<Vec<_>>().join("\n")
}

/// A script that asks for the files of the template's `<link rel="modulepreload">` lines
/// (`FILES`) once the page has painted, or `None` when the template has none. It runs once
/// the whole first screen is parsed; "painted" is when the browser reports a paint (the
/// largest one where it can: it reports a paint once it is on screen, after the frame
/// that drew it, and the screen may be drawn over several frames) and two frames more.
/// Made from the build's file names only, and allowed by its hash (`content_security_policy`).
fn after_paint(template: &str) -> Option<String> {
    const SCRIPT: &str = "{const go=()=>requestAnimationFrame(()=>requestAnimationFrame(()=>setTimeout(()=>{\
        for(const f of [FILES]){const l=document.createElement(\"link\");\
        l.rel=\"modulepreload\";l.crossOrigin=\"\";l.href=f;document.head.append(l)}})));\
        const type=[\"largest-contentful-paint\",\"paint\"].find(t=>PerformanceObserver.supportedEntryTypes?.includes(t));\
        if(type){const o=new PerformanceObserver(()=>{o.disconnect();go()});o.observe({type,buffered:true})}else go()}";
    let files = template
        .lines()
        .filter(|line| line.contains(PRELOAD))
        .filter_map(|line| line.split(" href=\"").nth(1)?.split('"').next())
        .filter(|file| file.starts_with('/') && file.bytes().all(|b| b.is_ascii_alphanumeric() || b"/._-".contains(&b)))
        .map(|file| format!("\"{file}\""))
        .collect::<Vec<_>>();
    (!files.is_empty()).then(|| SCRIPT.replace("FILES", &files.join(",")))
}

/// The template with the app's stylesheet, which the build puts at the end of `<body>`
/// (after the shell, which paints without it), moved into `<head>`. A first screen is
/// the app's markup: on a slow link the browser paints what part of the page has arrived,
/// and a first screen painted before its styles would then jump as a whole when they came
/// (a layout shift of the whole page, body's margin and all).
fn styles_into_head(template: &str) -> String {
    let Some(body) = template.find("<body") else { return template.to_owned() };
    let (head, mut rest) = template.split_at(body);
    let (mut styles, mut body) = (String::new(), String::with_capacity(rest.len()));
    while let Some(start) = rest.find("<style>") {
        let Some(end) = rest[start..].find("</style>").map(|i| start + i + "</style>".len()) else { break };
        body.push_str(&rest[..start]);
        styles.push_str(&rest[start..end]);
        rest = &rest[end..];
    }
    body.push_str(rest);
    head.replacen("</head>", &format!("  {styles}\n  </head>"), 1) + &body
}

/// `text` with what lies between the first `start` and the next `end` replaced.
fn replace_between(text: &str, start: &str, end: &str, with: &str) -> String {
    let Some(from) = text.find(start).map(|i| i + start.len()) else { return text.to_owned() };
    let Some(to) = text[from..].find(end).map(|i| from + i) else { return text.to_owned() };
    format!("{}{with}{}", &text[..from], &text[to..])
}

/// The CSP for a page: the site's, with the template's inline `<style>` blocks and the
/// server's one script (`after_paint`) allowed by their hashes (no `'unsafe-inline'`).
pub fn content_security_policy(template: &str) -> String {
    let hash =
        |text: &str| format!(" 'sha256-{}'", base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text)));
    let mut styles = String::new();
    let mut rest = template;
    while let Some(start) = rest.find("<style>") {
        let body = &rest[start + "<style>".len()..];
        let Some(end) = body.find("</style>") else { break };
        styles += &hash(&body[..end]);
        rest = &body[end..];
    }
    let script = after_paint(template).map_or(String::new(), |script| hash(&script));
    crate::platform::middleware::CONTENT_SECURITY_POLICY
        .replacen("style-src 'self'", &format!("style-src 'self'{styles}"), 1)
        .replacen("script-src 'self'", &format!("script-src 'self'{script}"), 1)
}

/// Text made safe inside HTML or XML, in content and in quoted attributes.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;").replace('\'', "&#39;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEMPLATE: &str = include_str!("../../../pwa/index.html");

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(), value.parse().unwrap());
        }
        map
    }

    #[test]
    fn the_language_comes_from_the_query_then_the_cookie_then_the_browser() {
        let fr = Lang::parse(Some("fr"));
        let sw = Lang::parse(Some("sw"));
        assert_eq!(language(Some("lng=sw"), &headers(&[("cookie", "mavuno_lng=fr")])), sw);
        assert_eq!(language(Some("lng=de"), &headers(&[("cookie", "a=1; mavuno_lng=fr")])), fr);
        assert_eq!(language(None, &headers(&[("accept-language", "de-DE,sw;q=0.5,fr-CD;q=0.8")])), fr);
        assert_eq!(language(None, &headers(&[("accept-language", "fr;q=0,sw-TZ")])), sw);
        assert_eq!(language(None, &headers(&[("accept-language", "garbage;;q=x,,")])), Lang::EN);
        assert_eq!(language(None, &HeaderMap::new()), Lang::EN);
    }

    #[test]
    fn routes_have_their_own_words() {
        assert_eq!(route("/"), ("home", None));
        assert_eq!(route("/product/12"), ("product", Some(12)));
        assert_eq!(route("/cooperatives/3"), ("cooperative", Some(3)));
        assert_eq!(route("/cooperatives"), ("cooperatives", None));
        assert_eq!(route("/news/3"), ("article", Some(3)));
        assert_eq!(route("/news"), ("news", None));
        assert_eq!(route("/marketplace/"), ("marketplace", None));
        assert_eq!(route("/forgot-password"), ("forgot_password", None));
        assert_eq!(route("/no/such/page"), ("not_found", None));
        for key in ["home", "product", "article", "news", "marketplace", "forgot_password", "not_found", "terms"] {
            for lang in LANGUAGES {
                let lang = Lang::parse(Some(lang));
                assert_ne!(lang.text(&format!("pages.{key}.title")), format!("pages.{key}.title"));
            }
        }
    }

    #[test]
    fn the_template_gets_the_language_title_preview_and_shell_line_escaped() {
        let head = Head {
            lang: Lang::parse(Some("fr")),
            title: "Haricots \"rouges\" <b>".into(),
            description: "Tomates & 'oignons'".into(),
            image: Some("/media/abc-1024.jpg".into()),
            kind: "product",
        };
        let html = render(TEMPLATE, &head, "https://mavuno.example", "/product/7", None);
        assert!(html.contains("<html lang=\"fr\">"));
        assert!(html.contains("<title>Haricots &quot;rouges&quot; &lt;b&gt;</title>"));
        assert!(html.contains("<meta name=\"description\" content=\"Tomates &amp; &#39;oignons&#39;\""));
        assert!(html.contains("<meta property=\"og:image\" content=\"https://mavuno.example/media/abc-1024.jpg\""));
        assert!(html.contains("<meta property=\"og:url\" content=\"https://mavuno.example/product/7\""));
        assert!(html.contains("<meta property=\"og:locale\" content=\"fr_FR\""));
        assert!(
            html.contains(&format!(
                "<p class=\"boot-line\">{}</p>",
                escape(&Lang::parse(Some("fr")).text("pages.boot"))
            ))
        );
        assert!(!html.contains("<b>"), "no markup from the title reaches the page");
    }

    #[test]
    fn the_inline_style_is_allowed_by_its_hash_and_nothing_else() {
        let csp = content_security_policy(TEMPLATE);
        assert!(csp.contains("style-src 'self' 'sha256-"), "{csp}");
        assert!(csp.contains("script-src 'self';"));
        assert!(!csp.contains("unsafe-inline"));
        let style = TEMPLATE.split("<style>").nth(1).unwrap().split("</style>").next().unwrap();
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(style.as_bytes()));
        assert!(csp.contains(&hash));
    }

    #[test]
    fn a_first_screen_never_paints_before_the_app_styles_the_shell_does() {
        let template = TEMPLATE.replacen("</body>", "<style>.page{margin:0}</style>\n</body>", 1);
        let head =
            Head { title: "Maize".into(), description: "Maize".into(), lang: Lang::EN, kind: "website", image: None };
        let styled_at = |html: &str| (html.find(".page{margin:0}").unwrap(), html.find("<body").unwrap());
        let screen = render(&template, &head, "https://mavuno.example", "/news/1", Some("<main>News</main>"));
        let (style, body) = styled_at(&screen);
        assert!(style < body && screen.find("<main>News").unwrap() > body, "first screen: styles in the head");
        assert_eq!(screen.matches("<style>").count(), template.matches("<style>").count(), "each style once");
        assert_eq!(content_security_policy(&template), content_security_policy(&screen), "the same hashes allow them");
        let shell = render(&template, &head, "https://mavuno.example", "/dashboard", None);
        let (style, body) = styled_at(&shell);
        assert!(style > shell.find("class=\"boot\"").unwrap() && style > body, "the shell paints first");
    }

    #[test]
    fn a_first_screen_of_words_asks_for_the_code_once_painted_by_a_script_its_csp_allows() {
        let links = "  <link rel=\"modulepreload\" crossorigin href=\"/assets/boot-1.js\" fetchpriority=\"low\">\n  \
                     <link rel=\"modulepreload\" crossorigin href=\"/assets/vendor-2.js\" fetchpriority=\"low\">\n";
        let template = TEMPLATE.replacen("</head>", &format!("{links}  </head>"), 1);
        let head =
            Head { title: "About".into(), description: String::new(), lang: Lang::EN, kind: "website", image: None };
        let inline =
            |html: &str| html.split("<script>").nth(1).map(|rest| rest.split("</script>").next().unwrap().to_owned());
        let csp = content_security_policy(&template);

        let words = render(&template, &head, "https://mavuno.example", "/about", Some("<main><h1>About</h1></main>"));
        assert!(!words.contains("<link rel=\"modulepreload\""), "the paint shares the line with no code");
        let script = inline(&words).expect("the page asks for the code itself");
        assert!(script.contains("[\"/assets/boot-1.js\",\"/assets/vendor-2.js\"]"), "{script}");
        assert!(words.find("<script>").unwrap() > words.find("<h1>About").unwrap(), "after the first screen");
        let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(script.as_bytes()));
        assert!(csp.contains(&format!("script-src 'self' 'sha256-{hash}';")), "{csp}");

        let picture = "<main><img src=\"/media/a-720.jpg\" fetchpriority=\"high\"></main>";
        let with_picture = render(&template, &head, "https://mavuno.example", "/marketplace", Some(picture));
        assert!(!with_picture.contains("modulepreload") && inline(&with_picture).is_none(), "the first script asks");
        let shell = render(&template, &head, "https://mavuno.example", "/dashboard", None);
        assert_eq!(shell.matches("<link rel=\"modulepreload\"").count(), 2, "the shell's code comes with it");
        assert!(inline(&shell).is_none());

        let hostile =
            TEMPLATE.replacen("</head>", "<link rel=\"modulepreload\" href=\"/a.js\\\"];alert(1)//\">\n</head>", 1);
        assert_eq!(after_paint(&hostile), None, "only plain file names");
    }

    #[test]
    fn long_descriptions_are_cut_at_a_word() {
        assert_eq!(shorten("one  two\nthree", 200), "one two three");
        assert_eq!(shorten("alpha beta gamma", 12), "alpha beta…");
    }
}
