//! A cooperative's weigh book (docs/cooperatives.md): entries only, a correction
//! a new entry naming the one it replaces; and the disputes members raise.

use crate::db::{Connection, OptionalExtension, params};
use crate::model::cooperative::{Grade, WeighUnit};

#[derive(Debug, Clone)]
pub struct DeliveryRow {
    pub id: i64,
    pub uid: String,
    pub cooperative_id: i64,
    pub cooperative_name: String,
    pub member_id: i64,
    pub member_name: String,
    pub crop: String,
    pub grade: Grade,
    pub quantity: String,
    pub unit: WeighUnit,
    pub grams: i64,
    pub delivered_on: String,
    pub place: String,
    pub photo: Option<String>,
    /// The entry this one corrects.
    pub replaces_id: Option<i64>,
    /// The entry that corrects this one: it no longer counts.
    pub replaced_by: Option<i64>,
    /// Drawn into a lot: it can no longer be corrected.
    pub in_lot: bool,
    pub note: Option<String>,
    pub recorded_by: i64,
    pub created_at: String,
    pub dispute: Option<DisputeRow>,
}

#[derive(Debug, Clone)]
pub struct DisputeRow {
    pub reason: String,
    pub answer: Option<String>,
    pub answer_note: Option<String>,
    pub created_at: String,
    pub answered_at: Option<String>,
}

/// Every column named as `row` reads it: a reordered or added column cannot shift another.
const SELECT: &str = "SELECT d.id AS id, d.uid AS uid, d.cooperative_id AS cooperative_id,
    c.name AS cooperative_name, d.member_id AS member_id, u.first_name || ' ' || u.last_name AS member_name,
    d.crop AS crop, d.grade AS grade, d.quantity AS quantity, d.unit AS unit, d.grams AS grams,
    d.delivered_on AS delivered_on, d.place AS place, d.photo AS photo, d.replaces_id AS replaces_id,
    (SELECT r.id FROM cooperative_deliveries r WHERE r.replaces_id = d.id) AS replaced_by, d.note AS note,
    EXISTS (SELECT 1 FROM cooperative_lot_sources s WHERE s.delivery_id = d.id) AS in_lot,
    d.recorded_by AS recorded_by, d.created_at AS created_at, x.reason AS dispute_reason,
    x.answer AS dispute_answer, x.answer_note AS dispute_answer_note, x.created_at AS disputed_at,
    x.answered_at AS dispute_answered_at
    FROM cooperative_deliveries d JOIN cooperatives c ON c.id = d.cooperative_id JOIN users u ON u.id = d.member_id
    LEFT JOIN cooperative_disputes x ON x.delivery_id = d.id";

fn row(r: &crate::db::Row<'_>) -> crate::db::Result<DeliveryRow> {
    let reason: Option<String> = r.get("dispute_reason")?;
    let dispute = match reason {
        Some(reason) => Some(DisputeRow {
            reason,
            answer: r.get("dispute_answer")?,
            answer_note: r.get("dispute_answer_note")?,
            created_at: r.get("disputed_at")?,
            answered_at: r.get("dispute_answered_at")?,
        }),
        None => None,
    };
    Ok(DeliveryRow {
        id: r.get("id")?,
        uid: r.get("uid")?,
        cooperative_id: r.get("cooperative_id")?,
        cooperative_name: r.get("cooperative_name")?,
        member_id: r.get("member_id")?,
        member_name: r.get("member_name")?,
        crop: r.get("crop")?,
        grade: r.get("grade")?,
        quantity: r.get("quantity")?,
        unit: r.get("unit")?,
        grams: r.get("grams")?,
        delivered_on: r.get("delivered_on")?,
        place: r.get("place")?,
        photo: r.get("photo")?,
        replaces_id: r.get("replaces_id")?,
        replaced_by: r.get("replaced_by")?,
        in_lot: r.get("in_lot")?,
        note: r.get("note")?,
        recorded_by: r.get("recorded_by")?,
        created_at: r.get("created_at")?,
        dispute,
    })
}

pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<DeliveryRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE d.id = ?1"))?.query_row([id], row).optional()
}

pub fn by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<DeliveryRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE d.uid = ?1"))?.query_row([uid], row).optional()
}

/// A new entry of the book.
pub struct NewDelivery<'a> {
    pub uid: &'a str,
    pub cooperative_id: i64,
    pub member_id: i64,
    pub crop: &'a str,
    pub grade: Grade,
    pub quantity: &'a str,
    pub unit: WeighUnit,
    pub grams: i64,
    pub delivered_on: &'a str,
    pub place: &'a str,
    pub photo: Option<&'a str>,
    pub replaces_id: Option<i64>,
    pub note: Option<&'a str>,
    pub recorded_by: i64,
}

