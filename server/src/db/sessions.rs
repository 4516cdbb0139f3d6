//! The `sessions` table: one row per issued token, so tokens can be revoked.

use crate::db::{Connection, OptionalExtension, params};

pub fn insert(conn: &Connection, jti: &str, user_id: i64, now: &str, expires_at: &str) -> crate::db::Result<()> {
    conn.prepare_cached("INSERT INTO sessions (jti, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)")?
        .execute(params![jti, user_id, now, expires_at])?;
    Ok(())
}

/// The user id of a live session, if the token has not been revoked or expired.
pub fn live_user(conn: &Connection, jti: &str, now: &str) -> crate::db::Result<Option<i64>> {
    conn.prepare_cached("SELECT user_id FROM sessions WHERE jti = ?1 AND expires_at > ?2")?
        .query_row(params![jti, now], |row| row.get(0))
        .optional()
}

pub fn delete(conn: &Connection, jti: &str) -> crate::db::Result<()> {
    conn.prepare_cached("DELETE FROM sessions WHERE jti = ?1")?.execute([jti])?;
    Ok(())
}

/// Revokes every token of a user except `keep` (the one making the request, if any).
pub fn delete_for_user(conn: &Connection, user_id: i64, keep: Option<&str>) -> crate::db::Result<()> {
    conn.prepare_cached("DELETE FROM sessions WHERE user_id = ?1 AND jti IS DISTINCT FROM ?2")?
        .execute(params![user_id, keep])?;
    Ok(())
}

pub fn purge_expired(conn: &Connection, now: &str) -> crate::db::Result<usize> {
    conn.prepare_cached("DELETE FROM sessions WHERE expires_at <= ?1")?.execute([now])
}

/// Ends a user's oldest sessions beyond the newest `keep`.
pub fn keep_newest(conn: &Connection, user_id: i64, keep: i64) -> crate::db::Result<usize> {
    conn.prepare_cached(
        "DELETE FROM sessions WHERE user_id = ?1 AND rowid NOT IN
           (SELECT rowid FROM sessions WHERE user_id = ?1 ORDER BY rowid DESC LIMIT ?2)",
    )?
    .execute(params![user_id, keep])
}
