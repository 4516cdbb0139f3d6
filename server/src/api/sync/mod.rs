//! `POST /sync/push` and `GET /sync/pull` (docs/sync.md).

mod flows;
mod listening;
#[cfg(test)]
mod records;

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{DefaultBodyLimit, Query, State};
use serde::{Deserialize, Serialize};
use sync_protocol::{Change, ChangeOp, PullResponse, PushRequest, PushResponse};
use tower_http::decompression::RequestDecompressionLayer;
use utoipa::IntoParams;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::courses::{CourseJson, EnrolmentJson};
use super::extract::ApiJson;
use super::orders::{OrderJson, OrderViewer};
use super::products::ProductJson;
use super::surveys::SurveyJson;
use crate::auth::{AuthUser, MaybeAuthUser};
use crate::domain::sync::{Changed, DEFAULT_PULL_LIMIT};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::state::AppState;
use listening::*;

/// A push carries a batch of queued changes; a survey is ~2 KB.
const PUSH_LIMIT: usize = 1024 * 1024;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(push))
        // Phones may gzip a push (they pay per megabyte); the limit counts the inflated
        // bytes, so a small body that inflates past it is refused like a large one.
        .layer(RequestDecompressionLayer::new())
        .layer(DefaultBodyLimit::max(PUSH_LIMIT))
        .routes(routes!(pull))
        .routes(routes!(wait))
        .routes(routes!(listen))
}

/// Apply a device's queued changes, in order. Each is committed before the
/// answer; a replayed one gets its first result with `duplicate: true`.
#[utoipa::path(post, path = "/sync/push", tag = "sync", security(("bearer" = [])), request_body = PushRequest,
    responses(
        (status = 200, description = "Per-mutation results (applied, merged, rejected, retry, forgotten)", body = sync_protocol::PushResponse),
        (status = 400, description = "protocol_unsupported, invalid_client_id, mutation_order", body = ErrorBody),
        (status = 401, body = ErrorBody),
        (status = 409, description = "mutation_gap (pull, then resend) or client_taken", body = ErrorBody),
    ))]
async fn push(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(request): ApiJson<PushRequest>,
) -> ApiResult<Json<PushResponse>> {
    Ok(Json(flows::push(&state, &auth.user, request).await?))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct PullQuery {
    /// The device's sync id; the answer then says which of its changes are included.
    #[param(pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")]
    client_id: Option<String>,
    /// The `cursor` of the previous answer; none for a first snapshot.
    cursor: Option<i64>,
    /// The previous answer's `snapshot`, while a snapshot has more pages.
    snapshot: Option<i64>,
    /// At most this many changes (default 100, at most 500).
    #[param(minimum = 0, maximum = 9_223_372_036_854_775_807_i64)]
    limit: Option<i64>,
}

/// What changed since `cursor`, page by page: the public catalogue for
/// anyone, and with a token also the person's own records.
#[utoipa::path(get, path = "/sync/pull", tag = "sync", security((), ("bearer" = [])), params(PullQuery),
    responses((status = 200, description = "Changes since the cursor; each record has its entity's fields (`pwa/src/lib/sync/records.ts`)", body = sync_protocol::PullResponse),
        (status = 400, body = ErrorBody), (status = 401, body = ErrorBody),
        (status = 409, description = "snapshot_required: the cursor is older than the deletions kept, or past a server restored from a backup; pull again without it", body = ErrorBody)))]
