//! The storage seam: one connection type that every query in `db/` goes through,
//! whichever engine holds the data (docs/decisions.md, Storage engines). Its calls
//! are rusqlite's (`prepare_cached`, `query_row`, `query_map`, `execute`, `params!`),
//! so a query reads as before; values cross it as SQLite's five kinds (null,
//! integer, real, text, blob), which every type a row is made of maps onto.
//! Nothing above `db/` names an engine's types (`scripts/check-layers`).

use std::cell::RefCell;
use std::fmt;

mod postgres;
mod rows;
mod values;

use rows::RowsInner;
pub use rows::{ColumnIndex, MappedRows, Row, Rows};
pub use values::*;

/// What a query answers.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A failed query: the engine's own error, no row where one was asked for, or a
/// column whose value does not fit the type it was read as.
#[derive(Debug)]
pub enum Error {
    Sqlite(rusqlite::Error),
    Postgres(::postgres::Error),
    /// PostgreSQL refused a statement: the error and the statement's text (no values).
    Statement(::postgres::Error, String),
    NoRows,
    Conversion {
        column: usize,
        message: String,
    },
    Other(String),
    /// A text value holds a NUL character: PostgreSQL cannot store one, so neither
    /// engine takes it (the same answer whichever is underneath).
    NulInText,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Sqlite(err) => err.fmt(f),
            Error::Postgres(err) => postgres::describe(err, f),
            Error::Statement(err, sql) => {
                postgres::describe(err, f)?;
                write!(f, " in: {}", sql.split_whitespace().collect::<Vec<_>>().join(" "))
            }
            Error::NoRows => f.write_str("the query answered no row"),
            Error::Conversion { column, message } => write!(f, "column {column}: {message}"),
            Error::Other(message) => f.write_str(message),
            Error::NulInText => f.write_str("a text value holds a NUL character"),
        }
    }
}

impl std::error::Error for Error {}

impl From<rusqlite::Error> for Error {
    fn from(err: rusqlite::Error) -> Self {
        match err {
            rusqlite::Error::QueryReturnedNoRows => Error::NoRows,
            err => Error::Sqlite(err),
        }
    }
}

impl Error {
    /// A unique index refused the write (an email taken, a name already used).
    pub fn is_unique_violation(&self) -> bool {
        match self {
            Error::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => {
                e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE
            }
            Error::Postgres(err) | Error::Statement(err, _) => {
                err.code() == Some(&::postgres::error::SqlState::UNIQUE_VIOLATION)
            }
            _ => false,
        }
    }

    fn in_statement(self, sql: &str) -> Error {
        match self {
            Error::Postgres(err) => Error::Statement(err, sql.to_owned()),
            other => other,
        }
    }

    /// The database cannot be reached (PostgreSQL stopped or restarting, its connection
    /// lost): the request is answered 503 and may be tried again.
    pub fn is_unavailable(&self) -> bool {
        match self {
            Error::Postgres(err) | Error::Statement(err, _) => {
                err.is_closed()
                    || std::error::Error::source(err).is_some_and(|source| source.is::<std::io::Error>())
                    || err.code().is_some_and(|code| {
                        let class = &code.code()[..2];
                        // 08: connection exception; 57: operator intervention (shutdown).
                        class == "08" || class == "57"
                    })
            }
            Error::Sqlite(rusqlite::Error::SqliteFailure(e, _)) => e.code == rusqlite::ErrorCode::DatabaseBusy,
            _ => false,
        }
    }
}

/// `query_row(..).optional()`: no row is `None`, not an error.
pub trait OptionalExtension<T> {
    fn optional(self) -> Result<Option<T>>;
}

impl<T> OptionalExtension<T> for Result<T> {
    fn optional(self) -> Result<Option<T>> {
        match self {
            Ok(value) => Ok(Some(value)),
            Err(Error::NoRows) => Ok(None),
            Err(err) => Err(err),
        }
    }
}

/// SQLite takes the seam's values as they are.
struct Bind<'a>(ValueRef<'a>);

impl rusqlite::ToSql for Bind<'_> {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        use rusqlite::types::{ToSqlOutput, ValueRef as S};
        Ok(ToSqlOutput::Borrowed(match self.0 {
            ValueRef::Null => S::Null,
            ValueRef::Integer(n) => S::Integer(n),
            ValueRef::Real(x) => S::Real(x),
            ValueRef::Text(text) => S::Text(text.as_bytes()),
            ValueRef::Blob(bytes) => S::Blob(bytes),
        }))
    }
}

fn bind<'v>(values: &'v [ValueRef<'_>]) -> impl rusqlite::Params + 'v {
    rusqlite::params_from_iter(values.iter().map(|value| Bind(*value)))
}

/// Which engine a connection talks to: where the dialects differ, `db/dialect.rs` asks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Sqlite,
    Postgres,
}

