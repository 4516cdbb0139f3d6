//! A first visit's page arrives with its first screen written in (server/src/web/first_screen):
//! the lists' first cards from the database, in the reader's language and the app's order,
//! their searches and chips working as plain links, hostile queries escaped; a product, a
//! post and a course while they are public; the pages of words and the forms; pages that change per person, and the service worker's copy of
//! the app, keep the loading shell.

use mavuno::labels::Lang;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;

/// The PWA's template as the build writes it: with the app's modulepreload links.
pub fn template() -> String {
    let source = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../pwa/index.html")).unwrap();
    source.replacen("</head>", "  <link rel=\"modulepreload\" crossorigin href=\"/assets/boot-1.js\">\n  </head>", 1)
}

/// A server hosting the template (kept while the answered directory lives).
pub async fn spawn_with_the_app() -> (TestApp, tempfile::TempDir) {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), template()).unwrap();
    let web_dir = web.path().to_owned();
    (spawn_with(|config| config.web_dir = Some(web_dir)).await, web)
}

pub async fn page(app: &TestApp, path: &str, lang: &str) -> String {
    let response =
        app.client.get(format!("{}{path}", app.origin)).header("cookie", format!("mavuno_lng={lang}")).send().await;
    let response = response.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "{path}");
    response.text().await.unwrap()
}

/// The first screen's main content, or `None` when the page kept the loading shell.
fn first_screen(html: &str) -> Option<&str> {
    html.contains("data-first-screen")
        .then(|| html.split("<main id=\"main\"").nth(1).unwrap().split("</main>").next().unwrap())
}

