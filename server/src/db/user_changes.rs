//! The `user_changes` table: who changed a person's role or status, and when.

use crate::db::{Connection, params};

#[derive(Debug, Clone)]
pub struct UserChange {
    pub field: String,
    pub old_value: String,
    pub new_value: String,
    pub changed_at: String,
    pub changed_by_id: i64,
    pub changed_by_name: String,
}

pub fn record(
    conn: &Connection,
    user_id: i64,
    changed_by: i64,
    field: &str,
    old: &str,
    new: &str,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO user_changes (user_id, changed_by, field, old_value, new_value, changed_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![user_id, changed_by, field, old, new, now])?;
    Ok(())
}

/// A person's history, newest first.
pub fn of_user(conn: &Connection, user_id: i64) -> crate::db::Result<Vec<UserChange>> {
    let mut stmt = conn.prepare_cached(
        "SELECT c.field, c.old_value, c.new_value, c.changed_at, c.changed_by, trim(u.first_name || ' ' || u.last_name)
         FROM user_changes c JOIN users u ON u.id = c.changed_by
         WHERE c.user_id = ?1 ORDER BY c.id DESC",
    )?;
    stmt.query_map([user_id], |row| {
        Ok(UserChange {
            field: row.get(0)?,
            old_value: row.get(1)?,
            new_value: row.get(2)?,
            changed_at: row.get(3)?,
            changed_by_id: row.get(4)?,
            changed_by_name: row.get(5)?,
        })
    })?
    .collect()
}