pub fn insert(conn: &Connection, d: &NewDelivery<'_>, now: &str) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO cooperative_deliveries (uid, cooperative_id, member_id, crop, grade, quantity, unit, grams,
             delivered_on, place, photo, replaces_id, note, recorded_by, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)",
        params![
            d.uid,
            d.cooperative_id,
            d.member_id,
            d.crop,
            d.grade,
            d.quantity,
            d.unit,
            d.grams,
            d.delivered_on,
            d.place,
            d.photo,
            d.replaces_id,
            d.note,
            d.recorded_by,
            now
        ],
    )
}

/// A cooperative's book, newest first: every entry (corrected ones too), those of
/// `day` only when given, at most `limit` from `offset`.
pub fn of_cooperative(
    conn: &Connection,
    cooperative_id: i64,
    day: Option<&str>,
    limit: i64,
    offset: i64,
) -> crate::db::Result<Vec<DeliveryRow>> {
    conn.prepare_cached(&format!(
        "{SELECT} WHERE d.cooperative_id = ?1 AND d.delivered_on = COALESCE(?2, d.delivered_on)
         ORDER BY d.id DESC LIMIT ?3 OFFSET ?4"
    ))?
    .query_map(params![cooperative_id, day, limit, offset], row)?
    .collect()
}

/// Every entry of a cooperative's book (of `day` only, when given), oldest first, to `each`;
/// answers how many.
pub fn for_each_of_cooperative(
    conn: &Connection,
    cooperative_id: i64,
    day: Option<&str>,
    mut each: impl FnMut(DeliveryRow),
) -> crate::db::Result<usize> {
    let mut statement = conn.prepare_cached(&format!(
        "{SELECT} WHERE d.cooperative_id = ?1 AND d.delivered_on = COALESCE(?2, d.delivered_on) ORDER BY d.id"
    ))?;
    let mut count = 0;
    for entry in statement.query_map(params![cooperative_id, day], row)? {
        each(entry?);
        count += 1;
    }
    Ok(count)
}

/// A cooperative's entries whose dispute waits for a manager's answer, oldest dispute
/// first, at most `limit` from `offset`.
pub fn disputed(
    conn: &Connection,
    cooperative_id: i64,
    limit: i64,
    offset: i64,
) -> crate::db::Result<Vec<DeliveryRow>> {
    conn.prepare_cached(&format!(
        "{SELECT} WHERE d.cooperative_id = ?1 AND x.id IS NOT NULL AND x.answer IS NULL
         ORDER BY x.created_at, x.id LIMIT ?2 OFFSET ?3"
    ))?
    .query_map(params![cooperative_id, limit, offset], row)?
    .collect()
}

/// How many disputes wait for an answer in each cooperative that has any.
pub fn open_disputes(conn: &Connection) -> crate::db::Result<Vec<(i64, i64)>> {
    conn.prepare_cached(
        "SELECT d.cooperative_id, COUNT(*) FROM cooperative_disputes x
         JOIN cooperative_deliveries d ON d.id = x.delivery_id WHERE x.answer IS NULL GROUP BY d.cooperative_id",
    )?
    .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
    .collect()
}

/// A member's entries in every cooperative, newest first, with their history.
pub fn of_member(conn: &Connection, member_id: i64, limit: i64, offset: i64) -> crate::db::Result<Vec<DeliveryRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE d.member_id = ?1 ORDER BY d.id DESC LIMIT ?2 OFFSET ?3"))?
        .query_map(params![member_id, limit, offset], row)?
        .collect()
}

/// What a cooperative holds by crop and grade: the entries that count (none corrects
/// them), in grams.
pub fn received(conn: &Connection, cooperative_id: i64) -> crate::db::Result<Vec<(String, Grade, i64, i64)>> {
    conn.prepare_cached(
        "SELECT d.crop, d.grade, SUM(d.grams), COUNT(DISTINCT d.member_id) FROM cooperative_deliveries d
         WHERE d.cooperative_id = ?1 AND d.grams > 0
           AND NOT EXISTS (SELECT 1 FROM cooperative_deliveries r WHERE r.replaces_id = d.id)
         GROUP BY d.crop, d.grade ORDER BY d.crop, d.grade",
    )?
    .query_map([cooperative_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
    .collect()
}

pub fn add_dispute(
    conn: &Connection,
    delivery_id: i64,
    member_id: i64,
    reason: &str,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO cooperative_disputes (delivery_id, member_id, reason, created_at) VALUES (?1, ?2, ?3, ?4)",
    )?
    .execute(params![delivery_id, member_id, reason, now])?;
    Ok(())
}

/// Answers a dispute not yet answered: `corrected` or `kept`.
pub fn answer_dispute(
    conn: &Connection,
    delivery_id: i64,
    answer: &str,
    note: Option<&str>,
    by: i64,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE cooperative_disputes SET answer = ?2, answer_note = ?3, answered_by = ?4, answered_at = ?5
         WHERE delivery_id = ?1 AND answer IS NULL",
    )?
    .execute(params![delivery_id, answer, note, by, now])?;
    Ok(())
}