#[tokio::test]
async fn public_lists_arrive_with_their_first_cards() {
    let (app, _web) = spawn_with_the_app().await;
    assert!(mavuno::demo::seed(&app.state).await.unwrap());
    assert!(mavuno::demo::courses::seed(&app.state).await.unwrap());
    assert!(mavuno::demo::blogs::seed(&app.state).await.unwrap());

    // The marketplace: the catalogue's first products by name, as the API lists them.
    let listed: Value = app.get("/products?sort=name&per_page=4", None).await.json().await.unwrap();
    let listed = listed["data"].as_array().unwrap().clone();
    let html = page(&app, "/marketplace", "fr").await;
    assert!(!html.contains("modulepreload"), "the app's code waits for the first screen to paint");
    let main = first_screen(&html).expect("the marketplace's first screen");
    assert_eq!(main.matches("<li class=\"card product-card\">").count(), listed.len());
    let first = &listed[0];
    let link = format!("<a href=\"/product/{}\">", first["id"]);
    assert!(main.find(&link).unwrap() < main.find(&format!("/product/{}\"", listed[1]["id"])).unwrap(), "in order");
    let picture = first["image_urls"][0]["thumbnail_url"].as_str().unwrap();
    assert!(main.contains(&format!("src=\"{picture}\"")) && main.contains("fetchpriority=\"high\""), "{main}");
    assert_eq!(main.matches("fetchpriority").count(), 1, "only the first picture comes first");
    assert!(main.contains("\u{a0}$US</strong>"), "prices in French");
    assert!(
        main.contains("<a class=\"chip\" href=\"/marketplace?category=grains\">Grains et légumineuses</a>"),
        "{main}"
    );
    // The footer: the platform's address as the settings say, the languages as links.
    let footer = html.split("<footer class=\"site-footer\">").nth(1).expect("the footer");
    let address = Lang::parse(Some("fr")).text("contact.address");
    assert!(footer.contains(&mavuno::web::escape(&address)), "{footer}");
    assert!(footer.contains("<a href=\"/marketplace?lng=sw\" lang=\"sw\""));

    // A language asked for in the address is kept for the first screen's plain links.
    let asked = app.client.get(format!("{}/marketplace?lng=sw", app.origin)).send().await.unwrap();
    assert_eq!(asked.headers()["set-cookie"], "mavuno_lng=sw; Path=/; Max-Age=31536000; SameSite=Lax");
    let plain = app.client.get(format!("{}/marketplace", app.origin)).send().await.unwrap();
    assert!(plain.headers().get("set-cookie").is_none());

    // A browser saving data gets the cards without their pictures.
    let response =
        app.client.get(format!("{}/marketplace", app.origin)).header("save-data", "on").send().await.unwrap();
    let html = response.text().await.unwrap();
    assert!(!first_screen(&html).unwrap().contains("<img"), "{html}");

    // A search made before the app starts is a plain request; hostile words stay text.
    let html = page(&app, "/marketplace?q=caf%C3%A9", "en").await;
    let main = first_screen(&html).unwrap();
    assert!(main.contains("value=\"café\"") && main.contains("Arabica"), "{main}");
    assert!(!main.contains("Avocado"));
    let html = page(&app, "/marketplace?q=%22%3E%3Cscript%3Ealert(1)%3C/script%3E&category=%3Cb%3E", "en").await;
    assert!(!html.contains("<script>alert") && !html.contains("<b>"));
    assert!(first_screen(&html).is_none(), "nothing matches: the app says so itself");
    assert!(html.contains("<link rel=\"modulepreload\""));

    // A hidden product leaves the first screen with the catalogue.
    let admin = app.login_token("admin@mavuno.demo", mavuno::demo::DEMO_PASSWORD).await;
    let hidden = app
        .call(Method::POST, &format!("/admin/products/{}/hide", first["id"]), &admin, Some(json!({"reason": "Wrong"})))
        .await;
    assert_eq!(hidden.status(), StatusCode::OK);
    assert!(!page(&app, "/marketplace", "en").await.contains(&link));

    // Training and news: their first cards, with what each card says in the reader's language.
    let html = page(&app, "/training?level=beginner", "sw").await;
    let main = first_screen(&html).unwrap();
    assert!(main.contains("<a class=\"chip\" href=\"/training?level=beginner\" aria-current=\"page\">"));
    let sw = Lang::parse(Some("sw"));
    let level =
        |name: &str| format!("<span class=\"badge blue\">{}</span>", sw.text(&format!("training.level.{name}")));
    assert!(main.contains(&level("beginner")), "{main}");
    assert!(!main.contains(&level("intermediate")) && !main.contains(&level("advanced")), "beginners' courses only");
    let html = page(&app, "/news", "en").await;
    let main = first_screen(&html).unwrap();
    let posts: Value = app.get("/blogs", None).await.json().await.unwrap();
    assert_eq!(main.matches("post-card").count(), posts.as_array().unwrap().len().min(4));
    // The reader's language first, each language newest first; the others say their language.
    let langs = |main: &str| -> Vec<String> {
        main.split("post-card\" lang=\"").skip(1).map(|rest| rest[..2].to_owned()).collect()
    };
    let english: Vec<&Value> = posts.as_array().unwrap().iter().filter(|p| p["language"] == "en").collect();
    assert!(
        main.find(&format!("/news/{}\"", english[0]["id"])).unwrap()
            < main.find(&format!("/news/{}\"", english[1]["id"])).unwrap()
    );
    let french = first_screen(&page(&app, "/news", "fr").await).unwrap().to_owned();
    let order = langs(&french);
    assert_eq!(order[..2], ["fr", "fr"], "{order:?}");
    assert!(order[2..].iter().all(|l| l != "fr"));
    let other = Lang::parse(Some("fr")).text(&format!("training.languages.{}", order[2]));
    assert_eq!(
        french.matches(&format!("<span class=\"badge yellow\">{other}</span>")).count(),
        order[2..].iter().filter(|l| *l == &order[2]).count()
    );

    // A product: its picture at the large size, first; its name and farmer.
    let product = &listed[1];
    let html = page(&app, &format!("/product/{}", product["id"]), "en").await;
    let main = first_screen(&html).unwrap();
    assert!(main.contains(&format!("<h1>{}</h1>", product["title"].as_str().unwrap())), "{main}");
    let picture = product["image_urls"][0]["url"].as_str().unwrap();
    assert!(main.contains(&format!("src=\"{picture}\"")) && main.contains("fetchpriority=\"high\""), "{main}");
    assert!(main.contains(product["farmer"]["name"].as_str().unwrap()));
    assert!(first_screen(&page(&app, &format!("/product/{}", first["id"]), "en").await).is_none(), "hidden");

    // Home and about: their heading and words.
    let html = page(&app, "/", "fr").await;
    let title = Lang::parse(Some("fr")).text("home.slides.0.title");
    assert!(first_screen(&html).unwrap().contains(&format!("<h1>{}</h1>", mavuno::web::escape(&title))), "{html}");
    let about = page(&app, "/about", "sw").await;
    assert!(first_screen(&about).unwrap().contains("<p class=\"lead\">"));
    assert!(!about.contains("<link rel=\"modulepreload\""), "the paint waits for no code: {about}");
    assert!(
        about.contains("document.createElement(\"link\")") && about.contains("\"/assets/boot-1.js\""),
        "asked for once painted"
    );
    let login = page(&app, "/login", "sw").await;
    assert!(first_screen(&login).unwrap().contains("data-early"));
    assert!(!login.contains("modulepreload"), "the first script, which opens the sign-in form, comes first");

    // A post, whole, in its own language; a course's outline and the way to enrol; neither
    // once it is no longer public.
    let post = &posts[0];
    let html = page(&app, &format!("/news/{}", post["id"]), "fr").await;
    let main = first_screen(&html).unwrap();
    let title = mavuno::web::escape(post["title"].as_str().unwrap());
    assert!(main.contains(&format!("<h1 id=\"article-title\">{title}</h1>")), "{main}");
    assert!(main.contains(post["full_content"].as_str().unwrap()), "the sanitised words as stored");
    assert!(
        main.contains(&format!(
            "<article class=\"page narrow article\" lang=\"{}\"",
            post["language"].as_str().unwrap()
        ))
    );
    let courses: Value = app.get("/courses", None).await.json().await.unwrap();
    let course = &courses["data"][0];
    let html = page(&app, &format!("/course/{}", course["id"]), "sw").await;
    let main = first_screen(&html).unwrap();
    for module in course["modules"].as_array().unwrap() {
        assert!(
            main.contains(&format!("<li><strong>{}</strong>", mavuno::web::escape(module["title"].as_str().unwrap())))
        );
    }
    assert!(main.contains(&mavuno::web::escape(course["instructor"]["name"].as_str().unwrap())));
    let sw = Lang::parse(Some("sw"));
    // Signing in from here comes back to the course (the link says where: it carries no state).
    assert!(main.contains(&format!(
        "<a class=\"button\" href=\"/login?next=/course/{}\">{}</a>",
        course["id"],
        mavuno::web::escape(&sw.text("training.login_to_enrol"))
    )));
    // On a phone the price and the way to the enrolment column stay at the bottom of the screen.
    let bar = format!("<a class=\"button small\" href=\"#enrolment\">{}</a>", sw.text("training.enrol"));
    assert!(main.contains(&bar) && main.contains("<aside id=\"enrolment\""), "{main}");
    // A certificate's public check, the code typed any way; an unknown code; a hostile one keeps the shell.
    app.user_with_role("learner@example.org", mavuno::model::user::Role::User).await;
    app.sql(&format!(
        "INSERT INTO enrolments (course_id, user_id, status, price_cents, version, created_at, updated_at)
         SELECT {}, id, 'active', 0, 1, '2026-03-01T00:00:00Z', '2026-03-01T00:00:00Z' FROM users
         WHERE email = 'learner@example.org';
         INSERT INTO certificates (code, enrolment_id, learner_name, course_title, issued_at)
         SELECT 'ABCD-EFGH-JKLM', MAX(id), 'Amani <Bahati>', 'Beans', '2026-03-01T10:00:00Z' FROM enrolments;",
        course["id"]
    ));
    let check = page(&app, "/certificates/abcdefghjklm", "fr").await;
    let check = first_screen(&check).unwrap();
    assert!(check.contains("<dd>Amani &lt;Bahati&gt;</dd>") && check.contains("<dd>1 mars 2026</dd>"), "{check}");
    assert!(check.contains(&format!("<a href=\"/course/{}\">Beans</a>", course["id"])));
    let unknown = page(&app, "/certificates/AAAA-BBBB-CCCC", "en").await;
    assert!(first_screen(&unknown).unwrap().contains("No MAVUNO certificate has the code AAAA-BBBB-CCCC."));
    assert!(first_screen(&page(&app, "/certificates/%3Cb%3E", "en").await).is_none());

    app.sql(&format!(
        "UPDATE blogs SET published = 0 WHERE id = {}; UPDATE courses SET published = 0 WHERE id = {};",
        post["id"], course["id"]
    ));
    assert!(first_screen(&page(&app, &format!("/news/{}", post["id"]), "fr").await).is_none());
    assert!(first_screen(&page(&app, &format!("/course/{}", course["id"]), "fr").await).is_none());

    // Help, terms and privacy whole; the sign-up and forgotten-password forms waiting for the app.
    let fr = Lang::parse(Some("fr"));
    let help = page(&app, "/help", "fr").await;
    assert!(first_screen(&help).unwrap().contains(&mavuno::web::escape(&fr.text("help.questions.offline.a"))));
    let privacy = page(&app, "/privacy", "fr").await;
    assert!(first_screen(&privacy).unwrap().contains("<section id=\"privacy\""));
    let register = page(&app, "/register", "sw").await;
    let form = first_screen(&register).unwrap();
    assert!(form.contains("<input id=\"first-phone\" type=\"tel\" autocomplete=\"tel\" required disabled>"));
    let reset = page(&app, "/reset-password?phone=%2B243970000001", "en").await;
    assert!(first_screen(&reset).unwrap().contains("+243970000001"), "the number the code went to");
    assert!(!first_screen(&page(&app, "/reset-password?token=secret", "en").await).unwrap().contains("secret"));
    let forgot = page(&app, "/forgot-password", "en").await;
    assert!(first_screen(&forgot).unwrap().contains("<button type=\"submit\" class=\"button wide\" disabled>"));
    assert!(
        !form.contains("action=") && form.matches(" disabled").count() == 10,
        "nothing can be sent before the app runs"
    );

    // The cart: empty on a phone that never had one; a phone whose cart holds something
    // (the app's cookie) keeps the shell, as it has the lines, the server not.
    let empty = page(&app, "/cart", "en").await;
    let marketplace = "<a class=\"button\" href=\"/marketplace\">";
    assert!(first_screen(&empty).unwrap().contains(marketplace), "{empty}");
    let filled = app
        .client
        .get(format!("{}/cart", app.origin))
        .header("cookie", "mavuno_lng=en; mavuno_cart=1")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(first_screen(&filled).is_none() && filled.contains("class=\"boot-line\""));

    // What changes per person, and the service worker's copy of the app: the loading shell.
    for path in ["/dashboard", "/index.html", "/checkout", "/orders"] {
        let html = page(&app, path, "fr").await;
        assert!(first_screen(&html).is_none() && html.contains("class=\"boot-line\""), "{path}");
        assert!(html.contains("<link rel=\"modulepreload\""), "{path}");
    }

    // A page varies with the reader's language; the service worker's copy must not say so:
    // the precache matches it against navigations that carry `Accept-Language`, and a
    // `Vary` on it left `/` and `/index.html` blank offline.
    let vary = |path: &'static str| {
        let request = app.client.get(format!("{}{path}", app.origin)).header("accept-language", "fr");
        async move {
            let response = request.send().await.unwrap();
            let vary = response.headers().get_all("vary").iter().map(|v| v.to_str().unwrap().to_lowercase());
            vary.collect::<Vec<_>>().join(", ")
        }
    };
    assert!(vary("/marketplace").await.contains("accept-language, cookie"));
    assert!(vary("/dashboard").await.contains("accept-language, cookie"));
    let shell = vary("/index.html").await;
    assert!(!shell.contains("accept-language") && !shell.contains("cookie"), "{shell}");
}

