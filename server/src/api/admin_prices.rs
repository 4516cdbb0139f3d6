//! Admins' market prices (docs/prices.md): the observations table with its filters
//! and CSV export, corrections and removals (audited), WFP VAM imports, and the
//! list of markets.

use axum::Json;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::admin::csv_download;
use super::extract::ApiJson;
use super::prices::MarketJson;
use super::{MessageResponse, Page, Paging};
use crate::auth::AdminUser;
use crate::db::prices::{self as rows, ObservationFilter, ObservationRow};
use crate::domain::prices::import::{self, ImportReport};
use crate::domain::prices::{self, PriceChange, crop_named, markets};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::decimal_amount;
use crate::model::price::{Currency, PriceUnit, Source};
use crate::platform::csv::Csv;
use crate::state::AppState;

/// An import file: 100,000 rows of WFP's layout are about 12 MB.
pub const IMPORT_LIMIT: usize = 16 * 1024 * 1024;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_prices))
        .routes(routes!(export))
        .routes(routes!(one_price, correct, remove))
        .routes(routes!(create_market))
        .routes(routes!(update_market, remove_market))
        .merge(OpenApiRouter::new().routes(routes!(import_prices)).layer(DefaultBodyLimit::max(IMPORT_LIMIT)))
}

/// Filters of the observations table; all optional.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PriceQuery {
    #[param(value_type = Option<String>, schema_with = crate::api::document::price_crops)]
    crop: Option<String>,
    market: Option<i64>,
    territory: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::price_sources)]
    source: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::from_day)]
    from: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::to_day)]
    to: Option<String>,
    page: Option<i64>,
    per_page: Option<i64>,
    /// Language of an export's labels: en, fr or sw.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
}

impl PriceQuery {
    fn filter(&self) -> ApiResult<ObservationFilter> {
        // The export's language, refused on the list too: they read one query.
        super::export_lang(self.lang.as_deref())?;
        let day = |text: &str| prices::day(text).map(|d| d.to_string());
        Ok(ObservationFilter {
            crop: super::filter(self.crop.as_deref(), "crop", crop_named)?.map(|c| c.key.to_owned()),
            market_id: self.market,
            territory: self.territory.as_deref().map(str::trim).filter(|t| !t.is_empty()).map(str::to_owned),
            source: super::filter(self.source.as_deref(), "source", Source::parse)?,
            from: super::filter(self.from.as_deref(), "from", day)?,
            to: super::filter(self.to.as_deref(), "to", day)?,
        })
    }
}

/// An observation as admins see it.
#[derive(Serialize, ToSchema)]
pub struct ObservationJson {
    id: i64,
    uid: String,
    source: Source,
    crop: String,
    market_id: Option<i64>,
    market: Option<String>,
    territory: Option<String>,
    /// A sale's farmer's place.
    place: Option<String>,
    unit: PriceUnit,
    /// In hundredths of `currency`.
    price_cents: i64,
    currency: Currency,
    /// The price per `unit` in millionths of a US dollar, at the day's rate.
    usd_micros: i64,
    observed_on: String,
    note: Option<String>,
    /// Left out of medians (beyond 3 MADs of its week).
    outlier: bool,
    recorded_by: Option<i64>,
}

impl From<ObservationRow> for ObservationJson {
    fn from(o: ObservationRow) -> Self {
        ObservationJson {
            id: o.id,
            uid: o.uid,
            source: o.source,
            crop: o.crop,
            market_id: o.market_id,
            market: o.market_name,
            territory: o.territory,
            place: o.place,
            unit: o.unit,
            price_cents: o.price_cents,
            currency: o.currency,
            usd_micros: o.usd_micros,
            observed_on: o.observed_on,
            note: o.note,
            outlier: o.outlier,
            recorded_by: o.recorded_by,
        }
    }
}

/// The observations that stand, filtered, a page at a time.
#[utoipa::path(get, path = "/admin/prices", tag = "prices", security(("bearer" = [])), params(PriceQuery),
    responses((status = 200, body = Page<ObservationJson>), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn list_prices(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<PriceQuery>,
) -> ApiResult<Json<Page<ObservationJson>>> {
    let filter = query.filter()?;
    let paging = Paging::admin(query.page, query.per_page);
    let (found, total) =
        state.db.read(move |conn| Ok(rows::list(conn, &filter, paging.per_page, paging.offset())?)).await?;
    Ok(Json(Page::new(found.into_iter().map(ObservationJson::from).collect(), total, paging)))
}

/// Every observation matching the filters as `prices_{date}.csv` (formula-safe), labels in `lang`.
#[utoipa::path(get, path = "/admin/prices/export", operation_id = "export_prices", tag = "prices", security(("bearer" = [])), params(PriceQuery),
    responses((status = 200, content_type = "text/csv", body = String), (status = 403, body = ErrorBody),
        (status = 404, description = "no_prices: nothing to export", body = ErrorBody)))]
