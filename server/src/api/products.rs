//! Products: the farmer's own (`/farmer/products`, docs/api.md) and the
//! public catalogue (`/products`, beyond the spec's calls: its marketplace
//! was sample data).

use axum::Json;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::MessageResponse;
use super::document::forms::{ListingFields, NewListingFields};
use super::extract::ProductForm;
use crate::auth::AuthUser;
use crate::db::catalogue::{self, CatalogueFilter, PriceBucket, Sort};
use crate::db::products::{self as rows, ProductRow};
use crate::db::uploads;
use crate::db::users::UserRow;
use crate::domain::products::{self, ProductRef};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::product::{Category, ProductStatus, Unit};
use crate::outbound::media::{self, MediaStore};
use crate::state::AppState;

/// The spec's multipart form carries up to six photos of 5 MB each.
const FORM_LIMIT: usize = products::MAX_IMAGES * media::MAX_IMAGE_BYTES + 256 * 1024;

pub fn routes() -> OpenApiRouter<AppState> {
    let forms = OpenApiRouter::new()
        .routes(routes!(own_products, create_product))
        .routes(routes!(update_product, delete_product))
        .layer(DefaultBodyLimit::max(FORM_LIMIT))
        .layer(axum::middleware::from_fn(|request, next| media::reserve_body(FORM_LIMIT, request, next)));
    OpenApiRouter::new().routes(routes!(catalogue)).routes(routes!(product)).merge(forms)
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ProductImage"))]
pub struct ImageJson {
    /// 1024 px, for the detail page.
    url: String,
    /// 320 px, for cards and lists.
    thumbnail_url: String,
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ProductShipping"))]
pub struct ShippingJson {
    available: bool,
    /// USD.
    cost: f64,
    estimated_days: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ProductFarmer"))]
pub struct FarmerJson {
    id: i64,
    name: String,
    location: Option<String>,
    rating: f64,
    /// Their farmer application was approved.
    verified: bool,
}

/// A product, in the fields of both readings of docs/product.md, Records.
#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ProductRecord"))]
pub struct ProductJson {
    id: i64,
    /// Made by the client that listed it; the same on every device.
    uid: String,
    title: String,
    /// The name in English, French or Kiswahili, when the farmer gave it: a buyer
    /// reading that language sees it instead of `title`.
    title_en: Option<String>,
    title_fr: Option<String>,
    title_sw: Option<String>,
    description: String,
    /// The description in English, French and Kiswahili, when the farmer gave it.
    description_en: Option<String>,
    description_fr: Option<String>,
    description_sw: Option<String>,
    category: Category,
    unit: Unit,
    /// Units in stock.
    quantity: i64,
    /// The original price (USD), struck through when it differs from `current_price`.
    price: f64,
    /// The price buyers pay (USD).
    current_price: f64,
    currency: &'static str,
    status: ProductStatus,
    image_urls: Vec<ImageJson>,
    /// The photos' hashes, for edits.
    images: Vec<String>,
    harvest_date: Option<String>,
    expiry_date: Option<String>,
    /// Of `domain::products::CERTIFICATIONS`.
    #[cfg_attr(test, ts(type = "Array<Certification>"))]
    certifications: Vec<String>,
    tags: Vec<String>,
    shipping: ShippingJson,
    min_order: f64,
    max_order: Option<f64>,
    rating: f64,
    reviews: i64,
    farmer: FarmerJson,
    /// At or under `products::LOW_STOCK` units.
    low_stock: bool,
    version: i64,
    created_at: String,
    updated_at: String,
    /// Hidden from the marketplace by an admin, with the reason its farmer reads
    /// (only its farmer and admins ever see a hidden product).
    hidden: Option<HiddenJson>,
    /// A cooperative's lot (docs/cooperatives.md) rather than one farmer's product.
    lot: Option<LotJson>,
}

/// A cooperative's lot on sale: who sells it, how many members put into it, when
/// it was collected and where the buyer picks it up.
#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "ProductLot"))]
#[schema(as = ProductLotJson)]
pub struct LotJson {
    id: i64,
    cooperative_id: i64,
    cooperative_name: String,
    /// A key of the prices' crop list.
    crop: String,
    /// A, B or C.
    grade: String,
    members: i64,
    /// The first and last delivery's day (YYYY-MM-DD).
    collected_from: String,
    collected_to: String,
    pickup: String,
    /// The days it is collected on (`mon` … `sun`), in the week's order.
    pickup_days: Vec<String>,
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Hidden"))]
pub struct HiddenJson {
    reason: String,
    at: String,
}

fn dollars(cents: i64) -> f64 {
    cents as f64 / 100.0
}

impl From<ProductRow> for ProductJson {
    fn from(row: ProductRow) -> Self {
        let l = row.listing;
        ProductJson {
            id: row.id,
            uid: row.uid,
            image_urls: l
                .images
                .iter()
                .map(|hash| ImageJson {
                    url: MediaStore::url(hash, media::DISPLAY),
                    thumbnail_url: MediaStore::url(hash, media::THUMBNAIL),
                })
                .collect(),
            low_stock: l.quantity <= products::LOW_STOCK,
            title: l.title,
            title_en: l.title_en,
            title_fr: l.title_fr,
            title_sw: l.title_sw,
            description: l.description,
            description_en: l.description_en,
            description_fr: l.description_fr,
            description_sw: l.description_sw,
            category: l.category,
            unit: l.unit,
            quantity: l.quantity,
            price: dollars(l.price),
            current_price: dollars(l.current_price),
            currency: "USD",
            status: l.status,
            images: l.images,
            harvest_date: l.harvest_date,
            expiry_date: l.expiry_date,
            certifications: l.certifications,
            tags: l.tags,
            shipping: ShippingJson {
                available: l.shipping_available,
                cost: dollars(l.shipping_cost),
                estimated_days: l.shipping_days,
            },
            min_order: l.min_order,
            max_order: l.max_order,
            rating: row.rating,
            reviews: row.review_count,
            farmer: FarmerJson {
                id: row.farmer_id,
                name: row.farmer.name,
                location: row.farmer.location,
                rating: (row.farmer.rating * 10.0).round() / 10.0,
                verified: row.farmer.verified,
            },
            version: row.version,
            created_at: row.created_at,
            updated_at: row.updated_at,
            hidden: row.hidden.map(|h| HiddenJson { reason: h.reason, at: h.at }),
            lot: row.lot.map(|l| LotJson {
                id: l.id,
                cooperative_id: l.cooperative_id,
                cooperative_name: l.cooperative_name,
                crop: l.crop,
                grade: l.grade.as_str().to_owned(),
                members: l.members,
                collected_from: l.collected_from,
                collected_to: l.collected_to,
                pickup: l.pickup,
                pickup_days: crate::model::cooperative::day_list(&l.pickup_days),
            }),
        }
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CatalogueQuery {
    /// Words found in the name, description or farmer's name (case and accents ignored).
    q: Option<String>,
    /// vegetables, fruits, grains, dairy, beverages or herbs.
    #[param(value_type = Option<String>, schema_with = crate::api::document::product_categories)]
    category: Option<String>,
    /// under_10, 10_to_50 or over_50 (USD, on the current price).
    #[param(value_type = Option<String>, schema_with = crate::api::document::price_bands)]
    price: Option<String>,
    /// newest (default), name, price_asc, price_desc or rating.
    #[param(value_type = Option<String>, schema_with = crate::api::document::product_sorts)]
    sort: Option<String>,
    page: Option<i64>,
    /// 24 unless given; at most 100.
    per_page: Option<i64>,
}

fn bad_filter(field: &str, text: &str) -> AppError {
    AppError::invalid(field, "invalid_filter", format!("Unknown {field} {text:?}"))
}

impl CatalogueQuery {
    fn filter(&self) -> ApiResult<CatalogueFilter> {
        let given = |value: &Option<String>| value.clone().filter(|v| !v.is_empty() && v != "all");
        let category =
            given(&self.category).map(|c| Category::parse(&c).ok_or_else(|| bad_filter("category", &c))).transpose()?;
        let price = given(&self.price)
            .map(|p| match p.as_str() {
                "under_10" => Ok(PriceBucket::Under10),
                "10_to_50" => Ok(PriceBucket::From10To50),
                "over_50" => Ok(PriceBucket::Over50),
                _ => Err(bad_filter("price", &p)),
            })
            .transpose()?;
        let sort = match given(&self.sort).as_deref() {
            None | Some("newest") => Sort::Newest,
            Some("name") => Sort::Name,
            Some("price_asc") => Sort::PriceUp,
            Some("price_desc") => Sort::PriceDown,
            Some("rating") => Sort::Rating,
            Some(other) => return Err(bad_filter("sort", other)),
        };
        Ok(CatalogueFilter { search: super::search(self.q.as_deref())?, category, price, sort })
    }
}

#[derive(Serialize, ToSchema)]
pub struct CataloguePage {
    success: bool,
    data: Vec<ProductJson>,
    /// How many products match in all.
    total: i64,
    page: i64,
    per_page: i64,
}

/// Products on sale (active, from active farmers), filtered, sorted and paged.
#[utoipa::path(get, path = "/products", operation_id = "product_catalogue", tag = "products", params(CatalogueQuery),
    responses((status = 200, body = CataloguePage), (status = 422, body = ErrorBody)))]
async fn catalogue(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(query): Query<CatalogueQuery>,
) -> ApiResult<Response> {
    let filter = query.filter()?;
    let (page, per_page) = super::catalogue_page(query.page, query.per_page);
    // The same page for everyone until something changes: answered from memory meanwhile.
    let key = format!("{filter:?}|{page}|{per_page}");
    let version = state.db.catalogue_version();
    let db = state.db.clone();
    super::cached_answer(&state.catalogue_cache, key, version, &headers, || async move {
        let (rows, total) = db
            .read_versioned(move |conn| Ok(catalogue::catalogue(conn, &filter, per_page, (page - 1) * per_page)?))
            .await?;
        let answer = CataloguePage {
            success: true,
            data: rows.into_iter().map(ProductJson::from).collect(),
            total,
            page,
            per_page,
        };
        serde_json::to_vec(&answer).map_err(AppError::internal)
    })
    .await
}

#[derive(Serialize, ToSchema)]
pub struct ProductResponse {
    success: bool,
    data: ProductJson,
}

fn not_found() -> AppError {
    AppError::not_found("product_not_found", "Product not found")
}

/// One product on sale.
#[utoipa::path(get, path = "/products/{id}", tag = "products", params(("id" = i64, Path)),
    responses((status = 200, body = ProductResponse), (status = 404, description = "product_not_found", body = ErrorBody)))]
async fn product(State(state): State<AppState>, Path(id): Path<i64>) -> ApiResult<Json<ProductResponse>> {
    let row = state.db.read_versioned(move |conn| rows::find_listed(conn, id)?.ok_or_else(not_found)).await?;
    Ok(Json(ProductResponse { success: true, data: row.into() }))
}

#[derive(Serialize, ToSchema)]
pub struct OwnProducts {
    success: bool,
    data: Vec<ProductJson>,
    /// A product is "low stock" at this many units or fewer.
    low_stock_threshold: i64,
}

/// The signed-in farmer's products, active or not, newest first.
#[utoipa::path(get, path = "/farmer/products", tag = "products", security(("bearer" = [])),
    responses((status = 200, body = OwnProducts), (status = 401, body = ErrorBody), (status = 403, description = "farmers_only", body = ErrorBody)))]
