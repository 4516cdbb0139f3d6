//! Orders (docs/orders.md): `POST /orders` (also the `order.place` mutation),
//! `GET /orders`, `GET /orders/{id}`, `PATCH /orders/{id}/parts/{part_id}`.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use sync_protocol::OrderPlace;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::ApiJson;
use crate::auth::AuthUser;
use crate::db::orders::{self as rows, Address, EventRow, LineRow, OrderRow, PartRow};
use crate::db::users::UserRow;
use crate::domain::orders::{self, Notify, OrderRef};
use crate::error::{ApiResult, ErrorBody};
use crate::model::order::{Delivery, PartStatus, PaymentMethod};
use crate::model::payment::PaymentStatus;
use crate::state::AppState;

/// How many orders `GET /orders` answers (newest first).
const LIST_LIMIT: i64 = 200;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_orders, place_order))
        .routes(routes!(get_order))
        .routes(routes!(change_part))
        .routes(routes!(pay_on_delivery))
}

/// After a refused or expired mobile-money payment (or before any), the buyer pays on
/// delivery instead: the order goes on with its stock (docs/payments.md).
#[utoipa::path(post, path = "/orders/{id}/cash-on-delivery", tag = "orders", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses(
        (status = 200, body = OrderResponse), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "not_mobile_money, already_paid, payment_under_way, order_cancelled", body = ErrorBody),
    ))]
async fn pay_on_delivery(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<OrderResponse>> {
    let buyer = auth.user.clone();
    let order = state.db.write(move |tx| crate::domain::payments::pay_on_delivery(tx, &buyer, id)).await?;
    let data = OrderJson::for_viewer(order, &OrderViewer::read(&state, &auth.user).await?);
    Ok(Json(OrderResponse { success: true, data }))
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "OrderAddress"))]
pub struct AddressJson {
    first_name: String,
    last_name: String,
    email: String,
    phone: String,
    address: String,
    city: String,
    postal_code: String,
    country: String,
}

impl From<Address> for AddressJson {
    fn from(a: Address) -> Self {
        AddressJson {
            first_name: a.first_name,
            last_name: a.last_name,
            email: a.email,
            phone: a.phone,
            address: a.address,
            city: a.city,
            postal_code: a.postal_code,
            country: a.country,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "OrderLine"))]
pub struct LineJson {
    product_id: i64,
    product_uid: String,
    title: String,
    /// The product's name in English, French or Kiswahili when the order was placed,
    /// if it had one: a reader of that language sees it instead of `title`.
    title_en: Option<String>,
    title_fr: Option<String>,
    title_sw: Option<String>,
    #[cfg_attr(test, ts(type = "Unit"))]
    unit: String,
    quantity: i64,
    unit_price_cents: i64,
    line_total_cents: i64,
}

impl From<LineRow> for LineJson {
    fn from(l: LineRow) -> Self {
        LineJson {
            product_id: l.product_id,
            product_uid: l.product_uid,
            title: l.title,
            title_en: l.title_en,
            title_fr: l.title_fr,
            title_sw: l.title_sw,
            unit: l.unit,
            quantity: l.quantity,
            unit_price_cents: l.unit_price_cents,
            line_total_cents: l.line_total_cents,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "OrderFarmer"))]
#[schema(as = OrderFarmerJson)]
pub struct FarmerJson {
    id: i64,
    name: String,
    location: Option<String>,
    /// For the buyer of this order (to call or write to the farmer).
    phone: Option<String>,
    /// Out of 5, from their reviewed products; 0 when none.
    rating: f64,
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "OrderPart"))]
pub struct PartJson {
    id: i64,
    farmer: FarmerJson,
    status: PartStatus,
    subtotal_cents: i64,
    shipping_cents: i64,
    cancel_reason: Option<String>,
    /// When its farmer accepted it (`PATCH` with status `accepted`): being prepared.
    accepted_at: Option<String>,
    lines: Vec<LineJson>,
}

impl From<PartRow> for PartJson {
    fn from(p: PartRow) -> Self {
        PartJson {
            id: p.id,
            farmer: FarmerJson {
                id: p.farmer_id,
                name: p.farmer_name,
                location: p.farmer_location,
                phone: p.farmer_phone,
                rating: (p.farmer_rating * 10.0).round() / 10.0,
            },
            status: p.status,
            subtotal_cents: p.subtotal_cents,
            shipping_cents: p.shipping_cents,
            cancel_reason: p.cancel_reason,
            accepted_at: p.accepted_at,
            lines: p.lines.into_iter().map(LineJson::from).collect(),
        }
    }
}

