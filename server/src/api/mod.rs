//! The REST API under `/api/v1`: one module per area, merged here, with the
//! OpenAPI document built from the same route table.

pub mod accounts;
pub mod admin;
pub mod admin_orders;
pub mod admin_prices;
pub mod admin_products;
pub mod admin_surveys;
pub mod agent;
pub mod analytics;
pub mod blogs;
pub mod contact;
#[cfg(test)]
mod contract;
pub mod cooperatives;
pub mod courses;
pub mod deliveries;
pub(crate) mod document;
pub mod earnings;
pub mod exchange_rates;
pub mod extract;
pub mod health;
pub mod lots;
mod metrics;
pub mod orders;
pub mod payments;
pub mod payouts;
pub mod prices;
pub mod products;
mod record_refusals;
pub mod reviews;
pub mod settings;
pub mod sms;
pub mod surveys;
pub mod sync;
pub mod uploads;
pub mod ussd;

use std::sync::Arc;

use axum::Json;
use axum::Router;
use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use utoipa::openapi::OpenApi as OpenApiDoc;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};
use utoipa_axum::router::OpenApiRouter;

use crate::error::AppError;
use crate::state::AppState;

/// JSON bodies are small; routes that take files raise their own limit.
const JSON_LIMIT: usize = 64 * 1024;

#[derive(OpenApi)]
#[openapi(
    info(title = "MAVUNO API", description = "REST API of the MAVUNO platform. Errors always have the shape \
        `{success: false, code, message, errors?, error_codes?}`."),
    servers((url = "/api/v1")),
    modifiers(&BearerAuth),
    components(schemas(crate::error::ErrorBody)),
)]
struct ApiDoc;

struct BearerAuth;

impl Modify for BearerAuth {
    fn modify(&self, openapi: &mut OpenApiDoc) {
        openapi.info.license = None;
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).bearer_format("JWT").build()),
        );
        // Prometheus' token for /metrics (MAVUNO_METRICS_TOKEN), not a person's.
        components.add_security_scheme(
            "metrics",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
    }
}

/// The route table and the OpenAPI document that describes it.
pub fn router() -> (Router<AppState>, OpenApiDoc) {
    let (routes, mut doc) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(health::routes())
        .merge(metrics::routes())
        .merge(accounts::routes())
        .merge(admin::routes())
        .merge(admin_surveys::routes())
        .merge(admin_orders::routes())
        .merge(admin_products::routes())
        .merge(analytics::routes())
        .merge(agent::routes())
        .merge(ussd::routes())
        .merge(blogs::routes())
        .merge(contact::routes())
        .merge(cooperatives::routes())
        .merge(courses::routes())
        .merge(deliveries::routes())
        .merge(lots::routes())
        .merge(payouts::routes())
        .merge(earnings::routes())
        .merge(exchange_rates::routes())
        .merge(prices::routes())
        .merge(admin_prices::routes())
        .merge(orders::routes())
        .merge(payments::routes())
        .merge(uploads::routes())
        .merge(products::routes())
        .merge(reviews::routes())
        .merge(settings::routes())
        .merge(surveys::routes())
        .merge(sync::routes())
        .merge(sms::routes())
        .split_for_parts();
    surveys::document_trailing_slash(&mut doc);
    (routes.merge(surveys::trailing_slash()), doc)
}

/// The OpenAPI document as served: the route table's, with the refusals every operation
/// shares (api/document/mod.rs).
pub fn document(doc: OpenApiDoc) -> serde_json::Value {
    let mut doc = serde_json::to_value(doc).unwrap_or_default();
    document::complete(&mut doc);
    doc
}

/// `/api/v1` with its document at `/api/v1/openapi.json`, and JSON errors for
/// anything that goes wrong under `/api`.
pub fn routes() -> Router<AppState> {
    let (api, doc) = router();
    // Kept as its JSON: the document's own maps held ~4 MB of the server's memory, and
    // each request cloned them all before writing them out.
    let doc = axum::body::Bytes::from(serde_json::to_vec(&document(doc)).unwrap_or_default());
    let mut v1 = api
        .route(
            "/openapi.json",
            get(move || async move { ([(axum::http::header::CONTENT_TYPE, "application/json")], doc.clone()) }),
        )
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(JSON_LIMIT))
        .layer(middleware::from_fn(no_nul_in_address))
        .layer(middleware::from_fn(crate::platform::middleware::route_template));
    if record_refusals::enabled() {
        v1 = v1.layer(middleware::from_fn(record_refusals::layer));
    }
    Router::new()
        .nest("/api/v1", v1)
        .route("/api", get(not_found))
        .route("/api/{*rest}", axum::routing::any(not_found))
        .layer(middleware::from_fn(json_errors))
        .layer(middleware::from_fn(no_store))
}

