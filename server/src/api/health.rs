use axum::Json;
use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::error::ApiResult;
use crate::startup::AppState;

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
}

/// Is the server up and its database reachable?
#[utoipa::path(get, path = "/health", tag = "health",
    responses((status = 200, body = Health), (status = 500, body = crate::error::ErrorBody)))]
async fn health(State(state): State<AppState>) -> ApiResult<Json<Health>> {
    state.db.read(|conn| Ok(conn.query_row("SELECT 1", [], |_| Ok(()))?)).await?;
    Ok(Json(Health { status: "ok", version: env!("CARGO_PKG_VERSION"), protocol: sync_protocol::PROTOCOL_VERSION }))
}
