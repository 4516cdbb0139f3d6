//! The `email_outbox` table: messages written with what they announce and
//! sent afterwards by the mailer.

use crate::db::{Connection, params};

#[derive(Debug, Clone)]
pub struct Email {
    pub id: i64,
    pub to_email: String,
    pub subject: String,
    pub body: String,
    pub attempts: i64,
    /// The sender's name when it was written (`None`: the configured sender as it is).
    pub from_name: Option<String>,
    /// The request that wrote it (platform/request_id.rs).
    pub request_id: Option<String>,
}

/// Writes a message; it carries the sender's name set at this moment (docs/settings.md).
/// An address of the reserved `.invalid` domain (RFC 2606: a cooperative's seller
/// account) can receive nothing, so nothing is written: the answer is then 0.
pub fn enqueue(conn: &Connection, to_email: &str, subject: &str, body: &str, now: &str) -> crate::db::Result<i64> {
    if to_email.to_ascii_lowercase().ends_with(".invalid") {
        return Ok(0);
    }
    crate::db::outbox_written();
    conn.insert(
        &format!(
            "INSERT INTO email_outbox (to_email, subject, body, created_at, next_try_at, request_id, from_name)
             VALUES (?1, ?2, ?3, ?4, ?4, ?5, (SELECT {} FROM settings WHERE key = 'email_sender_name'))",
            super::dialect::json_text(conn.engine(), "value")
        ),
        params![to_email, subject, body, now, crate::platform::request_id::current().as_deref()],
    )
}

/// Unsent messages whose next attempt is due, oldest first.
pub fn due(conn: &Connection, now: &str, limit: i64) -> crate::db::Result<Vec<Email>> {
    let mut stmt = conn.prepare_cached(
        "SELECT id, to_email, subject, body, attempts, from_name, request_id FROM email_outbox
         WHERE sent_at IS NULL AND next_try_at <= ?1 ORDER BY id LIMIT ?2",
    )?;
    stmt.query_map(params![now, limit], |row| {
        Ok(Email {
            id: row.get(0)?,
            to_email: row.get(1)?,
            subject: row.get(2)?,
            body: row.get(3)?,
            attempts: row.get(4)?,
            from_name: row.get(5)?,
            request_id: row.get(6)?,
        })
    })?
    .collect()
}

/// Takes up to `limit` messages due at `now` for one sender: each is due again only
/// at `until`, so another node's sender leaves it, and one whose sender stopped before
/// marking it is tried again then (docs/operations.md, Several nodes).
pub fn claim_due(conn: &Connection, now: &str, until: &str, limit: i64) -> crate::db::Result<Vec<Email>> {
    let due = due(conn, now, limit)?;
    for email in &due {
        conn.prepare_cached("UPDATE email_outbox SET next_try_at = ?2 WHERE id = ?1")?
            .execute(params![email.id, until])?;
    }
    Ok(due)
}

/// `delivery` is `smtp` or `logged`.
pub fn mark_sent(conn: &Connection, id: i64, delivery: &str, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE email_outbox SET sent_at = ?2, delivery = ?3, attempts = attempts + 1 WHERE id = ?1")?
        .execute(params![id, now, delivery])?;
    Ok(())
}

pub fn mark_failed(conn: &Connection, id: i64, error: &str, next_try_at: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE email_outbox SET attempts = attempts + 1, last_error = ?2, next_try_at = ?3 WHERE id = ?1",
    )?
    .execute(params![id, error, next_try_at])?;
    Ok(())
}

/// Deletes the emails written before `before`; answers how many, and how many of
/// them were never sent.
pub fn prune(conn: &Connection, before: &str) -> crate::db::Result<(usize, usize)> {
    let unsent = conn
        .prepare_cached("SELECT COUNT(*) FROM email_outbox WHERE created_at < ?1 AND sent_at IS NULL")?
        .query_row([before], |row| row.get::<_, i64>(0))?;
    let removed = conn.prepare_cached("DELETE FROM email_outbox WHERE created_at < ?1")?.execute([before])?;
    Ok((removed, usize::try_from(unsent).unwrap_or(0)))
}