/// `{"success": true, "message": ...}`: the answer of actions with nothing else to say.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct MessageResponse {
    success: bool,
    message: String,
}

impl MessageResponse {
    pub fn new(message: &str) -> Json<MessageResponse> {
        Json(MessageResponse { success: true, message: message.to_owned() })
    }
}

/// Searches are a few words; longer ones are refused instead of becoming huge queries.
pub(crate) const MAX_SEARCH_CHARS: usize = 100;
pub(crate) const MAX_SEARCH_WORDS: usize = 8;

/// The `q` of a list: empty is no search; too long (spaces around it counted, as the
/// document's `maxLength` counts them) is a 422 `search_too_long`.
pub fn search(q: Option<&str>) -> Result<Option<String>, AppError> {
    let too_long = q.is_some_and(|q| q.chars().count() > MAX_SEARCH_CHARS);
    let Some(text) = q.map(str::trim).filter(|t| !t.is_empty()) else { return Ok(None) };
    if too_long || text.split_whitespace().count() > MAX_SEARCH_WORDS {
        return Err(AppError::invalid("q", "search_too_long", "Please search with fewer words"));
    }
    Ok(Some(text.to_owned()))
}

/// The page and page size of a public catalogue (products, courses): 24 a page
/// unless asked, at most 100; pages from 1.
/// Which page of an admin list to answer: 1-based, 50 a page unless asked, at most 200.
#[derive(Debug, Clone, Copy)]
pub struct Paging {
    pub page: i64,
    pub per_page: i64,
}

impl Paging {
    pub fn admin(page: Option<i64>, per_page: Option<i64>) -> Paging {
        Paging { page: page.unwrap_or(1).clamp(1, 100_000), per_page: per_page.unwrap_or(50).clamp(1, 200) }
    }

    /// Where the page starts among every match.
    pub fn offset(self) -> i64 {
        (self.page - 1).saturating_mul(self.per_page)
    }
}

/// A page of a list: its records, how many match in all, which page and its size.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct Page<T> {
    success: bool,
    data: Vec<T>,
    total: i64,
    page: i64,
    per_page: i64,
}

impl<T> Page<T> {
    pub fn new(data: Vec<T>, total: i64, paging: Paging) -> Page<T> {
        Page { success: true, data, total, page: paging.page, per_page: paging.per_page }
    }
}

pub fn catalogue_page(page: Option<i64>, per_page: Option<i64>) -> (i64, i64) {
    (page.unwrap_or(1).clamp(1, 100_000), per_page.unwrap_or(24).clamp(1, 100))
}

/// What a filter names: nothing when empty or "all".
pub fn chosen(value: Option<&str>) -> Option<&str> {
    value.map(str::trim).filter(|s| !s.is_empty() && *s != "all")
}

/// A list filter: empty or "all" is no filter; anything `parse` does not know is a 422 `invalid_filter`.
pub fn filter<T>(value: Option<&str>, field: &str, parse: impl Fn(&str) -> Option<T>) -> Result<Option<T>, AppError> {
    match chosen(value) {
        None => Ok(None),
        Some(text) => parse(text)
            .map(Some)
            .ok_or_else(|| AppError::invalid(field, "invalid_filter", format!("Unknown {field} {text:?}"))),
    }
}

/// An export's `lang`: en, fr or sw (`fr-CD` is French), English when not given; another
/// is refused (`invalid_filter`), as the document's enum says.
pub fn export_lang(value: Option<&str>) -> Result<crate::labels::Lang, AppError> {
    Ok(filter(value, "lang", crate::labels::Lang::known)?.unwrap_or(crate::labels::Lang::EN))
}