/// A connection to the database, inside or outside a transaction.
pub struct Connection {
    inner: Inner,
}

enum Inner {
    Sqlite(rusqlite::Connection),
    Postgres(Box<RefCell<postgres::Pg>>),
}

impl Connection {
    pub(crate) fn from_sqlite(conn: rusqlite::Connection) -> Connection {
        Connection { inner: Inner::Sqlite(conn) }
    }

    /// A connection to PostgreSQL for the server's pool (used on blocking threads).
    pub(in crate::db) fn postgres(config: &::postgres::Config, tls: &super::pg_tls::Tls) -> Result<Connection> {
        Ok(Connection { inner: Inner::Postgres(Box::new(RefCell::new(postgres::connect(config, tls, false)?))) })
    }

    /// A connection to the database at `url` for tools and tests, usable from async code:
    /// each of its queries runs on a thread of its own.
    pub fn open_url(url: &str) -> Result<Connection> {
        let config: ::postgres::Config = url.parse().map_err(|err| Error::Other(format!("the database URL: {err}")))?;
        let tls = super::pg_tls::Tls::new(None)?;
        Ok(Connection { inner: Inner::Postgres(Box::new(RefCell::new(postgres::connect(&config, &tls, true)?))) })
    }

    pub fn engine(&self) -> Engine {
        match &self.inner {
            Inner::Sqlite(_) => Engine::Sqlite,
            Inner::Postgres(_) => Engine::Postgres,
        }
    }

    /// The SQLite connection underneath, for what only SQLite has (pragmas, the backup
    /// API); `None` on another engine. Only `db/` uses it.
    pub(crate) fn sqlite(&self) -> Option<&rusqlite::Connection> {
        match &self.inner {
            Inner::Sqlite(conn) => Some(conn),
            Inner::Postgres(_) => None,
        }
    }

    /// The database pages this connection has read since the last call (SQLite's page
    /// cache hits and misses): what its statements cost, counted rather than timed, so a
    /// test can tell a query that reads by an index from one that reads a whole table.
    /// `None` on PostgreSQL.
    #[allow(unsafe_code)]
    pub fn pages_read(&self) -> Option<i64> {
        let conn = self.sqlite()?;
        let mut pages = 0;
        for counter in [rusqlite::ffi::SQLITE_DBSTATUS_CACHE_HIT, rusqlite::ffi::SQLITE_DBSTATUS_CACHE_MISS] {
            let (mut current, mut highest) = (0, 0);
            // SAFETY: the handle is this open connection's, used on this thread only; the
            // call writes two ints and resets the counter (the last argument).
            unsafe { rusqlite::ffi::sqlite3_db_status(conn.handle(), counter, &mut current, &mut highest, 1) };
            pages += i64::from(current);
        }
        Some(pages)
    }

    pub(crate) fn sqlite_mut(&mut self) -> Option<&mut rusqlite::Connection> {
        match &mut self.inner {
            Inner::Sqlite(conn) => Some(conn),
            Inner::Postgres(_) => None,
        }
    }

    /// Whether the connection can still be used (PostgreSQL's may have been lost).
    pub(crate) fn is_usable(&self) -> bool {
        match &self.inner {
            Inner::Sqlite(_) => true,
            Inner::Postgres(pg) => pg.try_borrow().map(|pg| !pg.is_closed()).unwrap_or(true),
        }
    }

    /// Waits up to `timeout` for a notification on the channels this connection listens
    /// to (PostgreSQL's `LISTEN`) and answers its payload with those that came with it:
    /// none when the time ran out. An error when the connection is lost. SQLite has none.
    pub(in crate::db) fn notifications(&self, timeout: std::time::Duration) -> Result<Vec<String>> {
        use ::postgres::fallible_iterator::FallibleIterator;
        let Inner::Postgres(pg) = &self.inner else { return Ok(Vec::new()) };
        pg.borrow_mut().run(|client| {
            let mut notifications = client.notifications();
            let mut payloads = Vec::new();
            let first = notifications.timeout_iter(timeout).next()?;
            if let Some(first) = first {
                payloads.push(first.payload().to_owned());
                while let Some(more) = notifications.iter().next()? {
                    payloads.push(more.payload().to_owned());
                }
            }
            Ok(payloads)
        })
    }

