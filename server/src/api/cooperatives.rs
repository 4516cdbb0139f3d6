//! Cooperatives (docs/cooperatives.md): the public list and page, admins' making and
//! editing, farmers asking to join, managers answering. The weigh book is `deliveries.rs`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::ApiJson;
use crate::auth::{AdminUser, AuthUser, MaybeAuthUser};
use crate::db::cooperatives::{self as rows, CooperativeRow, MemberRow};
use crate::domain::cooperatives::{self, CooperativeInput, MemberChange};
use crate::error::{ApiResult, ErrorBody};
use crate::model::cooperative::{MemberRole, MemberStatus, Status};
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(show))
        .routes(routes!(admin_list, create))
        .routes(routes!(update))
        .routes(routes!(join))
        .routes(routes!(members))
        .routes(routes!(change_member))
        .routes(routes!(mine))
}

#[derive(Serialize, ToSchema)]
pub struct CooperativeJson {
    id: i64,
    name: String,
    territory: String,
    market_id: i64,
    market_name: String,
    description: String,
    /// What the cooperative keeps of a sale, in percent.
    fee_percent: f64,
    status: Status,
    /// Active members, managers included.
    members: i64,
    /// The crops its members bring, most first.
    crops: Vec<String>,
    /// The account its lots are sold under (their products' `farmer.id`), once it made one.
    seller_id: Option<i64>,
    /// Disputes waiting for a manager's answer (in an admin's list; null elsewhere).
    open_disputes: Option<i64>,
    created_at: String,
    updated_at: String,
}

impl From<CooperativeRow> for CooperativeJson {
    fn from(c: CooperativeRow) -> Self {
        CooperativeJson {
            id: c.id,
            name: c.name,
            territory: c.territory,
            market_id: c.market_id,
            market_name: c.market_name,
            description: c.description,
            fee_percent: c.fee_bp as f64 / 100.0,
            status: c.status,
            members: c.members,
            crops: c.crops,
            seller_id: c.seller_id,
            open_disputes: None,
            created_at: c.created_at,
            updated_at: c.updated_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
struct CooperativeList {
    success: bool,
    data: Vec<CooperativeJson>,
}

#[derive(Serialize, ToSchema)]
struct CooperativeResponse {
    success: bool,
    data: CooperativeJson,
}

/// The active cooperatives, by name.
#[utoipa::path(get, path = "/cooperatives", operation_id = "list_cooperatives", tag = "cooperatives", responses((status = 200, body = CooperativeList)))]
async fn list(State(state): State<AppState>) -> ApiResult<Json<CooperativeList>> {
    let found = state.db.read(|conn| Ok(rows::list(conn, false)?)).await?;
    Ok(Json(CooperativeList { success: true, data: found.into_iter().map(Into::into).collect() }))
}

/// Every cooperative, suspended ones too (admins).
#[utoipa::path(get, path = "/admin/cooperatives", operation_id = "admin_list_cooperatives", tag = "cooperatives", security(("bearer" = [])),
    responses((status = 200, body = CooperativeList), (status = 403, body = ErrorBody)))]
async fn admin_list(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<Json<CooperativeList>> {
    let (found, disputes) =
        state.db.read(|conn| Ok((rows::list(conn, true)?, crate::db::deliveries::open_disputes(conn)?))).await?;
    let data = found
        .into_iter()
        .map(|c| {
            let open = disputes.iter().find(|(id, _)| *id == c.id).map_or(0, |(_, n)| *n);
            CooperativeJson { open_disputes: Some(open), ..c.into() }
        })
        .collect();
    Ok(Json(CooperativeList { success: true, data }))
}

/// A cooperative's public page: what it sells, how many members, where. A suspended
/// one is shown to admins and its own people only.
#[utoipa::path(get, path = "/cooperatives/{id}", tag = "cooperatives", params(("id" = i64, Path)), security((), ("bearer" = [])),
    responses((status = 200, body = CooperativeResponse), (status = 404, body = ErrorBody)))]
