//! Serves the built PWA and uploaded media from the same origin as the API.
//!
//! Hashed assets and media are immutable for a year; `index.html`, `sw.js`
//! and the manifest must be revalidated, so a new version reaches phones.

use std::convert::Infallible;
use std::path::{Path, PathBuf};

use axum::Router;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use tower::service_fn;
use tower_http::services::ServeDir;

use crate::AppState;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// Shown when the server runs without a PWA build (e.g. API-only tests).
const PLACEHOLDER: &str = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>MAVUNO</title></head>\
<body><h1>MAVUNO</h1><p>The server is running. The web app has not been built yet: run <code>scripts/start</code>.</p>\
<p>API: <a href=\"/api/v1/openapi.json\">/api/v1/openapi.json</a></p></body></html>";

pub fn routes(web_dir: Option<&Path>, media_dir: &Path) -> Router<AppState> {
    let media = Router::new()
        .fallback_service(ServeDir::new(media_dir))
        .layer(middleware::from_fn(|req: Request, next: Next| cache_for(req, next, IMMUTABLE)));
    let app = match web_dir.filter(|dir| dir.join("index.html").is_file()) {
        Some(dir) => {
            let index = dir.join("index.html");
            let files = ServeDir::new(dir)
                .precompressed_br()
                .precompressed_gzip()
                .fallback(service_fn(move |req: Request| spa_fallback(index.clone(), req)));
            Router::new().fallback_service(files)
        }
        None => Router::new().fallback(|| async { Html(PLACEHOLDER) }),
    };
    Router::new().nest("/media", media).merge(app.layer(middleware::from_fn(app_cache_headers)))
}

/// Client-side routes (`/marketplace`, `/profile`, ...) get `index.html`;
/// a missing file (`/assets/x.js`, `/logo.png`) is a real 404.
async fn spa_fallback(index: PathBuf, req: Request) -> Result<Response, Infallible> {
    let path = req.uri().path();
    let looks_like_file =
        path.starts_with("/assets/") || path.rsplit('/').next().is_some_and(|last| last.contains('.'));
    if looks_like_file {
        return Ok((StatusCode::NOT_FOUND, "Not found").into_response());
    }
    Ok(match tokio::fs::read(&index).await {
        Ok(html) => Response::builder()
            .header(header::CONTENT_TYPE, "text/html; charset=utf-8")
            .body(Body::from(html))
            .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response()),
        Err(_) => StatusCode::NOT_FOUND.into_response(),
    })
}

async fn cache_for(req: Request, next: Next, value: &'static str) -> Response {
    let mut response = next.run(req).await;
    if response.status().is_success() {
        response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    }
    response
}

async fn app_cache_headers(req: Request, next: Next) -> Response {
    let hashed = req.uri().path().starts_with("/assets/");
    let mut response = next.run(req).await;
    let value = if hashed && response.status().is_success() { IMMUTABLE } else { "no-cache" };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static(value));
    response
}
