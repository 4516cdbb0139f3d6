//! A cooperative's weigh book (docs/cooperatives.md): managers write entries (here, or
//! offline as the `delivery.record` change) and see the book and the stock; members see
//! their own entries with their history and dispute them.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::Paging;
use super::admin::csv_download;
use super::extract::ApiJson;
use crate::auth::AuthUser;
use crate::db::deliveries::{self as rows, DeliveryRow};
use crate::domain::cooperatives::{self, deliveries};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::cooperative::{Grade, WeighUnit, kilograms};
use crate::platform::csv::Csv;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(book, record))
        .routes(routes!(export))
        .routes(routes!(stock))
        .routes(routes!(mine))
        .routes(routes!(dispute))
        .routes(routes!(keep))
}

#[derive(Serialize, ToSchema)]
struct DisputeJson {
    reason: String,
    /// `corrected` or `kept`, once a manager answered.
    answer: Option<String>,
    answer_note: Option<String>,
    created_at: String,
    answered_at: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct DeliveryJson {
    id: i64,
    uid: String,
    /// How messages name it: `D` and its number.
    reference: String,
    cooperative_id: i64,
    cooperative_name: String,
    member_id: i64,
    member_name: String,
    crop: String,
    grade: Grade,
    /// As weighed, in `unit`.
    quantity: String,
    unit: WeighUnit,
    /// What counts, in kilograms (one decimal).
    kilograms: String,
    delivered_on: String,
    place: String,
    photo: Option<String>,
    /// The entry this one corrects.
    replaces_id: Option<i64>,
    /// The entry that corrects this one: it no longer counts.
    replaced_by: Option<i64>,
    /// Drawn into a lot: it can no longer be corrected (a dispute of it is kept, with a reason).
    in_lot: bool,
    note: Option<String>,
    created_at: String,
    dispute: Option<DisputeJson>,
}

impl From<DeliveryRow> for DeliveryJson {
    fn from(d: DeliveryRow) -> Self {
        DeliveryJson {
            reference: deliveries::reference(d.id),
            id: d.id,
            uid: d.uid,
            cooperative_id: d.cooperative_id,
            cooperative_name: d.cooperative_name,
            member_id: d.member_id,
            member_name: d.member_name,
            crop: d.crop,
            grade: d.grade,
            quantity: d.quantity,
            unit: d.unit,
            kilograms: kilograms(d.grams),
            delivered_on: d.delivered_on,
            place: d.place,
            photo: d.photo,
            replaces_id: d.replaces_id,
            replaced_by: d.replaced_by,
            in_lot: d.in_lot,
            note: d.note,
            created_at: d.created_at,
            dispute: d.dispute.map(|x| DisputeJson {
                reason: x.reason,
                answer: x.answer,
                answer_note: x.answer_note,
                created_at: x.created_at,
                answered_at: x.answered_at,
            }),
        }
    }
}

#[derive(Serialize, ToSchema)]
struct DeliveryResponse {
    success: bool,
    data: DeliveryJson,
}

#[derive(Serialize, ToSchema)]
struct DeliveryList {
    success: bool,
    data: Vec<DeliveryJson>,
    page: i64,
    per_page: i64,
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct BookQuery {
    /// Only the entries of this day (YYYY-MM-DD).
    day: Option<String>,
    /// Only the entries whose dispute waits for an answer, oldest dispute first (the day
    /// is then not looked at).
    disputed: Option<bool>,
    page: Option<i64>,
    per_page: Option<i64>,
}

/// The cooperative's book, newest first, corrected entries too; or the disputes waiting
/// for an answer (managers and admins).
#[utoipa::path(get, path = "/cooperatives/{id}/deliveries", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path), BookQuery),
    responses((status = 200, body = DeliveryList), (status = 403, description = "managers_only", body = ErrorBody),
              (status = 404, body = ErrorBody)))]
