//! The `payments`, `payment_events` and `payment_callbacks` tables.

use crate::db::{Connection, OptionalExtension, Row, params};

use crate::model::payment::PaymentStatus;

#[derive(Debug, Clone)]
pub struct PaymentRow {
    pub id: i64,
    pub uid: String,
    /// What is paid for: an order or a course.
    pub order_id: Option<i64>,
    pub course_id: Option<i64>,
    pub payer_id: i64,
    pub provider: String,
    pub operator: String,
    pub phone: String,
    pub amount_cents: i64,
    pub currency: String,
    pub status: PaymentStatus,
    pub provider_ref: Option<String>,
    pub failure_reason: Option<String>,
    pub checks: i64,
    pub next_check_at: String,
    pub expires_at: String,
    pub created_at: String,
    pub updated_at: String,
}

pub struct NewPayment<'a> {
    pub uid: &'a str,
    pub order_id: Option<i64>,
    pub course_id: Option<i64>,
    pub payer_id: i64,
    pub provider: &'a str,
    pub operator: &'a str,
    pub phone: &'a str,
    pub amount_cents: i64,
    pub currency: &'a str,
    pub next_check_at: &'a str,
    pub expires_at: &'a str,
    pub now: &'a str,
}

const COLUMNS: &str = "id, uid, order_id, course_id, payer_id, provider, operator, phone, amount_cents, currency,
    status, provider_ref, failure_reason, checks, next_check_at, expires_at, created_at, updated_at";

fn from_row(r: &Row<'_>) -> crate::db::Result<PaymentRow> {
    Ok(PaymentRow {
        id: r.get(0)?,
        uid: r.get(1)?,
        order_id: r.get(2)?,
        course_id: r.get(3)?,
        payer_id: r.get(4)?,
        provider: r.get(5)?,
        operator: r.get(6)?,
        phone: r.get(7)?,
        amount_cents: r.get(8)?,
        currency: r.get(9)?,
        status: r.get(10)?,
        provider_ref: r.get(11)?,
        failure_reason: r.get(12)?,
        checks: r.get(13)?,
        next_check_at: r.get(14)?,
        expires_at: r.get(15)?,
        created_at: r.get(16)?,
        updated_at: r.get(17)?,
    })
}

pub fn insert(conn: &Connection, p: &NewPayment<'_>) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO payments (uid, order_id, course_id, payer_id, provider, operator, phone, amount_cents, currency,
                               status, next_check_at, expires_at, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, 'initiating', ?10, ?11, ?12, ?12)",
        params![
            p.uid,
            p.order_id,
            p.course_id,
            p.payer_id,
            p.provider,
            p.operator,
            p.phone,
            p.amount_cents,
            p.currency,
            p.next_check_at,
            p.expires_at,
            p.now
        ],
    )
}

pub fn find_by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<PaymentRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM payments WHERE uid = ?1"))?
        .query_row([uid], from_row)
        .optional()
}

pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<PaymentRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM payments WHERE id = ?1"))?.query_row([id], from_row).optional()
}

/// An order's payments, oldest first.
pub fn of_order(conn: &Connection, order_id: i64) -> crate::db::Result<Vec<PaymentRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM payments WHERE order_id = ?1 ORDER BY id"))?
        .query_map([order_id], from_row)?
        .collect()
}

/// What a person paid, or tried to pay, for a course, oldest first.
pub fn of_course(conn: &Connection, course_id: i64, payer_id: i64) -> crate::db::Result<Vec<PaymentRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM payments WHERE course_id = ?1 AND payer_id = ?2 ORDER BY id"))?
        .query_map([course_id, payer_id], from_row)?
        .collect()
}

/// Moves a payment on, only from the status it was read in (a concurrent
/// callback and check cannot both apply). Answers whether it moved.
pub fn set_status(
    conn: &Connection,
    id: i64,
    from: PaymentStatus,
    to: PaymentStatus,
    provider_ref: Option<&str>,
    failure_reason: Option<&str>,
    now: &str,
) -> crate::db::Result<bool> {
    let changed = conn
        .prepare_cached(
            "UPDATE payments SET status = ?3, provider_ref = COALESCE(?4, provider_ref),
                                 failure_reason = COALESCE(?5, failure_reason), updated_at = ?6
             WHERE id = ?1 AND status = ?2",
        )?
        .execute(params![id, from, to, provider_ref, failure_reason, now])?;
    Ok(changed == 1)
}

/// After a status check that settled nothing: when to ask again.
pub fn schedule_check(conn: &Connection, id: i64, next_check_at: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE payments SET checks = checks + 1, next_check_at = ?2 WHERE id = ?1")?
        .execute(params![id, next_check_at])?;
    Ok(())
}

/// Payments not settled whose next check is due, oldest first.
pub fn due(conn: &Connection, now: &str, limit: i64) -> crate::db::Result<Vec<PaymentRow>> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM payments WHERE status IN ('initiating', 'pending') AND next_check_at <= ?1
         ORDER BY next_check_at LIMIT ?2"
    ))?
    .query_map(params![now, limit], from_row)?
    .collect()
}

pub fn add_event(
    conn: &Connection,
    payment_id: i64,
    status: PaymentStatus,
    source: &str,
    note: Option<&str>,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO payment_events (payment_id, status, source, note, at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![payment_id, status, source, note, now])?;
    Ok(())
}

/// One step of a payment's history.
#[derive(Debug, Clone)]
pub struct PaymentEvent {
    pub status: PaymentStatus,
    /// start, callback, check or expiry.
    pub source: String,
    pub note: Option<String>,
    pub at: String,
}

/// A payment's history, oldest first.
pub fn events(conn: &Connection, payment_id: i64) -> crate::db::Result<Vec<PaymentEvent>> {
    conn.prepare_cached("SELECT status, source, note, at FROM payment_events WHERE payment_id = ?1 ORDER BY id")?
        .query_map([payment_id], |r| {
            Ok(PaymentEvent { status: r.get(0)?, source: r.get(1)?, note: r.get(2)?, at: r.get(3)? })
        })?
        .collect()
}

pub fn store_callback(
    conn: &Connection,
    provider: &str,
    payment_uid: Option<&str>,
    body: &str,
    verified: bool,
    effect: &str,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO payment_callbacks (provider, payment_uid, body, verified, effect, received_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![provider, payment_uid, body, verified, effect, now])?;
    Ok(())
}

/// Removes callbacks received before `before`; answers how many.
pub fn prune_callbacks(conn: &Connection, before: &str) -> crate::db::Result<usize> {
    conn.prepare_cached("DELETE FROM payment_callbacks WHERE received_at < ?1")?.execute([before])
}

/// Mobile-money orders with a part still processing whose latest payment failed or
/// expired between `since` and `before`: each with that payment's status.
pub fn lapsed_orders(conn: &Connection, since: &str, before: &str) -> crate::db::Result<Vec<(i64, PaymentStatus)>> {
    conn.prepare_cached(
        "SELECT p.order_id, p.status FROM payments p JOIN orders o ON o.id = p.order_id
         WHERE p.status IN ('failed', 'expired') AND p.updated_at < ?2 AND p.updated_at >= ?1
           AND o.payment_method = 'mobile_money'
           AND p.id = (SELECT MAX(id) FROM payments WHERE order_id = p.order_id)
           AND EXISTS (SELECT 1 FROM order_parts op WHERE op.order_id = o.id AND op.status = 'processing')",
    )?
    .query_map([since, before], |r| Ok((r.get(0)?, r.get(1)?)))?
    .collect()
}
