//! The `sms_outbox` table: text messages written with what they announce and
//! sent afterwards by the SMS sender (docs/sms.md).

use crate::db::{Connection, params};

#[derive(Debug, Clone)]
pub struct Sms {
    pub id: i64,
    pub to_number: String,
    pub body: String,
    pub attempts: i64,
    /// The request that wrote it (platform/request_id.rs).
    pub request_id: Option<String>,
}

pub fn enqueue(conn: &Connection, to_number: &str, body: &str, now: &str) -> crate::db::Result<i64> {
    crate::db::outbox_written();
    conn.insert(
        "INSERT INTO sms_outbox (to_number, body, created_at, next_try_at, request_id) VALUES (?1, ?2, ?3, ?3, ?4)",
        params![to_number, body, now, crate::platform::request_id::current().as_deref()],
    )
}

/// Messages whose next attempt is due, oldest first.
pub fn due(conn: &Connection, now: &str, limit: i64) -> crate::db::Result<Vec<Sms>> {
    conn.prepare_cached(
        "SELECT id, to_number, body, attempts, request_id FROM sms_outbox WHERE next_try_at <= ?1 ORDER BY id LIMIT ?2",
    )?
    .query_map(params![now, limit], |row| {
        Ok(Sms {
            id: row.get(0)?,
            to_number: row.get(1)?,
            body: row.get(2)?,
            attempts: row.get(3)?,
            request_id: row.get(4)?,
        })
    })?
    .collect()
}

/// Takes up to `limit` messages due at `now` for one sender: each is due again only
/// at `until`, so another node's sender leaves it, and one whose sender stopped before
/// marking it is tried again then (docs/operations.md, Several nodes).
pub fn claim_due(conn: &Connection, now: &str, until: &str, limit: i64) -> crate::db::Result<Vec<Sms>> {
    let due = due(conn, now, limit)?;
    for message in &due {
        conn.prepare_cached("UPDATE sms_outbox SET next_try_at = ?2 WHERE id = ?1")?
            .execute(params![message.id, until])?;
    }
    Ok(due)
}

/// The provider took the message: `delivery` is `africastalking` or `logged`.
pub fn mark_sent(
    conn: &Connection,
    id: i64,
    delivery: &str,
    provider_id: Option<&str>,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE sms_outbox SET status = 'sent', sent_at = ?2, delivery = ?3, provider_id = ?4, next_try_at = NULL,
         attempts = attempts + 1 WHERE id = ?1",
    )?
    .execute(params![id, now, delivery, provider_id])?;
    Ok(())
}

/// A failed attempt: tried again at `next_try_at`, or never (`None`: the number
/// cannot be reached, or the attempts are spent).
pub fn mark_failed(conn: &Connection, id: i64, error: &str, next_try_at: Option<&str>) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE sms_outbox SET attempts = attempts + 1, last_error = ?2, next_try_at = ?3,
         status = CASE WHEN CAST(?3 AS TEXT) IS NULL THEN 'failed' ELSE status END WHERE id = ?1",
    )?
    .execute(params![id, error, next_try_at])?;
    Ok(())
}

/// A delivery report for the provider's message `provider_id`: `delivered`, or
/// `undelivered` with the reason. Answers whether a message was found.
pub fn report(
    conn: &Connection,
    provider_id: &str,
    delivered: bool,
    reason: Option<&str>,
    now: &str,
) -> crate::db::Result<bool> {
    let status = if delivered { "delivered" } else { "undelivered" };
    let changed = conn
        .prepare_cached(
            "UPDATE sms_outbox SET status = ?2, last_error = COALESCE(?3, last_error), reported_at = ?4
             WHERE provider_id = ?1 AND status IN ('sent', 'delivered', 'undelivered')",
        )?
        .execute(params![provider_id, status, reason, now])?;
    Ok(changed > 0)
}

/// Deletes the messages written before `before`; answers how many.
pub fn prune(conn: &Connection, before: &str) -> crate::db::Result<usize> {
    conn.prepare_cached("DELETE FROM sms_outbox WHERE created_at < ?1")?.execute([before])
}
