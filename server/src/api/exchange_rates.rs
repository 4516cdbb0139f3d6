//! `GET /exchange-rates` (anyone), `GET`/`PUT /admin/exchange-rates/{currency}` (admins);
//! docs/money.md.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::ApiJson;
use crate::auth::AdminUser;
use crate::db::exchange_rates::{self as rows, RateRow};
use crate::domain::exchange_rates::{self, CURRENCIES, RateInput};
use crate::error::{ApiResult, ErrorBody};
use crate::state::AppState;

/// The rates an admin sees under the form.
const HISTORY: i64 = 20;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(current_rates)).routes(routes!(rate_history, set_rate))
}

/// A rate as phones and the public API see it (also the sync record, entity `exchange_rate`).
#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "RateRecord"))]
pub struct RateJson {
    currency: String,
    /// How many of `currency` one US dollar buys (whole units).
    francs_per_usd: i64,
    /// The day the rate is from (YYYY-MM-DD).
    as_of: String,
    /// When it was set.
    updated_at: String,
}

impl From<RateRow> for RateJson {
    fn from(r: RateRow) -> Self {
        RateJson { currency: r.currency, francs_per_usd: r.francs_per_usd, as_of: r.as_of, updated_at: r.created_at }
    }
}

#[derive(Serialize, ToSchema)]
struct Setter {
    id: i64,
    name: String,
}

/// A rate with who set it, for admins.
#[derive(Serialize, ToSchema)]
struct SetRateJson {
    #[serde(flatten)]
    rate: RateJson,
    set_by: Option<Setter>,
}

impl From<RateRow> for SetRateJson {
    fn from(mut r: RateRow) -> Self {
        let set_by = r.set_by.take().map(|(id, name)| Setter { id, name });
        SetRateJson { rate: RateJson::from(r), set_by }
    }
}

#[derive(Serialize, ToSchema)]
struct RatesResponse {
    success: bool,
    /// The rate in use of each currency that has one.
    data: Vec<RateJson>,
}

/// The rates in use (none until an admin sets one).
#[utoipa::path(get, path = "/exchange-rates", tag = "money", security((), ("bearer" = [])),
    responses((status = 200, body = RatesResponse)))]
async fn current_rates(State(state): State<AppState>) -> ApiResult<Json<RatesResponse>> {
    let rates = state
        .db
        .read(|conn| {
            let mut rates = Vec::new();
            for currency in CURRENCIES {
                rates.extend(rows::current(conn, currency)?.map(RateJson::from));
            }
            Ok(rates)
        })
        .await?;
    Ok(Json(RatesResponse { success: true, data: rates }))
}

#[derive(Serialize, ToSchema)]
struct HistoryResponse {
    success: bool,
    /// The newest 20, newest (the one in use) first.
    data: Vec<SetRateJson>,
}

/// The rates set for a currency, newest first, with who set them.
#[utoipa::path(get, path = "/admin/exchange-rates/{currency}", tag = "money", security(("bearer" = [])),
    params(("currency" = String, Path, description = "CDF")),
    responses((status = 200, body = HistoryResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
async fn rate_history(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(currency): Path<String>,
) -> ApiResult<Json<HistoryResponse>> {
    let currency = exchange_rates::check_currency(&currency)?;
    let rates = state.db.read(move |conn| Ok(rows::history(conn, currency, HISTORY)?)).await?;
    Ok(Json(HistoryResponse { success: true, data: rates.into_iter().map(SetRateJson::from).collect() }))
}

#[derive(Deserialize, ToSchema)]
struct RateRequest {
    /// A whole number from 1 to 1,000,000 (read as given, so that a wrong one is refused with its words).
    #[schema(value_type = i64, required = true, minimum = 1, maximum = 1_000_000)]
    francs_per_usd: Option<serde_json::Value>,
    /// YYYY-MM-DD, not in the future (a day to come: 422).
    #[schema(value_type = String, format = Date, required = true)]
    as_of: Option<String>,
}

#[derive(Serialize, ToSchema)]
struct RateResponse {
    success: bool,
    message: String,
    data: SetRateJson,
}

/// Sets the rate in use from now on (earlier ones are kept); phones receive it by sync.
#[utoipa::path(put, path = "/admin/exchange-rates/{currency}", tag = "money", security(("bearer" = [])),
    params(("currency" = String, Path, description = "CDF")), request_body = RateRequest,
    responses((status = 200, body = RateResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 422, description = "rate_invalid, required, date_invalid, date_in_future", body = ErrorBody)))]
async fn set_rate(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    Path(currency): Path<String>,
    ApiJson(body): ApiJson<RateRequest>,
) -> ApiResult<Json<RateResponse>> {
    let input = RateInput { francs_per_usd: body.francs_per_usd, as_of: body.as_of };
    let rate = state.db.write(move |tx| exchange_rates::set(tx, &admin.user, &currency, &input)).await?;
    Ok(Json(RateResponse { success: true, message: "Exchange rate saved".into(), data: SetRateJson::from(rate) }))
}
