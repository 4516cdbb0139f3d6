//! The storage seam: one connection type that every query in `db/` goes through,
//! whichever engine holds the data (docs/decisions.md, Storage engines). Its calls
//! are rusqlite's (`prepare_cached`, `query_row`, `query_map`, `execute`, `params!`),
//! so a query reads as before; values cross it as SQLite's five kinds (null,
//! integer, real, text, blob), which every type a row is made of maps onto.
//! Nothing above `db/` names an engine's types (`scripts/check-layers`).

use std::fmt;

use crate::model::{Word, blog, course, order, payment, price, product, survey, user};

/// What a query answers.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// A failed query: the engine's own error, no row where one was asked for, or a
/// column whose value does not fit the type it was read as.
#[derive(Debug)]
pub enum Error {
    Sqlite(rusqlite::Error),
    NoRows,
    Conversion { column: usize, message: String },
    Other(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Sqlite(err) => err.fmt(f),
            Error::NoRows => f.write_str("the query answered no row"),
            Error::Conversion { column, message } => write!(f, "column {column}: {message}"),
            Error::Other(message) => f.write_str(message),
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
        matches!(self, Error::Sqlite(rusqlite::Error::SqliteFailure(e, _))
            if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_UNIQUE)
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

/// A value as it crosses the seam, borrowed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ValueRef<'a> {
    Null,
    Integer(i64),
    Real(f64),
    Text(&'a str),
    Blob(&'a [u8]),
}

/// A value as it crosses the seam, owned (lists of parameters built at run time).
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Null,
    Integer(i64),
    Real(f64),
    Text(String),
    Blob(Vec<u8>),
}

impl Value {
    pub fn as_ref(&self) -> ValueRef<'_> {
        match self {
            Value::Null => ValueRef::Null,
            Value::Integer(n) => ValueRef::Integer(*n),
            Value::Real(x) => ValueRef::Real(*x),
            Value::Text(text) => ValueRef::Text(text),
            Value::Blob(bytes) => ValueRef::Blob(bytes),
        }
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Self {
        Value::Integer(n)
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Self {
        Value::Real(x)
    }
}

impl From<String> for Value {
    fn from(text: String) -> Self {
        Value::Text(text)
    }
}

impl From<&str> for Value {
    fn from(text: &str) -> Self {
        Value::Text(text.to_owned())
    }
}

impl From<ValueRef<'_>> for Value {
    fn from(value: ValueRef<'_>) -> Self {
        match value {
            ValueRef::Null => Value::Null,
            ValueRef::Integer(n) => Value::Integer(n),
            ValueRef::Real(x) => Value::Real(x),
            ValueRef::Text(text) => Value::Text(text.to_owned()),
            ValueRef::Blob(bytes) => Value::Blob(bytes.to_vec()),
        }
    }
}

/// A type a query takes as a parameter.
pub trait ToValue {
    fn to_value(&self) -> ValueRef<'_>;
}

/// A type a row's column is read as.
pub trait FromValue: Sized {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String>;
}

impl<T: ToValue + ?Sized> ToValue for &T {
    fn to_value(&self) -> ValueRef<'_> {
        (**self).to_value()
    }
}

impl<T: ToValue> ToValue for Option<T> {
    fn to_value(&self) -> ValueRef<'_> {
        self.as_ref().map_or(ValueRef::Null, ToValue::to_value)
    }
}

impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        match value {
            ValueRef::Null => Ok(None),
            value => T::from_value(value).map(Some),
        }
    }
}

macro_rules! integers {
    ($($t:ty),+) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> ValueRef<'_> {
                ValueRef::Integer(i64::from(*self))
            }
        }
        impl FromValue for $t {
            fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
                match value {
                    ValueRef::Integer(n) => <$t>::try_from(n).map_err(|_| format!("{n} is out of range for {}", stringify!($t))),
                    other => Err(format!("{other:?} is not an integer")),
                }
            }
        }
    )+};
}
integers!(i64, i32, u32, u16, u8, i16, i8);

impl ToValue for usize {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Integer(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl FromValue for usize {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        usize::try_from(i64::from_value(value)?).map_err(|err| err.to_string())
    }
}

impl ToValue for u64 {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Integer(i64::try_from(*self).unwrap_or(i64::MAX))
    }
}

