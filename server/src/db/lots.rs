//! Cooperatives' lots and the weigh-book entries they were drawn from (docs/cooperatives.md).

use super::products::{self, ProductRow};
use crate::db::{Connection, OptionalExtension, params};
use crate::model::cooperative::Grade;

#[derive(Debug, Clone)]
pub struct LotRow {
    pub id: i64,
    /// Its number in its cooperative ("lot 3 of …"), the one people see.
    pub number: i64,
    pub uid: String,
    pub cooperative_id: i64,
    pub cooperative_name: String,
    pub product_id: i64,
    pub crop: String,
    pub grade: Grade,
    pub grams: i64,
    pub members: i64,
    pub collected_from: String,
    pub collected_to: String,
    pub pickup: String,
    /// The days it is collected on (`WEEKDAYS`), space-separated.
    pub pickup_days: String,
    /// The cooperative delivers it too, for this cost (its product's shipping), in cents.
    pub delivery_cents: Option<i64>,
    pub created_at: String,
    /// Kilograms still on sale (the product's stock).
    pub on_sale_kg: i64,
    /// Kilograms in parts delivered to their buyers.
    pub sold_kg: i64,
    /// Price per kg, in cents.
    pub price_cents: i64,
    pub withdrawn: bool,
}

const SELECT: &str = "SELECT l.id, l.uid, l.cooperative_id, c.name, l.product_id, l.crop, l.grade, l.grams, l.members,
        l.collected_from, l.collected_to, l.pickup, l.created_at, p.quantity,
        COALESCE((SELECT SUM(ol.quantity) FROM order_lines ol JOIN order_parts op ON op.id = ol.part_id
                  WHERE ol.product_id = l.product_id AND op.status = 'delivered'), 0),
        p.current_price_cents, CASE WHEN p.deleted_at IS NULL AND p.status = 'active' THEN 0 ELSE 1 END, l.number,
        l.pickup_days, CASE WHEN p.shipping_available <> 0 THEN p.shipping_cost_cents END
    FROM cooperative_lots l JOIN cooperatives c ON c.id = l.cooperative_id JOIN products p ON p.id = l.product_id";

fn row(r: &crate::db::Row<'_>) -> crate::db::Result<LotRow> {
    Ok(LotRow {
        id: r.get(0)?,
        uid: r.get(1)?,
        cooperative_id: r.get(2)?,
        cooperative_name: r.get(3)?,
        product_id: r.get(4)?,
        crop: r.get(5)?,
        grade: r.get(6)?,
        grams: r.get(7)?,
        members: r.get(8)?,
        collected_from: r.get(9)?,
        collected_to: r.get(10)?,
        pickup: r.get(11)?,
        created_at: r.get(12)?,
        on_sale_kg: r.get(13)?,
        sold_kg: r.get(14)?,
        price_cents: r.get(15)?,
        withdrawn: r.get(16)?,
        number: r.get(17)?,
        pickup_days: r.get(18)?,
        delivery_cents: r.get(19)?,
    })
}

pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<LotRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE l.id = ?1"))?.query_row([id], row).optional()
}

pub fn by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<LotRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE l.uid = ?1"))?.query_row([uid], row).optional()
}

/// A cooperative's lots, newest first.
pub fn of_cooperative(conn: &Connection, cooperative_id: i64) -> crate::db::Result<Vec<LotRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE l.cooperative_id = ?1 ORDER BY l.id DESC"))?
        .query_map([cooperative_id], row)?
        .collect()
}

/// A weigh-book entry's grams not yet drawn into a lot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unsold {
    pub delivery_id: i64,
    pub member_id: i64,
    pub delivered_on: String,
    pub grams: i64,
}

/// The entries of one crop and grade that still count (not replaced, not void) with
/// grams not yet in a lot, oldest first: what a new lot is drawn from.
pub fn unsold(conn: &Connection, cooperative_id: i64, crop: &str, grade: Grade) -> crate::db::Result<Vec<Unsold>> {
    conn.prepare_cached(
        "SELECT d.id, d.member_id, d.delivered_on,
                d.grams - COALESCE((SELECT SUM(s.grams) FROM cooperative_lot_sources s WHERE s.delivery_id = d.id), 0) AS left_grams
         FROM cooperative_deliveries d
         WHERE d.cooperative_id = ?1 AND d.crop = ?2 AND d.grade = ?3 AND d.grams > 0
           AND NOT EXISTS (SELECT 1 FROM cooperative_deliveries r WHERE r.replaces_id = d.id)
           AND d.grams > COALESCE((SELECT SUM(s.grams) FROM cooperative_lot_sources s WHERE s.delivery_id = d.id), 0)
         ORDER BY d.delivered_on, d.id",
    )?
    .query_map(params![cooperative_id, crop, grade], |r| {
        Ok(Unsold { delivery_id: r.get(0)?, member_id: r.get(1)?, delivered_on: r.get(2)?, grams: r.get(3)? })
    })?
    .collect()
}

