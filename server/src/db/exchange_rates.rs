//! The `exchange_rates` table: every rate an admin set, the newest of a currency in use.

use crate::db::{Connection, OptionalExtension, Row, params};

#[derive(Debug, Clone)]
pub struct RateRow {
    pub currency: String,
    pub francs_per_usd: i64,
    /// The day the rate is from (YYYY-MM-DD).
    pub as_of: String,
    /// Who set it: id and name (none once their account is gone).
    pub set_by: Option<(i64, String)>,
    pub created_at: String,
    pub version: i64,
}

const COLUMNS: &str = "r.currency, r.francs_per_usd, r.as_of, u.id, u.first_name || ' ' || u.last_name, \
    r.created_at, r.version FROM exchange_rates r LEFT JOIN users u ON u.id = r.set_by";

fn from_row(row: &Row<'_>) -> crate::db::Result<RateRow> {
    let set_by = match (row.get::<_, Option<i64>>(3)?, row.get::<_, Option<String>>(4)?) {
        (Some(id), Some(name)) => Some((id, name)),
        _ => None,
    };
    Ok(RateRow {
        currency: row.get(0)?,
        francs_per_usd: row.get(1)?,
        as_of: row.get(2)?,
        set_by,
        created_at: row.get(5)?,
        version: row.get(6)?,
    })
}

pub struct NewRate<'a> {
    pub currency: &'a str,
    pub francs_per_usd: i64,
    pub as_of: &'a str,
    pub set_by: i64,
    pub now: &'a str,
    pub version: i64,
}

pub fn insert(conn: &Connection, rate: &NewRate<'_>) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO exchange_rates (currency, francs_per_usd, as_of, set_by, created_at, version)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![rate.currency, rate.francs_per_usd, rate.as_of, rate.set_by, rate.now, rate.version])?;
    Ok(())
}

/// The rate in use for `currency`: the newest set.
pub fn current(conn: &Connection, currency: &str) -> crate::db::Result<Option<RateRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} WHERE r.currency = ?1 ORDER BY r.id DESC LIMIT 1"))?
        .query_row([currency], from_row)
        .optional()
}

/// The rates set for `currency`, newest first.
pub fn history(conn: &Connection, currency: &str, limit: i64) -> crate::db::Result<Vec<RateRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} WHERE r.currency = ?1 ORDER BY r.id DESC LIMIT ?2"))?
        .query_map(params![currency, limit], from_row)?
        .collect()
}

/// The rates in use that changed after `after` (each currency's newest only: a phone needs no history).
pub fn changes_after(conn: &Connection, after: i64) -> crate::db::Result<Vec<RateRow>> {
    conn.prepare_cached(&format!(
        "SELECT {COLUMNS} WHERE r.version > ?1
             AND r.id = (SELECT max(id) FROM exchange_rates WHERE currency = r.currency) ORDER BY r.version"
    ))?
    .query_map([after], from_row)?
    .collect()
}

/// The francs a dollar bought on `day` (YYYY-MM-DD): the newest rate from that day or
/// before, else the oldest there is (a price older than every rate).
pub fn francs_on(conn: &Connection, currency: &str, day: &str) -> crate::db::Result<Option<i64>> {
    conn.prepare_cached(
        "SELECT francs_per_usd FROM exchange_rates WHERE currency = ?1
         ORDER BY as_of <= ?2 DESC, CASE WHEN as_of <= ?2 THEN as_of END DESC, as_of ASC, id DESC LIMIT 1",
    )?
    .query_row(params![currency, day], |r| r.get(0))
    .optional()
}
