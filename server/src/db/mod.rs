//! All SQL lives below this module: one file per aggregate, plain functions
//! over a [`Connection`], the storage seam (`sql.rs`). Async code reaches SQLite through [`Db`],
//! which runs closures on blocking threads with one writer connection (writes
//! serialise in SQLite anyway) and a few reader connections.

pub mod admin_products;
pub mod analytics;
pub mod blogs;
pub mod comments;
pub mod contact;
pub mod courses;
pub mod earnings;
pub mod enrolments;
pub mod exchange_rates;
pub mod favourites;
mod group;
pub mod market;
pub mod meta;
pub mod notifications;
pub mod orders;
pub mod outbox;
pub mod overview;
pub mod password_resets;
pub mod payments;
pub mod phone_settings;
pub mod prices;
pub mod product_search;
pub mod products;
pub mod refunds;
pub mod reviews;
pub mod sessions;
pub mod settings;
pub mod sms;
pub mod sql;
pub mod surveys;
pub mod sync;
pub mod texts;
pub mod uploads;
pub mod user_changes;
pub mod users;
pub mod ussd_memos;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use tokio::sync::Semaphore;

use crate::error::{ApiResult, AppError};

pub use group::savepoint;
pub use sql::{
    Connection, Error, FromValue, OptionalExtension, Params, Result, Row, Rows, Statement, ToValue, Transaction, Value,
    ValueRef, params, params_from_iter,
};

/// Numbered migrations, embedded in the binary and applied in order at
/// start-up. `PRAGMA user_version` records how many have run.
const MIGRATIONS: &[(&str, &str)] = &[
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
];

/// The first line of a migration that rebuilds a table other tables point
/// at: foreign keys are off while it runs (SQLite's documented way to
/// rebuild a table) and all of them are checked before it commits.
const REBUILDS_TABLES: &str = "-- mavuno: rebuilds tables";

const READERS: usize = 4;
pub const DB_FILE: &str = "mavuno.db";

#[derive(Clone)]
pub struct Db {
    pool: Arc<Pool>,
}

struct Pool {
    path: PathBuf,
    writer: Mutex<Connection>,
    readers: Mutex<Vec<Connection>>,
    reader_permits: Semaphore,
    /// Taken before a blocking thread is: writes waiting their turn hold no thread.
    writer_permit: Semaphore,
    versions: tokio::sync::watch::Sender<i64>,
    /// The newest version of any product (docs/architecture.md, Catalogue cache): it
    /// moves only with writes that can change a catalogue page, read after each commit.
    catalogue: AtomicI64,
    /// Market prices' version (`price_state`): it moves with every price write.
    prices: AtomicI64,
    /// Writes that moved the catalogue's version, counted for `SEARCH_MERGE_EVERY`.
    catalogue_writes: std::sync::atomic::AtomicU64,
    /// The committer of `Db::write_together`, started by its first write.
    group: OnceLock<tokio::sync::mpsc::UnboundedSender<group::Job>>,
}

/// After this many writes that changed the catalogue, its search index is merged
/// (`product_search::compact_search`): listings arriving one by one split it into segments,
/// and every search seeks into each (18 after 10,000 listings: a distinct search then
/// took twice as long and twice the memory). The hourly housekeeping merges the rest.
const SEARCH_MERGE_EVERY: u64 = 500;

impl Pool {
    /// After a commit: announces the new versions (the catalogue's, prices' and the
    /// sync version). A failed look at them must not turn the commit into an error.
    fn announce(self: &Arc<Self>, conn: &Connection) {
        if let Ok((version, catalogue, prices)) = versions_now(conn) {
            if self.catalogue.fetch_max(catalogue, Ordering::AcqRel) < catalogue
                && self.catalogue_writes.fetch_add(1, Ordering::Relaxed) % SEARCH_MERGE_EVERY == SEARCH_MERGE_EVERY - 1
            {
                self.merge_search();
            }
            self.prices.fetch_max(prices, Ordering::AcqRel);
            self.versions.send_if_modified(|known| std::mem::replace(known, version) != version);
        }
    }

    /// Merges the search index as a write of its own, after the one that asked.
    fn merge_search(self: &Arc<Self>) {
        let Ok(runtime) = tokio::runtime::Handle::try_current() else { return };
        let db = Db { pool: Arc::clone(self) };
        runtime.spawn(async move {
            if let Err(err) = db.write(|tx| Ok(product_search::compact_search(tx)?)).await {
                tracing::warn!(%err, "merging the search index failed; the hourly round tries again");
            }
        });
    }
}

/// The global sync version and the catalogue's: every product write (a listing, its
/// stock, rating or deletion, and a farmer's change, which rewrites their products)
/// gives the product a new version, so the newest product version is the catalogue's.
/// And market prices' version.
fn versions_now(conn: &Connection) -> Result<(i64, i64, i64)> {
    conn.prepare_cached(
        "SELECT (SELECT version FROM sync_state WHERE id = 1), (SELECT COALESCE(MAX(version), 0) FROM products),
             (SELECT version FROM price_state WHERE id = 1)",
    )?
    .query_row([], |row| Ok((row.get(0)?, row.get(1)?, row.get(2)?)))
}

