use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiResult;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(health))
}

#[derive(Serialize, ToSchema)]
pub struct Health {
    /// "ok"
    status: &'static str,
    version: &'static str,
    /// The sync protocol version this server speaks.
    protocol: u32,
    /// The off-site copy (docs/operations.md): `ok` (confirmed within the alert's
    /// threshold), `lagging`, or `none` (this server is the only copy).
    offsite: &'static str,
}

/// Is the server up and its database reachable?
#[utoipa::path(get, path = "/health", tag = "health",
    responses((status = 200, body = Health), (status = 500, body = crate::error::ErrorBody)))]
async fn health(State(state): State<AppState>) -> ApiResult<Json<Health>> {
    let threshold = state.config.offsite.as_ref().map(|o| o.lag_alert);
    let copy = state.db.read(move |conn| crate::domain::offsite::state_of(conn, threshold)).await?;
    let offsite = match (copy.configured, copy.lagging) {
        (false, _) => "none",
        (true, true) => "lagging",
        (true, false) => "ok",
    };
    Ok(Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        protocol: sync_protocol::PROTOCOL_VERSION,
        offsite,
    }))
}
