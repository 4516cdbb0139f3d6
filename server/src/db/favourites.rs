//! The `favourites` table: which products a person marked, by product uid.

use crate::db::{Connection, Row, params};

#[derive(Debug, Clone)]
pub struct FavouriteRow {
    pub product_uid: String,
    pub version: i64,
    pub created_at: String,
    pub deleted_at: Option<String>,
}

/// Marks or unmarks; a repeat of the same wish changes nothing.
pub fn set(
    conn: &Connection,
    user_id: i64,
    product_uid: &str,
    on: bool,
    version: i64,
    now: &str,
) -> crate::db::Result<()> {
    let deleted_at = if on { None } else { Some(now) };
    conn.prepare_cached(
        "INSERT INTO favourites (user_id, product_uid, version, created_at, deleted_at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (user_id, product_uid) DO UPDATE SET version = excluded.version, deleted_at = excluded.deleted_at,
             created_at = CASE WHEN favourites.deleted_at IS NULL THEN favourites.created_at ELSE excluded.created_at END",
    )?
    .execute(params![user_id, product_uid, version, now, deleted_at])?;
    Ok(())
}

pub fn is_set(conn: &Connection, user_id: i64, product_uid: &str) -> crate::db::Result<Option<bool>> {
    use crate::db::OptionalExtension;
    conn.prepare_cached("SELECT deleted_at IS NULL FROM favourites WHERE user_id = ?1 AND product_uid = ?2")?
        .query_row(params![user_id, product_uid], |r| r.get(0))
        .optional()
}

fn from_row(row: &Row<'_>) -> crate::db::Result<FavouriteRow> {
    Ok(FavouriteRow {
        product_uid: row.get(0)?,
        version: row.get(1)?,
        created_at: row.get(2)?,
        deleted_at: row.get(3)?,
    })
}

/// A person's favourites changed after `after`, oldest first; removals too, except those at or below `snapshot`.
pub fn changes_of(
    conn: &Connection,
    user_id: i64,
    after: i64,
    limit: usize,
    snapshot: Option<i64>,
) -> crate::db::Result<Vec<FavouriteRow>> {
    let sql = "SELECT product_uid, version, created_at, deleted_at FROM favourites
               WHERE user_id = ?1 AND version > ?2 AND (CAST(?4 AS BIGINT) IS NULL OR version > ?4 OR deleted_at IS NULL)
               ORDER BY version LIMIT ?3";
    conn.prepare_cached(sql)?.query_map(params![user_id, after, limit as i64, snapshot], from_row)?.collect()
}
