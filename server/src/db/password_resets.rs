//! The `password_resets` table: one row per emailed link or SMS code, by its hash.

use crate::db::{Connection, OptionalExtension, params};

pub struct ResetRow {
    pub user_id: i64,
    pub expires_at: String,
    pub used_at: Option<String>,
}

/// `kind` is `link` (emailed) or `sms` (a code).
pub fn insert(
    conn: &Connection,
    token_hash: &str,
    kind: &str,
    user_id: i64,
    now: &str,
    expires_at: &str,
) -> crate::db::Result<()> {
    conn.execute(
        "INSERT INTO password_resets (token_hash, kind, user_id, created_at, expires_at)
         VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (token_hash) DO UPDATE SET kind = excluded.kind, user_id = excluded.user_id,
             created_at = excluded.created_at, expires_at = excluded.expires_at, used_at = NULL, tries = 0",
        params![token_hash, kind, user_id, now, expires_at],
    )?;
    Ok(())
}

pub fn find(conn: &Connection, token_hash: &str, kind: &str) -> crate::db::Result<Option<ResetRow>> {
    conn.query_row(
        "SELECT user_id, expires_at, used_at FROM password_resets WHERE token_hash = ?1 AND kind = ?2",
        params![token_hash, kind],
        |r| Ok(ResetRow { user_id: r.get(0)?, expires_at: r.get(1)?, used_at: r.get(2)? }),
    )
    .optional()
}

/// A wrong code: counts a try on the account's open codes and spends those that
/// reached `max_tries`.
pub fn wrong_code(conn: &Connection, user_id: i64, max_tries: i64, now: &str) -> crate::db::Result<()> {
    conn.execute(
        "UPDATE password_resets SET tries = tries + 1 WHERE user_id = ?1 AND kind = 'sms' AND used_at IS NULL",
        [user_id],
    )?;
    conn.execute(
        "UPDATE password_resets SET used_at = ?3 WHERE user_id = ?1 AND kind = 'sms' AND used_at IS NULL AND tries >= ?2",
        params![user_id, max_tries, now],
    )?;
    Ok(())
}

/// Links and codes sent to one account since `since`.
pub fn sent_since(conn: &Connection, user_id: i64, since: &str) -> crate::db::Result<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM password_resets WHERE user_id = ?1 AND created_at >= ?2",
        params![user_id, since],
        |r| r.get(0),
    )
}

/// Spends every open link of the account (the one used, and any older ones).
pub fn use_all(conn: &Connection, user_id: i64, now: &str) -> crate::db::Result<()> {
    conn.execute(
        "UPDATE password_resets SET used_at = ?2 WHERE user_id = ?1 AND used_at IS NULL",
        params![user_id, now],
    )?;
    Ok(())
}

/// Removes links and codes that expired before `before`; answers how many.
pub fn prune(conn: &Connection, before: &str) -> crate::db::Result<usize> {
    conn.prepare_cached("DELETE FROM password_resets WHERE expires_at < ?1")?.execute([before])
}
