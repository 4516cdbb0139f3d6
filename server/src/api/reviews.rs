//! `PUT /products/{id}/review` (a buyer who received the product) and
//! `GET /products/{id}/reviews` (anyone), docs/orders.md.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::ApiJson;
use crate::auth::AuthUser;
use crate::db::reviews::{self as rows, ReviewRow};
use crate::domain::reviews;
use crate::error::{ApiResult, ErrorBody};
use crate::state::AppState;

/// The reviews a product page shows.
const SHOWN: i64 = 50;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(write_review)).routes(routes!(list_reviews))
}

#[derive(Serialize, ToSchema)]
pub struct ReviewJson {
    product_id: i64,
    /// The buyer's first name and initial.
    author: String,
    rating: i64,
    comment: String,
    created_at: String,
    updated_at: String,
}

impl From<ReviewRow> for ReviewJson {
    fn from(r: ReviewRow) -> Self {
        ReviewJson {
            product_id: r.product_id,
            author: r.author,
            rating: r.rating,
            comment: r.comment,
            created_at: r.created_at,
            updated_at: r.updated_at,
        }
    }
}

#[derive(Deserialize, ToSchema)]
struct ReviewRequest {
    /// 1 to 5 stars.
    rating: i64,
    #[serde(default)]
    comment: String,
}

#[derive(Serialize, ToSchema)]
struct ReviewResponse {
    success: bool,
    data: ReviewJson,
}

#[derive(Serialize, ToSchema)]
struct ReviewList {
    success: bool,
    data: Vec<ReviewJson>,
}

/// Rate and comment a product received in a delivered order; again to change it.
#[utoipa::path(put, path = "/products/{id}/review", tag = "products", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = ReviewRequest,
    responses((status = 200, body = ReviewResponse), (status = 403, description = "not_delivered", body = ErrorBody),
              (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn write_review(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<ReviewRequest>,
) -> ApiResult<Json<ReviewResponse>> {
    let buyer = auth.user.clone();
    let review = state.db.write(move |tx| reviews::write(tx, &buyer, id, request.rating, &request.comment)).await?;
    Ok(Json(ReviewResponse { success: true, data: review.into() }))
}

/// A product's reviews, newest first.
#[utoipa::path(get, path = "/products/{id}/reviews", tag = "products", params(("id" = i64, Path)),
    responses((status = 200, body = ReviewList)))]
async fn list_reviews(State(state): State<AppState>, Path(id): Path<i64>) -> ApiResult<Json<ReviewList>> {
    let found = state.db.read(move |conn| Ok(rows::of_product(conn, id, SHOWN)?)).await?;
    Ok(Json(ReviewList { success: true, data: found.into_iter().map(ReviewJson::from).collect() }))
}
