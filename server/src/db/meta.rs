//! The `meta` table: small facts about this installation.

use crate::db::{Connection, OptionalExtension, params};

pub fn get(conn: &Connection, key: &str) -> crate::db::Result<Option<String>> {
    conn.query_row("SELECT value FROM meta WHERE key = ?1", [key], |row| row.get(0)).optional()
}

pub fn remove(conn: &Connection, key: &str) -> crate::db::Result<()> {
    conn.execute("DELETE FROM meta WHERE key = ?1", [key])?;
    Ok(())
}

pub fn set(conn: &Connection, key: &str, value: &str) -> crate::db::Result<()> {
    conn.execute(
        "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        params![key, value],
    )?;
    Ok(())
}
