//! What every client meets: health, the document, JSON errors for bad
//! input, headers, and the web app served beside the API.

use mavuno::model::user::Role;
use reqwest::Method;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

#[tokio::test]
async fn health_answers() {
    let app = spawn_app().await;
    let response = app.get("/health", None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["status"], "ok");
    assert_eq!(body["protocol"], sync_protocol::PROTOCOL_VERSION);
}

#[tokio::test]
async fn the_openapi_document_describes_the_routes() {
    let app = spawn_app().await;
    let doc: Value = app.get("/openapi.json", None).await.json().await.unwrap();
    assert_eq!(doc["servers"][0]["url"], "/api/v1");
    for (path, method) in [
        ("/health", "get"),
        ("/users", "post"),
        ("/users/login", "post"),
        ("/me", "get"),
        ("/auth/logout", "post"),
        ("/me/update", "patch"),
        ("/me/delete", "delete"),
        ("/admin/users", "get"),
        ("/contact", "post"),
        ("/admin/contact_messages", "get"),
        ("/uploads/{sha256}", "put"),
        ("/uploads/{sha256}", "head"),
        ("/farmer/farmer_survey_forms", "get"),
        ("/farmer/farmer_survey_forms", "post"),
        ("/farmer/farmer_survey_forms/{id}", "patch"),
        ("/farmer/farmer_survey_forms/{id}", "delete"),
        ("/sync/push", "post"),
        ("/sync/pull", "get"),
    ] {
        assert!(doc["paths"][path][method].is_object(), "{method} {path} is documented");
    }
    assert!(doc["components"]["securitySchemes"]["bearer"].is_object());
}

