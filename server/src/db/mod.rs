//! All SQL lives below this module: one file per aggregate, plain functions
//! over a [`Connection`], the storage seam (`sql/`), whichever engine is underneath
//! (SQLite in the data dir, or PostgreSQL: `sqlite.rs`, `pg.rs`, `dialect.rs`). Async
//! code reaches it through [`Db`], which runs closures on blocking threads with writer
//! connections (one on SQLite; on PostgreSQL writes also take one lock, so they are
//! made one at a time on every engine) and reader connections.

pub mod admin_products;
pub mod analytics;
mod api_error;
pub mod blogs;
pub mod catalogue;
pub mod comments;
pub mod contact;
pub mod cooperatives;
pub mod courses;
pub mod deliveries;
pub mod dialect;
pub mod earnings;
pub mod enrolments;
pub mod exchange_rates;
pub mod favourites;
mod group;
pub mod leases;
pub mod lots;
pub mod market;
pub mod meta;
pub mod notifications;
pub mod observed;
pub mod orders;
pub mod outbox;
pub mod overview;
pub mod password_resets;
pub mod payments;
pub mod payouts;
mod pg;
mod pg_tls;
pub mod phone_settings;
pub mod prices;
pub mod product_search;
pub mod products;
pub mod refunds;
mod replica;
pub mod reviews;
pub mod scopes;
pub mod sessions;
pub mod settings;
pub mod sms;
mod source;
pub mod sql;
mod sqlite;
pub mod surveys;
pub mod sync;
pub mod texts;
pub mod throttles;
pub mod transfer;
pub mod uploads;
pub mod user_changes;
pub mod users;
pub mod ussd_memos;
mod wake_senders;
mod wakeups;

use std::path::Path;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use tokio::sync::Semaphore;

use crate::error::{ApiResult, AppError};
use crate::platform::metrics::Metrics;
use crate::platform::request_id;
use source::Source;
use wake_senders::OUTBOX_WRITTEN;
pub use wake_senders::Outbox;
pub(crate) use wake_senders::outbox_written;
use wakeups::Versions;

pub use group::savepoint;
pub use sql::Engine;
pub use sql::{
    Connection, Error, FromValue, OptionalExtension, Params, Result, Row, Rows, Statement, ToValue, Transaction, Value,
    ValueRef, params, params_from_iter,
};
pub use sqlite::{DB_FILE, backup, connect, make_private, mark_restored, migrate};

const READERS: usize = 4;

#[derive(Clone)]
pub struct Db {
    pool: Arc<Pool>,
}

struct Pool {
    source: Source,
    writers: Mutex<Vec<Connection>>,
    readers: Mutex<Vec<Connection>>,
    reader_permits: Semaphore,
    /// Taken before a blocking thread is: writes waiting their turn hold no thread.
    /// SQLite has one writer; PostgreSQL as many as its pool gives writes.
    writer_permit: Semaphore,
    versions: tokio::sync::watch::Sender<i64>,
    /// The newest version of any product (docs/architecture.md, Catalogue cache): it
    /// moves only with writes that can change a catalogue page, read after each commit.
    catalogue: AtomicI64,
    /// Market prices' version (`price_state`): it moves with every price write.
    prices: AtomicI64,
    /// Writes that moved the catalogue's version, counted for `SEARCH_MERGE_EVERY`.
    catalogue_writes: std::sync::atomic::AtomicU64,
    /// This server's name among the nodes sharing the database (new at each start):
    /// the holder of the leases it takes (`Db::lease`).
    node: String,
    /// The committer of `Db::write_together`, started by its first write.
    group: OnceLock<tokio::sync::mpsc::UnboundedSender<Box<dyn group::Job>>>,
    /// A streaming replica for reads, when configured (`replica.rs`).
    replica: Option<replica::Replica>,
    /// The newest version that concerned each audience (`scopes.rs`).
    scopes: Mutex<scopes::Scopes>,
    /// Wakes the email and SMS senders after a commit that wrote to their outboxes.
    outbox: Arc<Outbox>,
    /// The server's metrics, and the database's own handles on them.
    metrics: Arc<Metrics>,
    observed: observed::Observed,
}