#[tokio::test]
async fn market_prices_arrive_with_their_cards_and_a_form_the_server_answers() {
    let (app, _web) = spawn_with_the_app().await;
    assert!(mavuno::demo::seed(&app.state).await.unwrap());
    assert!(mavuno::demo::rates::seed(&app.state).await.unwrap());
    assert!(mavuno::demo::prices::seed(&app.state).await.unwrap());

    let board: Value = app.get("/prices?crop=bean", None).await.json().await.unwrap();
    let beans = &board["data"]["crops"][0];
    let html = page(&app, "/prices?crop=haricots", "fr").await;
    let main = first_screen(&html).expect("the board's first screen");
    assert_eq!(main.matches("<article class=\"card price-card\"").count(), 1, "only beans, as the address says");
    assert!(main.contains("Haricots <span class=\"muted\">par kg</span>"), "{main}");
    let median = beans["median_usd_micros"].as_i64().unwrap();
    let cents = (median + 5_000) / 10_000;
    assert!(main.contains(&format!("<strong>{},{:02}\u{a0}$US</strong>", cents / 100, cents % 100)), "{main}");
    assert!(main.contains("\u{a0}FC"), "francs at the demo's rate: {main}");
    assert!(main.contains("<svg class=\"sparkline\""), "the 12 weeks as a line");
    assert!(main.contains("<form class=\"filter-bar\" action=\"/prices\""));
    assert!(main.contains("<option value=\"bean\" selected>Haricots</option>"), "the chosen crop stays chosen");
    // A hostile filter is only text, and an unknown one shows every crop.
    let html = page(&app, "/prices?territory=%3Cscript%3Ealert(1)%3C/script%3E&crop=nothing", "en").await;
    let main = first_screen(&html).unwrap();
    assert!(!main.contains("<script"), "{main}");
    assert!(main.matches("<article class=\"card price-card\"").count() > 1);
}

