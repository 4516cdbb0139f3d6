//! `POST /sync/push` and `GET /sync/pull` (ARCHITECTURE.md section 3, docs/sync.md).

use axum::Json;
use axum::extract::{DefaultBodyLimit, Query, State};
use serde::Deserialize;
use sync_protocol::{Change, ChangeOp, PullResponse, PushRequest, PushResponse};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::ApiJson;
use super::surveys::SurveyJson;
use crate::AppState;
use crate::auth::AuthUser;
use crate::domain::sync::{self, DEFAULT_PULL_LIMIT};
use crate::error::{ApiResult, AppError, ErrorBody};

/// A push carries a batch of queued changes; a survey is ~2 KB.
const PUSH_LIMIT: usize = 1024 * 1024;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(push))
        .layer(DefaultBodyLimit::max(PUSH_LIMIT))
        .routes(routes!(pull))
}

/// The wire types live in the sync-protocol crate; the document describes them loosely.
#[derive(ToSchema)]
#[allow(dead_code)]
struct PushBody {
    protocol: u32,
    client_id: String,
    #[schema(value_type = Vec<Object>)]
    mutations: Vec<()>,
}

/// Apply a device's queued changes, in order. Each is committed before the
/// answer; a replayed one gets its first result with `duplicate: true`.
#[utoipa::path(post, path = "/sync/push", tag = "sync", security(("bearer" = [])), request_body = PushBody,
    responses(
        (status = 200, description = "Per-mutation results (applied, merged, rejected, retry)", body = Object),
        (status = 400, description = "protocol_unsupported, invalid_client_id, mutation_order", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 409, description = "mutation_gap (pull, then resend) or client_taken", body = ErrorBody),
    ))]
async fn push(State(state): State<AppState>, auth: AuthUser, ApiJson(request): ApiJson<PushRequest>) -> ApiResult<Json<PushResponse>> {
    Ok(Json(sync::push(&state, &auth.user, request).await?))
}

#[derive(Deserialize, IntoParams)]
struct PullQuery {
    /// The device's sync id; the answer then says which of its changes are included.
    client_id: Option<String>,
    /// The `cursor` of the previous answer; none for a first snapshot.
    cursor: Option<i64>,
    /// At most this many changes (default 100, at most 500).
    limit: Option<usize>,
}

/// What changed for the signed-in person since `cursor`, page by page.
#[utoipa::path(get, path = "/sync/pull", tag = "sync", security(("bearer" = [])), params(PullQuery),
    responses((status = 200, body = Object), (status = 400, body = ErrorBody), (status = 401, body = ErrorBody)))]
async fn pull(State(state): State<AppState>, auth: AuthUser, query: Result<Query<PullQuery>, axum::extract::rejection::QueryRejection>) -> ApiResult<Json<PullResponse>> {
    let Query(query) = query.map_err(|_| AppError::bad_request("invalid_query", "cursor and limit must be numbers"))?;
    let page = sync::pull(&state, &auth.user, query.client_id, query.cursor, query.limit.unwrap_or(DEFAULT_PULL_LIMIT)).await?;
    let changes = page
        .surveys
        .into_iter()
        .map(|row| {
            if row.deleted_at.is_some() {
                Change { entity: "survey".into(), id: row.uid, op: ChangeOp::Del, record: None }
            } else {
                let id = row.uid.clone();
                let record = serde_json::to_value(SurveyJson::from(row)).ok();
                Change { entity: "survey".into(), id, op: ChangeOp::Put, record }
            }
        })
        .collect();
    Ok(Json(PullResponse { cursor: page.cursor, last_mutation_id: page.last_mutation_id as u64, changes, has_more: page.has_more }))
}
