//! Layers every response passes through: the request log and security
//! headers; and who a request comes from when proxies stand in between.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::Config;
use crate::platform::metrics::{self, Metrics};

/// One line per request: method, path (without its secrets: `loggable_path`), status
/// and latency. The query is never logged.
pub async fn log_request(request: Request, next: Next) -> Response {
    let started = Instant::now();
    let method = request.method().clone();
    let path = loggable_path(request.uri().path());
    let response = next.run(request).await;
    tracing::info!(
        %method,
        path,
        status = response.status().as_u16(),
        latency_ms = format_args!("{:.1}", started.elapsed().as_secs_f64() * 1000.0),
        "request"
    );
    response
}

/// The addresses whose next segment is a secret (a gateway's token: whoever knows it
/// can post USSD sessions and SMS as any number, docs/security.md).
const SECRET_AFTER: [&str; 3] = ["/ussd/", "/sms/incoming/", "/sms/delivery/"];

/// `path` as it may be logged: each segment that follows `SECRET_AFTER` is written
/// `[secret]` (the app's own `/ussd/try` stays), wherever it appears.
pub fn loggable_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut rest = path;
    while let Some((at, after)) = SECRET_AFTER.iter().filter_map(|p| rest.find(p).map(|at| (at, p.len()))).min() {
        let start = at + after;
        out.push_str(&rest[..start]);
        let end = rest[start..].find('/').map_or(rest.len(), |e| start + e);
        let segment = &rest[start..end];
        out.push_str(if segment == "try" || segment.is_empty() { segment } else { "[secret]" });
        rest = &rest[end..];
    }
    out.push_str(rest);
    out
}

/// No inline scripts (a page allows its own by their hashes: `web::page`), no framing, no
/// sniffing, and no referrer leaks.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data: blob:; font-src 'self'; connect-src 'self'; worker-src 'self'; manifest-src 'self'; \
    object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

pub async fn security_headers(State(config): State<Arc<Config>>, request: Request, next: Next) -> Response {
    let https = peer_of(&request).is_some_and(|peer| came_over_https(&config, peer, request.headers()));
    let build_file = request.uri().path().starts_with("/assets/");
    let mut response = next.run(request).await;
    let headers = response.headers_mut();
    if https && config.hsts_max_age > 0 {
        let value = format!("max-age={}; includeSubDomains", config.hsts_max_age);
        if let Ok(value) = HeaderValue::from_str(&value) {
            headers.insert(header::STRICT_TRANSPORT_SECURITY, value);
        }
    }
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if never_a_document(build_file, headers) {
        return response;
    }
    let set = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::REFERRER_POLICY, "strict-origin-when-cross-origin"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (HeaderName::from_static("cross-origin-opener-policy"), "same-origin"),
        (HeaderName::from_static("permissions-policy"), "geolocation=(self), microphone=(), payment=()"),
    ];
    for (name, value) in set {
        // A page may carry its own policy (the site's, plus its inline style's hash).
        if !headers.contains_key(&name) {
            headers.insert(name, HeaderValue::from_static(value));
        }
    }
    response
}

/// A build's script or stylesheet, or a raster picture: a browser never makes a document
/// or a worker of it, and the policies above govern only those (a script's own
/// Content-Security-Policy is ignored; a framed picture runs nothing). Without them such
/// a file's answer is ~500 bytes lighter, on each of the ~80 files a first visit loads.
/// The service worker's scripts (`/sw.js`, `/workbox-*.js`) are outside `/assets/` and
/// keep them: a worker's policy is its script's (the app builds no other worker; one
/// built into `/assets/` would have to be named here). An SVG can hold script and keeps them.
fn never_a_document(build_file: bool, headers: &HeaderMap) -> bool {
    let Some(kind) = headers.get(header::CONTENT_TYPE).and_then(|value| value.to_str().ok()) else {
        return false;
    };
    let kind = kind.split(';').next().unwrap_or_default().trim().to_ascii_lowercase();
    (build_file && matches!(kind.as_str(), "text/javascript" | "application/javascript" | "text/css"))
        || (kind.starts_with("image/") && kind != "image/svg+xml")
}

fn peer_of(request: &Request) -> Option<IpAddr> {
    request.extensions().get::<ConnectInfo<SocketAddr>>().map(|info| info.0.ip())
}