#[tokio::test]
async fn malformed_and_hostile_requests_get_json_4xx_answers() {
    let app = spawn_app().await;
    let login = app.api("/users/login");

    let body = error_of(
        app.client.post(&login).body("{\"user\":").header("content-type", "application/json").send().await.unwrap(),
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(body["code"], "malformed_json");

    let body = error_of(
        app.client.post(&login).body("{\"user\": 5}").header("content-type", "application/json").send().await.unwrap(),
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(body["code"], "invalid_body");

    // serde alone reads a record from an array (`[null, null]` fills its fields in order):
    // an array where an object is expected is refused, at any depth.
    let admin = app.user_with_role("admin.shapes@example.com", Role::Admin).await;
    let farmer = app.user_with_role("farmer.shapes@example.com", Role::Farmer).await;
    for (method, path, token, body) in [
        (Method::PATCH, "/admin/courses/1", &admin, json!([null, null])),
        (Method::PATCH, "/admin/cooperatives/1", &admin, json!([null, null, null])),
        (Method::PUT, "/me/cooperatives/1/origin", &farmer, json!([null, null])),
        (Method::PATCH, "/admin/users/1", &admin, json!({"user": [null, null]})),
    ] {
        let refused = error_of(app.call(method, path, token, Some(body)).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(refused["code"], "invalid_body", "{path}: {refused}");
        assert!(refused["message"].as_str().unwrap().contains("expected an object"), "{path}: {refused}");
    }

    let body = error_of(
        app.client.post(&login).body("email=a").header("content-type", "text/plain").send().await.unwrap(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
    )
    .await;
    assert_eq!(body["code"], "unsupported_media_type");

    let register = app.api("/users");
    error_of(
        app.client.post(&register).body("x").header("content-type", "text/plain").send().await.unwrap(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
    )
    .await;
    let body = error_of(
        app.client
            .post(&register)
            .body("garbage")
            .header("content-type", "multipart/form-data; boundary=zzz")
            .send()
            .await
            .unwrap(),
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(body["code"], "malformed_multipart");
    error_of(
        app.client.post(&register).body("garbage").header("content-type", "multipart/form-data").send().await.unwrap(),
        StatusCode::BAD_REQUEST,
    )
    .await;

    let huge = format!("{{\"user\":{{\"email\":\"{}\",\"password\":\"x\"}}}}", "a".repeat(200_000));
    let body = error_of(
        app.client.post(&login).body(huge).header("content-type", "application/json").send().await.unwrap(),
        StatusCode::PAYLOAD_TOO_LARGE,
    )
    .await;
    assert_eq!(body["code"], "request_too_large");

    let long_field = user_form(&[("first_name", "a".repeat(20_000))]);
    error_of(app.post_form("/users", long_field).await, StatusCode::PAYLOAD_TOO_LARGE).await;

    let body =
        error_of(app.client.delete(app.api("/health")).send().await.unwrap(), StatusCode::METHOD_NOT_ALLOWED).await;
    assert_eq!(body["code"], "method_not_allowed");

    for path in ["/api/v1/nothing/here", "/api/v2/users", "/api", "/api/v1"] {
        let response = app.client.get(format!("{}{path}", app.origin)).send().await.unwrap();
        let body = error_of(response, StatusCode::NOT_FOUND).await;
        assert_eq!(body["code"], "not_found", "{path}");
    }

    let too_long_password = serde_json::json!({"user": {"email": "a@b.co", "password": "p".repeat(60_000)}});
    error_of(app.client.post(&login).json(&too_long_password).send().await.unwrap(), StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn every_response_carries_the_security_headers_and_no_cors() {
    let app = spawn_app().await;
    for url in [app.api("/health"), app.api("/nothing"), format!("{}/", app.origin), format!("{}/profile", app.origin)]
    {
        let response = app.client.get(&url).header("origin", "https://evil.example").send().await.unwrap();
        let headers = response.headers();
        let csp = headers["content-security-policy"].to_str().unwrap();
        assert!(
            csp.contains("default-src 'self'")
                && csp.contains("frame-ancestors 'none'")
                && !csp.contains("unsafe-inline")
        );
        assert_eq!(headers["x-content-type-options"], "nosniff");
        assert_eq!(headers["x-frame-options"], "DENY");
        assert!(headers.contains_key("referrer-policy"));
        assert!(!headers.contains_key("access-control-allow-origin"), "same-origin only: {url}");
    }
    let preflight = app
        .client
        .request(reqwest::Method::OPTIONS, app.api("/users/login"))
        .header("origin", "https://evil.example")
        .header("access-control-request-method", "POST")
        .send()
        .await
        .unwrap();
    assert!(!preflight.headers().contains_key("access-control-allow-origin"));
}

#[tokio::test]
async fn api_answers_are_not_cached_and_are_compressed_when_asked() {
    let app = spawn_app().await;
    let response = app.client.get(app.api("/openapi.json")).header("accept-encoding", "gzip").send().await.unwrap();
    assert_eq!(response.headers()["cache-control"], "no-store");
    assert_eq!(response.headers()["content-encoding"], "gzip");
}

#[tokio::test]
async fn without_a_web_build_a_placeholder_page_is_served() {
    let app = spawn_app().await;
    let response = app.client.get(format!("{}/marketplace", app.origin)).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.text().await.unwrap().contains("MAVUNO"));
}

#[tokio::test]
async fn the_web_app_is_served_with_client_routes_and_cache_rules() {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), "<!doctype html><title>app shell</title>").unwrap();
    std::fs::write(web.path().join("sw.js"), "self.addEventListener('install', () => {});").unwrap();
    std::fs::create_dir(web.path().join("assets")).unwrap();
    std::fs::write(web.path().join("assets/app-3f9a.js"), "console.log('app');".repeat(100)).unwrap();
    let web_dir = web.path().to_owned();
    let app = spawn_with(|config| config.web_dir = Some(web_dir)).await;
    let get = |path: &str| app.client.get(format!("{}{path}", app.origin)).header("accept-encoding", "gzip").send();

    for path in ["/", "/marketplace", "/product/12", "/dashboard"] {
        let response = get(path).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/html"));
    }
    let asset = get("/assets/app-3f9a.js").await.unwrap();
    assert_eq!(asset.status(), StatusCode::OK);
    assert_eq!(asset.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(asset.headers()["content-encoding"], "gzip");
    assert_eq!(asset.headers().get_all("vary").iter().collect::<Vec<_>>(), ["accept-encoding"]);
    // Never revalidated: no validators to send.
    assert!(asset.headers().get("last-modified").is_none() && asset.headers().get("accept-ranges").is_none());
    std::fs::write(web.path().join("assets/app-3f9a.js.br"), "br").unwrap();
    let br = app.client.get(format!("{}/assets/app-3f9a.js", app.origin)).header("accept-encoding", "br").send().await;
    let br = br.unwrap();
    assert_eq!(
        (br.headers()["content-encoding"].to_str().unwrap(), br.headers()["vary"].to_str().unwrap()),
        ("br", "accept-encoding")
    );
    let sw = get("/sw.js").await.unwrap();
    assert_eq!(sw.headers()["cache-control"], "no-cache");
    assert!(sw.headers().get("last-modified").is_some(), "revalidated: a new version reaches phones");
    assert_eq!(get("/assets/missing-1234.js").await.unwrap().status(), StatusCode::NOT_FOUND);
    assert_eq!(get("/missing-icon.png").await.unwrap().status(), StatusCode::NOT_FOUND);
    // Nothing outside the web and media folders can be reached.
    let secret = std::fs::read_to_string(app.data_dir.join("jwt-secret")).unwrap();
    for path in
        ["/media/..%2fjwt-secret", "/media/%2e%2e/jwt-secret", "/media/..%5cjwt-secret", "/..%2f..%2fetc/passwd"]
    {
        let response = get(path).await.unwrap();
        let body = response.text().await.unwrap();
        assert!(!body.contains(&secret) && !body.contains("root:"), "{path} leaked a file");
    }
}

/// `text` compressed with brotli at `quality`.
fn brotli_at(text: &[u8], quality: u32) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut writer = brotli::CompressorWriter::new(&mut out, 4096, quality, 22);
        std::io::Write::write_all(&mut writer, text).unwrap();
    }
    out
}

#[tokio::test]
async fn pages_are_compressed_harder_than_api_answers() {
    // A page of ~40 KB of words in no order, as a first screen's styles and cards are.
    let words = ["card", "price", "maize", "beans", "button", "margin", "Bukavu", "flex", "colour", "farmer"];
    let mut seed = 7_u64;
    let text: Vec<&str> = (0..6_000)
        .map(|_| {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            words[(seed >> 33) as usize % words.len()]
        })
        .collect();
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), format!("<!doctype html><title>app</title><p>{}", text.join(" ")))
        .unwrap();
    let web_dir = web.path().to_owned();
    let app = spawn_with(|config| config.web_dir = Some(web_dir)).await;
    for path in ["/about", "/index.html"] {
        let response =
            app.client.get(format!("{}{path}", app.origin)).header("accept-encoding", "br").send().await.unwrap();
        assert_eq!(response.headers()["content-encoding"], "br", "{path}");
        let sent = response.bytes().await.unwrap();
        let mut page = Vec::new();
        brotli::BrotliDecompress(&mut &sent[..], &mut page).unwrap();
        assert!(String::from_utf8_lossy(&page).contains("maize"), "{path}");
        // The API's quality (tower-http's default, 4) would have sent more.
        assert!(sent.len() < brotli_at(&page, 4).len(), "{path}: {} bytes", sent.len());
    }
}

/// The page's policies (CSP, framing, opener, permissions, referrer) on what can become a
/// document or a worker: pages, the API, the service worker's script, an SVG. A build's
/// script and stylesheet and a raster picture carry `nosniff` only: ~500 bytes less on
/// each of a first visit's ~80 files.
#[tokio::test]
async fn the_policies_of_a_page_go_where_a_page_or_worker_can_be_made() {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), "<!doctype html><title>app shell</title>").unwrap();
    std::fs::write(web.path().join("sw.js"), "self.addEventListener('install', () => {});").unwrap();
    std::fs::write(web.path().join("favicon.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>").unwrap();
    std::fs::create_dir(web.path().join("assets")).unwrap();
    std::fs::write(web.path().join("assets/app-3f9a.js"), "console.log('app');").unwrap();
    std::fs::write(web.path().join("assets/app-3f9a.css"), "body{margin:0}").unwrap();
    std::fs::write(web.path().join("assets/logo-3f9a.svg"), "<svg xmlns='http://www.w3.org/2000/svg'/>").unwrap();
    std::fs::write(web.path().join("assets/icon-3f9a.png"), png(4, 4)).unwrap();
    let web_dir = web.path().to_owned();
    let app = spawn_with(|config| config.web_dir = Some(web_dir)).await;
    let document_only = ["content-security-policy", "x-frame-options", "cross-origin-opener-policy"]
        .into_iter()
        .chain(["permissions-policy", "referrer-policy"]);

    for path in ["/", "/marketplace", "/sw.js", "/favicon.svg", "/assets/logo-3f9a.svg", "/api/v1/health", "/api/v1/no"]
    {
        let response = app.client.get(format!("{}{path}", app.origin)).send().await.unwrap();
        for name in document_only.clone().chain(["x-content-type-options"]) {
            assert!(response.headers().contains_key(name), "{path} lacks {name}");
        }
        // A member records their plot from the phone's position: the app's own pages may
        // ask for it, nothing framed or from elsewhere may (the microphone and payments, none).
        assert_eq!(response.headers()["permissions-policy"], "geolocation=(self), microphone=(), payment=()", "{path}");
    }
    for path in ["/assets/app-3f9a.js", "/assets/app-3f9a.css", "/assets/icon-3f9a.png"] {
        let response = app.client.get(format!("{}{path}", app.origin)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        assert_eq!(response.headers()["x-content-type-options"], "nosniff", "{path}");
        for name in document_only.clone() {
            assert!(!response.headers().contains_key(name), "{path} carries {name}");
        }
    }
}

/// What a first visit and a link preview (WhatsApp's crawler runs no script) read
/// before any JavaScript: the page in the reader's language with its own title,
/// description and Open Graph tags, and the inline shell allowed by its hash only.
#[tokio::test]
async fn pages_carry_their_language_title_and_preview() {
    let web = tempfile::tempdir().unwrap();
    let template = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../pwa/index.html")).unwrap();
    std::fs::write(web.path().join("index.html"), &template).unwrap();
    let web_dir = web.path().to_owned();
    let app = spawn_with(|config| config.web_dir = Some(web_dir)).await;
    let farmer = app.user_with_role("preview-farmer@example.com", Role::Farmer).await;
    let form = product_form()
        .text("product[title]", "Avocats \"Hass\" <Kabare>")
        .text("product[title_en]", "Hass avocados")
        .part("product[images][]", image_part(png(800, 600), "a.png", "image/png"));
    let response =
        app.client.post(app.api("/farmer/products")).bearer_auth(&farmer).multipart(form).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let product = response.json::<Value>().await.unwrap()["product"].clone();
    let page = |path: String, lang: &'static str| {
        app.client.get(format!("{}{path}", app.origin)).header("accept-language", lang).send()
    };

    let response = page(format!("/product/{}", product["id"]), "fr-CD,fr;q=0.9,en;q=0.5").await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-language"], "fr");
    let csp = response.headers()["content-security-policy"].to_str().unwrap().to_owned();
    assert!(csp.contains("style-src 'self' 'sha256-") && csp.contains("script-src 'self';"), "{csp}");
    assert!(!csp.contains("unsafe-inline"));
    let html = response.text().await.unwrap();
    assert!(html.contains("<html lang=\"fr\">"));
    assert!(html.contains("<title>Avocats &quot;Hass&quot; &lt;Kabare&gt; · MAVUNO</title>"), "{html}");
    assert!(html.contains("<meta property=\"og:type\" content=\"product\""));
    assert!(html.contains("1.20 USD / pièce"), "the price in the description: {html}");
    let hash = product["images"][0].as_str().unwrap();
    assert!(
        html.contains(&format!("<meta property=\"og:image\" content=\"{}/media/{hash}-1024.jpg", app.origin)),
        "{html}"
    );
    assert!(html.contains("<h1>Avocats &quot;Hass&quot; &lt;Kabare&gt;</h1>"), "its first screen (first_screen.rs)");
    assert!(!html.contains("<Kabare>"));
    // Its name in the reader's language, where the farmer gave one, in the page's head as on its first screen.
    let english = page(format!("/product/{}", product["id"]), "en").await.unwrap().text().await.unwrap();
    assert!(english.contains("<title>Hass avocados · MAVUNO</title>"), "{english}");
    assert!(english.contains("<meta property=\"og:title\" content=\"Hass avocados · MAVUNO\""), "{english}");

    // The list's own words in Kiswahili; the PWA's cookie wins over the browser's language.
    let html = page("/marketplace".into(), "sw").await.unwrap().text().await.unwrap();
    assert!(html.contains("<html lang=\"sw\">") && html.contains("<title>Soko · MAVUNO</title>"));
    let html = app
        .client
        .get(format!("{}/news", app.origin))
        .header("accept-language", "sw")
        .header("cookie", "mavuno_lng=en")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(html.contains("<html lang=\"en\">") && html.contains("<title>News · MAVUNO</title>"));
    // A product nobody may see, or none at all, reads as the marketplace's page; no 500s.
    for path in ["/product/999999", "/news/abc", "/course/-1", "/index.html", "/"] {
        let response = page(path.into(), "en").await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
        let html = response.text().await.unwrap();
        assert!(!html.contains("og:image"), "{path}");
    }
}