async fn export(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<PriceQuery>,
) -> ApiResult<impl IntoResponse> {
    let filter = query.filter()?;
    let lang = super::export_lang(query.lang.as_deref())?;
    let csv = state
        .db
        .read(move |conn| {
            let mut csv = Csv::new();
            csv.row(
                ["day", "crop", "market", "territory", "unit", "price", "currency", "usd", "source", "outlier", "note"]
                    .iter()
                    .map(|key| lang.text(&format!("admin.prices.columns.{key}"))),
            );
            let count = rows::for_each_match(conn, &filter, |o| {
                csv.row([
                    o.observed_on.clone(),
                    lang.text(&format!("crops.{}", o.crop)),
                    o.market_name.clone().or_else(|| o.place.clone()).unwrap_or_default(),
                    o.territory.clone().unwrap_or_default(),
                    lang.text(&format!("price_units.{}", o.unit.as_str())),
                    decimal_amount(o.price_cents),
                    o.currency.to_string(),
                    format!("{:.4}", o.usd_micros as f64 / 1e6),
                    lang.text(&format!("admin.prices.sources.{}", o.source.as_str())),
                    if o.outlier { lang.text("admin.prices.outlier") } else { String::new() },
                    o.note.clone().unwrap_or_default(),
                ]);
            })?;
            if count == 0 {
                return Err(AppError::not_found("no_prices", "No prices match these filters"));
            }
            Ok(csv)
        })
        .await?;
    Ok(csv_download("prices", csv))
}

/// What an admin changed on an observation.
#[derive(Serialize, ToSchema)]
#[schema(as = PriceChangeJson)]
struct ChangeJson {
    /// `correct` or `remove`.
    action: String,
    admin_id: Option<i64>,
    /// The observation before (JSON).
    before: String,
    after: Option<String>,
    at: String,
}

#[derive(Serialize, ToSchema)]
struct PriceResponse {
    success: bool,
    data: ObservationJson,
    /// Admins' corrections and removal, oldest first.
    changes: Vec<ChangeJson>,
}

fn answer(conn: &crate::db::Connection, id: i64) -> ApiResult<PriceResponse> {
    let row = rows::by_id(conn, id)?.ok_or_else(|| AppError::not_found("price_not_found", "No such price"))?;
    let changes = rows::changes_of(conn, id)?
        .into_iter()
        .map(|(action, admin_id, before, after, at)| ChangeJson { action, admin_id, before, after, at })
        .collect();
    Ok(PriceResponse { success: true, data: ObservationJson::from(row), changes })
}

/// One observation and what admins changed on it.
#[utoipa::path(get, path = "/admin/prices/{id}", tag = "prices", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = PriceResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn one_price(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<PriceResponse>> {
    Ok(Json(state.db.read(move |conn| answer(conn, id)).await?))
}

/// An observation's correction: a field left out (or `null`) keeps its value; an empty
/// note clears it.
#[derive(Deserialize, ToSchema)]
struct PriceRequest {
    market_id: Option<i64>,
    crop: Option<String>,
    unit: Option<String>,
    /// The price as written: "1.20", "2500".
    price: Option<String>,
    /// USD or CDF.
    currency: Option<String>,
    /// YYYY-MM-DD.
    observed_on: Option<String>,
    note: Option<String>,
}

/// Corrects an agent's or an import's observation; the change is kept.
#[utoipa::path(patch, path = "/admin/prices/{id}", tag = "prices", security(("bearer" = [])), params(("id" = i64, Path)),
    request_body = PriceRequest,
    responses((status = 200, body = PriceResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "sale_price: a sale's price is what was paid", body = ErrorBody),
        (status = 422, description = "market_unknown, crop_unknown, unit_unknown, market_price_invalid, currency_unknown, date_invalid, date_future, date_too_old, note_invalid, rate_missing", body = ErrorBody)))]
