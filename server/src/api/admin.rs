//! Admin endpoints. Every handler takes `AdminUser`, so buyers, farmers and
//! field agents get 403 here.

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::accounts::UserJson;
use crate::AppState;
use crate::auth::AdminUser;
use crate::db::users;
use crate::error::{ApiResult, ErrorBody};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_users))
}

/// Every account (SPEC section 7 answers a bare array).
#[utoipa::path(get, path = "/admin/users", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = [UserJson]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_users(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<Json<Vec<UserJson>>> {
    let rows = state.db.read(|conn| Ok(users::list(conn)?)).await?;
    Ok(Json(rows.into_iter().map(UserJson::from).collect()))
}