async fn show(
    State(state): State<AppState>,
    viewer: MaybeAuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<CooperativeResponse>> {
    let found = state
        .db
        .read(move |conn| {
            let found = rows::find(conn, id)?.ok_or_else(cooperatives::not_found)?;
            let insider = match &viewer.0 {
                Some(auth) => auth.user.role.is_admin() || rows::membership(conn, id, auth.user.id)?.is_some(),
                None => false,
            };
            if found.status == Status::Suspended && !insider {
                return Err(cooperatives::not_found());
            }
            Ok(found)
        })
        .await?;
    Ok(Json(CooperativeResponse { success: true, data: found.into() }))
}

/// A cooperative made (name, territory and market required) or edited (a field left
/// out, or `null`, keeps its value; an empty description clears it).
#[derive(Deserialize, ToSchema)]
struct CooperativeRequest {
    #[schema(schema_with = crate::api::document::some_line::<{ crate::domain::cooperatives::MAX_NAME_CHARS }>)]
    name: Option<String>,
    #[schema(schema_with = crate::api::document::some_line::<{ crate::domain::cooperatives::MAX_TERRITORY_CHARS }>)]
    territory: Option<String>,
    /// A market of `GET /prices/markets`: where its sales count as prices.
    market_id: Option<i64>,
    description: Option<String>,
    /// What it keeps of a sale, 0 to 20 percent.
    fee_percent: Option<f64>,
    /// active or suspended.
    status: Option<String>,
}

impl CooperativeRequest {
    fn input(&self) -> CooperativeInput<'_> {
        CooperativeInput {
            name: self.name.as_deref(),
            territory: self.territory.as_deref(),
            market_id: self.market_id,
            description: self.description.as_deref(),
            fee_percent: self.fee_percent,
            status: self.status.as_deref(),
        }
    }
}

/// An admin makes a cooperative.
#[utoipa::path(post, path = "/admin/cooperatives", operation_id = "create_cooperative", tag = "cooperatives", security(("bearer" = [])),
    request_body = CooperativeRequest,
    responses((status = 201, body = CooperativeResponse), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    ApiJson(request): ApiJson<CooperativeRequest>,
) -> ApiResult<(StatusCode, Json<CooperativeResponse>)> {
    let made = state.db.write(move |tx| cooperatives::create(tx, &auth.user, &request.input())).await?;
    Ok((StatusCode::CREATED, Json(CooperativeResponse { success: true, data: made.into() })))
}

