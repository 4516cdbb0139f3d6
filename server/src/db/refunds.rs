//! The `refunds` table: money given back for a course payment, and the
//! admin's list of a course's purchases with where their refunds stand.

use crate::db::{Connection, OptionalExtension, Row, params};

use super::payments::PaymentRow;
use crate::model::payment::PaymentStatus;

/// A refund; its status is `pending`, `succeeded` or `failed`.
#[derive(Debug, Clone)]
pub struct RefundRow {
    pub id: i64,
    pub uid: String,
    pub payment_id: i64,
    pub amount_cents: i64,
    pub currency: String,
    pub status: PaymentStatus,
    pub failure_reason: Option<String>,
    pub checks: i64,
    pub created_at: String,
    pub updated_at: String,
}

const COLUMNS: &str =
    "id, uid, payment_id, amount_cents, currency, status, failure_reason, checks, created_at, updated_at";

fn from_row(r: &Row<'_>) -> crate::db::Result<RefundRow> {
    Ok(RefundRow {
        id: r.get(0)?,
        uid: r.get(1)?,
        payment_id: r.get(2)?,
        amount_cents: r.get(3)?,
        currency: r.get(4)?,
        status: r.get(5)?,
        failure_reason: r.get(6)?,
        checks: r.get(7)?,
        created_at: r.get(8)?,
        updated_at: r.get(9)?,
    })
}

pub fn insert(
    conn: &Connection,
    uid: &str,
    payment: &PaymentRow,
    requested_by: i64,
    next_check_at: &str,
    now: &str,
) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO refunds (uid, payment_id, amount_cents, currency, status, requested_by, next_check_at,
                              created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?6, ?7, ?7)",
        params![uid, payment.id, payment.amount_cents, payment.currency, requested_by, next_check_at, now],
    )
}

pub fn find_by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<RefundRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM refunds WHERE uid = ?1"))?.query_row([uid], from_row).optional()
}

/// A payment's latest refund.
pub fn latest(conn: &Connection, payment_id: i64) -> crate::db::Result<Option<RefundRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM refunds WHERE payment_id = ?1 ORDER BY id DESC LIMIT 1"))?
        .query_row([payment_id], from_row)
        .optional()
}

/// Settles a pending refund; answers whether it moved.
pub fn set_status(
    conn: &Connection,
    id: i64,
    to: PaymentStatus,
    failure_reason: Option<&str>,
    now: &str,
) -> crate::db::Result<bool> {
    let changed = conn
        .prepare_cached(
            "UPDATE refunds SET status = ?2, failure_reason = ?3, updated_at = ?4 WHERE id = ?1 AND status = 'pending'",
        )?
        .execute(params![id, to, failure_reason, now])?;
    Ok(changed == 1)
}

pub fn schedule_check(conn: &Connection, id: i64, next_check_at: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE refunds SET checks = checks + 1, next_check_at = ?2 WHERE id = ?1")?
        .execute(params![id, next_check_at])?;
    Ok(())
}

/// Pending refunds whose next check is due, oldest first.
pub fn due(conn: &Connection, now: &str, limit: i64) -> crate::db::Result<Vec<RefundRow>> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM refunds WHERE status = 'pending' AND next_check_at <= ?1 ORDER BY next_check_at LIMIT ?2"
    ))?
    .query_map(params![now, limit], from_row)?
    .collect()
}

/// One paid enrolment as the admin sees it.
#[derive(Debug, Clone)]
pub struct Purchase {
    pub payment_uid: String,
    pub learner_id: i64,
    pub learner_name: String,
    pub learner_email: Option<String>,
    pub amount_cents: i64,
    pub currency: String,
    pub operator: String,
    pub paid_at: String,
    pub refund: Option<RefundRow>,
}

/// A course's paid enrolments, newest first, a page at a time, each with its
/// latest refund, and how many there are.
pub fn purchases(
    conn: &Connection,
    course_id: i64,
    limit: i64,
    offset: i64,
) -> crate::db::Result<(Vec<Purchase>, i64)> {
    let total = conn
        .prepare_cached("SELECT COUNT(*) FROM payments WHERE course_id = ?1 AND status = 'succeeded'")?
        .query_row([course_id], |r| r.get(0))?;
    let rows = conn
        .prepare_cached(
            "SELECT r.id, r.uid, r.payment_id, r.amount_cents, r.currency, r.status, r.failure_reason, r.checks,
                    r.created_at, r.updated_at,
                    p.uid, u.id, u.first_name || ' ' || u.last_name, u.email, p.amount_cents, p.currency, p.operator,
                    COALESCE((SELECT at FROM payment_events WHERE payment_id = p.id AND status = 'succeeded'), p.updated_at)
             FROM payments p JOIN users u ON u.id = p.payer_id
             LEFT JOIN refunds r ON r.id = (SELECT MAX(id) FROM refunds WHERE payment_id = p.id)
             WHERE p.course_id = ?1 AND p.status = 'succeeded'
             ORDER BY p.id DESC LIMIT ?2 OFFSET ?3",
        )?
        .query_map(params![course_id, limit, offset], |r| {
            // Columns 0-9 are the refund's (as `COLUMNS`), null when there is none.
            let refund = match r.get::<_, Option<i64>>(0)? {
                Some(_) => Some(from_row(r)?),
                None => None,
            };
            Ok(Purchase {
                refund,
                payment_uid: r.get(10)?,
                learner_id: r.get(11)?,
                learner_name: r.get(12)?,
                learner_email: r.get(13)?,
                amount_cents: r.get(14)?,
                currency: r.get(15)?,
                operator: r.get(16)?,
                paid_at: r.get(17)?,
            })
        })?
        .collect::<crate::db::Result<Vec<_>>>()?;
    Ok((rows, total))
}
