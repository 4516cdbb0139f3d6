//! News and blog through the real server (docs/news.md): the spec's API and
//! defaults, admin-only writes, pictures checked by content, content HTML
//! sanitised before it is stored, the admin's filters and count cards, the
//! RSS feed, and the demo articles.

use mavuno::model::user::Role;
use reqwest::multipart::Form;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;

/// A `blog[...]` form of these fields.
pub fn form(fields: &[(&str, &str)]) -> Form {
    fields.iter().fold(Form::new(), |form, (key, value)| form.text(format!("blog[{key}]"), (*value).to_owned()))
}

const POST: &[(&str, &str)] = &[
    ("title", "Bean prices climb"),
    ("description", "Stocks run low before the rains."),
    ("full_content", "<p>Traders pay <strong>more</strong> this week.</p>"),
    ("author", "Neema Bahati"),
];

impl TestApp {
    pub async fn send_form(&self, method: Method, path: &str, token: &str, form: Form) -> reqwest::Response {
        self.client.request(method, self.api(path)).bearer_auth(token).multipart(form).send().await.unwrap()
    }

    fn stored_content(&self, id: i64) -> String {
        self.database().query_row("SELECT full_content FROM blogs WHERE id = ?1", [id], |r| r.get(0)).unwrap()
    }
}

async fn blogs(app: &TestApp) -> Vec<Value> {
    app.get("/blogs", None).await.json::<Vec<Value>>().await.unwrap()
}

#[tokio::test]
async fn admins_write_posts_as_the_spec_says_and_readers_see_the_published_ones() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let with_image = form(POST).part("blog[image]", image_part(png(1600, 900), "beans.png", "image/png"));
    let created = app.send_form(Method::POST, "/admin/blogs", &admin, with_image).await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let post = created.json::<Value>().await.unwrap()["data"].clone();
    let id = post["id"].as_i64().unwrap();
    // Defaults: General, a draft, and a read time left to be counted from the words in the
    // reader's language (the spec's English "5 min read" read the same in every language).
    assert_eq!(
        (post["category"].as_str(), post["read_time"].as_str(), post["published"].as_bool()),
        (Some("General"), Some(""), Some(false))
    );
    let image_url = post["image_url"].as_str().unwrap();
    assert!(image_url.starts_with("/media/") && image_url.ends_with("-1024.jpg"), "{image_url}");
    let picture = app.client.get(format!("{}{image_url}", app.origin)).send().await.unwrap();
    assert_eq!(picture.headers()["content-type"], "image/jpeg", "re-encoded");

    assert!(blogs(&app).await.is_empty(), "a draft is not public");
    assert_eq!(
        error_of(app.get(&format!("/blogs/{id}"), None).await, StatusCode::NOT_FOUND).await["code"],
        "blog_not_found"
    );
    let published = app.call(Method::PUT, &format!("/admin/blogs/{id}/publish"), &admin, None).await;
    assert_eq!(published.status(), StatusCode::OK);
    let listed = blogs(&app).await;
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0]["full_content"], "<p>Traders pay <strong>more</strong> this week.</p>");
    let one: Value = app.get(&format!("/blogs/{id}"), None).await.json().await.unwrap();
    assert_eq!((one["title"].as_str(), one["author"].as_str()), (Some("Bean prices climb"), Some("Neema Bahati")));
    assert!(one["published_at"].is_string());

    // Edited: what is left out stays; the picture can be taken away.
    let edit = form(&[("title", "Bean prices climb again"), ("category", "Community"), ("remove_image", "true")]);
    let edited = app.send_form(Method::PUT, &format!("/admin/blogs/{id}"), &admin, edit).await;
    assert_eq!(edited.status(), StatusCode::OK);
    let edited = edited.json::<Value>().await.unwrap()["data"].clone();
    assert_eq!(
        (edited["title"].as_str(), edited["category"].as_str(), edited["author"].as_str()),
        (Some("Bean prices climb again"), Some("Community"), Some("Neema Bahati"))
    );
    assert!(edited["image_url"].is_null());

    app.call(Method::PUT, &format!("/admin/blogs/{id}/unpublish"), &admin, None).await;
    assert!(blogs(&app).await.is_empty(), "back to draft");
    assert_eq!(app.call(Method::DELETE, &format!("/admin/blogs/{id}"), &admin, None).await.status(), StatusCode::OK);
    let gone = app.call(Method::PUT, &format!("/admin/blogs/{id}/publish"), &admin, None).await;
    assert_eq!(error_of(gone, StatusCode::NOT_FOUND).await["code"], "blog_not_found");

    // Nobody else writes.
    for (email, role) in
        [("b@example.com", Role::User), ("f@example.com", Role::Farmer), ("a@example.com", Role::FieldAgent)]
    {
        let token = app.user_with_role(email, role).await;
        let refused = app.send_form(Method::POST, "/admin/blogs", &token, form(POST)).await;
        assert_eq!(refused.status(), StatusCode::FORBIDDEN, "{role:?}");
    }
}

