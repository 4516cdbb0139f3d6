//! Market prices for everyone (docs/prices.md): `GET /prices` (the board), `GET
//! /prices/markets`, `GET /prices/range` (a product page's and the listing form's
//! hint), and a signed-in person's weekly SMS (`/me/price-alerts`). Admins'
//! routes are in `admin_prices.rs`; agents record prices by sync (`price.record`).

use axum::Json;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::ApiJson;
use crate::auth::AuthUser;
use crate::db::prices::{self as rows, MarketRow};
use crate::domain::prices::board::{self, Board, BoardFilter, Range};
use crate::domain::prices::{self, alerts, crop_named};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::price::PriceUnit;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(prices_board))
        .routes(routes!(markets))
        .routes(routes!(price_range))
        .routes(routes!(my_alerts, follow, unfollow))
}

/// A market on the list.
#[derive(Serialize, ToSchema)]
pub struct MarketJson {
    id: i64,
    name: String,
    territory: String,
}

impl From<MarketRow> for MarketJson {
    fn from(m: MarketRow) -> Self {
        MarketJson { id: m.id, name: m.name, territory: m.territory }
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct BoardQuery {
    #[param(value_type = Option<String>, schema_with = crate::api::document::price_crops)]
    crop: Option<String>,
    /// A market's id (`/prices/markets`); 404 `market_not_found` when it is not on the list.
    market: Option<i64>,
    /// A territory of the markets (Bukavu, Kabare, ...; any case); 404 `market_not_found` when no market is in it.
    territory: Option<String>,
}

/// The filter a query names; its crop is read before the cache is asked.
fn board_filter(
    markets: &[MarketRow],
    crop: Option<&'static prices::Crop>,
    query: &BoardQuery,
) -> ApiResult<BoardFilter> {
    // A market or territory that is not on the list is not found, as a market's page would not be.
    let market = match query.market {
        Some(id) => Some(
            markets
                .iter()
                .find(|m| m.id == id)
                .cloned()
                .ok_or_else(|| AppError::not_found("market_not_found", "Unknown market"))?,
        ),
        None => None,
    };
    let territory = match super::chosen(query.territory.as_deref()) {
        Some(text) => {
            Some(markets.iter().map(|m| &m.territory).find(|t| t.eq_ignore_ascii_case(text)).cloned().ok_or_else(
                || AppError::not_found("market_not_found", format!("No market in the territory {text:?}")),
            )?)
        }
        None => None,
    };
    Ok(BoardFilter { crop, market, territory })
}

#[derive(Serialize, ToSchema)]
struct BoardResponse {
    success: bool,
    data: Board,
    /// Every market on the list (for the filters).
    markets: Vec<MarketJson>,
}

/// Each crop's median price of its newest week, its last 12 weeks, its range and
/// markets: the same for everyone, answered from memory until a price changes.
#[utoipa::path(get, path = "/prices", tag = "prices", params(BoardQuery),
    responses(
        (status = 200, body = BoardResponse),
        (status = 404, description = "market_not_found: the market, or any market in the territory", body = ErrorBody),
        (status = 422, description = "invalid_filter: the crop is not one", body = ErrorBody),
    ))]
async fn prices_board(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<BoardQuery>,
) -> ApiResult<Response> {
    let crop = super::filter(query.crop.as_deref(), "crop", crop_named)?;
    let territory = query.territory.as_deref().map(|t| t.trim().to_lowercase());
    let key = format!("board|{:?}|{:?}|{territory:?}", crop.map(|c| c.key), query.market);
    from_memory(&state, &headers, key, move |conn| {
        let markets = rows::markets(conn)?;
        let filter = board_filter(&markets, crop, &query)?;
        let data = board::board(conn, &filter)?;
        Ok(BoardResponse { success: true, data, markets: markets.into_iter().map(MarketJson::from).collect() })
    })
    .await
}

/// An answer the same for everyone until a price changes: from memory, read on a miss.
async fn from_memory<T, F>(state: &AppState, headers: &HeaderMap, key: String, read: F) -> ApiResult<Response>
where
    T: Serialize + Send + 'static,
    F: FnOnce(&crate::db::Connection) -> ApiResult<T> + Send + 'static,
{
    let db = state.db.clone();
    super::cached_answer(&state.prices_cache, key, state.db.prices_version(), headers, || async move {
        serde_json::to_vec(&db.read_versioned(read).await?).map_err(AppError::internal)
    })
    .await
}

#[derive(Serialize, ToSchema)]
struct MarketsResponse {
    success: bool,
    data: Vec<MarketJson>,
}

