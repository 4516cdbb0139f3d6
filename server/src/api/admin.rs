//! Admin endpoints for people (docs/product.md, Screens, "Admin Users"; docs/api.md). Every
//! handler takes `AdminUser`, so buyers, farmers and field agents get 403 here.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::accounts::UserJson;
use super::extract::ApiJson;
use crate::auth::AdminUser;
use crate::db::overview;
use crate::db::user_changes::{self, UserChange};
use crate::db::users::{self, UserFilter, UserRow};
use crate::domain::people::{self, Changes};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::user::{Country, Role, Status};
use crate::platform::csv::Csv;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_users))
        .routes(routes!(user_stats))
        .routes(routes!(export_users))
        .routes(routes!(user_details, change_user))
        .routes(routes!(overview))
}

/// Filters of the people list; all optional.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct UserQuery {
    /// Part of a first or last name, email, username or phone number.
    q: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::roles)]
    role: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::user_statuses)]
    status: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::countries)]
    country: Option<String>,
    /// Language of an export's labels: en, fr or sw.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
}

impl UserQuery {
    fn filter(&self) -> ApiResult<UserFilter> {
        // The export's language, refused on the list too: they read one query.
        super::export_lang(self.lang.as_deref())?;
        Ok(UserFilter {
            search: super::search(self.q.as_deref())?,
            role: super::filter(self.role.as_deref(), "role", Role::parse)?,
            status: super::filter(self.status.as_deref(), "status", Status::parse)?,
            country: super::filter(self.country.as_deref(), "country", Country::parse)?,
        })
    }
}

/// The accounts matching the filters, oldest first (docs/api.md answers a bare array).
#[utoipa::path(get, path = "/admin/users", tag = "admin", security(("bearer" = [])), params(UserQuery),
    responses((status = 200, body = [UserJson]), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn list_users(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<UserQuery>,
) -> ApiResult<Json<Vec<UserJson>>> {
    let filter = query.filter()?;
    let rows = state.db.read(move |conn| Ok(users::search(conn, &filter)?)).await?;
    Ok(Json(rows.into_iter().map(UserJson::from).collect()))
}

#[derive(Serialize, ToSchema)]
pub struct UserStats {
    total: i64,
    /// Accounts per role, every role present (0 when none).
    by_role: std::collections::BTreeMap<String, i64>,
    /// Accounts per status, every status present.
    by_status: std::collections::BTreeMap<String, i64>,
}

/// Counts for the stat cards, over every account.
#[utoipa::path(get, path = "/admin/users/stats", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = UserStats), (status = 403, body = ErrorBody)))]
async fn user_stats(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<Json<UserStats>> {
    let (roles, statuses) =
        state.db.read(|conn| Ok((users::count_by(conn, "role")?, users::count_by(conn, "status")?))).await?;
    let mut by_role: std::collections::BTreeMap<String, i64> =
        Role::ALL.iter().map(|r| (r.as_str().to_owned(), 0)).collect();
    by_role.extend(roles);
    let mut by_status: std::collections::BTreeMap<String, i64> =
        Status::ALL.iter().map(|s| (s.as_str().to_owned(), 0)).collect();
    by_status.extend(statuses);
    Ok(Json(UserStats { total: by_role.values().sum(), by_role, by_status }))
}

/// The accounts matching the filters as `users_{date}.csv`, labels in `lang`.
#[utoipa::path(get, path = "/admin/users/export", tag = "admin", security(("bearer" = [])), params(UserQuery),
    responses((status = 200, content_type = "text/csv", body = String), (status = 403, body = ErrorBody), (status = 404, description = "no_users: nothing to export", body = ErrorBody)))]
