//! Long texts' merge documents (docs/sync.md, Text that merges): one Automerge
//! document per field of a record, and its heads at each version that wrote it.

use crate::db::{Connection, OptionalExtension, params};

/// One long text: a field of a record.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TextKey<'a> {
    /// `product` or `survey`.
    pub entity: &'static str,
    pub record_id: i64,
    pub field: &'a str,
}

pub fn document(conn: &Connection, key: TextKey<'_>) -> crate::db::Result<Option<Vec<u8>>> {
    conn.prepare_cached("SELECT document FROM text_documents WHERE entity = ?1 AND record_id = ?2 AND field = ?3")?
        .query_row(params![key.entity, key.record_id, key.field], |row| row.get(0))
        .optional()
}

/// One write of a long text, for its history.
#[derive(Debug, Clone, Copy)]
pub struct TextWrite<'a> {
    pub version: i64,
    /// The document's heads after the write.
    pub heads: &'a [u8],
    /// The sync client that wrote it, if any.
    pub device: Option<&'a str>,
    /// The changes the write made.
    pub own: &'a [u8],
}

/// Stores the document and the write that made it.
pub fn save(conn: &Connection, key: TextKey<'_>, document: &[u8], write: TextWrite<'_>) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO text_documents (entity, record_id, field, document) VALUES (?1, ?2, ?3, ?4)
         ON CONFLICT (entity, record_id, field) DO UPDATE SET document = excluded.document",
    )?
    .execute(params![key.entity, key.record_id, key.field, document])?;
    conn.prepare_cached(
        "INSERT INTO text_heads (entity, record_id, field, version, heads, device, own)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (entity, record_id, field, version)
         DO UPDATE SET heads = excluded.heads, device = excluded.device, own = excluded.own",
    )?
    .execute(params![
        key.entity,
        key.record_id,
        key.field,
        write.version,
        write.heads,
        write.device,
        write.own
    ])?;
    Ok(())
}

/// The changes `device` made to the text after `version`, oldest first.
pub fn own_changes_after(
    conn: &Connection,
    key: TextKey<'_>,
    version: i64,
    device: &str,
) -> crate::db::Result<Vec<Vec<u8>>> {
    conn.prepare_cached(
        "SELECT own FROM text_heads WHERE entity = ?1 AND record_id = ?2 AND field = ?3 AND version > ?4 AND device = ?5
         ORDER BY version",
    )?
    .query_map(params![key.entity, key.record_id, key.field, version, device], |row| row.get(0))?
    .collect()
}

/// The heads of the text as it stood at `version`: those of the last write at
/// or before it, if the document goes back that far.
pub fn heads_at(conn: &Connection, key: TextKey<'_>, version: i64) -> crate::db::Result<Option<Vec<u8>>> {
    conn.prepare_cached(
        "SELECT heads FROM text_heads WHERE entity = ?1 AND record_id = ?2 AND field = ?3 AND version <= ?4
         ORDER BY version DESC LIMIT 1",
    )?
    .query_row(params![key.entity, key.record_id, key.field, version], |row| row.get(0))
    .optional()
}

/// How many writes of the text its history holds.
pub fn writes(conn: &Connection, key: TextKey<'_>) -> crate::db::Result<i64> {
    conn.prepare_cached("SELECT COUNT(*) FROM text_heads WHERE entity = ?1 AND record_id = ?2 AND field = ?3")?
        .query_row(params![key.entity, key.record_id, key.field], |row| row.get(0))
}

/// Forgets the text's history (its document starts afresh).
pub fn forget_writes(conn: &Connection, key: TextKey<'_>) -> crate::db::Result<()> {
    conn.prepare_cached("DELETE FROM text_heads WHERE entity = ?1 AND record_id = ?2 AND field = ?3")?
        .execute(params![key.entity, key.record_id, key.field])?;
    Ok(())
}

/// Forgets a record's documents (it was deleted: nobody edits it any more).
pub fn delete(conn: &Connection, entity: &str, record_id: i64) -> crate::db::Result<()> {
    for table in ["text_documents", "text_heads"] {
        conn.prepare_cached(&format!("DELETE FROM {table} WHERE entity = ?1 AND record_id = ?2"))?
            .execute(params![entity, record_id])?;
    }
    Ok(())
}

/// Forgets the documents of a person's products and applications (their
/// account is erased: the documents hold every earlier wording).
pub fn delete_of_user(conn: &Connection, user_id: i64) -> crate::db::Result<()> {
    for table in ["text_documents", "text_heads"] {
        conn.prepare_cached(&format!(
            "DELETE FROM {table} WHERE (entity = 'product' AND record_id IN (SELECT id FROM products WHERE farmer_id = ?1))
                OR (entity = 'survey' AND record_id IN (SELECT id FROM surveys WHERE user_id = ?1))"
        ))?
        .execute([user_id])?;
    }
    Ok(())
}
