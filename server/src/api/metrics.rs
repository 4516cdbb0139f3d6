//! `/metrics` for Prometheus (docs/operations.md, Metrics): the server's registry
//! (platform/metrics.rs), its gauges of what is waiting or open read from the database
//! at each scrape. Served only with `MAVUNO_METRICS_TOKEN`, to a scraper that sends it as
//! its bearer token; without one configured nothing opens it.

use axum::extract::State;
use axum::http::{HeaderMap, header};
use axum::response::{IntoResponse, Response};
use sha2::{Digest, Sha256};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::observed::{Scraped, scrape};
use crate::error::{ApiResult, AppError};
use crate::model::offsite::OffsiteHealth;
use crate::platform::metrics::{self, Metrics};
use crate::state::AppState;

/// A payment pending longer than this is one to look at (an alert rule's threshold).
const PENDING_TOO_LONG: std::time::Duration = std::time::Duration::from_secs(15 * 60);

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(metrics_text))
}

/// The server's metrics in Prometheus' text format (0.0.4), for a scraper holding the
/// metrics token (`MAVUNO_METRICS_TOKEN`; without one configured, nothing opens it).
#[utoipa::path(get, path = "/metrics", tag = "health", security(("metrics" = [])),
    responses(
        (status = 200, description = "Prometheus text format 0.0.4", content_type = "text/plain", body = String),
        (status = 401, description = "invalid_token: not the metrics token, or none is configured", body = crate::error::ErrorBody),
    ))]
async fn metrics_text(State(state): State<AppState>, headers: HeaderMap) -> ApiResult<Response> {
    let Some(token) = state.config.metrics_token.as_ref() else {
        return Err(AppError::unauthorized("invalid_token", "No metrics token is configured on this server"));
    };
    let sent = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|v| v.strip_prefix("Bearer "));
    let same = sent.is_some_and(|sent| Sha256::digest(sent.trim().as_bytes()) == Sha256::digest(token.expose()));
    if !same {
        return Err(AppError::unauthorized("invalid_token", "Send the metrics token as the bearer token"));
    }
    let node = state.db.node().to_owned();
    let stale = crate::platform::clock::before_now(PENDING_TOO_LONG);
    let threshold = state.config.offsite.as_ref().map(|o| o.lag_alert);
    let (scraped, copy, lag) = state
        .db
        .read(move |conn| {
            let scraped = scrape(conn, &node, &stale)?;
            let copy = crate::domain::offsite::state_of(conn, threshold)?;
            let lag = if threshold.is_some() { crate::domain::offsite::lag(conn)? } else { None };
            Ok((scraped, copy.state, lag))
        })
        .await?;
    let metrics = state.db.metrics();
    // SQLite is served by one server, which holds every lease (`Db::lease`).
    let every_lease = state.db.engine() == crate::db::Engine::Sqlite;
    gauges(metrics, &scraped, *state.db.versions().borrow(), every_lease);
    offsite(metrics, copy, lag);
    metrics.db_replica_behind.set(state.db.replica_behind());
    Ok(([(header::CONTENT_TYPE, metrics::CONTENT_TYPE)], metrics.render()).into_response())
}

/// Sets what the database said: every label set of the families is written each time
/// (what is no longer there reads 0).
fn gauges(metrics: &Metrics, scraped: &Scraped, known: i64, every_lease: bool) {
    let now = time::OffsetDateTime::now_utc();
    for (outbox, waiting, oldest) in &scraped.outboxes {
        let label = metrics::Outbox { outbox };
        metrics.outbox_waiting.get_or_create(&label).set(*waiting);
        let age =
            oldest.as_deref().and_then(crate::platform::clock::parse).map_or(0.0, |at| (now - at).as_seconds_f64());
        metrics.outbox_oldest.get_or_create(&label).set(age.max(0.0));
    }
    metrics.payments_open.clear();
    for (provider, state, count) in &scraped.payments {
        let label = metrics::Payment { provider: metrics::interned(provider), state: metrics::interned(state) };
        metrics.payments_open.get_or_create(&label).set(*count);
    }
    metrics.payments_pending_too_long.clear();
    for (provider, count) in &scraped.payments_stale {
        metrics
            .payments_pending_too_long
            .get_or_create(&metrics::Provider { provider: metrics::interned(provider) })
            .set(*count);
    }
    metrics.payouts_open.get_or_create(&metrics::State { state: "pending" }).set(scraped.payouts_pending);
    for lease in ["housekeeping", "payment_poller"] {
        let held = every_lease || scraped.leases.iter().any(|l| l == lease);
        metrics.leases_held.get_or_create(&metrics::Lease { lease }).set(i64::from(held));
    }
    metrics.sync_version_lag.set((scraped.version - known).max(0));
}

fn offsite(metrics: &Metrics, copy: OffsiteHealth, lag: Option<std::time::Duration>) {
    let states = [
        (OffsiteHealth::None, "none"),
        (OffsiteHealth::Pending, "pending"),
        (OffsiteHealth::Ok, "ok"),
        (OffsiteHealth::Lagging, "lagging"),
        (OffsiteHealth::Failing, "failing"),
    ];
    for (health, state) in states {
        metrics.offsite_state.get_or_create(&metrics::State { state }).set(i64::from(health == copy));
    }
    metrics.offsite_since_confirmed.set(lag.map_or(-1.0, |lag| lag.as_secs_f64()));
}
