//! The `earnings` ledger: entries only, never an edited balance.

use crate::db::{Connection, params};

/// A sale: the part's goods and shipping, and the platform fee its order was placed
/// with (rounded to the cent), once (a second call changes nothing).
pub fn record_sale(
    conn: &Connection,
    farmer_id: i64,
    order_id: i64,
    part_id: i64,
    amount_cents: i64,
    currency: &str,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO earnings (farmer_id, order_id, part_id, kind, amount_cents, currency, at)
         VALUES (?1, ?2, ?3, 'sale', ?4, ?5, ?6) ON CONFLICT DO NOTHING",
    )?
    .execute(params![farmer_id, order_id, part_id, amount_cents, currency, now])?;
    conn.prepare_cached(
        "INSERT INTO earnings (farmer_id, order_id, part_id, kind, amount_cents, currency, at)
         SELECT ?1, id, ?3, 'fee', -((?4 * platform_fee_bp + 5000) / 10000), ?5, ?6
         FROM orders WHERE id = ?2 AND platform_fee_bp > 0
         ON CONFLICT DO NOTHING",
    )?
    .execute(params![farmer_id, order_id, part_id, amount_cents, currency, now])?;
    Ok(())
}

/// Entries about one part of an order.
pub struct Ledger<'a> {
    pub order_id: i64,
    pub part_id: i64,
    pub currency: &'a str,
    pub at: &'a str,
}

impl Ledger<'_> {
    /// Writes `person`'s entry of `kind`, once: false when it was written already.
    pub fn add(&self, conn: &Connection, person: i64, kind: &str, amount_cents: i64) -> crate::db::Result<bool> {
        let written = conn
            .prepare_cached(
                "INSERT INTO earnings (farmer_id, order_id, part_id, kind, amount_cents, currency, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT DO NOTHING",
            )?
            .execute(params![person, self.order_id, self.part_id, kind, amount_cents, self.currency, self.at])?;
        Ok(written == 1)
    }
}

#[derive(Debug, Clone)]
pub struct Entry {
    pub order_id: i64,
    pub part_id: i64,
    pub kind: String,
    pub amount_cents: i64,
    pub currency: String,
    pub at: String,
}

/// A farmer's newest entries, at most `limit`.
pub fn entries_of(conn: &Connection, farmer_id: i64, limit: i64) -> crate::db::Result<Vec<Entry>> {
    conn.prepare_cached(
        "SELECT order_id, part_id, kind, amount_cents, currency, at FROM earnings
         WHERE farmer_id = ?1 ORDER BY at DESC, id DESC LIMIT ?2",
    )?
    .query_map(params![farmer_id, limit], |r| {
        Ok(Entry {
            order_id: r.get(0)?,
            part_id: r.get(1)?,
            kind: r.get(2)?,
            amount_cents: r.get(3)?,
            currency: r.get(4)?,
            at: r.get(5)?,
        })
    })?
    .collect()
}

/// Earned per month (`YYYY-MM`, newest first): the sum of entries and how many sales.
pub fn by_month(conn: &Connection, farmer_id: i64) -> crate::db::Result<Vec<(String, i64, i64)>> {
    conn.prepare_cached(
        "SELECT substr(at, 1, 7) AS month, SUM(amount_cents), SUM(CASE WHEN kind = 'sale' THEN 1 ELSE 0 END) FROM earnings
         WHERE farmer_id = ?1 GROUP BY month ORDER BY month DESC",
    )?
    .query_map([farmer_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
    .collect()
}

/// What the farmer's parts not yet delivered (nor cancelled) will bring, less the platform fee.
pub fn pending(conn: &Connection, farmer_id: i64) -> crate::db::Result<i64> {
    conn.prepare_cached(
        "SELECT COALESCE(SUM(p.subtotal_cents + p.shipping_cents
                             - ((p.subtotal_cents + p.shipping_cents) * o.platform_fee_bp + 5000) / 10000), 0)
         FROM order_parts p JOIN orders o ON o.id = p.order_id
         WHERE p.farmer_id = ?1 AND p.status IN ('processing', 'shipped')",
    )?
    .query_row([farmer_id], |r| r.get(0))
}