/// A `LIKE ... ESCAPE '\\'` pattern that finds `text` anywhere, taking `%` and `_` literally.
pub fn like_pattern(text: &str) -> String {
    let mut pattern = String::with_capacity(text.len() + 2);
    pattern.push('%');
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

/// Runs `sql` and hands each row, read by `read`, to `each` as it comes, without
/// collecting them (the admins' exports stream this way); answers how many there were.
pub fn for_each_row<T>(
    conn: &Connection,
    sql: &str,
    params: impl Params,
    mut read: impl FnMut(&Row<'_>) -> Result<T>,
    mut each: impl FnMut(T),
) -> Result<usize> {
    let mut statement = conn.prepare_cached(sql)?;
    let mut rows = statement.query(params)?;
    let mut count = 0;
    while let Some(row) = rows.next()? {
        each(read(&row)?);
        count += 1;
    }
    Ok(count)
}

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

fn apply(conn: &mut rusqlite::Connection, sql: &str, version: i64, check_keys: bool) -> rusqlite::Result<()> {
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

impl Db {
    /// Opens (creating if needed) the database in `data_dir` and brings its schema up to date.
    pub fn open(data_dir: &Path) -> Result<Db> {
        let path = data_dir.join(DB_FILE);
        let mut writer = connect(&path)?;
        // An answered write survives a power cut: in WAL mode NORMAL may lose the last
        // commits; FULL syncs the log at each commit (docs/sync.md, Push).
        if let Some(sqlite) = writer.sqlite() {
            sqlite.pragma_update(None, "synchronous", "FULL")?;
        }
        migrate(&mut writer)?;
        if let Some(taken) = meta::get(&writer, sync::RESTORED_FROM_BACKUP)? {
            sync::after_restore(&mut writer)?;
            tracing::warn!(backup_taken = %taken, "started on a restored backup: every phone takes a new snapshot");
        }
        let readers = (0..READERS).map(|_| connect(&path)).collect::<Result<Vec<_>, _>>()?;
        let (version, catalogue, prices) = versions_now(&writer)?;
        let (versions, _) = tokio::sync::watch::channel(version);
        Ok(Db {
            pool: Arc::new(Pool {
                path,
                writer: Mutex::new(writer),
                readers: Mutex::new(readers),
                reader_permits: Semaphore::new(READERS),
                writer_permit: Semaphore::new(1),
                versions,
                catalogue: AtomicI64::new(catalogue),
                prices: AtomicI64::new(prices),
                catalogue_writes: std::sync::atomic::AtomicU64::new(0),
                group: OnceLock::new(),
            }),
        })
    }

    /// The global sync version, announced after each write that moved it
    /// (`GET /sync/wait` holds phones on it: docs/sync.md, Listening).
    pub fn versions(&self) -> tokio::sync::watch::Receiver<i64> {
        self.pool.versions.subscribe()
    }

    /// The catalogue's version: cached catalogue pages are good while it is unchanged.
    /// Read from memory: a cached answer touches no database.
    pub fn catalogue_version(&self) -> i64 {
        self.pool.catalogue.load(Ordering::Acquire)
    }

    /// Market prices' version: cached /prices answers are good while it is unchanged.
    pub fn prices_version(&self) -> i64 {
        self.pool.prices.load(Ordering::Acquire)
    }

    pub fn path(&self) -> &Path {
        &self.pool.path
    }

    /// Runs `f` on a reader connection.
    pub async fn read<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
    {
        let pool = self.pool.clone();
        let _permit = pool.reader_permits.acquire().await.map_err(AppError::internal)?;
        let pool_for_task = pool.clone();
        tokio::task::spawn_blocking(move || {
            let pool = pool_for_task;
            let popped = lock(&pool.readers).pop();
            // A reader is only missing if a closure panicked while holding it.
            let conn = match popped {
                Some(conn) => conn,
                None => connect(&pool.path)?,
            };
            let result = f(&conn);
            lock(&pool.readers).push(conn);
            result
        })
        .await?
    }

    /// Runs `f` in one IMMEDIATE transaction on the writer; commits when it returns `Ok`.
    pub async fn write<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
    {
        let pool = self.pool.clone();
        let _permit = pool.writer_permit.acquire().await.map_err(AppError::internal)?;
        let pool_for_task = pool.clone();
        tokio::task::spawn_blocking(move || {
            let pool = pool_for_task;
            let conn = lock(&pool.writer);
            let tx = conn.begin()?;
            let value = f(&tx)?;
            tx.commit()?;
            pool.announce(&conn);
            Ok(value)
        })
        .await?
    }

    /// Runs `f` in a savepoint of a transaction it may share with other writes that
    /// came meanwhile (group commit: `db/group.rs`); answers once that transaction is
    /// durably committed. When `f` fails, its own writes are undone and no one else's.
    pub async fn write_together<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
    {
        let (reply, answer) = tokio::sync::oneshot::channel();
        let committer = self.pool.group.get_or_init(|| group::start(Arc::downgrade(&self.pool)));
        committer.send(group::job(f, reply)).map_err(|_| AppError::internal("the committer has stopped"))?;
        answer.await.map_err(|_| AppError::internal("the write was not made: its transaction could not begin"))?
    }
}

/// A poisoned lock only means a closure panicked; the connection itself is
/// still sound (its transaction rolled back when dropped).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
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

#[cfg(test)]
mod migration_tests;
