//! The `password_resets` table: one row per emailed link, by its token's hash.

use rusqlite::{Connection, OptionalExtension, params};

pub struct ResetRow {
    pub user_id: i64,
    pub expires_at: String,
    pub used_at: Option<String>,
}

pub fn insert(conn: &Connection, token_hash: &str, user_id: i64, now: &str, expires_at: &str) -> rusqlite::Result<()> {
    conn.execute(
        "INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)",
        params![token_hash, user_id, now, expires_at],
    )?;
    Ok(())
}

pub fn find(conn: &Connection, token_hash: &str) -> rusqlite::Result<Option<ResetRow>> {
    conn.query_row(
        "SELECT user_id, expires_at, used_at FROM password_resets WHERE token_hash = ?1",
        [token_hash],
        |r| Ok(ResetRow { user_id: r.get(0)?, expires_at: r.get(1)?, used_at: r.get(2)? }),
    )
    .optional()
}

/// Links sent to one account since `since`.
pub fn sent_since(conn: &Connection, user_id: i64, since: &str) -> rusqlite::Result<i64> {
    conn.query_row(
        "SELECT COUNT(*) FROM password_resets WHERE user_id = ?1 AND created_at >= ?2",
        params![user_id, since],
        |r| r.get(0),
    )
}

/// Spends every open link of the account (the one used, and any older ones).
pub fn use_all(conn: &Connection, user_id: i64, now: &str) -> rusqlite::Result<()> {
    conn.execute(
        "UPDATE password_resets SET used_at = ?2 WHERE user_id = ?1 AND used_at IS NULL",
        params![user_id, now],
    )?;
    Ok(())
}
