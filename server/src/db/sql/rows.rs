//! A query's answer: its rows, each read column by column as the seam's values.

use super::{Error, FromValue, Result, ValueRef, postgres};

/// The rows of a query.
pub struct Rows<'s> {
    pub(super) inner: RowsInner<'s>,
}

pub(super) enum RowsInner<'s> {
    Sqlite(rusqlite::Rows<'s>),
    Postgres { rows: Vec<::postgres::Row>, next: usize },
}

impl Rows<'_> {
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> Result<Option<Row<'_>>> {
        match &mut self.inner {
            RowsInner::Sqlite(rows) => Ok(rows.next()?.map(|row| Row { inner: RowInner::Sqlite(row) })),
            RowsInner::Postgres { rows, next } => {
                let row = rows.get(*next);
                *next += 1;
                Ok(row.map(|row| Row { inner: RowInner::Postgres(row) }))
            }
        }
    }
}

/// The rows of a query, each read as it comes.
pub struct MappedRows<'s, F> {
    pub(super) rows: Rows<'s>,
    pub(super) read: F,
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
    pub(super) inner: RowInner<'a>,
}

pub(super) enum RowInner<'a> {
    Sqlite(&'a rusqlite::Row<'a>),
    Postgres(&'a ::postgres::Row),
}

impl Row<'_> {
    /// Column `index` (from 0, or by name) read as `T`.
    pub fn get<I: ColumnIndex, T: FromValue>(&self, index: I) -> Result<T> {
        let (column, value) = match &self.inner {
            RowInner::Sqlite(row) => {
                let column = index.position(&|name| row.as_ref().column_index(name).ok())?;
                let value = match row.get_ref(column)? {
                    rusqlite::types::ValueRef::Null => ValueRef::Null,
                    rusqlite::types::ValueRef::Integer(n) => ValueRef::Integer(n),
                    rusqlite::types::ValueRef::Real(x) => ValueRef::Real(x),
                    rusqlite::types::ValueRef::Text(bytes) => ValueRef::Text(
                        std::str::from_utf8(bytes)
                            .map_err(|err| Error::Conversion { column, message: err.to_string() })?,
                    ),
                    rusqlite::types::ValueRef::Blob(bytes) => ValueRef::Blob(bytes),
                };
                (column, value)
            }
            RowInner::Postgres(row) => {
                let column = index.position(&|name| row.columns().iter().position(|c| c.name() == name))?;
                let value = row.try_get::<_, postgres::Column<'_>>(column)?.0;
                (column, value)
            }
        };
        T::from_value(value).map_err(|message| Error::Conversion { column, message })
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