async fn own_products(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Json<OwnProducts>> {
    products::check_farmer(&auth.user)?;
    let id = auth.user.id;
    let rows = state.db.read(move |conn| Ok(rows::list_for_farmer(conn, id)?)).await?;
    Ok(Json(OwnProducts {
        success: true,
        data: rows.into_iter().map(ProductJson::from).collect(),
        low_stock_threshold: products::LOW_STOCK,
    }))
}

#[derive(Serialize, ToSchema)]
pub struct ProductSaved {
    success: bool,
    product: ProductJson,
}

/// Stores a form's photo files (checked and re-encoded) and records them as
/// uploads; returns their hashes.
pub(crate) async fn store_files(state: &AppState, uploader: &UserRow, files: Vec<Vec<u8>>) -> ApiResult<Vec<String>> {
    let mut hashes = Vec::with_capacity(files.len());
    for bytes in files {
        let size = bytes.len() as i64;
        let user = uploader.clone();
        state.db.read(move |conn| crate::domain::uploads::check_quota(conn, &user, size)).await?;
        let hash = state.media.store_image(bytes, media::PHOTO_SIZES).await?;
        let recorded = hash.clone();
        let uploader = uploader.id;
        state
            .db
            .write(move |tx| Ok(uploads::insert(tx, &recorded, uploader, size, &crate::platform::clock::now())?))
            .await?;
        hashes.push(hash);
    }
    Ok(hashes)
}

/// An edit's JSON body (`ProductForm` reads it, and the multipart form).
#[derive(ToSchema)]
#[allow(dead_code)] // documents the body
struct ProductRequest {
    product: ListingFields,
}

/// A new listing's JSON body.
#[derive(ToSchema)]
#[allow(dead_code)] // documents the body
struct NewProductRequest {
    product: NewListingFields,
}

/// List a product: multipart `product[...]` with `product[images][]` files, or JSON.
#[utoipa::path(post, path = "/farmer/products", tag = "products", security(("bearer" = [])),
    request_body(description = "`{\"product\": {...}}`, or multipart `product[field]` (or `field`) with `product[images][]` files",
        content((NewProductRequest = "application/json"), (NewListingFields = "multipart/form-data"))),
    responses(
        (status = 201, body = ProductSaved), (status = 200, description = "the same uid again", body = ProductSaved),
        (status = 403, description = "farmers_only", body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 409, description = "photo_missing: a photo named by its hash has not been sent to `PUT /uploads/{sha256}` yet", body = ErrorBody),
    ))]
