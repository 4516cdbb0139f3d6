//! Serves the built PWA and uploaded media from the same origin as the API.
//!
//! Hashed assets and media are immutable for a year; `index.html`, `sw.js`
//! and the manifest must be revalidated, so a new version reaches phones.

use std::net::SocketAddr;
use std::path::Path;

use crate::labels::Lang;
use axum::Router;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use tower::ServiceExt;
use tower_http::CompressionLevel;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;

use crate::outbound::media::{self, MediaStore};
use crate::state::AppState;

mod first_screen;
mod page;
pub use page::escape;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// brotli's quality for the pages (gzip's level for a phone without brotli).
const PAGE_QUALITY: i32 = 6;

/// Shown when the server runs without a PWA build (e.g. API-only tests).
const PLACEHOLDER: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>MAVUNO</title></head>\
<body><h1>MAVUNO</h1><p>The server is running. The web app has not been built yet: run <code>scripts/start</code>.</p>\
<p>API: <a href=\"/api/v1/openapi.json\">/api/v1/openapi.json</a></p></body></html>";

pub fn routes(web_dir: Option<&Path>, store: &MediaStore) -> Router<AppState> {
    let media = if store.is_local() {
        Router::new().fallback_service(ServeDir::new(store.dir()))
    } else {
        let store = store.clone();
        Router::new().fallback(move |request: Request| {
            let store = store.clone();
            async move { store.serve(request.uri().path().trim_start_matches('/')).await }
        })
    };
    let media = media
        .layer(middleware::from_fn({
            let store = store.clone();
            move |req: Request, next: Next| media::make_missing_size(store.clone(), req, next)
        }))
        .layer(middleware::from_fn(|req: Request, next: Next| cache_for(req, next, IMMUTABLE)));
    let app = match web_dir.filter(|dir| dir.join("index.html").is_file()) {
        Some(dir) => {
            let files = ServeDir::new(dir).precompressed_br().precompressed_gzip();
            let dir = dir.to_owned();
            Router::new().fallback(move |State(state): State<AppState>, request: Request| {
                let (files, index) = (files.clone(), dir.join("index.html"));
                async move {
                    if is_page(request.uri().path()) {
                        page(&state, &index, request).await
                    } else {
                        files.oneshot(request).await.map_or_else(|e| match e {}, IntoResponse::into_response)
                    }
                }
            })
        }
        None => Router::new().fallback(|| async { Html(PLACEHOLDER) }),
    };
    // A page is written for each request (its first screen) and compressed then: at brotli's
    // quality 6 rather than the API's 4, ~1.1 ms instead of ~0.9 for a 45 KB page and ~1 KB
    // fewer on every first visit's page and the service worker's copy of the app (issue 39).
    // The build's files come precompressed and pass through.
    let pages = CompressionLayer::new().quality(CompressionLevel::Precise(PAGE_QUALITY));
    Router::new().nest("/media", media).merge(app.layer(pages).layer(middleware::from_fn(app_cache_headers)))
}

/// Client-side routes (`/`, `/marketplace`, `/product/7`) and `/index.html` are the
/// app's page; anything else that looks like a file (`/assets/x.js`, `/logo.png`)
/// is served from the build or is a real 404.
fn is_page(path: &str) -> bool {
    path == "/index.html"
        || !(path.starts_with("/assets/") || path.rsplit('/').next().is_some_and(|last| last.contains('.')))
}