#[tokio::test]
async fn a_first_screen_carries_the_public_settings_for_the_app_and_no_text_can_close_them() {
    let (app, _web) = spawn_with_the_app().await;
    let boss = app.user_with_role("first.screen.boss@example.com", mavuno::model::user::Role::SuperAdmin).await;
    let hostile = "Avenue </script><script>alert(1)</script><!-- 4";
    let address = json!({"en": hostile, "fr": hostile, "sw": hostile});
    let contact = json!({"address": address, "hours": address, "phone": "", "email": ""});
    let change = json!({"contact": contact, "ussd_code": "*384*12#"});
    let changed = app.call(Method::PATCH, "/admin/settings", &boss, Some(change)).await;
    assert_eq!(changed.status(), StatusCode::OK);

    // The app takes these rather than asking GET /settings (pwa/src/lib/settings.ts): the same.
    let html = page(&app, "/", "fr").await;
    let data = html
        .split("<script type=\"application/json\" id=\"settings\">")
        .nth(1)
        .expect("the settings, as data")
        .split("</script>")
        .next()
        .unwrap();
    assert!(!data.contains('<'), "{data}");
    let public: Value = app.get("/settings", None).await.json().await.unwrap();
    assert_eq!(serde_json::from_str::<Value>(data).unwrap(), public["data"]);
    assert_eq!(public["data"]["contact"]["address"]["fr"], hostile);
    // The footer says what a basic phone dials, the code a link that opens the dialer.
    let footer = html.split("<footer class=\"site-footer\">").nth(1).expect("the footer");
    assert!(
        footer.contains("<span>Sans smartphone ? Composez <a href=\"tel:*384*12%23\">*384*12#</a> sur n"),
        "{footer}"
    );

    // The service worker's copy of the app has no first screen, and no settings of the moment.
    assert!(!page(&app, "/index.html", "fr").await.contains("id=\"settings\""));
}