async fn pull(
    State(state): State<AppState>,
    auth: MaybeAuthUser,
    query: Result<Query<PullQuery>, QueryRejection>,
) -> ApiResult<Json<PullResponse>> {
    let Query(query) = query.map_err(|_| AppError::bad_request("invalid_query", "cursor and limit must be numbers"))?;
    let viewer = auth.0.map(|a| a.user);
    let limit = match query.limit.map(usize::try_from) {
        None => DEFAULT_PULL_LIMIT,
        Some(Ok(limit)) => limit,
        Some(Err(_)) => return Err(AppError::bad_request("invalid_query", "cursor and limit must be numbers")),
    };
    let page = flows::pull(&state, viewer.as_ref(), query.client_id, query.cursor, query.snapshot, limit).await?;
    let viewer_id = viewer.map(|v| v.id);
    let orders = viewer_id.map(|id| OrderViewer::selling_for(id, page.sells_for.clone()));
    let changes = page.changes.into_iter().map(|changed| change(changed, viewer_id, orders.as_ref())).collect();
    Ok(Json(PullResponse {
        cursor: page.cursor,
        last_mutation_id: page.last_mutation_id as u64,
        changes,
        has_more: page.has_more,
        snapshot: page.snapshot,
    }))
}

/// A product the person marked (the sync record `favourite`, by the product's uid).
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "FavouriteRecord"))]
pub struct FavouriteJson {
    uid: String,
    created_at: String,
}

/// A notification (the sync record `notification`; docs/api.md, Notifications).
#[derive(Serialize)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "NotificationRecord"))]
pub struct NotificationJson {
    uid: String,
    kind: String,
    /// Where opening it goes: a path of the app.
    link: String,
    /// The words its text is made of, by name.
    #[cfg_attr(test, ts(type = "Record<string, string>"))]
    params: serde_json::Value,
    read: bool,
    created_at: String,
}

/// A changed row as the viewer may see it: a product off sale (or deleted)
/// is a deletion, except that its farmer still sees it until it is deleted.
fn change(changed: Changed, viewer_id: Option<i64>, orders: Option<&OrderViewer>) -> Change {
    let (entity, id, record) = match changed {
        Changed::Survey(row) => {
            let visible = row.deleted_at.is_none();
            ("survey", row.uid.clone(), visible.then(|| serde_json::to_value(SurveyJson::from(*row)).ok()).flatten())
        }
        Changed::Product(row) => {
            let own = viewer_id == Some(row.farmer_id) && row.deleted_at.is_none();
            let visible = row.is_listed() || own;
            ("product", row.uid.clone(), visible.then(|| serde_json::to_value(ProductJson::from(*row)).ok()).flatten())
        }
        Changed::Favourite(row) => {
            let uid = row.product_uid.clone();
            let record =
                row.deleted_at.is_none().then_some(FavouriteJson { uid: row.product_uid, created_at: row.created_at });
            ("favourite", uid, record.and_then(|r| serde_json::to_value(r).ok()))
        }
        Changed::Course(course) => {
            let (row, modules) = *course;
            let uid = row.uid.clone();
            let record = row.is_listed().then(|| serde_json::to_value(CourseJson::new(row, modules)).ok()).flatten();
            ("course", uid, record)
        }
        Changed::Enrolment(row) => {
            let uid = row.course_uid.clone();
            ("enrolment", uid, serde_json::to_value(EnrolmentJson::from(*row)).ok())
        }
        Changed::Blog(row) => {
            let uid = row.uid.clone();
            let visible = row.fields.published && row.deleted_at.is_none();
            ("blog", uid, visible.then(|| serde_json::to_value(crate::api::blogs::BlogJson::from(*row)).ok()).flatten())
        }
        Changed::Rate(row) => {
            let currency = row.currency.clone();
            ("exchange_rate", currency, serde_json::to_value(super::exchange_rates::RateJson::from(*row)).ok())
        }
        Changed::Order(row) => {
            let uid = row.uid.clone();
            let record = orders.and_then(|viewer| serde_json::to_value(OrderJson::for_viewer(*row, viewer)).ok());
            ("order", uid, record)
        }
        Changed::Notification(row) => {
            let uid = row.uid.clone();
            let record = NotificationJson {
                uid: row.uid,
                kind: row.kind,
                link: row.link,
                params: row.params,
                read: row.read_at.is_some(),
                created_at: row.created_at,
            };
            ("notification", uid, serde_json::to_value(record).ok())
        }
    };
    let op = if record.is_some() { ChangeOp::Put } else { ChangeOp::Del };
    Change { entity: entity.into(), id, op, record }
}
