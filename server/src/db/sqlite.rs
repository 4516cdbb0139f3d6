//! SQLite, the embedded engine: its file, its connections' settings, its migrations
//! (`migrations/*.sql`, counted by `PRAGMA user_version`) and its online backup.

use std::path::Path;
use std::time::Duration;

use super::{Connection, Error, Result, meta, sync};

pub const DB_FILE: &str = "mavuno.db";

/// Numbered migrations, embedded in the binary and applied in order at
/// start-up. `PRAGMA user_version` records how many have run.
pub(super) const MIGRATIONS: &[(&str, &str)] = &[
    ("0001_accounts", include_str!("../../../migrations/0001_accounts.sql")),
    ("0002_contact_messages", include_str!("../../../migrations/0002_contact_messages.sql")),
    ("0003_uploads", include_str!("../../../migrations/0003_uploads.sql")),
    ("0004_surveys", include_str!("../../../migrations/0004_surveys.sql")),
    ("0005_sync_clients", include_str!("../../../migrations/0005_sync_clients.sql")),
    ("0006_admin", include_str!("../../../migrations/0006_admin.sql")),
    ("0007_products", include_str!("../../../migrations/0007_products.sql")),
    ("0008_favourites", include_str!("../../../migrations/0008_favourites.sql")),
    ("0009_orders", include_str!("../../../migrations/0009_orders.sql")),
    ("0010_payments", include_str!("../../../migrations/0010_payments.sql")),
    ("0011_earnings", include_str!("../../../migrations/0011_earnings.sql")),
    ("0012_reviews", include_str!("../../../migrations/0012_reviews.sql")),
    ("0013_upload_quotas", include_str!("../../../migrations/0013_upload_quotas.sql")),
    ("0014_courses", include_str!("../../../migrations/0014_courses.sql")),
    ("0015_course_payments", include_str!("../../../migrations/0015_course_payments.sql")),
    ("0016_blogs", include_str!("../../../migrations/0016_blogs.sql")),
    ("0017_blog_comments", include_str!("../../../migrations/0017_blog_comments.sql")),
    ("0018_password_resets", include_str!("../../../migrations/0018_password_resets.sql")),
    ("0019_exchange_rates", include_str!("../../../migrations/0019_exchange_rates.sql")),
    ("0020_catalogue_search", include_str!("../../../migrations/0020_catalogue_search.sql")),
    ("0021_sync_horizon", include_str!("../../../migrations/0021_sync_horizon.sql")),
    ("0022_text_documents", include_str!("../../../migrations/0022_text_documents.sql")),
    ("0023_sms_outbox", include_str!("../../../migrations/0023_sms_outbox.sql")),
    ("0024_category_search", include_str!("../../../migrations/0024_category_search.sql")),
    ("0025_sms_reset_codes", include_str!("../../../migrations/0025_sms_reset_codes.sql")),
    ("0026_phone_accounts", include_str!("../../../migrations/0026_phone_accounts.sql")),
    ("0027_registered_people", include_str!("../../../migrations/0027_registered_people.sql")),
    ("0028_product_names", include_str!("../../../migrations/0028_product_names.sql")),
    ("0029_hidden_products", include_str!("../../../migrations/0029_hidden_products.sql")),
    ("0030_notifications", include_str!("../../../migrations/0030_notifications.sql")),
    ("0031_settings", include_str!("../../../migrations/0031_settings.sql")),
    ("0032_basic_phones", include_str!("../../../migrations/0032_basic_phones.sql")),
    ("0033_shared_numbers", include_str!("../../../migrations/0033_shared_numbers.sql")),
    ("0034_prices", include_str!("../../../migrations/0034_prices.sql")),
    ("0035_search_merging", include_str!("../../../migrations/0035_search_merging.sql")),
    ("0036_order_line_names", include_str!("../../../migrations/0036_order_line_names.sql")),
    ("0037_basic_phone_memory", include_str!("../../../migrations/0037_basic_phone_memory.sql")),
    ("0038_order_acceptance", include_str!("../../../migrations/0038_order_acceptance.sql")),
    ("0039_product_descriptions", include_str!("../../../migrations/0039_product_descriptions.sql")),
    ("0040_cooperatives", include_str!("../../../migrations/0040_cooperatives.sql")),
    ("0041_cooperative_lots", include_str!("../../../migrations/0041_cooperative_lots.sql")),
    ("0042_cooperative_payouts", include_str!("../../../migrations/0042_cooperative_payouts.sql")),
    ("0043_throttles", include_str!("../../../migrations/0043_throttles.sql")),
    ("0044_leases", include_str!("../../../migrations/0044_leases.sql")),
    ("0045_version_indexes", include_str!("../../../migrations/0045_version_indexes.sql")),
    ("0046_seller_index", include_str!("../../../migrations/0046_seller_index.sql")),
    ("0047_search_index_now", include_str!("../../../migrations/0047_search_index_now.sql")),
    ("0048_lot_numbers", include_str!("../../../migrations/0048_lot_numbers.sql")),
    ("0049_lot_pickup_days", include_str!("../../../migrations/0049_lot_pickup_days.sql")),
    ("0050_request_ids", include_str!("../../../migrations/0050_request_ids.sql")),
];