impl FromValue for u64 {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        u64::try_from(i64::from_value(value)?).map_err(|err| err.to_string())
    }
}

impl ToValue for bool {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Integer(i64::from(*self))
    }
}

impl FromValue for bool {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        Ok(i64::from_value(value)? != 0)
    }
}

impl ToValue for f64 {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Real(*self)
    }
}

impl FromValue for f64 {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        match value {
            ValueRef::Real(x) => Ok(x),
            #[allow(clippy::cast_precision_loss)]
            ValueRef::Integer(n) => Ok(n as f64),
            other => Err(format!("{other:?} is not a number")),
        }
    }
}

impl ToValue for str {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Text(self)
    }
}

impl ToValue for String {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Text(self)
    }
}

impl FromValue for String {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        match value {
            ValueRef::Text(text) => Ok(text.to_owned()),
            other => Err(format!("{other:?} is not text")),
        }
    }
}

impl ToValue for [u8] {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Blob(self)
    }
}

impl ToValue for Vec<u8> {
    fn to_value(&self) -> ValueRef<'_> {
        ValueRef::Blob(self)
    }
}

impl FromValue for Vec<u8> {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        match value {
            ValueRef::Blob(bytes) => Ok(bytes.to_vec()),
            ValueRef::Text(text) => Ok(text.as_bytes().to_vec()),
            other => Err(format!("{other:?} is not bytes")),
        }
    }
}

impl ToValue for Value {
    fn to_value(&self) -> ValueRef<'_> {
        self.as_ref()
    }
}

impl ToValue for ValueRef<'_> {
    fn to_value(&self) -> ValueRef<'_> {
        *self
    }
}

impl FromValue for Value {
    fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
        Ok(value.into())
    }
}

/// The model's word-backed enums (roles, statuses, …) are stored as their words.
macro_rules! words {
    ($($t:ty),+ $(,)?) => {$(
        impl ToValue for $t {
            fn to_value(&self) -> ValueRef<'_> {
                ValueRef::Text(self.word())
            }
        }
        impl FromValue for $t {
            fn from_value(value: ValueRef<'_>) -> Result<Self, String> {
                word(value)
            }
        }
    )+};
}

fn word<T: Word>(value: ValueRef<'_>) -> Result<T, String> {
    match value {
        ValueRef::Text(text) => T::from_word(text).ok_or_else(|| format!("unknown {} {text:?}", T::NAME)),
        other => Err(format!("{other:?} is not a {}", T::NAME)),
    }
}

words!(
    blog::BlogCategory,
    product::Category,
    user::Country,
    course::CourseCategory,
    course::CourseLanguage,
    price::Currency,
    order::Delivery,
    course::EnrolmentStatus,
    course::LessonKind,
    course::Level,
    order::PartStatus,
    order::PaymentMethod,
    payment::PaymentStatus,
    price::PriceUnit,
    product::ProductStatus,
    user::Role,
    price::Source,
    user::Status,
    survey::SurveyStatus,
    product::Unit,
);

/// What a query is given: `params![a, b]`, `[a]`, `[]`, or `params_from_iter(list)`.
pub trait Params {
    fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R;
}

impl Params for &[&dyn ToValue] {
    fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
        let values: Vec<ValueRef<'_>> = self.iter().map(|p| p.to_value()).collect();
        f(&values)
    }
}

impl Params for [&dyn ToValue; 0] {
    fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
        f(&[])
    }
}

macro_rules! tuples {
    ($(($($name:ident),+))+) => {$(
        impl<$($name: ToValue),+> Params for ($($name,)+) {
            #[allow(non_snake_case)]
            fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
                let ($($name,)+) = &self;
                f(&[$($name.to_value()),+])
            }
        }
    )+};
}
tuples!((A)(A, B)(A, B, C)(A, B, C, D)(A, B, C, D, E)(A, B, C, D, E, F)(A, B, C, D, E, F, G)(A, B, C, D, E, F, G, H));