/// After this many writes that changed the catalogue, its search index is merged
/// (`product_search::compact_search`): listings arriving one by one split it into segments,
/// and every search seeks into each (18 after 10,000 listings: a distinct search then
/// took twice as long and twice the memory). The hourly housekeeping merges the rest.
const SEARCH_MERGE_EVERY: u64 = 500;

impl Pool {
    /// After a commit (`own`, the versions its write left) or when another server's was
    /// heard: announces the new versions (the catalogue's, prices' and the sync version).
    /// Versions only grow while a server runs (a restored backup starts a new one).
    fn announce(self: &Arc<Self>, versions: Versions, touched: &scopes::Touched, own: bool) {
        // Before the phones are woken: each looks up what concerns it.
        let raised = lock(&self.scopes).record(versions.sync, touched);
        if self.catalogue.fetch_max(versions.catalogue, Ordering::AcqRel) < versions.catalogue
            && own
            && self.catalogue_writes.fetch_add(1, Ordering::Relaxed) % SEARCH_MERGE_EVERY == SEARCH_MERGE_EVERY - 1
        {
            self.merge_search();
        }
        self.prices.fetch_max(versions.prices, Ordering::AcqRel);
        self.versions.send_if_modified(|known| {
            let newer = versions.sync > *known;
            *known = (*known).max(versions.sync);
            // A write announced after a newer one still wakes the phones it concerns.
            newer || raised
        });
    }

    /// The versions this server has announced.
    fn known(&self) -> Versions {
        Versions {
            sync: *self.versions.borrow(),
            catalogue: self.catalogue.load(Ordering::Acquire),
            prices: self.prices.load(Ordering::Acquire),
        }
    }

    /// A connection from `list`, or a new one when none is there (one was lost).
    fn take(&self, list: &Mutex<Vec<Connection>>, writer: bool) -> Result<Connection> {
        let popped = lock(list).pop();
        match popped {
            Some(conn) => Ok(conn),
            None => self.source.connect(writer),
        }
    }

    /// Warms each of the `count` readers in turn (`catalogue::warm`), on a thread of its
    /// own while the server starts answering: each is taken from the front of the idle
    /// list under a permit, as a request takes one, and put back at its end.
    fn warm_readers(pool: std::sync::Weak<Pool>, count: usize) {
        std::thread::spawn(move || {
            for _ in 0..count {
                let Some(pool) = pool.upgrade() else { return };
                let Ok(_permit) = pool.reader_permits.try_acquire() else { continue };
                let conn = {
                    let mut idle = lock(&pool.readers);
                    if idle.is_empty() {
                        continue;
                    }
                    idle.remove(0)
                };
                catalogue::warm(&conn);
                Pool::put_back(&pool.readers, conn);
            }
        });
    }

    /// Returns a connection for the next caller; one whose database went away is dropped
    /// and replaced at the next use.
    fn put_back(list: &Mutex<Vec<Connection>>, conn: Connection) {
        if conn.is_usable() {
            lock(list).push(conn);
        }
    }

    /// `f` in one transaction: committed (and announced) when it answers `Ok`, undone otherwise.
    fn transaction<T>(
        self: &Arc<Self>,
        conn: &Connection,
        f: impl FnOnce(&Connection) -> ApiResult<T>,
    ) -> ApiResult<T> {
        OUTBOX_WRITTEN.set(false);
        let tx = conn.begin()?;
        let value = f(&tx).inspect_err(|_| self.observed.ended(false))?;
        let sealed = wakeups::seal(self, &tx);
        tx.commit().inspect_err(|_| self.observed.ended(false))?;
        self.observed.ended(true);
        self.committed(sealed);
        Ok(value)
    }