/// The first line of a migration that rebuilds a table other tables point
/// at: foreign keys are off while it runs (SQLite's documented way to
/// rebuild a table) and all of them are checked before it commits.
const REBUILDS_TABLES: &str = "-- mavuno: rebuilds tables";

/// SQLite counts every allocation under one process-wide lock, by default: with four
/// readers at work they queued on it (fts5 reads allocate for each page; a distinct
/// search spent a fifth of its time in the kernel's futex calls). Only possible before
/// SQLite starts; nothing here reads the count.
#[allow(unsafe_code)]
fn stop_counting_memory() {
    // SAFETY: `sqlite3_config` with this option reads one int; before the first
    // connection it changes the setting, after it answers SQLITE_MISUSE and changes nothing.
    unsafe {
        rusqlite::ffi::sqlite3_config(rusqlite::ffi::SQLITE_CONFIG_MEMSTATUS, 0);
    }
}

/// Opens a connection with the settings every connection shares.
pub fn connect(path: &Path) -> Result<Connection> {
    static UNCOUNTED: std::sync::Once = std::sync::Once::new();
    UNCOUNTED.call_once(stop_counting_memory);
    let conn = rusqlite::Connection::open(path)?;
    // Each reader answers every kind of request: room for all their statements.
    conn.set_prepared_statement_cache_capacity(64);
    // Plans that never depend on a bound value: otherwise SQLite marks a statement whose
    // plan looked at one (a join whose table has partial indexes, e.g. surveys with their
    // people) and re-plans it whenever its bindings are cleared, which the statement
    // cache does on every use: half of a sync push's SQLite time was parsing again.
    conn.set_db_config(rusqlite::config::DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    // 512 KiB of page cache each (SQLite's default is 2 MiB): the OS caches the file too,
    // so a page not held here costs a read from memory. At 1 MiB the five caches were a
    // fifth of the server's memory under load; at 512 KiB the catalogue bench's peak RSS
    // fell from 52-53 MB to 49-52 MB with distinct searches as fast (docs/operations.md).
    conn.pragma_update(None, "cache_size", -512)?;
    Ok(Connection::from_sqlite(conn))
}

/// Applies the migrations this database has not seen yet, each in its own transaction.
pub fn migrate(conn: &mut Connection) -> Result<()> {
    let Some(conn) = conn.sqlite_mut() else { return Ok(()) };
    let applied: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    for (index, (name, sql)) in MIGRATIONS.iter().enumerate().skip(applied as usize) {
        let rebuilds = sql.starts_with(REBUILDS_TABLES);
        if rebuilds {
            // Only outside a transaction does this pragma take effect.
            conn.pragma_update(None, "foreign_keys", "OFF")?;
        }
        let applied = apply(conn, sql, index as i64 + 1, rebuilds);
        if rebuilds {
            conn.pragma_update(None, "foreign_keys", "ON")?;
        }
        applied?;
        tracing::info!(migration = name, "applied migration");
    }
    Ok(())
}

pub(super) fn apply(
    conn: &mut rusqlite::Connection,
    sql: &str,
    version: i64,
    check_keys: bool,
) -> rusqlite::Result<()> {
    let tx = conn.transaction()?;
    tx.execute_batch(sql)?;
    if check_keys {
        let broken: i64 = tx.query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| r.get(0))?;
        if broken > 0 {
            return Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY),
                Some(format!("{broken} rows point at rows that do not exist")),
            ));
        }
    }
    tx.pragma_update(None, "user_version", version)?;
    tx.commit()
}