/// `index.html` with the page's language, words and preview written in (`page.rs`).
async fn page(state: &AppState, index: &Path, request: Request) -> Response {
    let Ok(template) = tokio::fs::read_to_string(index).await else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let lang = page::language(request.uri().query(), request.headers());
    let path = request.uri().path();
    if request.headers().get(FIRST_SCREEN_PART).is_some_and(|v| v == "main") {
        let query = first_screen::Query::parse(request.uri(), request.headers());
        return main_only(state, path, &query, lang).await;
    }
    let head = page::head(state, path, lang).await;
    let peer = request.extensions().get::<ConnectInfo<SocketAddr>>().map_or([127, 0, 0, 1].into(), |c| c.0.ip());
    let origin = crate::platform::middleware::public_origin(&state.config, peer, request.headers());
    // `/index.html` is the service worker's copy of the app, for every page: no first screen.
    let first_screen = match path {
        "/index.html" => None,
        _ => {
            first_screen::render(
                state,
                path,
                page::route(path),
                &first_screen::Query::parse(request.uri(), request.headers()),
                (lang, first_screen::Part::Page),
            )
            .await
        }
    };
    let html = page::render(&template, &head, &origin, path, first_screen.as_deref());
    let csp = HeaderValue::from_str(&page::content_security_policy(&template))
        .unwrap_or(HeaderValue::from_static(crate::platform::middleware::CONTENT_SECURITY_POLICY));
    let mut response = (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")),
            (header::CONTENT_LANGUAGE, HeaderValue::from_static(lang.code())),
            (header::CONTENT_SECURITY_POLICY, csp),
        ],
        html,
    )
        .into_response();
    // A page's first screen is in the reader's language. The service worker's copy is
    // not: it is stored once, with no request headers, and the precache matches it
    // against navigations that carry `Accept-Language`, so a `Vary` on it made `/` and
    // `/index.html` fail offline (the app sets its language itself when it starts).
    if path != "/index.html" {
        response
            .headers_mut()
            .insert(header::VARY, HeaderValue::from_static("Accept-Language, Cookie, X-First-Screen"));
    }
    // A language asked for in the address (`?lng=`) is kept as the app keeps it, so the
    // first screen's plain links open the next page in it before the app runs.
    if page::asked_language(request.uri().query()).is_some() {
        let cookie = format!("{}={}; Path=/; Max-Age=31536000; SameSite=Lax", page::LANGUAGE_COOKIE, lang.code());
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().insert(header::SET_COOKIE, value);
        }
    }
    response
}

/// The header with which the first screen's own search asks for a page's main content alone.
const FIRST_SCREEN_PART: &str = "x-first-screen";

/// A page's first screen's main content alone (`first_screen::Part::Main`); 404 where the
/// page has none.
async fn main_only(state: &AppState, path: &str, query: &first_screen::Query, lang: Lang) -> Response {
    let asked = (lang, first_screen::Part::Main);
    let Some(part) = first_screen::render(state, path, page::route(path), query, asked).await else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let vary = HeaderValue::from_static("Accept-Language, Cookie, X-First-Screen");
    ([(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8")), (header::VARY, vary)], part)
        .into_response()
}

async fn cache_for(req: Request, next: Next, value: &'static str) -> Response {
    let mut response = next.run(req).await;
    if response.status().is_success() {
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
        without_validators(&mut response);
    }
    response
}

async fn app_cache_headers(req: Request, next: Next) -> Response {
    let hashed = req.uri().path().starts_with("/assets/");
    let mut response = next.run(req).await;
    let immutable = hashed && response.status().is_success();
    let value = if immutable { IMMUTABLE } else { "no-cache" };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    if immutable {
        without_validators(&mut response);
        // Sent as brotli, gzip or plain by what the phone accepts (the build's .br and .gz
        // files); ServeDir does not say so, and a shared cache would hand one to all.
        if !response.headers().get(header::VARY).is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"accept-encoding"))
        {
            response.headers_mut().append(header::VARY, HeaderValue::from_static("accept-encoding"));
        }
    }
    response
}

/// A file whose name changes with its content, cached for a year, is never revalidated:
/// its `Last-Modified` and `Accept-Ranges` are ~70 bytes of each of a first visit's ~90
/// answers for nothing (a range is still answered if asked for).
fn without_validators(response: &mut Response) {
    response.headers_mut().remove(header::LAST_MODIFIED);
    response.headers_mut().remove(header::ACCEPT_RANGES);
}
