//! A cooperative's lots (docs/cooperatives.md, Lots): managers make them from the
//! unsold stock and follow their sales; anyone reads a lot's origin (JSON, CSV,
//! GeoJSON), with members named only when they agreed; a member records where their
//! plot is and whether they may be named.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::ApiJson;
use crate::auth::AuthUser;
use crate::db::lots::LotRow;
use crate::domain::cooperatives::{self, lots};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::cooperative::{Grade, kilograms};
use crate::platform::csv::Csv;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, make))
        .routes(routes!(change))
        .routes(routes!(origin))
        .routes(routes!(origin_csv))
        .routes(routes!(origin_geojson))
        .routes(routes!(my_plot))
}

#[derive(Serialize, ToSchema)]
struct LotJson {
    id: i64,
    /// Its number in its cooperative ("lot 3 of …"): the one its title, screens and files show.
    number: i64,
    uid: String,
    cooperative_id: i64,
    cooperative_name: String,
    /// The marketplace product buyers order (`GET /products/{id}`).
    product_id: i64,
    crop: String,
    grade: Grade,
    kilograms: i64,
    /// Still on sale (not ordered), in kg.
    on_sale_kilograms: i64,
    /// Delivered to buyers, in kg.
    sold_kilograms: i64,
    /// US dollars per kg.
    price: f64,
    members: i64,
    collected_from: String,
    collected_to: String,
    pickup: String,
    /// The days it is collected on, in the week's order.
    #[schema(value_type = Vec<String>, example = json!(["mon", "tue", "wed", "thu", "fri", "sat"]))]
    pickup_days: Vec<String>,
    /// US dollars: the cooperative delivers it too, for this cost; null when it is only collected.
    delivery_cost: Option<f64>,
    /// Taken off sale (its product inactive or deleted).
    withdrawn: bool,
    created_at: String,
}

impl From<LotRow> for LotJson {
    fn from(l: LotRow) -> Self {
        LotJson {
            id: l.id,
            number: l.number,
            uid: l.uid,
            cooperative_id: l.cooperative_id,
            cooperative_name: l.cooperative_name,
            product_id: l.product_id,
            crop: l.crop,
            grade: l.grade,
            kilograms: l.grams / 1000,
            on_sale_kilograms: l.on_sale_kg,
            sold_kilograms: l.sold_kg,
            price: l.price_cents as f64 / 100.0,
            members: l.members,
            collected_from: l.collected_from,
            collected_to: l.collected_to,
            pickup: l.pickup,
            pickup_days: crate::model::cooperative::day_list(&l.pickup_days),
            delivery_cost: l.delivery_cents.map(|cents| cents as f64 / 100.0),
            withdrawn: l.withdrawn,
            created_at: l.created_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
struct LotResponse {
    success: bool,
    data: LotJson,
}

#[derive(Serialize, ToSchema)]
struct LotList {
    success: bool,
    data: Vec<LotJson>,
}

/// The cooperative's lots, newest first (managers and admins).
#[utoipa::path(get, path = "/cooperatives/{id}/lots", operation_id = "list_lots", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = LotList), (status = 403, description = "managers_only", body = ErrorBody),
              (status = 404, body = ErrorBody)))]
async fn list(State(state): State<AppState>, auth: AuthUser, Path(id): Path<i64>) -> ApiResult<Json<LotList>> {
    let found = state.db.read(move |conn| lots::of_cooperative(conn, &auth.user, id)).await?;
    Ok(Json(LotList { success: true, data: found.into_iter().map(Into::into).collect() }))
}

#[derive(Deserialize, ToSchema)]
struct LotRequest {
    /// Made by the client: the same uid again answers the lot made first.
    uid: String,
    crop: String,
    grade: String,
    /// Whole kilograms, at most what is held and not in a lot.
    kilograms: Option<i64>,
    /// US dollars per kg.
    #[schema(value_type = f64)]
    price: Option<sync_protocol::Loose>,
    /// The smallest order in kg (1 when not given).
    min_order: Option<i64>,
    /// Where the buyer collects it.
    pickup: String,
    /// The days it is collected on (`mon` … `sun`); Monday to Saturday when not given.
    #[schema(example = json!(["mon", "wed", "fri"]))]
    pickup_days: Option<Vec<String>>,
    /// US dollars: the cooperative delivers it too, for this cost (0: free); not given, it is only collected.
    #[schema(value_type = Option<f64>)]
    delivery_cost: Option<sync_protocol::Loose>,
}

/// A manager puts a lot on sale, drawn from the unsold stock of one crop and grade,
/// oldest deliveries first.
#[utoipa::path(post, path = "/cooperatives/{id}/lots", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = LotRequest,
    responses((status = 201, body = LotResponse), (status = 200, description = "made already with this uid", body = LotResponse),
              (status = 403, description = "managers_only", body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, body = ErrorBody), (status = 422, description = "more_than_stock and others", body = ErrorBody)))]
