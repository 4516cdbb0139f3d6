//! `GET /settings` (anyone: what the Contact page, the footer and checkout show),
//! `GET /admin/settings` (admins: every setting and its history), `PATCH /admin/settings`
//! (super admins); docs/settings.md.

use std::collections::BTreeMap;

use axum::Json;
use axum::extract::{Query, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::ApiJson;
use crate::auth::AdminUser;
use crate::db::settings::{self as rows, Change};
use crate::domain::settings::{self, PublicSettings, Settings, SettingsChange};
use crate::error::{ApiResult, ErrorBody};
use crate::model::payment::operators;
use crate::model::user::{Country, Role};
use crate::platform::clock;
use crate::state::AppState;

/// Changes shown per page of the history.
const HISTORY_PAGE: i64 = 50;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(public_settings)).routes(routes!(admin_settings, change_settings))
}

#[derive(Serialize, ToSchema)]
struct PublicResponse {
    success: bool,
    data: PublicSettings,
}

/// The contact details, working hours, shipping policy and payment methods by country.
#[utoipa::path(get, path = "/settings", tag = "settings", security((), ("bearer" = [])),
    responses((status = 200, body = PublicResponse)))]
async fn public_settings(State(state): State<AppState>) -> ApiResult<Json<PublicResponse>> {
    let all = state.db.read(|conn| Ok(settings::load(conn)?)).await?;
    Ok(Json(PublicResponse { success: true, data: all.into() }))
}

#[derive(Serialize, ToSchema)]
#[schema(as = SettingChangeJson)]
struct ChangeJson {
    id: i64,
    /// The setting: `contact`, `shipping_policy`, `platform_fee_bp`, `payments`,
    /// `email_sender_name` or `email_language`.
    key: String,
    /// `null` when it had its default.
    #[schema(value_type = Object)]
    old_value: Option<serde_json::Value>,
    #[schema(value_type = Object)]
    new_value: serde_json::Value,
    changed_by: ChangedBy,
    changed_at: String,
}

#[derive(Serialize, ToSchema)]
struct ChangedBy {
    id: i64,
    name: String,
}

impl From<Change> for ChangeJson {
    fn from(c: Change) -> Self {
        let json = |text: &str| serde_json::from_str(text).unwrap_or(serde_json::Value::Null);
        ChangeJson {
            id: c.id,
            old_value: c.old_value.as_deref().map(json),
            new_value: json(&c.new_value),
            key: c.key,
            changed_by: ChangedBy { id: c.changed_by, name: c.changed_by_name },
            changed_at: c.changed_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
struct AdminResponse {
    success: bool,
    data: Settings,
    /// The newest changes first (a page; `before` asks for older ones).
    changes: Vec<ChangeJson>,
    /// Whether the reader may change them (super admins).
    can_change: bool,
    /// Every operator of each country, offered or not (what the form can choose from).
    known_operators: BTreeMap<String, Vec<OperatorJson>>,
}

#[derive(Serialize, ToSchema)]
#[schema(as = KnownOperatorJson)]
struct OperatorJson {
    id: &'static str,
    name: &'static str,
}

fn known_operators() -> BTreeMap<String, Vec<OperatorJson>> {
    Country::ALL
        .iter()
        .map(|c| (c.as_str().to_owned(), operators(*c).iter().map(|(id, name)| OperatorJson { id, name }).collect()))
        .collect()
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct HistoryQuery {
    /// Changes older than this id.
    before: Option<i64>,
}

/// Every setting, and who changed what when.
#[utoipa::path(get, path = "/admin/settings", tag = "settings", security(("bearer" = [])), params(HistoryQuery),
    responses((status = 200, body = AdminResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn admin_settings(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    Query(query): Query<HistoryQuery>,
) -> ApiResult<Json<AdminResponse>> {
    let (data, changes) = state
        .db
        .read(move |conn| Ok((settings::load(conn)?, rows::changes(conn, query.before, HISTORY_PAGE)?)))
        .await?;
    Ok(answer(data, changes, admin.user.role == Role::SuperAdmin))
}

fn answer(data: Settings, changes: Vec<Change>, can_change: bool) -> Json<AdminResponse> {
    let changes = changes.into_iter().map(ChangeJson::from).collect();
    Json(AdminResponse { success: true, data, changes, can_change, known_operators: known_operators() })
}

/// Changes the settings it names (each whole; `payments` country by country). Only
/// what differs is written, and each change recorded with who made it.
#[utoipa::path(patch, path = "/admin/settings", tag = "settings", security(("bearer" = [])), request_body = SettingsChange,
    responses((status = 200, body = AdminResponse), (status = 401, body = ErrorBody),
        (status = 403, description = "super_admin_only", body = ErrorBody),
        (status = 422, description = "required, too_long, invalid_characters, phone_number_invalid, email_invalid, fee_invalid, country_invalid, operator_invalid, invalid_option", body = ErrorBody)))]
async fn change_settings(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ApiJson(change): ApiJson<SettingsChange>,
) -> ApiResult<Json<AdminResponse>> {
    let (data, changes) = state
        .db
        .write(move |tx| {
            let data = settings::change(tx, &admin.user, change, &clock::now())?;
            Ok((data, rows::changes(tx, None, HISTORY_PAGE)?))
        })
        .await?;
    Ok(answer(data, changes, true))
}