#[tokio::test]
async fn cooperatives_and_their_lots_arrive_with_their_first_screens() {
    let (app, _web) = spawn_with_the_app().await;
    assert!(mavuno::demo::seed(&app.state).await.unwrap());
    assert!(mavuno::demo::cooperatives::seed(&app.state).await.unwrap());
    let listed: Value = app.get("/cooperatives", None).await.json().await.unwrap();
    let kabare = listed["data"][0]["id"].as_i64().unwrap();

    let list = page(&app, "/cooperatives", "fr").await;
    let main = first_screen(&list).expect("the list has a first screen");
    assert!(main.contains("<h1 id=\"coops-title\">Coopératives</h1>"), "{main}");
    assert!(main.contains(&format!("<a href=\"/cooperatives/{kabare}\">Kabare Coffee Growers</a>")), "{main}");
    assert!(main.contains("Kabare · 3 membres · Café"), "{main}");
    assert!(list.contains("<title>Coopératives"), "the page's own title");

    let one = page(&app, &format!("/cooperatives/{kabare}"), "sw").await;
    let main = first_screen(&one).expect("a cooperative has a first screen");
    assert!(main.contains("<h1 id=\"coop-title\">Kabare Coffee Growers</h1>"), "{main}");
    assert!(main.contains("Inauza katika soko la Kavumu"), "{main}");
    // Its lot on sale (the sold one is not), named in Kiswahili, with its members and days.
    assert_eq!(main.matches("<li class=\"list-row\">").count(), 1, "{main}");
    assert!(main.contains("Kahawa daraja A, shehena 2 ya Kabare Coffee Growers"), "{main}");
    assert!(main.contains("kutoka kwa wanachama 2"), "{main}");
    assert!(one.contains("<title>Kabare Coffee Growers"), "the cooperative's name as the title");

    // The marketplace marks lots, and a lot's page offers its origin.
    let market = page(&app, "/marketplace?q=Walungu", "en").await;
    let main = first_screen(&market).unwrap();
    assert!(main.contains("<span class=\"badge yellow lot-badge\">Cooperative lot</span>"), "{main}");
    assert!(main.contains("<p class=\"muted lot-line\">Walungu Bean Cooperative: from 1 member, collected"), "{main}");
    let product = listed_lot(&app, "Walungu").await;
    let detail = page(&app, &format!("/product/{product}"), "en").await;
    let main = first_screen(&detail).unwrap();
    assert!(main.contains("<section class=\"card lot-details\""), "{main}");
    // Where and on which days it is collected (the demo's beans: market days).
    assert!(main.contains(" store, Tuesday, Thursday and Saturday</p>"), "{main}");
    let main = page(&app, &format!("/product/{product}"), "fr").await;
    assert!(main.contains(" store, mardi, jeudi et samedi</p>"), "{main}");
    assert!(main.contains("/origin.geojson\" download>"), "{main}");

    // A suspended cooperative, or none, keeps the loading shell.
    assert!(first_screen(&page(&app, "/cooperatives/999999", "en").await).is_none());
}

