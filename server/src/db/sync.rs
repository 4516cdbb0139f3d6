//! The global version counter (docs/sync.md): every write to a
//! syncable row takes the next number, so a pull can ask "what changed after N".

use crate::db::{Connection, OptionalExtension, params};

/// Takes the next version; call inside the transaction that writes the row.
pub fn next_version(conn: &Connection) -> crate::db::Result<i64> {
    conn.prepare_cached("UPDATE sync_state SET version = version + 1 WHERE id = 1 RETURNING version")?
        .query_row([], |row| row.get(0))
}

/// The last version given out: it changes whenever any synced row does.
pub fn current_version(conn: &Connection) -> crate::db::Result<i64> {
    conn.prepare_cached("SELECT version FROM sync_state WHERE id = 1")?.query_row([], |row| row.get(0))
}

/// The highest version whose tombstone may have been removed (docs/sync.md, Retention).
pub fn horizon(conn: &Connection) -> crate::db::Result<i64> {
    conn.prepare_cached("SELECT horizon FROM sync_state WHERE id = 1")?.query_row([], |row| row.get(0))
}

pub fn raise_horizon(conn: &Connection, version: i64) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE sync_state SET horizon = CASE WHEN horizon > ?1 THEN horizon ELSE ?1 END WHERE id = 1",
    )?
    .execute([version])?;
    Ok(())
}

/// The `meta` key a backup carries (docs/operations.md, Backup and restore).
pub const RESTORED_FROM_BACKUP: &str = "restored_from_backup";

/// How far the version jumps after a restore: past any version the lost history
/// gave out (it would take this many writes between backup and restore to reach it).
const RESTORE_GAP: i64 = 1 << 32;

/// A server started on a backup has lost the versions it gave out after the
/// backup, and would give the same numbers out again for other rows: a phone
/// whose cursor is one of them would skip those rows and keep rows the server
/// no longer has. The version jumps past them all and the sync horizon with it,
/// so every phone's next pull is answered `snapshot_required` (it keeps its
/// queued changes and sends again what the server lost: docs/sync.md, Push).
pub fn after_restore(conn: &mut Connection) -> crate::db::Result<()> {
    let tx = conn.begin()?;
    tx.execute("UPDATE sync_state SET version = version + ?1, horizon = version + ?1 WHERE id = 1", [RESTORE_GAP])?;
    tx.execute("DELETE FROM meta WHERE key = ?1", [RESTORED_FROM_BACKUP])?;
    tx.commit()
}

/// The synced tables whose tombstones nothing points at: they may be removed
/// after the retention window (docs/sync.md, Retention).
#[derive(Debug, Clone, Copy)]
pub enum Purgeable {
    Surveys,
    Favourites,
}

/// Removes `table`'s tombstones of rows deleted before `before`; answers how many,
/// and the highest version among them (0 when none).
pub fn purge_tombstones(conn: &Connection, table: Purgeable, before: &str) -> crate::db::Result<(usize, i64)> {
    let table = match table {
        Purgeable::Surveys => "surveys",
        Purgeable::Favourites => "favourites",
    };
    let newest: i64 = conn
        .prepare_cached(&format!("SELECT COALESCE(MAX(version), 0) FROM {table} WHERE deleted_at < ?1"))?
        .query_row([before], |row| row.get(0))?;
    let removed = conn.prepare_cached(&format!("DELETE FROM {table} WHERE deleted_at < ?1"))?.execute([before])?;
    Ok((removed, newest))
}

/// A browser profile that pushes changes, and the last of its mutations processed.
pub struct ClientRow {
    pub user_id: i64,
    pub last_mutation_id: i64,
}

pub fn client(conn: &Connection, client_id: &str) -> crate::db::Result<Option<ClientRow>> {
    conn.prepare_cached("SELECT user_id, last_mutation_id FROM sync_clients WHERE client_id = ?1")?
        .query_row([client_id], |row| Ok(ClientRow { user_id: row.get(0)?, last_mutation_id: row.get(1)? }))
        .optional()
}

pub fn create_client(conn: &Connection, client_id: &str, user_id: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO sync_clients (client_id, user_id, last_mutation_id, created_at, updated_at) VALUES (?1, ?2, 0, ?3, ?3)",
    )?
    .execute(params![client_id, user_id, now])?;
    Ok(())
}

/// How many of a device's latest results are kept for its replays: a phone
/// resends at most its last unanswered batch (50 changes).
pub const RESULTS_KEPT: i64 = 500;

/// Keeps a mutation's result (and no more than the device's last `RESULTS_KEPT`)
/// and moves the client's sequence on, in the mutation's transaction.
pub fn record_result(
    conn: &Connection,
    client_id: &str,
    mutation_id: i64,
    result: &str,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached("INSERT INTO sync_results (client_id, mutation_id, result) VALUES (?1, ?2, ?3)")?
        .execute(params![client_id, mutation_id, result])?;
    conn.prepare_cached("DELETE FROM sync_results WHERE client_id = ?1 AND mutation_id <= ?2")?
        .execute(params![client_id, mutation_id - RESULTS_KEPT])?;
    conn.prepare_cached("UPDATE sync_clients SET last_mutation_id = ?2, updated_at = ?3 WHERE client_id = ?1")?
        .execute(params![client_id, mutation_id, now])?;
    Ok(())
}

pub fn stored_result(conn: &Connection, client_id: &str, mutation_id: i64) -> crate::db::Result<Option<String>> {
    conn.prepare_cached("SELECT result FROM sync_results WHERE client_id = ?1 AND mutation_id = ?2")?
        .query_row(params![client_id, mutation_id], |row| row.get(0))
        .optional()
}