async fn book(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    Query(query): Query<BookQuery>,
) -> ApiResult<Json<DeliveryList>> {
    let paging = Paging::admin(query.page, query.per_page);
    let day = query.day.filter(|d| crate::platform::clock::parse_day(d).is_some());
    let found = state
        .db
        .read(move |conn| {
            cooperatives::must_manage(conn, &auth.user, id, true)?;
            Ok(match query.disputed {
                Some(true) => rows::disputed(conn, id, paging.per_page, paging.offset())?,
                _ => rows::of_cooperative(conn, id, day.as_deref(), paging.per_page, paging.offset())?,
            })
        })
        .await?;
    Ok(Json(DeliveryList {
        success: true,
        data: found.into_iter().map(Into::into).collect(),
        page: paging.page,
        per_page: paging.per_page,
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ExportQuery {
    /// Only the entries of this day (YYYY-MM-DD).
    day: Option<String>,
    /// The language of the column names and words: en, fr or sw.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
}

/// The whole book as a spreadsheet, oldest first, corrections and disputes included
/// (managers and admins).
#[utoipa::path(get, path = "/cooperatives/{id}/deliveries/export", operation_id = "export_deliveries", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path), ExportQuery),
    responses((status = 200, content_type = "text/csv", body = String),
              (status = 403, description = "managers_only", body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn export(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    Query(query): Query<ExportQuery>,
) -> ApiResult<impl IntoResponse> {
    let lang = super::export_lang(query.lang.as_deref())?;
    let day = query.day.filter(|d| crate::platform::clock::parse_day(d).is_some());
    let csv = state
        .db
        .read(move |conn| {
            cooperatives::must_manage(conn, &auth.user, id, true)?;
            let mut csv = Csv::new();
            csv.row(COLUMNS.iter().map(|key| lang.text(&format!("cooperative.columns.{key}"))));
            let count = rows::for_each_of_cooperative(conn, id, day.as_deref(), |d| {
                let reference = |id: Option<i64>| id.map(deliveries::reference).unwrap_or_default();
                let dispute = d.dispute.as_ref();
                csv.row([
                    deliveries::reference(d.id),
                    d.delivered_on.clone(),
                    d.member_name.clone(),
                    lang.text(&format!("crops.{}", d.crop)),
                    d.grade.as_str().to_owned(),
                    d.quantity.clone(),
                    lang.text(&format!("price_units.{}", d.unit.as_str())),
                    kilograms(d.grams),
                    d.place.clone(),
                    reference(d.replaces_id),
                    reference(d.replaced_by),
                    d.note.clone().unwrap_or_default(),
                    dispute.map(|x| x.reason.clone()).unwrap_or_default(),
                    dispute
                        .and_then(|x| x.answer.as_deref())
                        .map(|a| lang.text(&format!("cooperative.answers.{a}")))
                        .unwrap_or_default(),
                    d.created_at.clone(),
                ]);
            })?;
            if count == 0 {
                return Err(AppError::not_found("no_deliveries", "No deliveries to export"));
            }
            Ok(csv)
        })
        .await?;
    Ok(csv_download("deliveries", csv))
}

/// The export's columns (`cooperative.columns.<key>` names each in the reader's language).
const COLUMNS: [&str; 15] = [
    "reference",
    "day",
    "member",
    "crop",
    "grade",
    "quantity",
    "unit",
    "kilograms",
    "place",
    "corrects",
    "corrected_by",
    "note",
    "dispute",
    "answer",
    "written",
];

#[derive(Deserialize, ToSchema)]
struct DeliveryRequest {
    /// Made on the phone: the same uid again answers the first entry.
    uid: String,
    member_id: i64,
    crop: String,
    grade: String,
    quantity: String,
    unit: String,
    delivered_on: String,
    place: String,
    photo: Option<String>,
    /// The uid of the entry this one corrects.
    replaces: Option<String>,
    note: Option<String>,
}

/// A manager writes what a member brought (or corrects an entry); the member gets an SMS receipt.
#[utoipa::path(post, path = "/cooperatives/{id}/deliveries", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = DeliveryRequest,
    responses((status = 201, body = DeliveryResponse), (status = 403, description = "managers_only", body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn record(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<DeliveryRequest>,
) -> ApiResult<(StatusCode, Json<DeliveryResponse>)> {
    let written = state
        .db
        .write(move |tx| {
            let input = deliveries::DeliveryInput {
                uid: &request.uid,
                cooperative_id: id,
                member_id: request.member_id,
                crop: &request.crop,
                grade: &request.grade,
                quantity: &request.quantity,
                unit: &request.unit,
                delivered_on: &request.delivered_on,
                place: &request.place,
                photo: request.photo.as_deref(),
                replaces: request.replaces.as_deref(),
                note: request.note.as_deref(),
            };
            deliveries::record(tx, &auth.user, &input)
        })
        .await?;
    Ok((StatusCode::CREATED, Json(DeliveryResponse { success: true, data: written.into() })))
}

#[derive(Serialize, ToSchema)]
struct StockJson {
    crop: String,
    grade: Grade,
    /// Received and standing (corrections applied), in kilograms.
    received_kilograms: String,
    /// Drawn into lots (on sale or sold), in kilograms.
    in_lots_kilograms: String,
    /// Held and not in a lot: what a new lot may take, in kilograms.
    available_kilograms: String,
    /// Delivered to buyers (whole kilograms).
    sold_kilograms: i64,
    members: i64,
}

#[derive(Serialize, ToSchema)]
struct StockList {
    success: bool,
    data: Vec<StockJson>,
}

/// What the cooperative holds by crop and grade (managers and admins).
#[utoipa::path(get, path = "/cooperatives/{id}/stock", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = StockList), (status = 403, description = "managers_only", body = ErrorBody),
              (status = 404, body = ErrorBody)))]
async fn stock(State(state): State<AppState>, auth: AuthUser, Path(id): Path<i64>) -> ApiResult<Json<StockList>> {
    let found = state.db.read(move |conn| deliveries::stock(conn, &auth.user, id)).await?;
    let data = found
        .into_iter()
        .map(|s| StockJson {
            crop: s.crop,
            grade: s.grade,
            received_kilograms: kilograms(s.received_grams),
            in_lots_kilograms: kilograms(s.in_lots_grams),
            available_kilograms: kilograms(s.received_grams - s.in_lots_grams),
            sold_kilograms: s.sold_kg,
            members: s.members,
        })
        .collect();
    Ok(Json(StockList { success: true, data }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct PageQuery {
    page: Option<i64>,
    per_page: Option<i64>,
}

/// The signed-in member's entries in every cooperative, newest first, with their history.
#[utoipa::path(get, path = "/me/deliveries", operation_id = "my_deliveries", tag = "cooperatives", security(("bearer" = [])), params(PageQuery),
    responses((status = 200, body = DeliveryList)))]
async fn mine(
    State(state): State<AppState>,
    auth: AuthUser,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<DeliveryList>> {
    let paging = Paging::admin(query.page, query.per_page);
    let found =
        state.db.read(move |conn| Ok(rows::of_member(conn, auth.user.id, paging.per_page, paging.offset())?)).await?;
    Ok(Json(DeliveryList {
        success: true,
        data: found.into_iter().map(Into::into).collect(),
        page: paging.page,
        per_page: paging.per_page,
    }))
}

#[derive(Deserialize, ToSchema)]
struct DisputeRequest {
    #[schema(schema_with = crate::api::document::text::<{ crate::domain::cooperatives::deliveries::MAX_NOTE_CHARS }>)]
    reason: String,
}

/// The member says an entry of theirs is wrong, within 7 days.
#[utoipa::path(post, path = "/deliveries/{id}/dispute", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = DisputeRequest,
    responses((status = 200, body = DeliveryResponse), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn dispute(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<DisputeRequest>,
) -> ApiResult<Json<DeliveryResponse>> {
    let disputed = state.db.write(move |tx| deliveries::dispute(tx, &auth.user, id, &request.reason)).await?;
    Ok(Json(DeliveryResponse { success: true, data: disputed.into() }))
}

#[derive(Deserialize, ToSchema)]
struct KeepRequest {
    /// Why the entry stays as it is.
    note: String,
}

/// A manager answers a dispute by keeping the entry (a correction answers it too).
#[utoipa::path(post, path = "/deliveries/{id}/keep", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = KeepRequest,
    responses((status = 200, body = DeliveryResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn keep(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<KeepRequest>,
) -> ApiResult<Json<DeliveryResponse>> {
    let kept = state.db.write(move |tx| deliveries::keep(tx, &auth.user, id, &request.note)).await?;
    Ok(Json(DeliveryResponse { success: true, data: kept.into() }))
}
