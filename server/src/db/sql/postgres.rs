//! PostgreSQL behind the seam: a query's `?N` become `$N`, the seam's values are
//! written as the type PostgreSQL inferred for each parameter, and columns come back
//! as SQLite's five kinds (integers of every width, booleans as 0/1, NUMERIC as an
//! integer when it has no fraction: `SUM` of a BIGINT is NUMERIC).

use std::collections::HashMap;
use std::error::Error as StdError;

use postgres::types::{FromSql, IsNull, ToSql, Type, to_sql_checked};

use super::{Error, Result, ValueRef};

/// Prepared statements kept per connection; a connection that prepared more (texts
/// made at run time) starts its cache again.
const STATEMENTS_KEPT: usize = 256;

pub(super) struct Pg {
    /// Always there but while the connection is dropped (see `Drop`).
    client: Option<postgres::Client>,
    statements: HashMap<String, postgres::Statement>,
    /// Each call on a thread of its own: a connection used from async code (tests,
    /// tools), where the client's own runtime may not block.
    detached: bool,
}

impl Pg {
    pub(super) fn new(client: postgres::Client, detached: bool) -> Pg {
        Pg { client: Some(client), statements: HashMap::new(), detached }
    }

    pub(super) fn is_closed(&self) -> bool {
        self.client.as_ref().is_none_or(postgres::Client::is_closed)
    }

    /// Runs `f` with the client: here, or on a thread of its own when detached.
    pub(super) fn run<R: Send>(&mut self, f: impl FnOnce(&mut postgres::Client) -> R + Send) -> R {
        let detached = self.detached;
        let client = self.client.as_mut().expect("a connection's client is there until it is dropped");
        if detached {
            std::thread::scope(|scope| scope.spawn(|| f(client)).join().expect("a query panicked"))
        } else {
            f(client)
        }
    }

    /// The statement for `sql` (written with SQLite's `?N`), prepared once.
    pub(super) fn prepare(&mut self, sql: &str) -> Result<postgres::Statement> {
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let numbered = numbered(sql);
        let statement = self.run(|client| client.prepare(&numbered))?;
        if self.statements.len() >= STATEMENTS_KEPT {
            self.statements.clear();
        }
        self.statements.insert(sql.to_owned(), statement.clone());
        Ok(statement)
    }
}

impl Drop for Pg {
    /// The client holds a small runtime, which may not be dropped on a thread that drives
    /// async tasks (where a pool or a test's connection often goes): it goes on its own.
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            if tokio::runtime::Handle::try_current().is_ok() {
                std::thread::spawn(move || drop(client));
            }
        }
    }
}

/// Opens a connection: on a thread of its own, as the client may not start its runtime
/// on a thread that drives async tasks.
pub(super) fn connect(config: &postgres::Config, tls: &crate::db::pg_tls::Tls, detached: bool) -> Result<Pg> {
    let client = std::thread::scope(|scope| scope.spawn(|| config.connect(tls.clone())).join())
        .map_err(|_| Error::Other("connecting to PostgreSQL panicked".to_owned()))??;
    Ok(Pg::new(client, detached))
}

/// `?1`, `?2` and bare `?` as PostgreSQL's `$1`, `$2`; quoted text is left alone.
pub(super) fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let mut next = 0;
    let mut quoted = false;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                quoted = !quoted;
                out.push(c);
            }
            '?' if !quoted => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                if digits.is_empty() {
                    next += 1;
                    digits = next.to_string();
                } else if let Ok(n) = digits.parse::<usize>() {
                    next = next.max(n);
                }
                out.push('$');
                out.push_str(&digits);
            }
            c => out.push(c),
        }
    }
    out
}

type Boxed = Box<dyn StdError + Sync + Send>;

/// A seam value written as the parameter's inferred type.
#[derive(Debug)]
pub(super) struct Param<'a>(pub(super) ValueRef<'a>);

impl ToSql for Param<'_> {
    fn to_sql(&self, ty: &Type, out: &mut bytes::BytesMut) -> std::result::Result<IsNull, Boxed> {
        match self.0 {
            ValueRef::Null => Ok(IsNull::Yes),
            ValueRef::Integer(n) => match *ty {
                Type::INT8 => n.to_sql(ty, out),
                Type::INT4 => i32::try_from(n)?.to_sql(ty, out),
                Type::INT2 => i16::try_from(n)?.to_sql(ty, out),
                Type::BOOL => (n != 0).to_sql(ty, out),
                #[allow(clippy::cast_precision_loss)]
                Type::FLOAT8 => (n as f64).to_sql(ty, out),
                Type::NUMERIC => numeric(n, out),
                _ => text(&n.to_string(), ty, out),
            },
            ValueRef::Real(x) => match *ty {
                Type::FLOAT8 => x.to_sql(ty, out),
                #[allow(clippy::cast_possible_truncation)]
                Type::FLOAT4 => (x as f32).to_sql(ty, out),
                _ => text(&x.to_string(), ty, out),
            },
            ValueRef::Text(s) => match *ty {
                Type::INT8 => s.parse::<i64>()?.to_sql(ty, out),
                Type::INT4 => s.parse::<i32>()?.to_sql(ty, out),
                Type::FLOAT8 => s.parse::<f64>()?.to_sql(ty, out),
                Type::BYTEA => s.as_bytes().to_sql(ty, out),
                _ => text(s, ty, out),
            },
            ValueRef::Blob(b) => match *ty {
                Type::BYTEA => b.to_sql(ty, out),
                _ => text(std::str::from_utf8(b)?, ty, out),
            },
        }
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    to_sql_checked!();
}

