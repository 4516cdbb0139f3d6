//! The `notifications` table (migration 0030).

use crate::db::{Connection, OptionalExtension, Row, params};

/// A person keeps this many notifications; older ones go when a new one comes.
pub const KEPT: i64 = 200;

#[derive(Debug, Clone, PartialEq)]
pub struct NotificationRow {
    pub uid: String,
    pub user_id: i64,
    pub kind: String,
    pub link: String,
    pub params: serde_json::Value,
    pub read_at: Option<String>,
    pub version: i64,
    pub created_at: String,
}

const COLUMNS: &str = "uid, user_id, kind, link, params, read_at, version, created_at";

fn from_row(row: &Row<'_>) -> crate::db::Result<NotificationRow> {
    Ok(NotificationRow {
        uid: row.get(0)?,
        user_id: row.get(1)?,
        kind: row.get(2)?,
        link: row.get(3)?,
        params: serde_json::from_str(&row.get::<_, String>(4)?).unwrap_or_default(),
        read_at: row.get(5)?,
        version: row.get(6)?,
        created_at: row.get(7)?,
    })
}

#[allow(clippy::too_many_arguments)]
pub fn insert(
    conn: &Connection,
    uid: &str,
    user_id: i64,
    kind: &str,
    link: &str,
    params: &serde_json::Value,
    version: i64,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO notifications (uid, user_id, kind, link, params, version, created_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![uid, user_id, kind, link, params.to_string(), version, now])?;
    conn.prepare_cached(
        "DELETE FROM notifications WHERE user_id = ?1 AND id <= (
            SELECT id FROM notifications WHERE user_id = ?1 ORDER BY id DESC LIMIT 1 OFFSET ?2)",
    )?
    .execute(params![user_id, KEPT])?;
    Ok(())
}

/// The person's notifications changed after version `after`, oldest change first.
pub fn changes_of(
    conn: &Connection,
    user_id: i64,
    after: i64,
    limit: usize,
) -> crate::db::Result<Vec<NotificationRow>> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM notifications WHERE user_id = ?1 AND version > ?2 ORDER BY version LIMIT ?3"
    ))?
    .query_map(params![user_id, after, limit as i64], from_row)?
    .collect()
}

pub fn find(conn: &Connection, uid: &str) -> crate::db::Result<Option<NotificationRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM notifications WHERE uid = ?1"))?
        .query_row([uid], from_row)
        .optional()
}

pub fn mark_read(conn: &Connection, uid: &str, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE notifications SET read_at = ?3, version = ?2 WHERE uid = ?1")?
        .execute(params![uid, version, now])?;
    Ok(())
}

/// An erased account's notifications go with its other personal data.
pub fn delete_of_user(conn: &Connection, user_id: i64) -> crate::db::Result<()> {
    conn.prepare_cached("DELETE FROM notifications WHERE user_id = ?1")?.execute([user_id])?;
    Ok(())
}
