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
    /// The off-site copy (docs/operations.md): `ok` only when the store held this
    /// database's newest transaction within the alert's threshold; `pending` (configured,
    /// not confirmed yet), `lagging` (not confirmed for longer than the threshold),
    /// `failing` (the store refused the last look: `offsite_failure` says why), or
    /// `none` (this server is the only copy).
    offsite: crate::model::offsite::OffsiteHealth,
    /// Why the store refused the last look, when `offsite` is `failing`.
    #[serde(skip_serializing_if = "Option::is_none")]
    offsite_failure: Option<crate::model::offsite::OffsiteFailure>,
}

/// Is the server up and its database reachable, and is its off-site copy confirmed?
#[utoipa::path(get, path = "/health", tag = "health",
    responses((status = 200, body = Health), (status = 500, body = crate::error::ErrorBody)))]
async fn health(State(state): State<AppState>) -> ApiResult<Json<Health>> {
    let threshold = state.config.offsite.as_ref().map(|o| o.lag_alert);
    let copy = state.db.read(move |conn| crate::domain::offsite::state_of(conn, threshold)).await?;
    Ok(Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
        protocol: sync_protocol::PROTOCOL_VERSION,
        offsite: copy.state,
        offsite_failure: copy.failure,
    }))
}