async fn create_product(
    State(state): State<AppState>,
    auth: AuthUser,
    form: ProductForm,
) -> ApiResult<(StatusCode, Json<ProductSaved>)> {
    // Before any photo is stored: a buyer's files are not kept.
    products::check_farmer(&auth.user)?;
    let ProductForm { uid, mut input, files } = form;
    if !files.is_empty() {
        let mut hashes = input.images.take().unwrap_or_default();
        hashes.extend(store_files(&state, &auth.user, files).await?);
        input.images = Some(hashes);
    }
    let farmer = auth.user;
    let (row, created) = state.db.write(move |tx| products::create(tx, &farmer, uid, &input)).await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(ProductSaved { success: true, product: row.into() })))
}

/// Edit one's product; photo files in a multipart form are added to its photos.
#[utoipa::path(patch, path = "/farmer/products/{id}", tag = "products", security(("bearer" = [])), params(("id" = i64, Path)),
    request_body(description = "As the listing's creation: only the fields to change",
        content((ProductRequest = "application/json"), (ListingFields = "multipart/form-data"))),
    responses((status = 200, body = ProductSaved), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody),
        (status = 409, description = "photo_missing: a photo named by its hash has not been sent to `PUT /uploads/{sha256}` yet", body = ErrorBody)))]