async fn make(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<LotRequest>,
) -> ApiResult<(StatusCode, Json<LotResponse>)> {
    let (lot, made) = state
        .db
        .write(move |tx| {
            let input = lots::LotInput {
                uid: &request.uid,
                crop: &request.crop,
                grade: &request.grade,
                kilograms: request.kilograms,
                price: request.price.clone(),
                min_order: request.min_order,
                pickup: &request.pickup,
                pickup_days: request.pickup_days.as_deref(),
                delivery_cost: request.delivery_cost.clone(),
            };
            lots::make(tx, &auth.user, id, &input)
        })
        .await?;
    let status = if made { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(LotResponse { success: true, data: lot.into() })))
}

#[derive(Deserialize, ToSchema)]
struct LotChangeRequest {
    /// US dollars per kg.
    #[schema(value_type = Option<f64>)]
    price: Option<sync_protocol::Loose>,
    /// false: take it off sale (what was not ordered goes back to the stock).
    on_sale: Option<bool>,
}

#[derive(Serialize, ToSchema)]
struct LotChangeResponse {
    success: bool,
    /// The lot as it is now; none when it went altogether (nothing was ordered from it).
    data: Option<LotJson>,
}

/// A manager changes a lot's price or takes it off sale.
#[utoipa::path(patch, path = "/cooperatives/{id}/lots/{lot_id}", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path), ("lot_id" = i64, Path)), request_body = LotChangeRequest,
    responses((status = 200, body = LotChangeResponse), (status = 403, description = "managers_only", body = ErrorBody),
              (status = 404, description = "lot_not_found", body = ErrorBody),
              (status = 409, description = "lot_withdrawn", body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn change(
    State(state): State<AppState>,
    auth: AuthUser,
    Path((id, lot_id)): Path<(i64, i64)>,
    ApiJson(request): ApiJson<LotChangeRequest>,
) -> ApiResult<Json<LotChangeResponse>> {
    let changed = state
        .db
        .write(move |tx| {
            let change = lots::LotChange { price: request.price.clone(), on_sale: request.on_sale };
            lots::change(tx, &auth.user, id, lot_id, &change)
        })
        .await?;
    Ok(Json(LotChangeResponse { success: true, data: changed.map(Into::into) }))
}

#[derive(Serialize, ToSchema)]
struct OriginMemberJson {
    /// Only when the member agreed to be named; empty otherwise.
    name: String,
    /// Where the member farms, as their profile says.
    location: Option<String>,
    /// The plot's place, when the member recorded it on their phone.
    latitude: Option<f64>,
    longitude: Option<f64>,
    kilograms: String,
    first_delivered: String,
    last_delivered: String,
}

#[derive(Serialize, ToSchema)]
struct OriginJson {
    success: bool,
    lot_id: i64,
    /// Its number in its cooperative, as its title and files say it.
    number: i64,
    cooperative_name: String,
    territory: String,
    crop: String,
    grade: Grade,
    kilograms: i64,
    collected_from: String,
    collected_to: String,
    members: Vec<OriginMemberJson>,
}

/// A lot's origin: the members' farms (named only with their agreement), quantities
/// and collection days. Anyone may read it.
#[utoipa::path(get, path = "/lots/{id}/origin", tag = "cooperatives",
    params(("id" = i64, Path)),
    responses((status = 200, body = OriginJson), (status = 404, body = ErrorBody)))]
async fn origin(State(state): State<AppState>, Path(id): Path<i64>) -> ApiResult<Json<OriginJson>> {
    let found = state.db.read(move |conn| lots::origin(conn, id)).await?;
    Ok(Json(OriginJson {
        success: true,
        lot_id: found.lot.id,
        number: found.lot.number,
        cooperative_name: found.lot.cooperative_name,
        territory: found.territory,
        crop: found.lot.crop,
        grade: found.lot.grade,
        kilograms: found.lot.grams / 1000,
        collected_from: found.lot.collected_from,
        collected_to: found.lot.collected_to,
        members: found
            .members
            .into_iter()
            .map(|m| OriginMemberJson {
                name: m.name,
                location: m.location,
                latitude: m.plot.map(|p| p.0),
                longitude: m.plot.map(|p| p.1),
                kilograms: kilograms(m.grams),
                first_delivered: m.first_delivered,
                last_delivered: m.last_delivered,
            })
            .collect(),
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct LangQuery {
    /// The language of the column names: en, fr or sw.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
}

/// The origin as a spreadsheet, one row per member.
#[utoipa::path(get, path = "/lots/{id}/origin.csv", tag = "cooperatives",
    params(("id" = i64, Path), LangQuery),
    responses((status = 200, content_type = "text/csv", body = String), (status = 404, body = ErrorBody)))]
async fn origin_csv(
    State(state): State<AppState>,
    Path(id): Path<i64>,
    Query(query): Query<LangQuery>,
) -> ApiResult<impl IntoResponse> {
    let lang = super::export_lang(query.lang.as_deref())?;
    let found = state.db.read(move |conn| lots::origin(conn, id)).await?;
    let mut csv = Csv::new();
    csv.row(ORIGIN_COLUMNS.iter().map(|key| lang.text(&format!("cooperative.origin_columns.{key}"))));
    let crop = lang.text(&format!("crops.{}", found.lot.crop));
    for m in &found.members {
        let coordinate = |c: Option<f64>| c.map(|c| format!("{c:.6}")).unwrap_or_default();
        csv.row([
            found.lot.number.to_string(),
            found.lot.cooperative_name.clone(),
            crop.clone(),
            found.lot.grade.as_str().to_owned(),
            m.name.clone(),
            m.location.clone().unwrap_or_else(|| found.territory.clone()),
            coordinate(m.plot.map(|p| p.0)),
            coordinate(m.plot.map(|p| p.1)),
            kilograms(m.grams),
            m.first_delivered.clone(),
            m.last_delivered.clone(),
        ]);
    }
    let name = format!("lot_{}_origin", found.lot.number);
    Ok(super::admin::csv_download(&name, csv))
}

/// The origin report's columns (`cooperative.origin_columns.<key>`).
const ORIGIN_COLUMNS: [&str; 11] =
    ["lot", "cooperative", "crop", "grade", "member", "place", "latitude", "longitude", "kilograms", "first", "last"];

/// The origin as GeoJSON (RFC 7946): one point per member whose plot is recorded,
/// longitude first; members with no recorded plot are counted in `unlocated_kilograms`.
#[utoipa::path(get, path = "/lots/{id}/origin.geojson", tag = "cooperatives",
    params(("id" = i64, Path)),
    responses((status = 200, content_type = "application/geo+json", body = Object), (status = 404, body = ErrorBody)))]