/// One step of the order's timeline.
#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "OrderEvent"))]
pub struct EventJson {
    /// The part it concerns; none for the whole order (placed).
    part_id: Option<i64>,
    /// placed, accepted (by the part's farmer), shipped, delivered, cancelled.
    #[cfg_attr(test, ts(type = "'placed' | 'accepted' | PartStatus"))]
    kind: String,
    note: Option<String>,
    at: String,
}

impl From<EventRow> for EventJson {
    fn from(e: EventRow) -> Self {
        EventJson { part_id: e.part_id, kind: e.kind, note: e.note, at: e.at }
    }
}

/// An order as one person sees it: its buyer and admins see every part; a
/// farmer sees the delivery details and their own part only. Money is in
/// cents of `currency`.
#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "OrderRecord"))]
pub struct OrderJson {
    id: i64,
    /// Made by the phone that placed it; the idempotency key.
    uid: String,
    /// Follows from the parts: the least advanced live part, or cancelled.
    status: PartStatus,
    currency: String,
    subtotal_cents: i64,
    shipping_cents: i64,
    total_cents: i64,
    payment_method: PaymentMethod,
    delivery: Delivery,
    /// The platform fee taken from each part's sale when it is delivered, in hundredths
    /// of a percent (docs/settings.md).
    platform_fee_bp: i64,
    shipping_address: AddressJson,
    /// Where the latest mobile-money payment stands (initiating, pending,
    /// succeeded, failed, expired); none before the first.
    payment_status: Option<PaymentStatus>,
    /// After a refused or expired payment: until when the order keeps its stock for the
    /// buyer to pay again or choose cash on delivery (docs/payments.md); none otherwise.
    unpaid_until: Option<String>,
    parts: Vec<PartJson>,
    events: Vec<EventJson>,
    version: i64,
    created_at: String,
    updated_at: String,
}

/// Who reads an order: its buyer and admins see it whole; a seller, the parts they sell
/// or act for (their own, and the lots of the cooperatives they manage).
pub struct OrderViewer {
    id: i64,
    admin: bool,
    sells_for: Vec<i64>,
}

impl OrderViewer {
    pub fn of(conn: &crate::db::Connection, user: &UserRow) -> ApiResult<OrderViewer> {
        Ok(OrderViewer {
            id: user.id,
            admin: user.role.is_admin(),
            sells_for: crate::domain::cooperatives::lots::sells_for(conn, user.id)?,
        })
    }

    /// An admin's screens: every order whole.
    pub fn admin(id: i64) -> OrderViewer {
        OrderViewer { id, admin: true, sells_for: Vec::new() }
    }

    /// A person whose sellers were read already (the sync pull's own transaction).
    pub fn selling_for(id: i64, sells_for: Vec<i64>) -> OrderViewer {
        OrderViewer { id, admin: false, sells_for }
    }

    async fn read(state: &AppState, user: &UserRow) -> ApiResult<OrderViewer> {
        let user = user.clone();
        state.db.read(move |conn| OrderViewer::of(conn, &user)).await
    }
}

