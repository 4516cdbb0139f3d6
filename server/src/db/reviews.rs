//! The `reviews` table.

use crate::db::{Connection, OptionalExtension, params};

#[derive(Debug, Clone)]
pub struct ReviewRow {
    pub product_id: i64,
    pub buyer_id: i64,
    /// The buyer's first name and the initial of their last name.
    pub author: String,
    pub rating: i64,
    pub comment: String,
    pub created_at: String,
    pub updated_at: String,
}

/// Writes or rewrites a buyer's review of a product.
pub fn upsert(
    conn: &Connection,
    product_id: i64,
    buyer_id: i64,
    rating: i64,
    comment: &str,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO reviews (product_id, buyer_id, rating, comment, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?5, ?5)
         ON CONFLICT (product_id, buyer_id) DO UPDATE SET rating = ?3, comment = ?4, updated_at = ?5",
    )?
    .execute(params![product_id, buyer_id, rating, comment, now])?;
    Ok(())
}

const SELECT: &str = "SELECT r.product_id, r.buyer_id,
        trim(u.first_name || ' ' || substr(u.last_name, 1, 1) || CASE WHEN u.last_name <> '' THEN '.' ELSE '' END),
        r.rating, r.comment, r.created_at, r.updated_at
    FROM reviews r JOIN users u ON u.id = r.buyer_id";

fn from_row(r: &crate::db::Row<'_>) -> crate::db::Result<ReviewRow> {
    Ok(ReviewRow {
        product_id: r.get(0)?,
        buyer_id: r.get(1)?,
        author: r.get(2)?,
        rating: r.get(3)?,
        comment: r.get(4)?,
        created_at: r.get(5)?,
        updated_at: r.get(6)?,
    })
}

pub fn find(conn: &Connection, product_id: i64, buyer_id: i64) -> crate::db::Result<Option<ReviewRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE r.product_id = ?1 AND r.buyer_id = ?2"))?
        .query_row(params![product_id, buyer_id], from_row)
        .optional()
}

/// A product's reviews, newest first, at most `limit`.
pub fn of_product(conn: &Connection, product_id: i64, limit: i64) -> crate::db::Result<Vec<ReviewRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE r.product_id = ?1 ORDER BY r.updated_at DESC, r.id DESC LIMIT ?2"))?
        .query_map(params![product_id, limit], from_row)?
        .collect()
}

/// Whether the buyer received this product: a delivered part of one of their orders holds it.
pub fn received(conn: &Connection, product_id: i64, buyer_id: i64) -> crate::db::Result<bool> {
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM order_lines l JOIN order_parts p ON p.id = l.part_id JOIN orders o ON o.id = p.order_id
                        WHERE l.product_id = ?1 AND o.buyer_id = ?2 AND p.status = 'delivered')",
    )?
    .query_row(params![product_id, buyer_id], |r| r.get(0))
}
