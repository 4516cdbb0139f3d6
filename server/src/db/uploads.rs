//! The `uploads` table.

use rusqlite::{Connection, OptionalExtension, params};

pub struct UploadRow {
    pub sha256: String,
    pub bytes: i64,
    pub created_at: String,
}

/// Records an upload; `false` when it was already there.
pub fn insert(conn: &Connection, sha256: &str, uploaded_by: i64, bytes: i64, now: &str) -> rusqlite::Result<bool> {
    let inserted = conn
        .prepare_cached(
            "INSERT INTO uploads (sha256, uploaded_by, bytes, created_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (sha256) DO NOTHING",
        )?
        .execute(params![sha256, uploaded_by, bytes, now])?;
    Ok(inserted == 1)
}

pub fn find(conn: &Connection, sha256: &str) -> rusqlite::Result<Option<UploadRow>> {
    conn.prepare_cached("SELECT sha256, bytes, created_at FROM uploads WHERE sha256 = ?1")?
        .query_row([sha256], |row| Ok(UploadRow { sha256: row.get(0)?, bytes: row.get(1)?, created_at: row.get(2)? }))
        .optional()
}
