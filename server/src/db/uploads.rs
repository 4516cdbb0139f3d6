//! The `uploads` table.

use std::collections::HashSet;

use crate::db::{Connection, OptionalExtension, params};

pub struct UploadRow {
    pub sha256: String,
    pub bytes: i64,
    pub created_at: String,
}

/// Records an upload; `false` when it was already there.
pub fn insert(conn: &Connection, sha256: &str, uploaded_by: i64, bytes: i64, now: &str) -> crate::db::Result<bool> {
    let inserted = conn
        .prepare_cached(
            "INSERT INTO uploads (sha256, uploaded_by, bytes, created_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT (sha256) DO NOTHING",
        )?
        .execute(params![sha256, uploaded_by, bytes, now])?;
    Ok(inserted == 1)
}

pub fn find(conn: &Connection, sha256: &str) -> crate::db::Result<Option<UploadRow>> {
    conn.prepare_cached("SELECT sha256, bytes, created_at FROM uploads WHERE sha256 = ?1")?
        .query_row([sha256], |row| Ok(UploadRow { sha256: row.get(0)?, bytes: row.get(1)?, created_at: row.get(2)? }))
        .optional()
}

/// What one account has uploaded: in all, and since `since`.
pub struct Usage {
    pub photos: i64,
    pub bytes: i64,
    pub last_hour: i64,
}

pub fn usage_of(conn: &Connection, user_id: i64, since: &str) -> crate::db::Result<Usage> {
    conn.prepare_cached(
        "SELECT COUNT(*), COALESCE(SUM(bytes), 0), COUNT(*) FILTER (WHERE created_at >= ?2)
         FROM uploads WHERE uploaded_by = ?1",
    )?
    .query_row(params![user_id, since], |row| {
        Ok(Usage { photos: row.get(0)?, bytes: row.get(1)?, last_hour: row.get(2)? })
    })
}

/// Picture hashes something uses: live products' photos, avatars, courses' and posts' pictures.
pub fn referenced(conn: &Connection) -> crate::db::Result<HashSet<String>> {
    let engine = conn.engine();
    let mut statement = conn.prepare(&format!(
        "SELECT j.value FROM products p, {} WHERE p.deleted_at IS NULL
         UNION SELECT avatar FROM users WHERE avatar IS NOT NULL
         UNION {}
         UNION {}",
        super::dialect::json_items(engine, "p.images", "j"),
        super::courses::pictures_in_use(engine),
        super::blogs::pictures_in_use(engine)
    ))?;
    statement.query_map([], |row| row.get::<_, String>(0))?.collect()
}

/// Uploads made before `before`.
pub fn made_before(conn: &Connection, before: &str) -> crate::db::Result<Vec<String>> {
    let mut statement = conn.prepare("SELECT sha256 FROM uploads WHERE created_at <= ?1")?;
    statement.query_map([before], |row| row.get(0))?.collect()
}

pub fn delete(conn: &Connection, sha256: &str) -> crate::db::Result<()> {
    conn.prepare_cached("DELETE FROM uploads WHERE sha256 = ?1")?.execute([sha256])?;
    Ok(())
}

pub fn all_hashes(conn: &Connection) -> crate::db::Result<Vec<String>> {
    let mut statement = conn.prepare("SELECT sha256 FROM uploads")?;
    statement.query_map([], |row| row.get(0))?.collect()
}