async fn origin_geojson(State(state): State<AppState>, Path(id): Path<i64>) -> ApiResult<impl IntoResponse> {
    let found = state.db.read(move |conn| lots::origin(conn, id)).await?;
    let features: Vec<serde_json::Value> = found
        .members
        .iter()
        .filter_map(|m| {
            let (lat, lon) = m.plot?;
            Some(serde_json::json!({
                "type": "Feature",
                "geometry": { "type": "Point", "coordinates": [lon, lat] },
                "properties": {
                    "name": (!m.name.is_empty()).then(|| m.name.clone()),
                    "place": m.location,
                    "kilograms": kilograms(m.grams),
                    "first_delivered": m.first_delivered,
                    "last_delivered": m.last_delivered,
                }
            }))
        })
        .collect();
    let unlocated: i64 = found.members.iter().filter(|m| m.plot.is_none()).map(|m| m.grams).sum();
    let body = serde_json::json!({
        "type": "FeatureCollection",
        "features": features,
        "properties": {
            "lot": found.lot.number,
            "lot_id": found.lot.id,
            "cooperative": found.lot.cooperative_name,
            "territory": found.territory,
            "crop": found.lot.crop,
            "grade": found.lot.grade.as_str(),
            "kilograms": found.lot.grams / 1000,
            "collected_from": found.lot.collected_from,
            "collected_to": found.lot.collected_to,
            "unlocated_kilograms": kilograms(unlocated),
        }
    });
    let disposition = format!("attachment; filename=\"lot_{}_origin.geojson\"", found.lot.number);
    Ok((
        [(header::CONTENT_TYPE, "application/geo+json".to_owned()), (header::CONTENT_DISPOSITION, disposition)],
        body.to_string(),
    ))
}

#[derive(Deserialize, ToSchema)]
struct PlotRequest {
    /// Both or neither: where the member's plot is (WGS 84 degrees).
    latitude: Option<f64>,
    longitude: Option<f64>,
    /// The member agrees to be named in their lots' public origin reports.
    #[serde(default)]
    named_in_origin: bool,
}

#[derive(Serialize, ToSchema)]
struct PlotResponse {
    success: bool,
    latitude: Option<f64>,
    longitude: Option<f64>,
    named_in_origin: bool,
}

/// A member records where their plot is (from their phone) and whether buyers may see
/// their name in a lot's origin; sending no place clears it.
#[utoipa::path(put, path = "/me/cooperatives/{id}/origin", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = PlotRequest,
    responses((status = 200, body = PlotResponse), (status = 404, description = "not a member", body = ErrorBody),
              (status = 422, body = ErrorBody)))]
async fn my_plot(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<PlotRequest>,
) -> ApiResult<Json<PlotResponse>> {
    let plot = match (request.latitude, request.longitude) {
        (None, None) => None,
        (Some(lat), Some(lon))
            if lat.is_finite()
                && lon.is_finite()
                && (-90.0..=90.0).contains(&lat)
                && (-180.0..=180.0).contains(&lon) =>
        {
            // Six decimals is about 10 cm: more says nothing true.
            Some(((lat * 1e6).round() / 1e6, (lon * 1e6).round() / 1e6))
        }
        _ => {
            return Err(AppError::invalid(
                "latitude",
                "plot_invalid",
                "The plot's place is a latitude (-90 to 90) and a longitude (-180 to 180)",
            ));
        }
    };
    let named = request.named_in_origin;
    state.db.write(move |tx| cooperatives::set_origin(tx, &auth.user, id, plot, named)).await?;
    Ok(Json(PlotResponse {
        success: true,
        latitude: plot.map(|p| p.0),
        longitude: plot.map(|p| p.1),
        named_in_origin: named,
    }))
}