async fn export_users(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<UserQuery>,
) -> ApiResult<impl IntoResponse> {
    let filter = query.filter()?;
    let lang = super::export_lang(query.lang.as_deref())?;
    let rows = state.db.read(move |conn| Ok(users::search(conn, &filter)?)).await?;
    if rows.is_empty() {
        return Err(AppError::not_found("no_users", "No users to export"));
    }
    let mut csv = Csv::new();
    csv.row(
        [
            "admin.columns.id",
            "fields.first_name",
            "fields.last_name",
            "fields.email",
            "fields.phone_number",
            "fields.country",
            "fields.username",
            "admin.columns.role",
            "profile.status",
            "fields.location",
            "profile.member_since",
            "profile.last_updated",
        ]
        .map(|key| lang.text(key)),
    );
    for user in rows {
        csv.row([
            user.id.to_string(),
            user.first_name,
            user.last_name,
            user.email.unwrap_or_default(),
            user.phone_number.unwrap_or_default(),
            user.country.map(|c| lang.text(&format!("countries.{c}"))).unwrap_or_default(),
            user.username.unwrap_or_default(),
            lang.text(&format!("roles.{}", user.role)),
            lang.text(&format!("statuses.{}", user.status)),
            user.location.unwrap_or_default(),
            user.created_at,
            user.updated_at,
        ]);
    }
    Ok(csv_download("users", csv))
}

/// A CSV answer that browsers save as `{name}_{date}.csv`.
pub fn csv_download(name: &str, csv: Csv) -> impl IntoResponse + use<> {
    let date = &crate::platform::clock::now()[..10];
    (
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_owned()),
            (header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}_{date}.csv\"")),
        ],
        csv.finish(),
    )
}

#[derive(Serialize, ToSchema)]
#[schema(as = UserChangeJson)]
pub struct ChangeJson {
    /// `role` or `status`.
    field: String,
    from: String,
    to: String,
    at: String,
    by: ActorJson,
}

#[derive(Serialize, ToSchema)]
pub struct ActorJson {
    id: i64,
    name: String,
}

impl From<UserChange> for ChangeJson {
    fn from(c: UserChange) -> Self {
        ChangeJson {
            field: c.field,
            from: c.old_value,
            to: c.new_value,
            at: c.changed_at,
            by: ActorJson { id: c.changed_by_id, name: c.changed_by_name },
        }
    }
}

/// What the signed-in admin may change on this person; screens hide the rest.
#[derive(Serialize, ToSchema)]
pub struct AllowedJson {
    role: bool,
    status: bool,
}

#[derive(Serialize, ToSchema)]
pub struct UserDetails {
    success: bool,
    data: UserJson,
    /// Role and status changes, newest first.
    changes: Vec<ChangeJson>,
    can_change: AllowedJson,
}

fn details(conn: &crate::db::Connection, actor: &UserRow, user: UserRow) -> ApiResult<UserDetails> {
    let changes = user_changes::of_user(conn, user.id)?.into_iter().map(ChangeJson::from).collect();
    let allowed = people::allowed(actor, &user);
    Ok(UserDetails {
        success: true,
        data: user.into(),
        changes,
        can_change: AllowedJson { role: allowed.role, status: allowed.status },
    })
}

/// One person with the history of their role and status.
#[utoipa::path(get, path = "/admin/users/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = UserDetails), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn user_details(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<UserDetails>> {
    let actor = admin.user;
    let found = state
        .db
        .read(move |conn| {
            let user = users::find(conn, id)?.ok_or_else(|| AppError::not_found("user_not_found", "User not found"))?;
            details(conn, &actor, user)
        })
        .await?;
    Ok(Json(found))
}

#[derive(Deserialize, ToSchema)]
pub struct UserChangeForm {
    #[serde(default)]
    #[schema(schema_with = crate::api::document::new_role)]
    role: Option<String>,
    #[serde(default)]
    #[schema(schema_with = crate::api::document::new_user_status)]
    status: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct UserChangeRequest {
    user: UserChangeForm,
}

/// Change a person's role (super admins only) or status; each change is recorded.
#[utoipa::path(patch, path = "/admin/users/{id}", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)),
    request_body = UserChangeRequest,
    responses(
        (status = 200, body = UserDetails), (status = 403, description = "role_change_forbidden, status_change_forbidden", body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, description = "last_super_admin", body = ErrorBody), (status = 422, body = ErrorBody),
    ))]