async fn listed_lot(app: &TestApp, q: &str) -> i64 {
    let found: Value = app.get(&format!("/products?q={q}"), None).await.json().await.unwrap();
    found["data"].as_array().unwrap().iter().find(|p| !p["lot"].is_null()).unwrap()["id"].as_i64().unwrap()
}

#[tokio::test]
async fn a_search_typed_before_the_app_runs_gets_the_lists_main_content_alone() {
    let (app, _web) = spawn_with_the_app().await;
    assert!(mavuno::demo::seed(&app.state).await.unwrap());
    let part = |path: &str| {
        let url = format!("{}{path}", app.origin);
        app.client.get(url).header("x-first-screen", "main").header("cookie", "mavuno_lng=fr").send()
    };
    let answer = part("/marketplace?q=haricot").await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    assert!(answer.headers()["vary"].to_str().unwrap().contains("X-First-Screen"), "not the page's cached answer");
    let html = answer.text().await.unwrap();
    // The list for the word, with its status and the form it replaces around, in French; no page around it.
    assert!(html.starts_with("<div data-first-screen=\"marketplace\"><main>"), "{html}");
    assert!(html.contains("<form class=\"market-tools\"") && html.contains("role=\"status\""), "{html}");
    let titles: Vec<&str> =
        html.split("<h2><a href=").skip(1).map(|h| h.split('>').nth(1).unwrap().split('<').next().unwrap()).collect();
    assert!(!titles.is_empty() && titles.iter().all(|t| t.contains("Haricot")), "{titles:?}");
    assert!(!html.contains("<style") && !html.contains("<footer") && !html.contains("<script"), "{html}");
    // The page itself, asked without the header, is whole and says it varies with it.
    let whole = app.client.get(format!("{}/marketplace?q=haricot", app.origin)).send().await.unwrap();
    assert!(whole.headers()["vary"].to_str().unwrap().contains("X-First-Screen"));
    assert!(whole.text().await.unwrap().contains("<footer"));
    // A page with no first screen has no main content to give.
    assert_eq!(part("/dashboard").await.unwrap().status(), StatusCode::NOT_FOUND);
}
