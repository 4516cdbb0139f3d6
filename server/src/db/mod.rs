//! All SQL lives below this module: one file per aggregate, plain functions
//! over a `rusqlite::Connection`. Async code reaches SQLite through [`Db`],
//! which runs closures on blocking threads with one writer connection (writes
//! serialise in SQLite anyway) and a few reader connections.

pub mod contact;
pub mod courses;
pub mod earnings;
pub mod enrolments;
pub mod favourites;
pub mod meta;
pub mod orders;
pub mod outbox;
pub mod payments;
pub mod products;
pub mod reviews;
pub mod sessions;
pub mod surveys;
pub mod sync;
pub mod uploads;
pub mod user_changes;
pub mod users;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use rusqlite::{Connection, Transaction, TransactionBehavior};
use tokio::sync::Semaphore;

use crate::error::{ApiResult, AppError};

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
];

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

/// Opens a connection with the settings every connection shares.
pub fn connect(path: &Path) -> rusqlite::Result<Connection> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(5))?;
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |row| row.get::<_, String>(0))?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    Ok(conn)
}

/// Applies the migrations this database has not seen yet, each in its own transaction.
pub fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let applied: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    for (index, (name, sql)) in MIGRATIONS.iter().enumerate().skip(applied as usize) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", index as i64 + 1)?;
        tx.commit()?;
        tracing::info!(migration = name, "applied migration");
    }
    Ok(())
}

/// Creates the database file private (0600) before SQLite opens it, and makes
/// an existing one and its journal private; SQLite gives the journal files it
/// creates later the database's mode.
pub fn make_private(data_dir: &Path) -> std::io::Result<()> {
    crate::files::private_file(&data_dir.join(DB_FILE))?;
    for suffix in ["-wal", "-shm"] {
        let journal = data_dir.join(format!("{DB_FILE}{suffix}"));
        if journal.exists() {
            crate::files::private_file(&journal)?;
        }
    }
    Ok(())
}

impl Db {
    /// Opens (creating if needed) the database in `data_dir` and brings its schema up to date.
    pub fn open(data_dir: &Path) -> rusqlite::Result<Db> {
        let path = data_dir.join(DB_FILE);
        let mut writer = connect(&path)?;
        migrate(&mut writer)?;
        let readers = (0..READERS).map(|_| connect(&path)).collect::<Result<Vec<_>, _>>()?;
        Ok(Db {
            pool: Arc::new(Pool {
                path,
                writer: Mutex::new(writer),
                readers: Mutex::new(readers),
                reader_permits: Semaphore::new(READERS),
            }),
        })
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
        F: FnOnce(&Transaction<'_>) -> ApiResult<T> + Send + 'static,
    {
        let pool = self.pool.clone();
        tokio::task::spawn_blocking(move || {
            let mut conn = lock(&pool.writer);
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let value = f(&tx)?;
            tx.commit()?;
            Ok(value)
        })
        .await?
    }
}

/// A poisoned lock only means a closure panicked; the connection itself is
/// still sound (its transaction rolled back when dropped).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Writes a consistent copy of the live database to `out` with SQLite's online backup API.
pub fn backup(data_dir: &Path, out: &Path) -> rusqlite::Result<()> {
    let conn = connect(&data_dir.join(DB_FILE))?;
    // A backup holds everything the database does: private like it.
    crate::files::private_file(out).map_err(|err| rusqlite::Error::ToSqlConversionFailure(Box::new(err)))?;
    conn.backup(rusqlite::MAIN_DB, out, None::<fn(rusqlite::backup::Progress)>)
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
        let version: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0)).unwrap();
        assert_eq!(version as usize, MIGRATIONS.len());
        let mode: String = conn.pragma_query_value(None, "journal_mode", |r| r.get(0)).unwrap();
        assert_eq!(mode, "wal");
    }
}