/// Text for a text-like parameter (and JSONB, which carries a version byte first).
fn text(s: &str, ty: &Type, out: &mut bytes::BytesMut) -> std::result::Result<IsNull, Boxed> {
    match *ty {
        Type::JSONB => {
            out.extend_from_slice(&[1]);
            out.extend_from_slice(s.as_bytes());
            Ok(IsNull::No)
        }
        _ => {
            out.extend_from_slice(s.as_bytes());
            Ok(IsNull::No)
        }
    }
}

/// An integer as NUMERIC's binary form (base-10000 digits).
fn numeric(n: i64, out: &mut bytes::BytesMut) -> std::result::Result<IsNull, Boxed> {
    let mut digits = Vec::new();
    let mut rest = n.unsigned_abs();
    while rest > 0 {
        digits.push((rest % 10_000) as i16);
        rest /= 10_000;
    }
    digits.reverse();
    let weight = i16::try_from(digits.len()).unwrap_or(1) - 1;
    out.extend_from_slice(&i16::try_from(digits.len())?.to_be_bytes());
    out.extend_from_slice(&weight.to_be_bytes());
    out.extend_from_slice(&(if n < 0 { 0x4000u16 } else { 0 }).to_be_bytes());
    out.extend_from_slice(&0u16.to_be_bytes());
    for digit in digits {
        out.extend_from_slice(&digit.to_be_bytes());
    }
    Ok(IsNull::No)
}

/// A column read as one of the seam's values.
pub(super) struct Column<'a>(pub(super) ValueRef<'a>);

impl<'a> FromSql<'a> for Column<'a> {
    fn from_sql(ty: &Type, raw: &'a [u8]) -> std::result::Result<Self, Boxed> {
        Ok(Column(match *ty {
            Type::INT8 => ValueRef::Integer(i64::from_sql(ty, raw)?),
            Type::INT4 => ValueRef::Integer(i64::from(i32::from_sql(ty, raw)?)),
            Type::INT2 => ValueRef::Integer(i64::from(i16::from_sql(ty, raw)?)),
            Type::OID => ValueRef::Integer(i64::from(u32::from_sql(ty, raw)?)),
            Type::BOOL => ValueRef::Integer(i64::from(bool::from_sql(ty, raw)?)),
            Type::FLOAT8 => ValueRef::Real(f64::from_sql(ty, raw)?),
            Type::FLOAT4 => ValueRef::Real(f64::from(f32::from_sql(ty, raw)?)),
            Type::NUMERIC => from_numeric(raw)?,
            Type::BYTEA => ValueRef::Blob(raw),
            Type::JSONB => ValueRef::Text(std::str::from_utf8(raw.get(1..).unwrap_or_default())?),
            _ => ValueRef::Text(std::str::from_utf8(raw)?),
        }))
    }

    fn from_sql_null(_: &Type) -> std::result::Result<Self, Boxed> {
        Ok(Column(ValueRef::Null))
    }

    fn accepts(_: &Type) -> bool {
        true
    }
}

/// NUMERIC's binary form: an integer when it has no fraction, else a real.
fn from_numeric(raw: &[u8]) -> std::result::Result<ValueRef<'static>, Boxed> {
    let word = |at: usize| -> std::result::Result<i16, Boxed> {
        let bytes = raw.get(at..at + 2).ok_or("short NUMERIC")?;
        Ok(i16::from_be_bytes([bytes[0], bytes[1]]))
    };
    let (count, weight, sign, scale) = (word(0)?, word(2)?, word(4)? as u16, word(6)?);
    if sign == 0xC000 {
        return Ok(ValueRef::Real(f64::NAN));
    }
    let mut whole: i128 = 0;
    let mut real = 0f64;
    for i in 0..count {
        let digit = word(8 + 2 * i as usize)?;
        let power = i32::from(weight) - i32::from(i);
        real += f64::from(digit) * 10_000f64.powi(power);
        if power >= 0 {
            whole = whole * 10_000 + i128::from(digit);
        }
    }
    // Digits that stop before the units: the rest of the whole part is zeros.
    let last_power = i32::from(weight) - i32::from(count) + 1;
    for _ in 0..last_power.max(0) {
        whole *= 10_000;
    }
    let negative = sign == 0x4000;
    if scale == 0 || real.fract() == 0.0 {
        let whole = if negative { -whole } else { whole };
        return i64::try_from(whole).map(ValueRef::Integer).map_err(Into::into);
    }
    Ok(ValueRef::Real(if negative { -real } else { real }))
}

/// PostgreSQL's code and message (`23505: duplicate key value …`), or the client's error.
pub(super) fn describe(err: &postgres::Error, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    match err.as_db_error() {
        Some(db) => write!(f, "{}: {}", db.code().code(), db.message()),
        None => match StdError::source(err) {
            Some(cause) => write!(f, "{err}: {cause}"),
            None => std::fmt::Display::fmt(err, f),
        },
    }
}

impl From<postgres::Error> for Error {
    fn from(err: postgres::Error) -> Self {
        Error::Postgres(err)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_as_postgres_wants_and_quoted_text_is_kept() {
        assert_eq!(numbered("SELECT ?1, ?2, ?1"), "SELECT $1, $2, $1");
        assert_eq!(numbered("SELECT ? , ?"), "SELECT $1 , $2");
        assert_eq!(numbered("SELECT '?', ?3"), "SELECT '?', $3");
    }

    #[test]
    fn numeric_reads_back_as_the_integer_it_is() {
        for n in [0i64, 1, -1, 9_999, 10_000, 123_456_789, -987_654_321_012, i64::MAX / 3] {
            let mut out = bytes::BytesMut::new();
            numeric(n, &mut out).unwrap();
            assert_eq!(from_numeric(&out).unwrap(), ValueRef::Integer(n), "{n}");
        }
    }
}