/// The address a request comes from: the peer, unless the peer is a trusted
/// proxy, in which case the nearest address in `X-Forwarded-For` that is not
/// itself a trusted proxy. Anyone else's `X-Forwarded-For` is ignored, so a
/// client cannot pick the address its sign-in attempts are counted against.
pub fn client_ip(config: &Config, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
    if !config.trusted_proxies.contains(&peer) {
        return peer;
    }
    let forwarded = headers.get_all("x-forwarded-for").iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>();
    let hops = forwarded.iter().flat_map(|v| v.split(',')).map(str::trim).collect::<Vec<_>>();
    for hop in hops.iter().rev() {
        match hop.parse::<IpAddr>() {
            Ok(ip) if config.trusted_proxies.contains(&ip) => {}
            Ok(ip) => return ip,
            // Garbage from the far side: the last address we could trust is the answer.
            Err(_) => return peer,
        }
    }
    peer
}

/// The origin (`https://host:port`) people open this server at, for absolute links
/// (feeds, previews, certificates): `--public-url` when set (a server reachable from
/// elsewhere must have it); otherwise, on a loopback server, the Host header when it is
/// a plain host and port, over HTTPS only when a trusted proxy says so.
pub fn public_origin(config: &Config, peer: IpAddr, headers: &HeaderMap) -> String {
    if let Some(url) = &config.public_url {
        return url.clone();
    }
    let scheme = if came_over_https(config, peer, headers) { "https" } else { "http" };
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok()).filter(|h| is_host(h)).unwrap_or("localhost");
    format!("{scheme}://{host}")
}

/// A Host header we may write into links: a name or address and a port, nothing else.
fn is_host(text: &str) -> bool {
    !text.is_empty()
        && text.len() <= 255
        && text.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']'))
}

/// Whether the client reached us over HTTPS: only a trusted proxy can say so.
pub fn came_over_https(config: &Config, peer: IpAddr, headers: &HeaderMap) -> bool {
    config.trusted_proxies.contains(&peer)
        && headers.get("x-forwarded-proto").is_some_and(|v| v.as_bytes().eq_ignore_ascii_case(b"https"))
}

#[cfg(test)]
mod tests {
    use super::loggable_path;

    #[test]
    fn gateway_secrets_never_reach_the_log() {
        assert_eq!(loggable_path("/api/v1/ussd/gw73d6abc"), "/api/v1/ussd/[secret]");
        assert_eq!(loggable_path("/api/v1/sms/incoming/s3cret/x"), "/api/v1/sms/incoming/[secret]/x");
        assert_eq!(loggable_path("/api/v1/sms/delivery/abc"), "/api/v1/sms/delivery/[secret]");
        assert_eq!(loggable_path("//api/v1//ussd/abc"), "//api/v1//ussd/[secret]");
        assert_eq!(loggable_path("/x/ussd/a/ussd/b"), "/x/ussd/[secret]/ussd/[secret]");
        assert_eq!(loggable_path("/api/v1/ussd/try"), "/api/v1/ussd/try");
        assert_eq!(loggable_path("/api/v1/products"), "/api/v1/products");
    }
}

/// The template of the route that answered (a response extension `route_template` puts).
#[derive(Clone, Copy)]
pub struct RouteTemplate(pub &'static str);

/// The error code a refusal answered (`error.rs` puts it on the response).
#[derive(Clone, Copy)]
pub struct ErrorCode(pub &'static str);

/// Inside a router: says on the response which of its routes answered.
pub async fn route_template(request: Request, next: Next) -> Response {
    let template = request.extensions().get::<axum::extract::MatchedPath>().map(|p| metrics::interned(p.as_str()));
    let mut response = next.run(request).await;
    if let Some(template) = template {
        response.extensions_mut().insert(RouteTemplate(template));
    }
    response
}

/// Counts each request by its route's template and status class, and times it; a
/// throttle's refusal (429 or 503 with Retry-After) and a provider's refused callback
/// also by their code.
pub async fn observe(State(metrics): State<Arc<Metrics>>, request: Request, next: Next) -> Response {
    let method = metrics::method(request.method());
    let started = Instant::now();
    let response = next.run(request).await;
    let route = response.extensions().get::<RouteTemplate>().map_or("other", |r| r.0);
    let status = response.status();
    let code = response.extensions().get::<ErrorCode>().map_or("", |c| c.0);
    metrics
        .http_requests
        .get_or_create(&metrics::Request { method, route, status: metrics::status_class(status.as_u16()) })
        .inc();
    metrics.http_seconds.get_or_create(&metrics::Route { method, route }).observe(started.elapsed().as_secs_f64());
    let retry_later = response.headers().contains_key(header::RETRY_AFTER);
    if retry_later && matches!(status.as_u16(), 429 | 503) {
        metrics.throttled.get_or_create(&metrics::Why { reason: code }).inc();
    }
    if route == "/api/v1/payments/callbacks/{provider}" && status.is_client_error() {
        metrics.callbacks_refused.get_or_create(&metrics::Why { reason: code }).inc();
    }
    response
}