/// An answer that is the same for everyone while `version` stands (catalogue pages,
/// market prices): from memory, made once per burst of the same miss (misses of other
/// keys are made meanwhile), in brotli when the client takes it. The compression
/// layer leaves answers with a Content-Encoding alone.
pub async fn cached_answer<F, Fut>(
    cache: &Arc<crate::platform::cache::VersionedCache>,
    key: String,
    version: i64,
    headers: &axum::http::HeaderMap,
    make: F,
) -> crate::error::ApiResult<axum::response::Response>
where
    F: FnOnce() -> Fut,
    Fut: std::future::Future<Output = crate::error::ApiResult<Vec<u8>>>,
{
    use crate::platform::cache::Cached;
    let brotli = headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|e| e.trim().starts_with("br")));
    let mut hit = cache.get(&key, version);
    let _making;
    if hit.is_none() {
        // One maker per burst of the same miss; the others find its answer.
        _making = cache.making(&key).await;
        hit = cache.get(&key, version);
    }
    let cached = match hit {
        Some((cached, polish)) => {
            if polish {
                // Asked for again: worth the smaller form, made off this request's path.
                let (cache, json) = (Arc::clone(cache), Arc::clone(&cached.json));
                tokio::task::spawn_blocking(move || cache.polished(&key, version, Cached::best(json)));
            }
            cached
        }
        None => {
            let cached = Cached::quick(make().await?);
            cache.put(key, version, cached.clone());
            cached
        }
    };
    let vary = (header::VARY, "accept-encoding");
    Ok(if brotli {
        let body = axum::body::Bytes::from_owner(cached.brotli);
        ([(header::CONTENT_TYPE, "application/json"), (header::CONTENT_ENCODING, "br"), vary], body).into_response()
    } else {
        ([(header::CONTENT_TYPE, "application/json"), vary], axum::body::Bytes::from_owner(cached.json)).into_response()
    })
}

pub async fn not_found() -> AppError {
    AppError::not_found("not_found", "There is nothing at this address")
}

/// Turns the framework's own plain-text errors (405, 413, ...) into the API's JSON shape.
async fn json_errors(request: Request, next: Next) -> Response {
    let response = next.run(request).await;
    let status = response.status();
    let is_json =
        response.headers().get(header::CONTENT_TYPE).is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (code, message) = fallback_error(status);
    let (mut parts, _) = response.into_parts();
    let mut fixed = AppError::client(status, code, message).into_response();
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    *fixed.headers_mut() = parts.headers;
    fixed
}

/// The code and message of a refusal whose body is not JSON (axum's own, a layer's).
fn fallback_error(status: StatusCode) -> (&'static str, &'static str) {
    match status {
        StatusCode::METHOD_NOT_ALLOWED => ("method_not_allowed", "This method is not allowed here"),
        StatusCode::NOT_FOUND => ("not_found", "There is nothing at this address"),
        StatusCode::PAYLOAD_TOO_LARGE => ("request_too_large", "The request is too large"),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => ("unsupported_media_type", "This content type is not accepted here"),
        s if s.is_server_error() => ("internal_error", "Something went wrong on our side. Please try again."),
        _ => ("bad_request", "The request could not be understood"),
    }
}

/// No text the API reads holds a NUL character (it could not be stored, and is nobody's
/// word): one in the address is 400 `invalid_text`, as one in a body is (`strict_json`).
async fn no_nul_in_address(request: Request, next: Next) -> Response {
    let uri = request.uri();
    let nul = |part: &str| part.as_bytes().windows(3).any(|w| w.eq_ignore_ascii_case(b"%00"));
    if nul(uri.path()) || uri.query().is_some_and(nul) {
        return AppError::invalid_text().into_response();
    }
    next.run(request).await
}

/// API answers are personal or fresh; the service worker and proxies must not keep them.
async fn no_store(request: Request, next: Next) -> Response {
    let mut response = next.run(request).await;
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_document_lists_every_endpoint() {
        let (_, doc) = super::router();
        let paths: Vec<&String> = doc.paths.paths.keys().collect();
        for expected in [
            "/health",
            "/users",
            "/users/login",
            "/me",
            "/auth/logout",
            "/me/update",
            "/me/delete",
            "/admin/users",
            "/contact",
            "/admin/contact_messages",
            "/uploads/{sha256}",
            "/farmer/farmer_survey_forms",
            "/farmer/farmer_survey_forms/{id}",
            "/sync/push",
            "/sync/pull",
            "/admin/surveys",
            "/admin/surveys/{id}",
            "/admin/surveys/bulk",
            "/admin/surveys/export",
            "/admin/users/{id}",
            "/admin/users/stats",
            "/admin/users/export",
            "/agent/people",
            "/products",
            "/products/{id}",
            "/farmer/products",
            "/farmer/products/{id}",
        ] {
            assert!(paths.iter().any(|p| *p == expected), "{expected} missing from {paths:?}");
        }
    }
}
