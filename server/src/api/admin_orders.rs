//! The admin's Orders section (docs/orders.md): every order with filters and
//! per-status counts, a page at a time, and the CSV export. One order's
//! details (parts, lines, events) come from `GET /orders/{id}`, which admins
//! may read.

use axum::Json;
use axum::extract::{Query, State};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::admin::csv_download;
use super::orders::OrderJson;
use crate::auth::AdminUser;
use crate::db::orders::{self as rows, AdminFilter, OrderRow};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::labels::Lang;
use crate::model::decimal_amount;
use crate::model::order::{PartStatus, PaymentMethod};
use crate::model::payment::PaymentStatus;
use crate::platform::clock;
use crate::platform::csv::Csv;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_orders)).routes(routes!(export))
}

/// Filters of the admin's order list; all optional.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct OrderQuery {
    /// Part of the buyer's name, email or phone, or of a farmer's name.
    q: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::order_statuses)]
    status: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::payment_methods)]
    payment_method: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::payment_standings)]
    payment: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::from_instant)]
    from: Option<String>,
    /// 1-based; 50 a page unless `per_page` (at most 200) says otherwise.
    page: Option<i64>,
    per_page: Option<i64>,
    /// Language of an export's labels: en, fr or sw.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
}

impl OrderQuery {
    fn filter(&self) -> ApiResult<AdminFilter> {
        // The export's language, refused on the list too: they read one query.
        super::export_lang(self.lang.as_deref())?;
        Ok(AdminFilter {
            search: super::search(self.q.as_deref())?,
            status: super::filter(self.status.as_deref(), "status", PartStatus::parse)?,
            payment_method: super::filter(self.payment_method.as_deref(), "payment_method", PaymentMethod::parse)?,
            payment_status: super::filter(self.payment.as_deref(), "payment", |text| match text {
                "unpaid" => Some(None),
                other => PaymentStatus::parse(other).map(Some),
            })?,
            placed_from: super::filter(self.from.as_deref(), "from", |text| clock::parse(text).map(clock::format))?,
        })
    }
}

/// Orders per status, for the stat cards (over all orders, not the filter).
#[derive(Serialize, ToSchema)]
pub struct OrderStats {
    total: i64,
    processing: i64,
    shipped: i64,
    delivered: i64,
    cancelled: i64,
}

#[derive(Serialize, ToSchema)]
pub struct OrderPage {
    success: bool,
    /// This page, newest first, every part of each order.
    data: Vec<OrderJson>,
    /// How many match the filters.
    total: i64,
    page: i64,
    per_page: i64,
    stats: OrderStats,
}

/// Every order matching the filters, a page at a time, newest first.
#[utoipa::path(get, path = "/admin/orders", operation_id = "admin_list_orders", tag = "admin", security(("bearer" = [])), params(OrderQuery),
    responses((status = 200, body = OrderPage), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn list_orders(
    State(state): State<AppState>,
    admin: AdminUser,
    Query(query): Query<OrderQuery>,
) -> ApiResult<Json<OrderPage>> {
    let filter = query.filter()?;
    let super::Paging { page, per_page } = super::Paging::admin(query.page, query.per_page);
    let ((found, total), counts) = state
        .db
        .read(move |conn| {
            let tx = conn.begin_read()?;
            Ok((
                rows::search(&tx, &filter, per_page, (page - 1).saturating_mul(per_page))?,
                rows::count_by_status(&tx)?,
            ))
        })
        .await?;
    let count = |status| counts.iter().find(|(s, _)| *s == status).map_or(0, |(_, n)| *n);
    let stats = OrderStats {
        total: counts.iter().map(|(_, n)| n).sum(),
        processing: count(PartStatus::Processing),
        shipped: count(PartStatus::Shipped),
        delivered: count(PartStatus::Delivered),
        cancelled: count(PartStatus::Cancelled),
    };
    let viewer = crate::api::orders::OrderViewer::admin(admin.0.user.id);
    let data = found.into_iter().map(|o| OrderJson::for_viewer(o, &viewer)).collect();
    Ok(Json(OrderPage { success: true, data, total, page, per_page, stats }))
}

/// Every order matching the filters as `orders_{date}.csv`, one row per
/// farmer's part (its lines in one cell), labels in `lang`.
#[utoipa::path(get, path = "/admin/orders/export", operation_id = "export_orders", tag = "admin", security(("bearer" = [])), params(OrderQuery),
    responses((status = 200, content_type = "text/csv", body = String), (status = 403, body = ErrorBody), (status = 404, description = "no_orders: nothing to export", body = ErrorBody)))]
async fn export(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<OrderQuery>,
) -> ApiResult<impl IntoResponse> {
    let filter = query.filter()?;
    let lang = super::export_lang(query.lang.as_deref())?;
    let csv = state
        .db
        .read(move |conn| {
            let mut csv = Csv::new();
            csv.row(
                [
                    "admin.orders.columns.id",
                    "admin.orders.columns.placed",
                    "admin.orders.columns.buyer",
                    "fields.email",
                    "fields.phone_number",
                    "admin.orders.columns.farmer",
                    "admin.orders.columns.status",
                    "checkout.payment",
                    "checkout.delivery",
                    "admin.orders.columns.items",
                    "cart.subtotal",
                    "cart.shipping",
                    "admin.orders.columns.currency",
                ]
                .iter()
                .map(|key| lang.text(key)),
            );
            let count = rows::for_each_match(conn, &filter, |order| export_rows(&mut csv, lang, &order))?;
            if count == 0 {
                return Err(AppError::not_found("no_orders", "No orders found"));
            }
            Ok(csv)
        })
        .await?;
    Ok(csv_download("orders", csv))
}

fn export_rows(csv: &mut Csv, lang: Lang, order: &OrderRow) {
    let a = &order.address;
    for part in &order.parts {
        let items = part.lines.iter().map(|l| format!("{} × {}", l.title, l.quantity)).collect::<Vec<_>>().join("; ");
        csv.row([
            order.id.to_string(),
            order.created_at.clone(),
            format!("{} {}", a.first_name, a.last_name),
            a.email.clone(),
            a.phone.clone(),
            part.farmer_name.clone(),
            lang.text(&format!("orders.status.{}", part.status)),
            lang.text(&format!("checkout.{}", order.payment_method)),
            lang.text(&format!("checkout.delivery_{}", order.delivery)),
            items,
            decimal_amount(part.subtotal_cents),
            decimal_amount(part.shipping_cents),
            order.currency.clone(),
        ]);
    }
}