/// The markets prices are recorded at, by territory.
#[utoipa::path(get, path = "/prices/markets", tag = "prices", responses((status = 200, body = MarketsResponse)))]
async fn markets(State(state): State<AppState>) -> ApiResult<Json<MarketsResponse>> {
    let markets = state.db.read_versioned(|conn| Ok(rows::markets(conn)?)).await?;
    Ok(Json(MarketsResponse { success: true, data: markets.into_iter().map(MarketJson::from).collect() }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct RangeQuery {
    /// What is sold: a product's title or a crop's name, in any language.
    name: String,
    /// kg, piece, bag_50kg, bag_100kg, basin or bunch.
    #[param(value_type = crate::model::price::PriceUnit)]
    unit: String,
    /// Where the seller is: a territory it names narrows the range when it has enough prices.
    place: Option<String>,
}

#[derive(Serialize, ToSchema)]
struct RangeResponse {
    success: bool,
    /// None when the crop is unknown or has fewer than 5 prices in the last 400 days.
    data: Option<Range>,
}

/// What buyers paid lately for the crop `name` names, in `unit`: under a product's
/// price and while a farmer types one.
#[utoipa::path(get, path = "/prices/range", tag = "prices", params(RangeQuery),
    responses((status = 200, body = RangeResponse), (status = 422, description = "invalid_filter", body = ErrorBody)))]
async fn price_range(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<RangeQuery>,
) -> ApiResult<Response> {
    let unit = super::filter(Some(&query.unit), "unit", PriceUnit::parse)?
        .ok_or_else(|| AppError::invalid("unit", "invalid_filter", "Say the unit"))?;
    let name: String = query.name.chars().take(200).collect();
    let place: Option<String> = query.place.map(|p| crate::model::product::fold(&p).chars().take(60).collect());
    let crop = prices::crop_of_names(&name).or_else(|| crop_named(&name));
    let key = format!("range|{:?}|{unit}|{place:?}", crop.map(|c| c.key));
    from_memory(&state, &headers, key, move |conn| {
        let data = match crop {
            Some(crop) => board::range(conn, crop, unit, place.as_deref())?,
            None => None,
        };
        Ok(RangeResponse { success: true, data })
    })
    .await
}

/// A crop a person's number follows.
#[derive(Serialize, ToSchema)]
struct AlertJson {
    crop: String,
    /// None: every market.
    market: Option<MarketJson>,
}

#[derive(Serialize, ToSchema)]
struct AlertsResponse {
    success: bool,
    /// The number the SMS go to.
    phone: String,
    data: Vec<AlertJson>,
    /// How many crops a number may follow.
    max: usize,
}

fn phone_of(user: &crate::db::users::UserRow) -> ApiResult<String> {
    user.phone_number.clone().filter(|p| p.starts_with('+')).ok_or_else(|| {
        AppError::conflict("phone_required", "Add your phone number in your profile to get prices by SMS")
    })
}

fn alerts_answer(conn: &crate::db::Connection, phone: String) -> ApiResult<AlertsResponse> {
    let data = alerts::of_phone(conn, &phone)?
        .into_iter()
        .map(|a| AlertJson { crop: a.crop.key.to_owned(), market: a.market.map(MarketJson::from) })
        .collect();
    Ok(AlertsResponse { success: true, phone, data, max: alerts::MAX_ALERTS })
}

/// The crops the person's number gets prices of each Monday by SMS.
#[utoipa::path(get, path = "/me/price-alerts", tag = "prices", security(("bearer" = [])),
    responses((status = 200, body = AlertsResponse), (status = 401, body = ErrorBody),
        (status = 409, description = "phone_required: the account has no phone number", body = ErrorBody)))]
async fn my_alerts(State(state): State<AppState>, me: AuthUser) -> ApiResult<Json<AlertsResponse>> {
    let phone = phone_of(&me.user)?;
    Ok(Json(state.db.read(move |conn| alerts_answer(conn, phone)).await?))
}

#[derive(Deserialize, ToSchema)]
struct AlertRequest {
    #[schema(schema_with = crate::api::document::crop_keys)]
    crop: String,
    /// A market's id; none: every market.
    market_id: Option<i64>,
}

fn alert_target(
    conn: &crate::db::Connection,
    body: &AlertRequest,
) -> ApiResult<(&'static prices::Crop, Option<MarketRow>)> {
    let crop = crop_named(&body.crop).ok_or_else(|| AppError::invalid("crop", "crop_unknown", "Unknown crop"))?;
    let market = match body.market_id {
        Some(id) => Some(
            rows::market(conn, id)?
                .ok_or_else(|| AppError::invalid("market_id", "market_unknown", "Unknown market"))?,
        ),
        None => None,
    };
    Ok((crop, market))
}

/// Follows a crop (at a market): its prices come each Monday by SMS.
#[utoipa::path(put, path = "/me/price-alerts", tag = "prices", security(("bearer" = [])), request_body = AlertRequest,
    responses((status = 200, body = AlertsResponse), (status = 401, body = ErrorBody),
        (status = 409, description = "phone_required, alerts_full", body = ErrorBody),
        (status = 422, description = "crop_unknown, market_unknown", body = ErrorBody)))]
async fn follow(
    State(state): State<AppState>,
    me: AuthUser,
    ApiJson(body): ApiJson<AlertRequest>,
) -> ApiResult<Json<AlertsResponse>> {
    let phone = phone_of(&me.user)?;
    let answer = state
        .db
        .write(move |tx| {
            let (crop, market) = alert_target(tx, &body)?;
            alerts::subscribe(tx, &phone, crop, market.as_ref())?;
            alerts_answer(tx, phone)
        })
        .await?;
    Ok(Json(answer))
}

/// Stops following a crop (at a market).
#[utoipa::path(delete, path = "/me/price-alerts", tag = "prices", security(("bearer" = [])), request_body = AlertRequest,
    responses((status = 200, body = AlertsResponse), (status = 401, body = ErrorBody),
        (status = 409, description = "phone_required", body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn unfollow(
    State(state): State<AppState>,
    me: AuthUser,
    ApiJson(body): ApiJson<AlertRequest>,
) -> ApiResult<Json<AlertsResponse>> {
    let phone = phone_of(&me.user)?;
    let answer = state
        .db
        .write(move |tx| {
            let (crop, market) = alert_target(tx, &body)?;
            alerts::unsubscribe(tx, &phone, Some((crop, market.as_ref())))?;
            alerts_answer(tx, phone)
        })
        .await?;
    Ok(Json(answer))
}