    /// A statement kept prepared for the next call with the same text.
    pub fn prepare_cached(&self, sql: &str) -> Result<Statement<'_>> {
        match &self.inner {
            Inner::Sqlite(conn) => Ok(Statement { inner: StatementInner::SqliteCached(conn.prepare_cached(sql)?) }),
            Inner::Postgres(pg) => {
                let statement = pg.borrow_mut().prepare(sql).map_err(|err| err.in_statement(sql))?;
                Ok(Statement { inner: StatementInner::Postgres { pg, statement, sql: sql.into() } })
            }
        }
    }

    /// A statement prepared for this use only (texts made at run time); PostgreSQL's are
    /// kept all the same, up to a bound.
    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        match &self.inner {
            Inner::Sqlite(conn) => Ok(Statement { inner: StatementInner::Sqlite(conn.prepare(sql)?) }),
            Inner::Postgres(_) => self.prepare_cached(sql),
        }
    }

    /// Runs one statement; answers how many rows it changed.
    pub fn execute<P: Params>(&self, sql: &str, params: P) -> Result<usize> {
        self.prepare(sql)?.execute(params)
    }

    /// The first row of a query, read by `f`; `Error::NoRows` when there is none.
    pub fn query_row<T, P, F>(&self, sql: &str, params: P, f: F) -> Result<T>
    where
        P: Params,
        F: FnOnce(&Row<'_>) -> Result<T>,
    {
        self.prepare(sql)?.query_row(params, f)
    }

    /// Runs an INSERT into a table whose key is `id`; answers the new row's id.
    pub fn insert<P: Params>(&self, sql: &str, params: P) -> Result<i64> {
        self.prepare_cached(&format!("{sql} RETURNING id"))?.query_row(params, |row| row.get(0))
    }

    /// Runs `f` in a savepoint of the transaction: when a statement in it is refused (a
    /// unique index, say), only `f`'s writes are undone and the transaction goes on, as
    /// SQLite's does by itself and PostgreSQL's only so.
    pub fn attempt<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        self.execute_batch("SAVEPOINT attempt")?;
        let result = f(self);
        self.execute_batch(if result.is_ok() { "RELEASE attempt" } else { "ROLLBACK TO attempt; RELEASE attempt" })?;
        result
    }

    /// Runs statements with no parameters, one after the other.
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        match &self.inner {
            Inner::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
            Inner::Postgres(pg) => Ok(pg.borrow_mut().run(|client| client.batch_execute(sql))?),
        }
    }
}

/// A prepared statement.
pub struct Statement<'c> {
    inner: StatementInner<'c>,
}

