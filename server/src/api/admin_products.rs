//! The admin's Products section (docs/api.md, Admin products): every listing that is
//! not deleted, on sale or not, filtered and a page at a time; hide one with a reason
//! (its farmer is told and sees it), restore it; the CSV export.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::admin::csv_download;
use super::extract::ApiJson;
use super::products::ProductJson;
use super::{Page, Paging};
use crate::auth::AdminUser;
use crate::db::admin_products::{self as rows, Filter, Standing};
use crate::domain::products::{LOW_STOCK, moderation};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::decimal_amount;
use crate::model::product::Category;
use crate::platform::csv::Csv;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_products))
        .routes(routes!(export))
        .routes(routes!(hide))
        .routes(routes!(restore))
}

/// At most this many rows in one export.
const MAX_EXPORT: i64 = 50_000;

/// Filters of the admin's product list; all optional.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ProductQuery {
    /// Part of the title, description or farmer's name.
    q: Option<String>,
    farmer_id: Option<i64>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::product_categories)]
    category: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::product_standings)]
    status: Option<String>,
    /// `true`: only listings at or under the low-stock mark (10 units).
    low_stock: Option<bool>,
    /// 1-based; 50 a page unless `per_page` (at most 200) says otherwise.
    page: Option<i64>,
    per_page: Option<i64>,
    /// Language of an export's labels: en, fr or sw.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
}

impl ProductQuery {
    fn filter(&self) -> ApiResult<Filter> {
        // The export's language, refused on the list too: they read one query.
        super::export_lang(self.lang.as_deref())?;
        Ok(Filter {
            search: super::search(self.q.as_deref())?,
            farmer_id: self.farmer_id,
            category: super::filter(self.category.as_deref(), "category", Category::parse)?,
            standing: super::filter(self.status.as_deref(), "status", |text| match text {
                "on_sale" => Some(Standing::OnSale),
                "off_sale" => Some(Standing::OffSale),
                "hidden" => Some(Standing::Hidden),
                _ => None,
            })?,
            low_stock: self.low_stock.unwrap_or(false).then_some(LOW_STOCK),
        })
    }
}

/// Every listing matching the filters (on sale or not), newest first.
#[utoipa::path(get, path = "/admin/products", tag = "admin", security(("bearer" = [])), params(ProductQuery),
    responses((status = 200, body = Page<ProductJson>), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn list_products(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<ProductQuery>,
) -> ApiResult<Json<Page<ProductJson>>> {
    let filter = query.filter()?;
    let paging = Paging::admin(query.page, query.per_page);
    let (found, total) =
        state.db.read(move |conn| Ok(rows::list(conn, &filter, paging.per_page, paging.offset())?)).await?;
    Ok(Json(Page::new(found.into_iter().map(ProductJson::from).collect(), total, paging)))
}

/// The listings matching the filters as `products_{date}.csv`, labels in `lang`.
#[utoipa::path(get, path = "/admin/products/export", operation_id = "export_products", tag = "admin", security(("bearer" = [])), params(ProductQuery),
    responses((status = 200, content_type = "text/csv", body = String), (status = 403, body = ErrorBody),
        (status = 404, description = "no_products: nothing to export", body = ErrorBody)))]
async fn export(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<ProductQuery>,
) -> ApiResult<impl IntoResponse> {
    let filter = query.filter()?;
    let lang = super::export_lang(query.lang.as_deref())?;
    let (found, _) = state.db.read(move |conn| Ok(rows::list(conn, &filter, MAX_EXPORT, 0)?)).await?;
    if found.is_empty() {
        return Err(AppError::not_found("no_products", "No products to export"));
    }
    let mut csv = Csv::new();
    csv.row(
        [
            "admin.columns.id",
            "products.fields.title",
            "admin.products.farmer",
            "products.fields.category",
            "products.fields.quantity",
            "products.fields.current_price",
            "profile.status",
            "admin.products.hidden_reason",
            "profile.member_since",
        ]
        .map(|key| lang.text(key)),
    );
    for p in found {
        let standing = if p.hidden.is_some() {
            "admin.products.hidden"
        } else if p.is_listed() {
            "admin.products.on_sale"
        } else {
            "admin.products.off_sale"
        };
        csv.row([
            p.id.to_string(),
            p.listing.title.clone(),
            p.farmer.name.clone(),
            lang.text(&format!("market.category.{}", p.listing.category.as_str())),
            p.listing.quantity.to_string(),
            decimal_amount(p.listing.current_price),
            lang.text(standing),
            p.hidden.map(|h| h.reason).unwrap_or_default(),
            p.created_at,
        ]);
    }
    Ok(csv_download("products", csv))
}

#[derive(Deserialize, ToSchema)]
pub struct HideRequest {
    /// Why: the farmer reads it (at most 500 characters).
    #[serde(default)]
    #[schema(required = true, schema_with = crate::api::document::text::<{ crate::domain::products::moderation::MAX_REASON_CHARS }>)]
    reason: String,
}

#[derive(Serialize, ToSchema)]
pub struct ProductAnswer {
    success: bool,
    product: ProductJson,
}

/// Hides a listing from the marketplace with a reason its farmer is told and sees.
#[utoipa::path(post, path = "/admin/products/{id}/hide", operation_id = "hide_product", tag = "admin", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = HideRequest,
    responses((status = 200, body = ProductAnswer), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 422, description = "reason_required, too_long", body = ErrorBody)))]
async fn hide(
    State(state): State<AppState>,
    admin: AdminUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<HideRequest>,
) -> ApiResult<Json<ProductAnswer>> {
    let actor = admin.0.user.clone();
    let product = state.db.write(move |tx| moderation::hide(tx, &actor, id, &request.reason)).await?;
    Ok(Json(ProductAnswer { success: true, product: product.into() }))
}

/// Puts a hidden listing back (on sale again if its farmer has it active).
#[utoipa::path(post, path = "/admin/products/{id}/restore", tag = "admin", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = ProductAnswer), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn restore(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<ProductAnswer>> {
    let product = state.db.write(move |tx| moderation::restore(tx, id)).await?;
    Ok(Json(ProductAnswer { success: true, product: product.into() }))
}
