//! What the platform's own trade says about prices and sellers, for people on
//! basic phones (docs/ussd.md): delivered order lines and listed products whose
//! names hold one of a crop's words.

use rusqlite::{Connection, params};

/// One delivered order line: a price someone paid.
#[derive(Debug, Clone)]
pub struct Sale {
    pub title: String,
    pub unit: String,
    pub unit_price_cents: i64,
}

/// The names a product is known by, lower case, for matching a crop's words.
const NAMES: &str = "lower(p.title || ' ' || COALESCE(p.title_en, '') || ' ' || COALESCE(p.title_fr, '') || ' ' || COALESCE(p.title_sw, ''))";

/// Lines of parts delivered since `since`, newest first, at most `limit`.
pub fn delivered_since(conn: &Connection, since: &str, limit: i64) -> rusqlite::Result<Vec<(Sale, String)>> {
    conn.prepare_cached(&format!(
        "SELECT l.title, l.unit, l.unit_price_cents, {NAMES}
         FROM order_lines l JOIN order_parts op ON op.id = l.part_id JOIN products p ON p.id = l.product_id
         WHERE op.status = 'delivered' AND op.updated_at >= ?1
         ORDER BY op.updated_at DESC LIMIT ?2"
    ))?
    .query_map(params![since, limit], |r| {
        Ok((Sale { title: r.get(0)?, unit: r.get(1)?, unit_price_cents: r.get(2)? }, r.get(3)?))
    })?
    .collect()
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
pub fn listed(conn: &Connection, limit: i64) -> rusqlite::Result<Vec<Offer>> {
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
pub fn courses_of(conn: &Connection, user_id: i64) -> rusqlite::Result<Vec<Following>> {
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