enum StatementInner<'c> {
    SqliteCached(rusqlite::CachedStatement<'c>),
    Sqlite(rusqlite::Statement<'c>),
    Postgres { pg: &'c RefCell<postgres::Pg>, statement: ::postgres::Statement, sql: Box<str> },
}

/// Refuses a text holding NUL before either engine sees it (`Error::NulInText`).
fn refuse_nul(values: &[ValueRef<'_>]) -> Result<()> {
    if values.iter().any(|v| matches!(v, ValueRef::Text(text) if text.contains('\0'))) {
        return Err(Error::NulInText);
    }
    Ok(())
}

fn pg_params<'v>(values: &'v [ValueRef<'v>]) -> Vec<postgres::Param<'v>> {
    values.iter().map(|value| postgres::Param(*value)).collect()
}

fn pg_refs<'p>(params: &'p [postgres::Param<'_>]) -> Vec<&'p (dyn ::postgres::types::ToSql + Sync)> {
    params.iter().map(|p| -> &(dyn ::postgres::types::ToSql + Sync) { p }).collect()
}

impl Statement<'_> {
    pub fn execute<P: Params>(&mut self, params: P) -> Result<usize> {
        match &mut self.inner {
            StatementInner::SqliteCached(statement) => params.with_values(|values| {
                refuse_nul(values)?;
                Ok(statement.execute(bind(values))?)
            }),
            StatementInner::Sqlite(statement) => params.with_values(|values| {
                refuse_nul(values)?;
                Ok(statement.execute(bind(values))?)
            }),
            StatementInner::Postgres { pg, statement, sql } => params.with_values(|values| {
                refuse_nul(values)?;
                let params = pg_params(values);
                let changed = pg
                    .borrow_mut()
                    .run(|client| client.execute(&*statement, &pg_refs(&params)))
                    .map_err(|err| Error::from(err).in_statement(sql))?;
                Ok(usize::try_from(changed).unwrap_or(usize::MAX))
            }),
        }
    }

    /// The rows of the query, one at a time (PostgreSQL's are all fetched first).
    pub fn query<P: Params>(&mut self, params: P) -> Result<Rows<'_>> {
        let inner = match &mut self.inner {
            StatementInner::SqliteCached(statement) => RowsInner::Sqlite(params.with_values(|values| {
                refuse_nul(values)?;
                Ok::<_, Error>(statement.query(bind(values))?)
            })?),
            StatementInner::Sqlite(statement) => RowsInner::Sqlite(params.with_values(|values| {
                refuse_nul(values)?;
                Ok::<_, Error>(statement.query(bind(values))?)
            })?),
            StatementInner::Postgres { pg, statement, sql } => {
                let rows = params.with_values(|values| {
                    refuse_nul(values)?;
                    let params = pg_params(values);
                    pg.borrow_mut()
                        .run(|client| client.query(&*statement, &pg_refs(&params)))
                        .map_err(|err| Error::from(err).in_statement(sql))
                })?;
                RowsInner::Postgres { rows, next: 0 }
            }
        };
        Ok(Rows { inner })
    }

    pub fn query_row<T, P, F>(&mut self, params: P, f: F) -> Result<T>
    where
        P: Params,
        F: FnOnce(&Row<'_>) -> Result<T>,
    {
        let mut rows = self.query(params)?;
        match rows.next()? {
            Some(row) => f(&row),
            None => Err(Error::NoRows),
        }
    }

    /// Every row, each read by `f`.
    pub fn query_map<T, P, F>(&mut self, params: P, f: F) -> Result<MappedRows<'_, F>>
    where
        P: Params,
        F: FnMut(&Row<'_>) -> Result<T>,
    {
        Ok(MappedRows { rows: self.query(params)?, read: f })
    }

    /// Whether the query answers any row.
    pub fn exists<P: Params>(&mut self, params: P) -> Result<bool> {
        Ok(self.query(params)?.next()?.is_some())
    }
}

impl Connection {
    /// Opens the SQLite file at `path` with no settings beyond a busy timeout (tools and
    /// tests; the server's connections are made by `db::connect`).
    pub fn open(path: &std::path::Path) -> Result<Connection> {
        let conn = rusqlite::Connection::open(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        Ok(Connection::from_sqlite(conn))
    }

    /// A private SQLite database in memory (tests).
    pub fn open_in_memory() -> Result<Connection> {
        Ok(Connection::from_sqlite(rusqlite::Connection::open_in_memory()?))
    }

    /// Begins a transaction that reads one snapshot of the database (several reads that
    /// must agree, e.g. a pull's page); rolled back when dropped.
    pub fn begin_read(&self) -> Result<Transaction<'_>> {
        self.begin_with(match self.engine() {
            Engine::Sqlite => "BEGIN",
            // Read committed takes a new snapshot for each statement.
            Engine::Postgres => "BEGIN ISOLATION LEVEL REPEATABLE READ",
        })
    }

    /// [`begin_read`](Self::begin_read) for statements whose values change with every
    /// call but whose best plan does not (a search's words): PostgreSQL plans them once
    /// per connection instead of for each call's values. It chose the latter for the
    /// catalogue's searches, and planning them took four fifths of a search's time
    /// (docs/operations.md, Capacity). SQLite plans once per statement anyway.
    pub fn begin_read_planned_once(&self) -> Result<Transaction<'_>> {
        self.begin_with(match self.engine() {
            Engine::Sqlite => "BEGIN",
            Engine::Postgres => "BEGIN ISOLATION LEVEL REPEATABLE READ; SET LOCAL plan_cache_mode = force_generic_plan",
        })
    }

    /// Begins a transaction that writes; it is rolled back unless committed (also when
    /// the code inside panics). It takes the database's one write lock at once: SQLite's
    /// own, and on PostgreSQL an advisory lock every server takes for its writes
    /// (docs/decisions.md, Storage engines: one writer at a time, on every engine).
    pub fn begin(&self) -> Result<Transaction<'_>> {
        self.begin_with(match self.engine() {
            Engine::Sqlite => "BEGIN IMMEDIATE",
            Engine::Postgres => "BEGIN; SELECT pg_advisory_xact_lock(7305)",
        })
    }

    fn begin_with(&self, sql: &str) -> Result<Transaction<'_>> {
        self.execute_batch(sql)?;
        Ok(Transaction { conn: self, open: true })
    }
}

/// A transaction on a connection: see [`Connection::begin`].
pub struct Transaction<'c> {
    conn: &'c Connection,
    open: bool,
}

impl Transaction<'_> {
    /// Commits; when that fails, the transaction is rolled back as it is dropped.
    pub fn commit(mut self) -> Result<()> {
        let committed = self.conn.execute_batch("COMMIT");
        self.open = committed.is_err();
        committed
    }
}

impl std::ops::Deref for Transaction<'_> {
    type Target = Connection;

    fn deref(&self) -> &Connection {
        self.conn
    }
}

impl Drop for Transaction<'_> {
    fn drop(&mut self) {
        if self.open && self.conn.is_usable() {
            if let Err(err) = self.conn.execute_batch("ROLLBACK") {
                tracing::warn!(%err, "rolling back a transaction failed");
            }
        }
    }
}