async fn update_product(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    form: ProductForm,
) -> ApiResult<Json<ProductSaved>> {
    let ProductForm { mut input, files, .. } = form;
    if !files.is_empty() {
        let farmer_id = auth.user.id;
        let current = state
            .db
            .read(move |conn| Ok(rows::find(conn, id)?.filter(|p| p.farmer_id == farmer_id && p.deleted_at.is_none())))
            .await?;
        let current = current.ok_or_else(not_found)?;
        let mut hashes = input.images.take().unwrap_or(current.listing.images);
        hashes.extend(store_files(&state, &auth.user, files).await?);
        input.images = Some(hashes);
    }
    let farmer = auth.user;
    let (row, _) = state.db.write(move |tx| products::update(tx, &farmer, ProductRef::Id(id), &input, None)).await?;
    Ok(Json(ProductSaved { success: true, product: row.into() }))
}

/// Remove one's product from sale and from one's list.
#[utoipa::path(delete, path = "/farmer/products/{id}", tag = "products", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = MessageResponse), (status = 404, body = ErrorBody)))]
async fn delete_product(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<MessageResponse>> {
    let farmer = auth.user;
    state.db.write(move |tx| products::delete(tx, &farmer, ProductRef::Id(id))).await?;
    Ok(MessageResponse::new("Product deleted"))
}