/// Grams drawn into lots, by crop and grade.
pub fn in_lots(conn: &Connection, cooperative_id: i64) -> crate::db::Result<Vec<(String, Grade, i64)>> {
    conn.prepare_cached(
        "SELECT crop, grade, SUM(grams) FROM cooperative_lots WHERE cooperative_id = ?1 GROUP BY crop, grade",
    )?
    .query_map([cooperative_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
    .collect()
}

pub struct NewLot<'a> {
    pub uid: &'a str,
    pub cooperative_id: i64,
    pub number: i64,
    pub product_id: i64,
    pub crop: &'a str,
    pub grade: Grade,
    pub grams: i64,
    pub members: i64,
    pub collected_from: &'a str,
    pub collected_to: &'a str,
    pub pickup: &'a str,
    pub pickup_days: &'a str,
    pub created_by: i64,
}

pub fn insert(conn: &Connection, lot: &NewLot<'_>, now: &str) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO cooperative_lots (uid, cooperative_id, product_id, crop, grade, grams, members, collected_from,
                                       collected_to, pickup, created_by, created_at, number, pickup_days)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)",
        params![
            lot.uid,
            lot.cooperative_id,
            lot.product_id,
            lot.crop,
            lot.grade,
            lot.grams,
            lot.members,
            lot.collected_from,
            lot.collected_to,
            lot.pickup,
            lot.created_by,
            now,
            lot.number,
            lot.pickup_days
        ],
    )
}

pub fn add_source(conn: &Connection, lot_id: i64, delivery_id: i64, grams: i64) -> crate::db::Result<()> {
    conn.prepare_cached("INSERT INTO cooperative_lot_sources (lot_id, delivery_id, grams) VALUES (?1, ?2, ?3)")?
        .execute(params![lot_id, delivery_id, grams])?;
    Ok(())
}

/// What each member put into a lot (member id, grams), by member id.
pub fn contributions(conn: &Connection, lot_id: i64) -> crate::db::Result<Vec<(i64, i64)>> {
    conn.prepare_cached(
        "SELECT d.member_id, SUM(s.grams) FROM cooperative_lot_sources s
         JOIN cooperative_deliveries d ON d.id = s.delivery_id
         WHERE s.lot_id = ?1 GROUP BY d.member_id ORDER BY d.member_id",
    )?
    .query_map([lot_id], |r| Ok((r.get(0)?, r.get(1)?)))?
    .collect()
}

/// The lots in a part of an order, with what the buyer paid for each (lot id, cents).
pub fn in_part(conn: &Connection, part_id: i64) -> crate::db::Result<Vec<(i64, i64)>> {
    conn.prepare_cached(
        "SELECT l.id, SUM(ol.line_total_cents) FROM order_lines ol JOIN cooperative_lots l ON l.product_id = ol.product_id
         WHERE ol.part_id = ?1 GROUP BY l.id ORDER BY l.id",
    )?
    .query_map([part_id], |r| Ok((r.get(0)?, r.get(1)?)))?
    .collect()
}

/// One member's part of a lot's origin.
#[derive(Debug, Clone)]
pub struct OriginRow {
    pub member_id: i64,
    pub name: String,
    /// Where the farmer says they farm (their profile's place).
    pub location: Option<String>,
    pub plot: Option<(f64, f64)>,
    pub named: bool,
    pub grams: i64,
    pub first_delivered: String,
    pub last_delivered: String,
}