macro_rules! arrays {
    ($($n:literal)+) => {$(
        impl<T: ToValue> Params for [T; $n] {
            fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
                let values: Vec<ValueRef<'_>> = self.iter().map(ToValue::to_value).collect();
                f(&values)
            }
        }
        impl<T: ToValue> Params for &[T; $n] {
            fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
                let values: Vec<ValueRef<'_>> = self.iter().map(ToValue::to_value).collect();
                f(&values)
            }
        }
    )+};
}
arrays!(1 2 3 4 5 6 7 8);

/// Parameters from a list made at run time.
pub struct ParamsFromIter<I>(I);

pub fn params_from_iter<I>(iter: I) -> ParamsFromIter<I>
where
    I: IntoIterator,
    I::Item: ToValue,
{
    ParamsFromIter(iter)
}

impl<I> Params for ParamsFromIter<I>
where
    I: IntoIterator,
    I::Item: ToValue,
{
    fn with_values<R>(self, f: impl FnOnce(&[ValueRef<'_>]) -> R) -> R {
        let items: Vec<I::Item> = self.0.into_iter().collect();
        let values: Vec<ValueRef<'_>> = items.iter().map(ToValue::to_value).collect();
        f(&values)
    }
}

/// `params![a, b, c]`: parameters of different types, numbered from 1.
#[macro_export]
macro_rules! params {
    () => { $crate::db::sql::param_list(&[]) };
    ($($param:expr),+ $(,)?) => { $crate::db::sql::param_list(&[$($crate::db::sql::param(&$param)),+]) };
}
pub use crate::params;

#[doc(hidden)]
pub fn param<T: ToValue>(value: &T) -> &dyn ToValue {
    value
}

#[doc(hidden)]
pub fn param_list<'a, const N: usize>(values: &'a [&'a dyn ToValue; N]) -> &'a [&'a dyn ToValue] {
    values
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

/// A connection to the database, inside or outside a transaction.
pub struct Connection {
    engine: Engine,
}

enum Engine {
    Sqlite(rusqlite::Connection),
}

impl Connection {
    pub(crate) fn from_sqlite(conn: rusqlite::Connection) -> Connection {
        Connection { engine: Engine::Sqlite(conn) }
    }

    /// The SQLite connection underneath, for what only SQLite has (pragmas, the backup
    /// API); `None` on another engine. Only `db/` uses it.
    pub(crate) fn sqlite(&self) -> Option<&rusqlite::Connection> {
        match &self.engine {
            Engine::Sqlite(conn) => Some(conn),
        }
    }

    pub(crate) fn sqlite_mut(&mut self) -> Option<&mut rusqlite::Connection> {
        match &mut self.engine {
            Engine::Sqlite(conn) => Some(conn),
        }
    }

    /// A statement kept prepared for the next call with the same text.
    pub fn prepare_cached(&self, sql: &str) -> Result<Statement<'_>> {
        match &self.engine {
            Engine::Sqlite(conn) => Ok(Statement { inner: StatementInner::SqliteCached(conn.prepare_cached(sql)?) }),
        }
    }

    /// A statement prepared for this use only (texts made at run time).
    pub fn prepare(&self, sql: &str) -> Result<Statement<'_>> {
        match &self.engine {
            Engine::Sqlite(conn) => Ok(Statement { inner: StatementInner::Sqlite(conn.prepare(sql)?) }),
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

    /// Runs statements with no parameters, one after the other.
    pub fn execute_batch(&self, sql: &str) -> Result<()> {
        match &self.engine {
            Engine::Sqlite(conn) => Ok(conn.execute_batch(sql)?),
        }
    }

    /// The row id the last insert on this connection gave.
    pub fn last_insert_rowid(&self) -> i64 {
        match &self.engine {
            Engine::Sqlite(conn) => conn.last_insert_rowid(),
        }
    }

    /// How many rows the last statement changed.
    pub fn changes(&self) -> u64 {
        match &self.engine {
            Engine::Sqlite(conn) => conn.changes(),
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
}

impl<'c> Statement<'c> {
    fn sqlite(&mut self) -> &mut rusqlite::Statement<'c> {
        match &mut self.inner {
            StatementInner::SqliteCached(statement) => statement,
            StatementInner::Sqlite(statement) => statement,
        }
    }

    pub fn execute<P: Params>(&mut self, params: P) -> Result<usize> {
        let statement = self.sqlite();
        params.with_values(|values| Ok(statement.execute(bind(values))?))
    }

    /// The rows of the query, one at a time.
    pub fn query<P: Params>(&mut self, params: P) -> Result<Rows<'_>> {
        let statement = self.sqlite();
        let rows = params.with_values(|values| statement.query(bind(values)))?;
        Ok(Rows { inner: RowsInner::Sqlite(rows) })
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

/// The rows of a query.
pub struct Rows<'s> {
    inner: RowsInner<'s>,
}

enum RowsInner<'s> {
    Sqlite(rusqlite::Rows<'s>),
}

impl Rows<'_> {
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Row<'_>>> {
        match &mut self.inner {
            RowsInner::Sqlite(rows) => Ok(rows.next()?.map(|row| Row { inner: RowInner::Sqlite(row) })),
        }
    }
}

/// The rows of a query, each read as it comes.
pub struct MappedRows<'s, F> {
    rows: Rows<'s>,
    read: F,
}

impl<T, F> Iterator for MappedRows<'_, F>
where
    F: FnMut(&Row<'_>) -> Result<T>,
{
    type Item = Result<T>;

    fn next(&mut self) -> Option<Result<T>> {
        match self.rows.next() {
            Ok(Some(row)) => Some((self.read)(&row)),
            Ok(None) => None,
            Err(err) => Some(Err(err)),
        }
    }
}

/// One row of a query's answer.
pub struct Row<'a> {
    inner: RowInner<'a>,
}

enum RowInner<'a> {
    Sqlite(&'a rusqlite::Row<'a>),
}

impl Row<'_> {
    /// Column `index` (from 0) read as `T`.
    pub fn get<I: ColumnIndex, T: FromValue>(&self, index: I) -> Result<T> {
        match &self.inner {
            RowInner::Sqlite(row) => {
                let column = index.position(&|name| row.as_ref().column_index(name).ok())?;
                let value = row.get_ref(column)?;
                let value = match value {
                    rusqlite::types::ValueRef::Null => ValueRef::Null,
                    rusqlite::types::ValueRef::Integer(n) => ValueRef::Integer(n),
                    rusqlite::types::ValueRef::Real(x) => ValueRef::Real(x),
                    rusqlite::types::ValueRef::Text(bytes) => ValueRef::Text(
                        std::str::from_utf8(bytes)
                            .map_err(|err| Error::Conversion { column, message: err.to_string() })?,
                    ),
                    rusqlite::types::ValueRef::Blob(bytes) => ValueRef::Blob(bytes),
                };
                T::from_value(value).map_err(|message| Error::Conversion { column, message })
            }
        }
    }
}

