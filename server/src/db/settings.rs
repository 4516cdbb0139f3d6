//! The `settings` table (a JSON value per key) and its audit, `settings_changes`.

use crate::db::{Connection, OptionalExtension, params};

/// Every setting that has been set, as `(key, JSON value)`.
pub fn all(conn: &Connection) -> crate::db::Result<Vec<(String, String)>> {
    conn.prepare_cached("SELECT key, value FROM settings")?.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect()
}

/// One setting's JSON value, when it has been set.
pub fn get(conn: &Connection, key: &str) -> crate::db::Result<Option<String>> {
    conn.prepare_cached("SELECT value FROM settings WHERE key = ?1")?.query_row([key], |r| r.get(0)).optional()
}

/// Sets `key` and records the change (the value before, `None` for the default).
pub fn put(conn: &Connection, key: &str, value: &str, by: i64, now: &str) -> crate::db::Result<()> {
    let old = get(conn, key)?;
    conn.prepare_cached(
        "INSERT INTO settings (key, value, updated_at, updated_by) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at,
                                         updated_by = excluded.updated_by",
    )?
    .execute(params![key, value, now, by])?;
    conn.prepare_cached(
        "INSERT INTO settings_changes (key, old_value, new_value, changed_by, changed_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![key, old, value, by, now])?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct Change {
    pub id: i64,
    pub key: String,
    pub old_value: Option<String>,
    pub new_value: String,
    pub changed_by: i64,
    pub changed_by_name: String,
    pub changed_at: String,
}

/// The newest changes first, at most `limit`, from before `before` (an id) when given.
pub fn changes(conn: &Connection, before: Option<i64>, limit: i64) -> crate::db::Result<Vec<Change>> {
    conn.prepare_cached(
        "SELECT c.id, c.key, c.old_value, c.new_value, c.changed_by,
                TRIM(u.first_name || ' ' || u.last_name), c.changed_at
         FROM settings_changes c JOIN users u ON u.id = c.changed_by
         WHERE c.id < ?1 ORDER BY c.id DESC LIMIT ?2",
    )?
    .query_map(params![before.unwrap_or(i64::MAX), limit], |r| {
        Ok(Change {
            id: r.get(0)?,
            key: r.get(1)?,
            old_value: r.get(2)?,
            new_value: r.get(3)?,
            changed_by: r.get(4)?,
            changed_by_name: r.get(5)?,
            changed_at: r.get(6)?,
        })
    })?
    .collect()
}