/// An admin edits a cooperative, or suspends it (`status`).
#[utoipa::path(patch, path = "/admin/cooperatives/{id}", operation_id = "update_cooperative", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = CooperativeRequest,
    responses((status = 200, body = CooperativeResponse), (status = 403, body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn update(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CooperativeRequest>,
) -> ApiResult<Json<CooperativeResponse>> {
    let changed = state.db.write(move |tx| cooperatives::update(tx, &auth.user, id, &request.input())).await?;
    Ok(Json(CooperativeResponse { success: true, data: changed.into() }))
}

#[derive(Serialize, ToSchema)]
pub struct MemberJson {
    cooperative_id: i64,
    user_id: i64,
    first_name: String,
    last_name: String,
    /// Shown to the cooperative's managers and admins only.
    #[serde(skip_serializing_if = "Option::is_none")]
    phone_number: Option<String>,
    location: Option<String>,
    /// Whether the person is a farmer (only farmers bring deliveries).
    farmer: bool,
    role: MemberRole,
    status: MemberStatus,
    /// Where the member's plot is, when recorded (shown to the member and managers).
    #[serde(skip_serializing_if = "Option::is_none")]
    plot: Option<PlotJson>,
    /// The member agrees to be named in their lots' public origin reports.
    named_in_origin: bool,
    created_at: String,
    updated_at: String,
}

#[derive(Serialize, ToSchema)]
struct PlotJson {
    latitude: f64,
    longitude: f64,
}

impl MemberJson {
    fn of(m: MemberRow, with_phone: bool) -> MemberJson {
        Self::shown(m, with_phone, with_phone)
    }

    fn shown(m: MemberRow, with_phone: bool, with_plot: bool) -> MemberJson {
        MemberJson {
            cooperative_id: m.cooperative_id,
            user_id: m.user_id,
            first_name: m.first_name,
            last_name: m.last_name,
            phone_number: m.phone_number.filter(|_| with_phone),
            location: m.location,
            farmer: m.person_role == crate::model::user::Role::Farmer,
            role: m.role,
            status: m.status,
            plot: m.plot.filter(|_| with_plot).map(|(latitude, longitude)| PlotJson { latitude, longitude }),
            named_in_origin: m.named_in_origin,
            created_at: m.created_at,
            updated_at: m.updated_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
struct MemberResponse {
    success: bool,
    data: MemberJson,
}

#[derive(Serialize, ToSchema)]
struct MemberList {
    success: bool,
    data: Vec<MemberJson>,
}

/// A farmer asks to join; a manager answers (`PUT /cooperatives/{id}/members/{user_id}`).
#[utoipa::path(post, path = "/cooperatives/{id}/join", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = MemberResponse), (status = 403, description = "farmers_only", body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, description = "cooperative_suspended", body = ErrorBody)))]
async fn join(State(state): State<AppState>, auth: AuthUser, Path(id): Path<i64>) -> ApiResult<Json<MemberResponse>> {
    let asked = state.db.write(move |tx| cooperatives::ask_to_join(tx, &auth.user, id)).await?;
    Ok(Json(MemberResponse { success: true, data: MemberJson::of(asked, false) }))
}

/// A cooperative's people, those who asked first (its managers and admins).
#[utoipa::path(get, path = "/cooperatives/{id}/members", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = MemberList), (status = 403, description = "managers_only", body = ErrorBody),
              (status = 404, body = ErrorBody)))]
async fn members(State(state): State<AppState>, auth: AuthUser, Path(id): Path<i64>) -> ApiResult<Json<MemberList>> {
    let found = state
        .db
        .read(move |conn| {
            cooperatives::must_manage(conn, &auth.user, id, true)?;
            Ok(rows::members(conn, id)?)
        })
        .await?;
    Ok(Json(MemberList { success: true, data: found.into_iter().map(|m| MemberJson::of(m, true)).collect() }))
}

#[derive(Deserialize, ToSchema)]
struct MemberRequest {
    #[schema(schema_with = crate::api::document::member_status)]
    status: Option<String>,
    #[schema(schema_with = crate::api::document::member_role)]
    role: Option<String>,
}

/// A manager accepts, adds or removes a member; an admin also names managers.
#[utoipa::path(put, path = "/cooperatives/{id}/members/{user_id}", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path), ("user_id" = i64, Path)), request_body = MemberRequest,
    responses((status = 200, body = MemberResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, description = "not_a_farmer", body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn change_member(
    State(state): State<AppState>,
    auth: AuthUser,
    Path((id, user_id)): Path<(i64, i64)>,
    ApiJson(request): ApiJson<MemberRequest>,
) -> ApiResult<Json<MemberResponse>> {
    let changed = state
        .db
        .write(move |tx| {
            let change = MemberChange { status: request.status.as_deref(), role: request.role.as_deref() };
            cooperatives::change_member(tx, &auth.user, id, user_id, &change)
        })
        .await?;
    Ok(Json(MemberResponse { success: true, data: MemberJson::of(changed, true) }))
}

/// The cooperatives the signed-in person belongs to, asked to join, or left.
#[utoipa::path(get, path = "/me/cooperatives", operation_id = "my_cooperatives", tag = "cooperatives", security(("bearer" = [])),
    responses((status = 200, body = MemberList)))]
async fn mine(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Json<MemberList>> {
    let found = state.db.read(move |conn| Ok(rows::of_person(conn, auth.user.id)?)).await?;
    Ok(Json(MemberList { success: true, data: found.into_iter().map(|m| MemberJson::shown(m, false, true)).collect() }))
}