#[tokio::test]
async fn a_post_form_is_checked_and_says_why() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let empty = app.send_form(Method::POST, "/admin/blogs", &admin, form(&[("category", "Gossip")])).await;
    let body = error_of(empty, StatusCode::UNPROCESSABLE_ENTITY).await;
    for field in ["title", "description", "full_content", "author"] {
        assert_eq!(body["error_codes"][field][0], "required", "{field}: {body}");
    }
    assert_eq!(body["error_codes"]["category"][0], "invalid_option");
    // Content that is only a script is no content.
    let mut fields = POST.to_vec();
    fields[2] = ("full_content", "<script>alert(1)</script>");
    let scripted = app.send_form(Method::POST, "/admin/blogs", &admin, form(&fields)).await;
    assert_eq!(
        error_of(scripted, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["full_content"][0],
        "required"
    );
    // A picture is checked by its content and its size.
    let fake = form(POST).part("blog[image]", image_part(b"<html>not a picture</html>".to_vec(), "x.png", "image/png"));
    let refused = app.send_form(Method::POST, "/admin/blogs", &admin, fake).await;
    assert!(refused.status().is_client_error(), "{}", refused.status());
    let big = form(POST).part("blog[image]", image_part(vec![0; 5 * 1024 * 1024 + 1], "big.png", "image/png"));
    assert_eq!(app.send_form(Method::POST, "/admin/blogs", &admin, big).await.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let bomb = form(POST).part("blog[image]", image_part(png_bomb(12_000, 12_000), "bomb.png", "image/png"));
    assert_eq!(app.send_form(Method::POST, "/admin/blogs", &admin, bomb).await.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let all: Value = app.ok(Method::GET, "/admin/blogs", &admin, None).await;
    assert_eq!(all["stats"]["total"], 0, "nothing was stored");
}

#[tokio::test]
async fn hostile_html_is_stored_clean() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let hostile = "<h2>Prices</h2><script>alert('x')</script><p onmouseover=\"alert(1)\">Beans</p>\
        <img src=x onerror=alert(1)><a href=\"javascript:alert(1)\">one</a><a href=\"data:text/html,<script>alert(1)</script>\">two</a>\
        <a href=\"https://example.org\">three</a><iframe src=\"https://evil.example\"></iframe>\
        <div><p>unclosed <b>bold <i>nested</p><style>body{display:none}</style>\
        <sc<script>ript>alert(1)</sc</script>ript><svg><g/onload=alert(2)//<p>";
    let mut fields = POST.to_vec();
    fields[2] = ("full_content", hostile);
    fields.push(("published", "true"));
    let created = app.send_form(Method::POST, "/admin/blogs", &admin, form(&fields)).await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let id = created.json::<Value>().await.unwrap()["data"]["id"].as_i64().unwrap();
    let stored = app.stored_content(id);
    let lower = stored.to_lowercase();
    // (A picture from elsewhere loses its address; one from our media store would keep it.)
    for bad in
        ["<script", "onmouseover", "onerror", "onload", "javascript:", "data:", "<iframe", "<style", "<svg", "src="]
    {
        assert!(!lower.contains(bad), "{bad} in {stored}");
    }
    assert!(stored.contains("<h2>Prices</h2>") && stored.contains(">Beans</p>"), "{stored}");
    assert!(
        stored.contains("<a href=\"https://example.org\" rel=\"noopener noreferrer nofollow\">three</a>"),
        "{stored}"
    );
    // Readers get exactly what was stored.
    let read: Value = app.get(&format!("/blogs/{id}"), None).await.json().await.unwrap();
    assert_eq!(read["full_content"], stored.as_str());
}

#[tokio::test]
async fn the_admin_filters_posts_and_counts_them() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let posts = [
        ("Coffee cooperative finds a buyer", "Furaha Mushi", "Community", "true"),
        ("Mulching against drought", "Espoir Cirimwami", "Conservation", "true"),
        ("Farm homestays", "espoir cirimwami ", "Tourism", "false"),
    ];
    for (title, author, category, published) in posts {
        let fields = [
            ("title", title),
            ("description", "For smallholders in South Kivu"),
            ("full_content", "<p>Text</p>"),
            ("author", author),
            ("category", category),
            ("published", published),
        ];
        assert_eq!(
            app.send_form(Method::POST, "/admin/blogs", &admin, form(&fields)).await.status(),
            StatusCode::CREATED
        );
    }
    let all = app.ok(Method::GET, "/admin/blogs", &admin, None).await;
    assert_eq!(all["stats"], json!({"total": 3, "published": 2, "drafts": 1, "authors": 2}));
    let titles = |list: &Value| -> Vec<String> {
        list["data"].as_array().unwrap().iter().map(|b| b["title"].as_str().unwrap().to_owned()).collect()
    };
    assert_eq!(titles(&app.ok(Method::GET, "/admin/blogs?status=draft", &admin, None).await), ["Farm homestays"]);
    assert_eq!(
        titles(&app.ok(Method::GET, "/admin/blogs?q=CIRIMWAMI", &admin, None).await),
        ["Farm homestays", "Mulching against drought"]
    );
    assert_eq!(
        titles(&app.ok(Method::GET, "/admin/blogs?category=Community&status=published", &admin, None).await),
        ["Coffee cooperative finds a buyer"]
    );
    // Readers filter and search the published ones; the total is in a header.
    let found = app.get("/blogs?q=mulching&category=Conservation", None).await;
    assert_eq!(found.headers()["x-total-count"], "1");
    assert_eq!(found.json::<Vec<Value>>().await.unwrap().len(), 1);
    let invalid = app.get("/blogs?category=Gossip", None).await;
    assert_eq!(error_of(invalid, StatusCode::UNPROCESSABLE_ENTITY).await["code"], "validation_failed");
    let buyer = app.user_with_role("b@example.com", Role::User).await;
    assert_eq!(app.get("/admin/blogs", Some(&buyer)).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_feed_is_valid_rss_in_each_language() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    for (title, language) in [("Beans & maize <prices>", "en"), ("Le paillage à Kalehe", "fr")] {
        let fields = [
            ("title", title),
            ("description", "Short"),
            ("full_content", "<p>Text</p>"),
            ("author", "Neema"),
            ("language", language),
            ("published", "true"),
        ];
        app.send_form(Method::POST, "/admin/blogs", &admin, form(&fields)).await;
    }
    let feed = app.get("/blogs/feed.xml?lang=fr", None).await;
    assert_eq!(feed.headers()["content-type"], "application/rss+xml; charset=utf-8");
    let xml = feed.text().await.unwrap();
    let doc = roxmltree::Document::parse(&xml).expect("well-formed XML");
    let channel_title = doc.descendants().find(|n| n.has_tag_name("title")).and_then(|n| n.text());
    assert_eq!(channel_title, Some("Actualités et blog MAVUNO"), "the channel speaks the feed's language");
    let items: Vec<_> = doc.descendants().filter(|n| n.has_tag_name("item")).collect();
    assert_eq!(items.len(), 1);
    let title = items[0].children().find(|n| n.has_tag_name("title")).unwrap().text();
    assert_eq!(title, Some("Le paillage à Kalehe"));
    let english = app.get("/blogs/feed.xml", None).await.text().await.unwrap();
    let doc = roxmltree::Document::parse(&english).expect("escaped titles stay well-formed");
    let title =
        doc.descendants().find(|n| n.has_tag_name("item")).unwrap().children().find(|n| n.has_tag_name("title"));
    assert_eq!(title.unwrap().text(), Some("Beans & maize <prices>"));
    let link = doc.descendants().find(|n| n.has_tag_name("item")).unwrap().children().find(|n| n.has_tag_name("link"));
    assert!(link.unwrap().text().unwrap().starts_with("http://127.0.0.1:"), "absolute links");
}

#[tokio::test]
async fn demo_news_loads_once() {
    let app = spawn_app().await;
    assert!(mavuno::demo::seed(&app.state).await.unwrap());
    assert!(mavuno::demo::blogs::seed(&app.state).await.unwrap());
    assert!(!mavuno::demo::blogs::seed(&app.state).await.unwrap(), "once");
    let posts = blogs(&app).await;
    assert_eq!(posts.len(), 6);
    for language in ["en", "fr", "sw"] {
        assert_eq!(posts.iter().filter(|p| p["language"] == language).count(), 2, "two posts in {language}");
    }
    assert!(posts.iter().all(|p| p["image_url"].is_string()));
    let dates: Vec<&str> = posts.iter().map(|p| p["date"].as_str().unwrap()).collect();
    assert!(dates.windows(2).all(|w| w[0] >= w[1]), "newest first: {dates:?}");
    let admin = app.login_token("admin@mavuno.demo", mavuno::demo::DEMO_PASSWORD).await;
    assert_eq!(app.ok(Method::GET, "/admin/blogs", &admin, None).await["stats"]["drafts"], 1);
    let newest = posts[0]["id"].as_i64().unwrap();
    let comments: Value = app.get(&format!("/blogs/{newest}/comments"), None).await.json().await.unwrap();
    assert_eq!(comments["total"], 2);
    assert_eq!(comments["data"][0]["replies"].as_array().unwrap().len(), 1, "a reply from another demo account");
}

#[tokio::test]
async fn phones_pull_the_latest_posts_and_lose_unpublished_ones() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let mut ids = Vec::new();
    for n in 0..22 {
        let title = format!("Post {n}");
        let fields = [
            ("title", title.as_str()),
            ("description", "Short"),
            ("full_content", "<p>Text</p>"),
            ("author", "Neema"),
            ("published", "true"),
        ];
        let created = app.send_form(Method::POST, "/admin/blogs", &admin, form(&fields)).await;
        ids.push(created.json::<Value>().await.unwrap()["data"]["id"].as_i64().unwrap());
    }
    let posts_in = |pulled: &Value| -> Vec<Value> {
        pulled["changes"].as_array().unwrap().iter().filter(|c| c["entity"] == "blog").cloned().collect()
    };
    let first: Value = app.get("/sync/pull?limit=500", None).await.json().await.unwrap();
    let posts = posts_in(&first);
    assert_eq!(posts.len(), 20, "a first snapshot carries the 20 latest");
    assert!(posts.iter().all(|p| p["record"]["title"] != "Post 0" && p["record"]["title"] != "Post 1"));
    assert_eq!(posts[0]["record"]["full_content"], "<p>Text</p>", "readable offline");

    let cursor = first["cursor"].as_i64().unwrap();
    app.call(Method::PUT, &format!("/admin/blogs/{}/unpublish", ids[21]), &admin, None).await;
    let next: Value = app.get(&format!("/sync/pull?cursor={cursor}"), None).await.json().await.unwrap();
    let changed = posts_in(&next);
    assert_eq!(changed.len(), 1);
    assert_eq!(changed[0]["op"], "del");
}