/// Creates the database file private (0600) before SQLite opens it, and makes
/// an existing one and its journal private; SQLite gives the journal files it
/// creates later the database's mode.
pub fn make_private(data_dir: &Path) -> std::io::Result<()> {
    crate::platform::files::private_file(&data_dir.join(DB_FILE))?;
    for suffix in ["-wal", "-shm"] {
        let journal = data_dir.join(format!("{DB_FILE}{suffix}"));
        if journal.exists() {
            crate::platform::files::private_file(&journal)?;
        }
    }
    Ok(())
}

/// Writes a consistent copy of the live database to `out` with SQLite's online backup API.
pub fn backup(data_dir: &Path, out: &Path) -> Result<()> {
    let conn = rusqlite::Connection::open(data_dir.join(DB_FILE))?;
    // A backup holds everything the database does: private like it.
    crate::platform::files::private_file(out)
        .map_err(|err| Error::Other(format!("making {} private: {err}", out.display())))?;
    conn.backup(rusqlite::MAIN_DB, out, None::<fn(rusqlite::backup::Progress)>)?;
    // Only the copy carries the mark: a server started on it knows it was restored.
    mark_restored(out)
}

/// Marks the database at `path` as restored from a copy (a `mavuno backup`, or the
/// off-site store's): the server started on it moves its sync version on and every
/// phone takes a new snapshot at its next pull, sending again what the copy lacks.
pub fn mark_restored(path: &Path) -> Result<()> {
    let conn = Connection::open(path)?;
    let taken = meta::get(&conn, "offsite_confirmed_at")?.unwrap_or_else(crate::platform::clock::now);
    meta::set(&conn, sync::RESTORED_FROM_BACKUP, &taken)?;
    // What the copy's checks kept described the lost machine's copy, not this one's.
    conn.execute("DELETE FROM meta WHERE key LIKE 'offsite_%'", [])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Db;

    #[test]
    fn migrations_apply_once_and_are_recorded() {
        let dir = tempfile::tempdir().unwrap();
        let mut conn = connect(&dir.path().join(DB_FILE)).unwrap();
        migrate(&mut conn).unwrap();
        migrate(&mut conn).unwrap();
        let version: i64 = conn.sqlite().unwrap().pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        assert_eq!(version as usize, MIGRATIONS.len());
        let mode: String = conn.sqlite().unwrap().pragma_query_value(None, "journal_mode", |r| r.get(0)).unwrap();
        assert_eq!(mode, "wal");
    }

    #[tokio::test]
    async fn the_writer_syncs_every_commit_to_disk() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(dir.path()).unwrap();
        let level: i64 = db
            .write(|tx| {
                Ok(tx
                    .sqlite()
                    .unwrap()
                    .pragma_query_value(None, "synchronous", |r| r.get(0))
                    .map_err(crate::db::Error::from)?)
            })
            .await
            .unwrap();
        assert_eq!(level, 2, "FULL: an answered write survives a power cut");
    }
}
