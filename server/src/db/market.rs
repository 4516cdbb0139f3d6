//! What the platform's own trade says about prices and sellers: delivered order
//! lines (market prices' sales, docs/prices.md) and listed products whose names
//! hold one of a crop's words (basic phones, docs/ussd.md).

use crate::db::{Connection, params};

/// The names a product is known by, lower case, for matching a crop's words.
const NAMES: &str = "lower(p.title || ' ' || COALESCE(p.title_en, '') || ' ' || COALESCE(p.title_fr, '') || ' ' || COALESCE(p.title_sw, ''))";

/// One delivered order line: a price someone paid, and when.
#[derive(Debug, Clone)]
pub struct Sale {
    pub line_id: i64,
    pub unit: String,
    pub unit_price_cents: i64,
    pub currency: String,
    /// Every name the product is known by, lower case.
    pub names: String,
    pub farmer_location: Option<String>,
    /// When it was delivered (RFC 3339, UTC).
    pub delivered_at: String,
    /// The delivery's event, in the order they happened.
    pub event_id: i64,
}

/// Lines delivered after the event `after` that are not yet price observations,
/// in the order they were delivered, at most `limit`.
pub fn unobserved_sales(conn: &Connection, after: i64, limit: i64) -> crate::db::Result<Vec<Sale>> {
    conn.prepare_cached(&format!(
        "SELECT l.id, l.unit, l.unit_price_cents, o.currency, {NAMES}, u.location, e.at, e.id
         FROM order_events e JOIN order_parts op ON op.id = e.part_id JOIN orders o ON o.id = op.order_id
         JOIN order_lines l ON l.part_id = op.id JOIN products p ON p.id = l.product_id
         JOIN users u ON u.id = op.farmer_id
         WHERE e.kind = 'delivered' AND e.id > ?1 AND op.status = 'delivered'
           AND NOT EXISTS (SELECT 1 FROM price_observations po WHERE po.order_line_id = l.id)
         ORDER BY e.id, l.id LIMIT ?2"
    ))?
    .query_map(params![after, limit], |r| {
        Ok(Sale {
            line_id: r.get(0)?,
            unit: r.get(1)?,
            unit_price_cents: r.get(2)?,
            currency: r.get(3)?,
            names: r.get(4)?,
            farmer_location: r.get(5)?,
            delivered_at: r.get(6)?,
            event_id: r.get(7)?,
        })
    })?
    .collect()
}

/// The last delivery event turned into observations, and moving it on.
pub fn sales_mark(conn: &Connection) -> crate::db::Result<i64> {
    conn.query_row("SELECT sales_event_mark FROM price_state WHERE id = 1", [], |r| r.get(0))
}

pub fn set_sales_mark(conn: &Connection, mark: i64) -> crate::db::Result<()> {
    conn.execute("UPDATE price_state SET sales_event_mark = CASE WHEN sales_event_mark > ?1 THEN sales_event_mark ELSE ?1 END WHERE id = 1", [mark])?;
    Ok(())
}

/// A product on sale and who sells it.
#[derive(Debug, Clone)]
pub struct Offer {
    pub title: String,
    pub unit: String,
    pub price_cents: i64,
    pub farmer_first_name: String,
    pub farmer_location: Option<String>,
    /// The farmer's number, when they let buyers who ask by SMS see it.
    pub farmer_phone: Option<String>,
    /// Every name the product is known by, lower case.
    pub names: String,
}

/// Products on the marketplace, newest first, at most `limit`.
pub fn listed(conn: &Connection, limit: i64) -> crate::db::Result<Vec<Offer>> {
    conn.prepare_cached(&format!(
        "SELECT p.title, p.unit, p.current_price_cents, u.first_name, u.location, {NAMES},
                CASE WHEN ps.share_number = 1 THEN u.phone_number END
         FROM products p JOIN users u ON u.id = p.farmer_id
         LEFT JOIN phone_settings ps ON ps.phone = u.phone_number
         WHERE p.listed = 1 ORDER BY p.id DESC LIMIT ?1"
    ))?
    .query_map([limit], |r| {
        Ok(Offer {
            title: r.get(0)?,
            unit: r.get(1)?,
            price_cents: r.get(2)?,
            farmer_first_name: r.get(3)?,
            farmer_location: r.get(4)?,
            names: r.get(5)?,
            farmer_phone: r.get(6)?,
        })
    })?
    .collect()
}

/// A course a person follows and where they are in it.
#[derive(Debug, Clone)]
pub struct Following {
    pub course_id: i64,
    pub title: String,
    pub progress: crate::model::course::Progress,
}

/// The courses a person follows (not refunded), newest enrolment first.
pub fn courses_of(conn: &Connection, user_id: i64) -> crate::db::Result<Vec<Following>> {
    conn.prepare_cached(
        "SELECT c.id, c.title, e.progress FROM enrolments e JOIN courses c ON c.id = e.course_id
         WHERE e.user_id = ?1 AND e.status = 'active' AND c.deleted_at IS NULL ORDER BY e.id DESC",
    )?
    .query_map([user_id], |r| {
        Ok(Following {
            course_id: r.get(0)?,
            title: r.get(1)?,
            progress: serde_json::from_str(&r.get::<_, String>(2)?).unwrap_or_default(),
        })
    })?
    .collect()
}