/// A column named by its position or by its name.
pub trait ColumnIndex {
    fn position(&self, by_name: &dyn Fn(&str) -> Option<usize>) -> Result<usize>;
}

impl ColumnIndex for usize {
    fn position(&self, _: &dyn Fn(&str) -> Option<usize>) -> Result<usize> {
        Ok(*self)
    }
}

impl ColumnIndex for &str {
    fn position(&self, by_name: &dyn Fn(&str) -> Option<usize>) -> Result<usize> {
        by_name(self).ok_or_else(|| Error::Other(format!("no column named {self}")))
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
        self.execute_batch("BEGIN")?;
        Ok(Transaction { conn: self, open: true })
    }

    /// Begins a transaction that takes the write lock at once; it is rolled back
    /// unless committed (also when the code inside panics).
    pub fn begin(&self) -> Result<Transaction<'_>> {
        match &self.engine {
            Engine::Sqlite(conn) => conn.execute_batch("BEGIN IMMEDIATE")?,
        }
        Ok(Transaction { conn: self, open: true })
    }
}

/// A transaction on a connection: see [`Connection::begin`].
pub struct Transaction<'c> {
    conn: &'c Connection,
    open: bool,
}

impl Transaction<'_> {
    pub fn commit(mut self) -> Result<()> {
        self.conn.execute_batch("COMMIT")?;
        self.open = false;
        Ok(())
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
        if self.open {
            if let Err(err) = self.conn.execute_batch("ROLLBACK") {
                tracing::warn!(%err, "rolling back a transaction failed");
            }
        }
    }
}