impl OrderJson {
    pub fn for_viewer(row: OrderRow, viewer: &OrderViewer) -> OrderJson {
        let whole = viewer.admin || row.buyer_id == viewer.id;
        let parts: Vec<PartRow> =
            row.parts.into_iter().filter(|p| whole || viewer.sells_for.contains(&p.farmer_id)).collect();
        let part_ids: Vec<i64> = parts.iter().map(|p| p.id).collect();
        let (subtotal, shipping) = if whole {
            (row.subtotal_cents, row.shipping_cents)
        } else {
            (parts.iter().map(|p| p.subtotal_cents).sum(), parts.iter().map(|p| p.shipping_cents).sum())
        };
        let waiting = row.payment_method == PaymentMethod::MobileMoney
            && matches!(row.payment_status, Some(PaymentStatus::Failed | PaymentStatus::Expired))
            && parts.iter().any(|p| p.status == PartStatus::Processing);
        let unpaid_until = row.payment_updated_at.as_deref().filter(|_| waiting).and_then(|at| {
            let at = crate::platform::clock::parse(at)?;
            Some(crate::platform::clock::format(at + crate::domain::payments::UNPAID_GRACE))
        });
        OrderJson {
            unpaid_until,
            id: row.id,
            uid: row.uid,
            status: PartStatus::of_order(parts.iter().map(|p| p.status)),
            currency: row.currency,
            subtotal_cents: subtotal,
            shipping_cents: shipping,
            total_cents: subtotal + shipping,
            payment_method: row.payment_method,
            delivery: row.delivery,
            platform_fee_bp: row.platform_fee_bp,
            shipping_address: row.address.into(),
            payment_status: row.payment_status,
            events: row
                .events
                .into_iter()
                .filter(|e| e.part_id.is_none_or(|id| part_ids.contains(&id)))
                .map(EventJson::from)
                .collect(),
            parts: parts.into_iter().map(PartJson::from).collect(),
            version: row.version,
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
struct OrderResponse {
    success: bool,
    data: OrderJson,
}

#[derive(Serialize, ToSchema)]
struct OrderList {
    success: bool,
    data: Vec<OrderJson>,
}

/// Place an order. The `uid` is the idempotency key: sending the same order
/// again answers the first one (200) instead of making a second. A price or
/// stock that changed since the buyer saw it answers 409 `order_changed`
/// with the lines in `details`, and nothing is placed.
#[utoipa::path(post, path = "/orders", tag = "orders", security(("bearer" = [])), request_body = OrderPlace,
    responses(
        (status = 201, body = OrderResponse), (status = 200, description = "Already placed with this uid", body = OrderResponse),
        (status = 401, body = ErrorBody), (status = 409, description = "order_changed (details.lines), uid_taken", body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
async fn place_order(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(request): ApiJson<OrderPlace>,
) -> ApiResult<(StatusCode, Json<OrderResponse>)> {
    let buyer = auth.user.clone();
    let (order, created) =
        state.db.write_together(move |tx| orders::place(tx, &buyer, &request, Notify::People)).await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    let data = OrderJson::for_viewer(order, &OrderViewer::read(&state, &auth.user).await?);
    Ok((status, Json(OrderResponse { success: true, data })))
}

/// The orders a person bought, and those they sell in (their part only), newest first.
#[utoipa::path(get, path = "/orders", operation_id = "list_orders", tag = "orders", security(("bearer" = [])),
    responses((status = 200, body = OrderList), (status = 401, body = ErrorBody)))]
async fn list_orders(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Json<OrderList>> {
    let user = auth.user.clone();
    let (found, viewer) = state
        .db
        .read(move |conn| Ok((rows::list_for(conn, user.id, LIST_LIMIT)?, OrderViewer::of(conn, &user)?)))
        .await?;
    Ok(Json(OrderList { success: true, data: found.into_iter().map(|o| OrderJson::for_viewer(o, &viewer)).collect() }))
}

#[utoipa::path(get, path = "/orders/{id}", tag = "orders", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = OrderResponse), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn get_order(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<OrderResponse>> {
    let viewer = auth.user.clone();
    let order = state.db.read(move |conn| orders::visible(conn, &viewer, OrderRef::Id(id))).await?;
    let data = OrderJson::for_viewer(order, &OrderViewer::read(&state, &auth.user).await?);
    Ok(Json(OrderResponse { success: true, data }))
}

#[derive(Deserialize, ToSchema)]
struct PartChange {
    #[schema(schema_with = crate::api::document::part_statuses)]
    status: String,
    /// Why it is cancelled (required from a farmer or an admin).
    #[serde(default)]
    reason: Option<String>,
}

/// Move one farmer's part: the farmer ships, delivers or cancels it (with a
/// reason); the buyer cancels it while it is processing; an admin may do
/// either. A cancellation puts the stock back.
#[utoipa::path(patch, path = "/orders/{id}/parts/{part_id}", tag = "orders", security(("bearer" = [])),
    params(("id" = i64, Path), ("part_id" = i64, Path)), request_body = PartChange,
    responses(
        (status = 200, body = OrderResponse), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, description = "invalid_transition", body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
async fn change_part(
    State(state): State<AppState>,
    auth: AuthUser,
    Path((id, part_id)): Path<(i64, i64)>,
    ApiJson(request): ApiJson<PartChange>,
) -> ApiResult<Json<OrderResponse>> {
    let actor = auth.user.clone();
    let order = state
        .db
        .write(move |tx| {
            orders::change_part(
                tx,
                &actor,
                OrderRef::Id(id),
                part_id,
                &request.status,
                request.reason.as_deref(),
                Notify::People,
            )
        })
        .await?;
    let data = OrderJson::for_viewer(order, &OrderViewer::read(&state, &auth.user).await?);
    Ok(Json(OrderResponse { success: true, data }))
}