pub fn origin(conn: &Connection, lot_id: i64) -> crate::db::Result<Vec<OriginRow>> {
    conn.prepare_cached(
        "SELECT d.member_id, trim(u.first_name || ' ' || u.last_name), u.location, cm.plot_latitude, cm.plot_longitude,
                COALESCE(cm.named_in_origin, 0), SUM(s.grams), MIN(d.delivered_on), MAX(d.delivered_on)
         FROM cooperative_lot_sources s
         JOIN cooperative_lots l ON l.id = s.lot_id
         JOIN cooperative_deliveries d ON d.id = s.delivery_id
         JOIN users u ON u.id = d.member_id
         LEFT JOIN cooperative_members cm ON cm.cooperative_id = l.cooperative_id AND cm.user_id = d.member_id
         WHERE s.lot_id = ?1
         GROUP BY d.member_id, u.first_name, u.last_name, u.location, cm.plot_latitude, cm.plot_longitude, cm.named_in_origin
         ORDER BY SUM(s.grams) DESC, d.member_id",
    )?
    .query_map([lot_id], |r| {
        Ok(OriginRow {
            member_id: r.get(0)?,
            name: r.get(1)?,
            location: r.get(2)?,
            plot: match (r.get::<_, Option<f64>>(3)?, r.get::<_, Option<f64>>(4)?) {
                (Some(lat), Some(lon)) => Some((lat, lon)),
                _ => None,
            },
            named: r.get(5)?,
            grams: r.get(6)?,
            first_delivered: r.get(7)?,
            last_delivered: r.get(8)?,
        })
    })?
    .collect()
}

/// A lot's sources, the latest deliveries first (what a lot gives back first when it
/// leaves the marketplace): (delivery id, grams).
pub fn sources_latest_first(conn: &Connection, lot_id: i64) -> crate::db::Result<Vec<(i64, i64)>> {
    conn.prepare_cached(
        "SELECT s.delivery_id, s.grams FROM cooperative_lot_sources s
         JOIN cooperative_deliveries d ON d.id = s.delivery_id
         WHERE s.lot_id = ?1 ORDER BY d.delivered_on DESC, d.id DESC",
    )?
    .query_map([lot_id], |r| Ok((r.get(0)?, r.get(1)?)))?
    .collect()
}

/// Keeps `grams` of a source (none: the source goes).
pub fn set_source(conn: &Connection, lot_id: i64, delivery_id: i64, grams: i64) -> crate::db::Result<()> {
    if grams > 0 {
        conn.prepare_cached("UPDATE cooperative_lot_sources SET grams = ?3 WHERE lot_id = ?1 AND delivery_id = ?2")?
            .execute(params![lot_id, delivery_id, grams])?;
    } else {
        conn.prepare_cached("DELETE FROM cooperative_lot_sources WHERE lot_id = ?1 AND delivery_id = ?2")?
            .execute(params![lot_id, delivery_id])?;
    }
    Ok(())
}

/// A lot's size, members and days from its sources as they are now.
pub fn reshape(conn: &Connection, lot_id: i64) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE cooperative_lots SET
            grams = (SELECT SUM(s.grams) FROM cooperative_lot_sources s WHERE s.lot_id = ?1),
            members = (SELECT COUNT(DISTINCT d.member_id) FROM cooperative_lot_sources s
                       JOIN cooperative_deliveries d ON d.id = s.delivery_id WHERE s.lot_id = ?1),
            collected_from = (SELECT MIN(d.delivered_on) FROM cooperative_lot_sources s
                              JOIN cooperative_deliveries d ON d.id = s.delivery_id WHERE s.lot_id = ?1),
            collected_to = (SELECT MAX(d.delivered_on) FROM cooperative_lot_sources s
                            JOIN cooperative_deliveries d ON d.id = s.delivery_id WHERE s.lot_id = ?1)
         WHERE id = ?1",
    )?
    .execute([lot_id])?;
    Ok(())
}

/// A lot nothing was ordered from, taken off sale: it and its sources go (its product stays a tombstone).
pub fn delete(conn: &Connection, lot_id: i64) -> crate::db::Result<()> {
    conn.prepare_cached("DELETE FROM cooperative_lot_sources WHERE lot_id = ?1")?.execute([lot_id])?;
    conn.prepare_cached("DELETE FROM cooperative_lots WHERE id = ?1")?.execute([lot_id])?;
    Ok(())
}

/// A cooperative's lots on sale (listed, with stock), newest first.
pub fn on_sale(conn: &Connection, cooperative_id: i64) -> crate::db::Result<Vec<ProductRow>> {
    conn.prepare_cached(&format!(
        "{} ORDER BY p.id DESC",
        products::select(&format!("l.cooperative_id = ?1 AND {} AND p.quantity > 0", products::LISTED))
    ))?
    .query_map([cooperative_id], products::from_row)?
    .collect()
}
