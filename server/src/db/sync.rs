//! The global version counter (ARCHITECTURE.md section 3): every write to a
//! syncable row takes the next number, so a pull can ask "what changed after N".

use rusqlite::Connection;

/// Takes the next version; call inside the transaction that writes the row.
pub fn next_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.prepare_cached("UPDATE sync_state SET version = version + 1 WHERE id = 1 RETURNING version")?
        .query_row([], |row| row.get(0))
}