async fn change_user(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<UserChangeRequest>,
) -> ApiResult<Json<UserDetails>> {
    let form = request.user;
    let changes = Changes {
        role: super::filter(form.role.as_deref(), "role", Role::parse)?,
        status: super::filter(form.status.as_deref(), "status", Status::parse)?,
    };
    let actor = admin.user;
    let answer = state
        .db
        .write(move |tx| {
            let user = people::change(tx, &actor, id, changes)?;
            details(tx, &actor, user)
        })
        .await?;
    Ok(Json(answer))
}

/// The admin home's figures (over the last 30 days where it says so).
#[derive(Serialize, ToSchema)]
pub struct OverviewFigures {
    users: i64,
    users_last_30_days: i64,
    products_on_sale: i64,
    products_low_stock: i64,
    orders: i64,
    orders_last_30_days: i64,
    /// Delivered goods and their shipping (USD).
    revenue: f64,
    applications_waiting: i64,
}

/// One recent event: `kind` is signed_up, application_submitted, application_decided,
/// order_placed, payment_received or product_listed; `id` is the account, application,
/// order, payment or product; `detail` a role, status, operator or the product's farmer.
#[derive(Serialize, ToSchema)]
pub struct ActivityJson {
    kind: String,
    at: String,
    id: i64,
    name: String,
    detail: Option<String>,
    /// USD, for orders and payments.
    amount: Option<f64>,
}

#[derive(Serialize, ToSchema)]
pub struct Overview {
    success: bool,
    /// Payments go to the built-in simulator: no real money moves (docs/payments.md).
    payments_simulated: bool,
    figures: OverviewFigures,
    activity: Vec<ActivityJson>,
    /// The continuous off-site copy, for super admins (docs/operations.md, Off-site copy):
    /// when the store last confirmed it; none is this server the only copy. Absent for admins.
    #[serde(skip_serializing_if = "Option::is_none")]
    offsite: Option<crate::domain::offsite::OffsiteState>,
}

/// How many recent events the admin home lists.
const ACTIVITY: i64 = 12;

/// The admin home: the platform's figures and its latest events of every kind.
#[utoipa::path(get, path = "/admin/overview", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = Overview), (status = 403, body = ErrorBody)))]
async fn overview(State(state): State<AppState>, AdminUser(admin): AdminUser) -> ApiResult<Json<Overview>> {
    let since = crate::platform::clock::before_now(std::time::Duration::from_secs(30 * 24 * 3600));
    let low = crate::domain::products::LOW_STOCK;
    let threshold = state.config.offsite.as_ref().map(|o| o.lag_alert);
    let super_admin = admin.user.role == crate::model::user::Role::SuperAdmin;
    let (f, events, offsite) = state
        .db
        .read(move |conn| {
            let offsite = if super_admin { Some(crate::domain::offsite::state_of(conn, threshold)?) } else { None };
            Ok((overview::figures(conn, &since, low)?, overview::activity(conn, ACTIVITY)?, offsite))
        })
        .await?;
    let dollars = |cents: i64| cents as f64 / 100.0;
    Ok(Json(Overview {
        success: true,
        payments_simulated: state.payments.is_simulated(),
        figures: OverviewFigures {
            users: f.users,
            users_last_30_days: f.users_since,
            products_on_sale: f.products_on_sale,
            products_low_stock: f.products_low_stock,
            orders: f.orders,
            orders_last_30_days: f.orders_since,
            revenue: dollars(f.revenue_cents),
            applications_waiting: f.applications_waiting,
        },
        activity: events
            .into_iter()
            .map(|a| ActivityJson {
                // A payment's operator as people know it ("MTN MoMo"), not the provider's code.
                detail: match a.kind.as_str() {
                    "payment_received" => a.detail.map(|d| crate::model::payment::operator_name(&d).to_owned()),
                    _ => a.detail,
                },
                kind: a.kind,
                at: a.at,
                id: a.id,
                name: a.name,
                amount: a.amount_cents.map(dollars),
            })
            .collect(),
        offsite,
    }))
}
