//! Reviews (docs/orders.md): a buyer rates and comments a product they
//! received in a delivered order, once, and may change it; the product's and
//! the farmer's ratings follow.

use crate::db::Connection;

use crate::db::reviews::{self, ReviewRow};
use crate::db::users::UserRow;
use crate::db::{products, sync};
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::platform::clock;

const MAX_COMMENT_CHARS: usize = 1000;

/// Writes (or rewrites) `buyer`'s review of product `product_id`.
pub fn write(conn: &Connection, buyer: &UserRow, product_id: i64, rating: i64, comment: &str) -> ApiResult<ReviewRow> {
    if products::find(conn, product_id)?.is_none() {
        return Err(AppError::not_found("product_not_found", "Product not found"));
    }
    if !reviews::received(conn, product_id, buyer.id)? {
        return Err(AppError::forbidden("not_delivered", "You can review the products of your delivered orders"));
    }
    let mut errors = FieldErrors::default();
    if !(1..=5).contains(&rating) {
        errors.add("rating", "rating_invalid", "Choose from 1 to 5 stars");
    }
    let comment = comment.trim();
    if comment.chars().count() > MAX_COMMENT_CHARS {
        errors.add("comment", "too_long", "The comment is too long");
    }
    errors.finish()?;
    reviews::upsert(conn, product_id, buyer.id, rating, comment, &clock::now())?;
    products::refresh_rating(conn, product_id, sync::next_version(conn)?)?;
    reviews::find(conn, product_id, buyer.id)?.ok_or_else(|| AppError::internal("review vanished"))
}