    /// After a commit: its versions announced, the senders woken if it wrote to an outbox.
    fn committed(self: &Arc<Self>, sealed: Option<(Versions, scopes::Touched)>) {
        if let Some((versions, touched)) = sealed {
            self.announce(versions, &touched, true);
        }
        if OUTBOX_WRITTEN.take() {
            self.outbox.wake();
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

/// The names of an engine's migrations, in order (the schema test holds the two in step).
pub fn migration_names(engine: Engine) -> Vec<&'static str> {
    let list = match engine {
        Engine::Sqlite => sqlite::MIGRATIONS,
        Engine::Postgres => pg::MIGRATIONS,
    };
    list.iter().map(|(name, _)| *name).collect()
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
impl Db {
    /// Opens (creating if needed) the SQLite database in `data_dir` and brings its schema up to date.
    pub fn open(data_dir: &Path) -> Result<Db> {
        Db::start(Source::Sqlite(data_dir.join(DB_FILE)), 1, READERS, None)
    }

    /// Connects to PostgreSQL at `url` (`postgres://…`), brings its schema up to date and
    /// keeps `pool` connections: a quarter for writes (at least one), the rest for reads.
    /// With `read_url`, a streaming replica of it takes the reads it can (`replica.rs`).
    /// The synchronous client runs a small runtime of its own, which must not block a
    /// thread that drives async tasks: the migrations run on a thread of their own.
    /// TLS as the URL's `sslmode` says, the server checked against `ca` (a PEM file) or
    /// Mozilla's roots.
    pub fn open_postgres(url: &str, read_url: Option<&str>, pool: usize, ca: Option<&Path>) -> Result<Db> {
        let writers = (pool / 4).max(1);
        let settings = pg::Settings::parse(url, ca)?;
        let replica = read_url.map(|url| pg::Settings::parse(url, ca).map(replica::Replica::new)).transpose()?;
        std::thread::scope(|scope| {
            scope
                .spawn(|| {
                    Db::start(
                        Source::Postgres(Box::new(settings)),
                        writers,
                        pool.saturating_sub(writers).max(1),
                        replica,
                    )
                })
                .join()
                .unwrap_or_else(|_| Err(Error::Other("opening the database panicked".to_owned())))
        })
    }

    fn start(source: Source, writers: usize, readers: usize, replica: Option<replica::Replica>) -> Result<Db> {
        let mut first = source.connect(true)?;
        match first.engine() {
            Engine::Sqlite => migrate(&mut first)?,
            Engine::Postgres => pg::migrate(&first)?,
        }
        if let Some(taken) = meta::get(&first, sync::RESTORED_FROM_BACKUP)? {
            sync::after_restore(&mut first)?;
            tracing::warn!(backup_taken = %taken, "started on a restored backup: every phone takes a new snapshot");
        }
        let known = Versions::now(&first)?;
        let engine = first.engine();
        let mut writer_connections = vec![first];
        for _ in 1..writers {
            writer_connections.push(source.connect(true)?);
        }
        let reader_connections = (0..readers).map(|_| source.connect(false)).collect::<Result<Vec<_>>>()?;
        let (versions, _) = tokio::sync::watch::channel(known.sync);
        let metrics = Arc::new(Metrics::new());
        let pool = Arc::new(Pool {
            source,
            writers: Mutex::new(writer_connections),
            readers: Mutex::new(reader_connections),
            reader_permits: Semaphore::new(readers),
            writer_permit: Semaphore::new(writers),
            versions,
            catalogue: AtomicI64::new(known.catalogue),
            prices: AtomicI64::new(known.prices),
            catalogue_writes: std::sync::atomic::AtomicU64::new(0),
            node: uuid::Uuid::new_v4().to_string(),
            group: OnceLock::new(),
            replica,
            scopes: Mutex::new(scopes::Scopes::starting_at(known.sync)),
            outbox: Arc::default(),
            observed: observed::Observed::new(&metrics),
            metrics,
        });
        if engine == Engine::Postgres {
            wakeups::spawn_listener(Arc::downgrade(&pool));
            Pool::warm_readers(Arc::downgrade(&pool), readers);
        }
        Ok(Db { pool })
    }

    /// The senders' wake-up: woken by every commit that wrote to an outbox.
    pub fn outbox(&self) -> Arc<Outbox> {
        Arc::clone(&self.pool.outbox)
    }

    pub fn engine(&self) -> Engine {
        match self.pool.source {
            Source::Sqlite(_) => Engine::Sqlite,
            Source::Postgres(_) => Engine::Postgres,
        }
    }

    /// The global sync version, announced after each write that moved it
    /// (`GET /sync/wait` holds phones on it: docs/sync.md, Listening).
    pub fn versions(&self) -> tokio::sync::watch::Receiver<i64> {
        self.pool.versions.subscribe()
    }

    /// The newest version that concerns `audience` (docs/sync.md, Listening): a listening
    /// phone is told of it when it passes the phone's cursor.
    pub fn newest_for(&self, audience: scopes::Audience) -> i64 {
        let global = *self.pool.versions.borrow();
        lock(&self.pool.scopes).newest_for(audience, global)
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

    /// Runs `f` on a reader connection of the database itself: every read but the
    /// version-guarded ones (`read_versioned`), so it sees every write any node committed.
    pub async fn read<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
    {
        self.read_on(false, f).await
    }

    /// Runs `f` on the read replica when one is configured and has replayed every write
    /// this node knows of (`replica.rs`), else on the database itself. Only for reads
    /// whose rows no write changes without moving a version (sync, catalogue or prices):
    /// pull pages, the catalogue and its products, market prices and the first screens
    /// of those; docs/operations.md, Read replicas, lists them and `replica.rs` writes
    /// each with the replica's replay paused and reads it back at once.
    pub async fn read_versioned<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
    {
        self.read_on(true, f).await
    }

    async fn read_on<T, F>(&self, replica_ok: bool, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
    {
        let pool = self.pool.clone();
        let _permit = pool.observed.reader.take(&pool.reader_permits).await.map_err(AppError::internal)?;
        let pool_for_task = pool.clone();
        tokio::task::spawn_blocking(request_id::carry(move || {
            let pool = pool_for_task;
            if let Some(replica) = pool.replica.as_ref().filter(|_| replica_ok) {
                if let Some((conn, seen)) = replica.caught_up(pool.known()) {
                    pool.observed.replica_reads.inc();
                    let result = f(&conn);
                    replica.put_back(conn, seen);
                    return result;
                }
            }
            pool.observed.primary_reads.inc();
            let conn = pool.take(&pool.readers, false)?;
            let result = f(&conn);
            Pool::put_back(&pool.readers, conn);
            result
        }))
        .await?
    }

    /// Runs `f` in one IMMEDIATE transaction on the writer; commits when it returns `Ok`.
    pub async fn write<T, F>(&self, f: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Connection) -> ApiResult<T> + Send + 'static,
    {
        let pool = self.pool.clone();
        let asked = std::time::Instant::now();
        let _permit = pool.observed.writer.take(&pool.writer_permit).await.map_err(AppError::internal)?;
        pool.observed.write_wait.observe(asked.elapsed().as_secs_f64());
        let pool_for_task = pool.clone();
        tokio::task::spawn_blocking(request_id::carry(move || {
            let pool = pool_for_task;
            let conn = pool.take(&pool.writers, true)?;
            let result = pool.transaction(&conn, f);
            Pool::put_back(&pool.writers, conn);
            result
        }))
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
        let here = request_id::Here::now();
        let f = move |conn: &Connection| here.run(|| f(conn));
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

#[cfg(test)]
mod migration_tests;