async fn correct(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    Path(id): Path<i64>,
    ApiJson(body): ApiJson<PriceRequest>,
) -> ApiResult<Json<PriceResponse>> {
    let answer = state
        .db
        .write(move |tx| {
            let change = PriceChange {
                market: body.market_id,
                crop: body.crop.as_deref(),
                unit: body.unit.as_deref(),
                price: body.price.as_deref(),
                currency: body.currency.as_deref(),
                observed_on: body.observed_on.as_deref(),
                note: body.note.as_deref(),
            };
            prices::correct(tx, &admin.user, id, &change)?;
            answer(tx, id)
        })
        .await?;
    Ok(Json(answer))
}

/// Removes an observation from every figure (it is kept, with who removed it).
#[utoipa::path(delete, path = "/admin/prices/{id}", tag = "prices", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = MessageResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn remove(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<MessageResponse>> {
    state.db.write(move |tx| prices::remove(tx, &admin.user, id)).await?;
    Ok(MessageResponse::new("Price removed"))
}

#[derive(Serialize, ToSchema)]
struct ImportResponse {
    success: bool,
    data: ImportReport,
}

/// Imports a CSV in WFP VAM's layout (the body, `text/csv`): good rows are written
/// together, refused rows are listed with their line and reasons.
#[utoipa::path(post, path = "/admin/prices/import", tag = "prices", security(("bearer" = [])),
    request_body(content = String, content_type = "text/csv"),
    responses((status = 200, body = ImportResponse), (status = 400, description = "import_empty, import_columns, import_too_long, import_line_too_long, invalid_body", body = ErrorBody),
        (status = 403, body = ErrorBody), (status = 413, body = ErrorBody)))]
async fn import_prices(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    body: axum::body::Bytes,
) -> ApiResult<Json<ImportResponse>> {
    // Read where it arrived, without a copy, one row at a time.
    let data = state
        .db
        .write(move |tx| {
            let text = std::str::from_utf8(&body).map_err(|_| {
                AppError::bad_request("invalid_body", "The file is not UTF-8 text: save it as CSV UTF-8")
            })?;
            import::import(tx, &admin.user, text)
        })
        .await?;
    Ok(Json(ImportResponse { success: true, data }))
}

#[derive(Deserialize, ToSchema)]
struct MarketRequest {
    #[schema(schema_with = crate::api::document::line::<{ crate::domain::prices::markets::MAX_NAME_CHARS }>)]
    name: String,
    #[schema(schema_with = crate::api::document::line::<{ crate::domain::prices::markets::MAX_NAME_CHARS }>)]
    territory: String,
}

#[derive(Serialize, ToSchema)]
struct MarketResponse {
    success: bool,
    data: MarketJson,
}

/// Adds a market to the list agents record at.
#[utoipa::path(post, path = "/admin/markets", tag = "prices", security(("bearer" = [])), request_body = MarketRequest,
    responses((status = 200, body = MarketResponse), (status = 403, body = ErrorBody), (status = 422, description = "required, too_long, market_taken", body = ErrorBody)))]
async fn create_market(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiJson(body): ApiJson<MarketRequest>,
) -> ApiResult<Json<MarketResponse>> {
    let market = state.db.write(move |tx| markets::create(tx, &body.name, &body.territory)).await?;
    Ok(Json(MarketResponse { success: true, data: MarketJson::from(market) }))
}

/// A market renamed or moved: a field left out (or `null`) keeps its value.
#[derive(Deserialize, ToSchema)]
struct MarketChange {
    #[schema(schema_with = crate::api::document::some_line::<{ crate::domain::prices::markets::MAX_NAME_CHARS }>)]
    name: Option<String>,
    #[schema(schema_with = crate::api::document::some_line::<{ crate::domain::prices::markets::MAX_NAME_CHARS }>)]
    territory: Option<String>,
}

/// Renames a market or moves it to another territory.
#[utoipa::path(patch, path = "/admin/markets/{id}", tag = "prices", security(("bearer" = [])), params(("id" = i64, Path)),
    request_body = MarketChange,
    responses((status = 200, body = MarketResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn update_market(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<i64>,
    ApiJson(body): ApiJson<MarketChange>,
) -> ApiResult<Json<MarketResponse>> {
    let market =
        state.db.write(move |tx| markets::update(tx, id, body.name.as_deref(), body.territory.as_deref())).await?;
    Ok(Json(MarketResponse { success: true, data: MarketJson::from(market) }))
}

/// Takes a market off the list (what was recorded there stays).
#[utoipa::path(delete, path = "/admin/markets/{id}", tag = "prices", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = MessageResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn remove_market(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<MessageResponse>> {
    state.db.write(move |tx| markets::remove(tx, id)).await?;
    Ok(MessageResponse::new("Market removed"))
}
