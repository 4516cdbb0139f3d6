//! Market prices' tables (migration 0034, docs/prices.md): markets, observations,
//! each week's figures, the admins' corrections, and SMS price alerts.

use crate::db::{Connection, OptionalExtension, Row, params};

use crate::model::price::{Currency, PriceUnit, Source};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarketRow {
    pub id: i64,
    pub name: String,
    pub territory: String,
}

fn market_from(row: &Row<'_>) -> crate::db::Result<MarketRow> {
    Ok(MarketRow { id: row.get(0)?, name: row.get(1)?, territory: row.get(2)? })
}

/// The markets in use, by territory and name.
pub fn markets(conn: &Connection) -> crate::db::Result<Vec<MarketRow>> {
    conn.prepare_cached(&format!(
        "SELECT id, name, territory FROM markets WHERE deleted_at IS NULL ORDER BY territory, {}",
        super::dialect::nocase(conn.engine(), "name")
    ))?
    .query_map([], market_from)?
    .collect()
}

/// A market in use.
pub fn market(conn: &Connection, id: i64) -> crate::db::Result<Option<MarketRow>> {
    conn.prepare_cached("SELECT id, name, territory FROM markets WHERE id = ?1 AND deleted_at IS NULL")?
        .query_row([id], market_from)
        .optional()
}

/// A market in use by its name, in any case.
pub fn market_named(conn: &Connection, name: &str) -> crate::db::Result<Option<MarketRow>> {
    conn.prepare_cached("SELECT id, name, territory FROM markets WHERE lower(name) = lower(?1) AND deleted_at IS NULL")?
        .query_row([name], market_from)
        .optional()
}

pub fn insert_market(conn: &Connection, name: &str, territory: &str, now: &str) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO markets (name, territory, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)",
        params![name, territory, now],
    )
}

pub fn update_market(conn: &Connection, id: i64, name: &str, territory: &str, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE markets SET name = ?2, territory = ?3, updated_at = ?4 WHERE id = ?1")?
        .execute(params![id, name, territory, now])?;
    Ok(())
}

pub fn remove_market(conn: &Connection, id: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE markets SET deleted_at = ?2, updated_at = ?2 WHERE id = ?1")?
        .execute(params![id, now])?;
    Ok(())
}

/// An observation as stored.
#[derive(Debug, Clone, PartialEq)]
pub struct ObservationRow {
    pub id: i64,
    pub uid: String,
    pub source: Source,
    pub crop: String,
    pub market_id: Option<i64>,
    pub market_name: Option<String>,
    pub territory: Option<String>,
    pub place: Option<String>,
    pub unit: PriceUnit,
    pub price_cents: i64,
    pub currency: Currency,
    pub usd_micros: i64,
    pub base_unit: PriceUnit,
    pub base_usd_micros: i64,
    pub observed_on: String,
    pub week: String,
    pub note: Option<String>,
    pub outlier: bool,
    pub recorded_by: Option<i64>,
    pub deleted: bool,
}

const COLUMNS: &str = "o.id, o.uid, o.source, o.crop, o.market_id, m.name, o.territory, o.place, o.unit, \
    o.price_cents, o.currency, o.usd_micros, o.base_unit, o.base_usd_micros, o.observed_on, o.week, o.note, \
    o.outlier, o.recorded_by, o.deleted_at IS NOT NULL \
    FROM price_observations o LEFT JOIN markets m ON m.id = o.market_id";

fn observation_from(row: &Row<'_>) -> crate::db::Result<ObservationRow> {
    Ok(ObservationRow {
        id: row.get(0)?,
        uid: row.get(1)?,
        source: row.get(2)?,
        crop: row.get(3)?,
        market_id: row.get(4)?,
        market_name: row.get(5)?,
        territory: row.get(6)?,
        place: row.get(7)?,
        unit: row.get(8)?,
        price_cents: row.get(9)?,
        currency: row.get(10)?,
        usd_micros: row.get(11)?,
        base_unit: row.get(12)?,
        base_usd_micros: row.get(13)?,
        observed_on: row.get(14)?,
        week: row.get(15)?,
        note: row.get(16)?,
        outlier: row.get(17)?,
        recorded_by: row.get(18)?,
        deleted: row.get(19)?,
    })
}

/// What an observation is written with (`id`, `outlier` and `deleted` are the table's).
pub type NewObservation = ObservationRow;

pub fn insert(conn: &Connection, o: &NewObservation, order_line_id: Option<i64>, now: &str) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO price_observations (uid, source, crop, market_id, territory, place, unit, price_cents, currency,
             usd_micros, base_unit, base_usd_micros, observed_on, week, note, recorded_by, order_line_id,
             created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?18)",
        params![
            o.uid,
            o.source,
            o.crop,
            o.market_id,
            o.territory,
            o.place,
            o.unit,
            o.price_cents,
            o.currency,
            o.usd_micros,
            o.base_unit,
            o.base_usd_micros,
            o.observed_on,
            o.week,
            o.note,
            o.recorded_by,
            order_line_id,
            now
        ],
    )
}

/// Rewrites what an admin may correct.
pub fn update(conn: &Connection, o: &ObservationRow, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE price_observations SET crop = ?2, market_id = ?3, territory = ?4, unit = ?5, price_cents = ?6,
             currency = ?7, usd_micros = ?8, base_unit = ?9, base_usd_micros = ?10, observed_on = ?11, week = ?12,
             note = ?13, updated_at = ?14
         WHERE id = ?1",
    )?
    .execute(params![
        o.id,
        o.crop,
        o.market_id,
        o.territory,
        o.unit,
        o.price_cents,
        o.currency,
        o.usd_micros,
        o.base_unit,
        o.base_usd_micros,
        o.observed_on,
        o.week,
        o.note,
        now
    ])?;
    Ok(())
}

pub fn remove(conn: &Connection, id: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE price_observations SET deleted_at = ?2, updated_at = ?2 WHERE id = ?1")?
        .execute(params![id, now])?;
    Ok(())
}

pub fn by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<ObservationRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} WHERE o.uid = ?1"))?.query_row([uid], observation_from).optional()
}

pub fn by_id(conn: &Connection, id: i64) -> crate::db::Result<Option<ObservationRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} WHERE o.id = ?1"))?.query_row([id], observation_from).optional()
}

/// A week's observations of a crop that stand (not removed).
pub fn of_week(conn: &Connection, crop: &str, week: &str) -> crate::db::Result<Vec<ObservationRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} WHERE o.crop = ?1 AND o.week = ?2 AND o.deleted_at IS NULL"))?
        .query_map(params![crop, week], observation_from)?
        .collect()
}

pub fn set_outlier(conn: &Connection, id: i64, outlier: bool) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE price_observations SET outlier = ?2 WHERE id = ?1 AND outlier != ?2")?
        .execute(params![id, outlier])?;
    Ok(())
}

/// Prices of a crop in `unit` (its median unit) since `since`, not outliers: each
/// with its territory.
pub fn recent(
    conn: &Connection,
    crop: &str,
    unit: PriceUnit,
    since: &str,
) -> crate::db::Result<Vec<(i64, Option<String>)>> {
    conn.prepare_cached(
        "SELECT base_usd_micros, territory FROM price_observations
         WHERE crop = ?1 AND observed_on >= ?2 AND base_unit = ?3 AND outlier = 0 AND deleted_at IS NULL",
    )?
    .query_map(params![crop, since, unit], |r| Ok((r.get(0)?, r.get(1)?)))?
    .collect()
}

/// What the admins' table shows: newest first, filtered.
#[derive(Debug, Default, Clone)]
pub struct ObservationFilter {
    pub crop: Option<String>,
    pub market_id: Option<i64>,
    pub territory: Option<String>,
    pub source: Option<Source>,
    pub from: Option<String>,
    pub to: Option<String>,
}

/// The admins' filters, as SQL over `price_observations o` with parameters ?1 to ?6.
const MATCHES: &str = "o.deleted_at IS NULL AND (CAST(?1 AS TEXT) IS NULL OR o.crop = ?1) AND (CAST(?2 AS BIGINT) IS NULL OR o.market_id = ?2)
     AND (CAST(?3 AS TEXT) IS NULL OR lower(o.territory) = lower(?3)) AND (CAST(?4 AS TEXT) IS NULL OR o.source = ?4)
     AND (CAST(?5 AS TEXT) IS NULL OR o.observed_on >= ?5) AND (CAST(?6 AS TEXT) IS NULL OR o.observed_on <= ?6)";

fn filter_params(filter: &ObservationFilter) -> impl crate::db::Params + '_ {
    (&filter.crop, &filter.market_id, &filter.territory, &filter.source, &filter.from, &filter.to)
}

pub fn list(
    conn: &Connection,
    filter: &ObservationFilter,
    limit: i64,
    offset: i64,
) -> crate::db::Result<(Vec<ObservationRow>, i64)> {
    let total = conn
        .prepare_cached(&format!("SELECT COUNT(*) FROM price_observations o WHERE {MATCHES}"))?
        .query_row(filter_params(filter), |r| r.get(0))?;
    let rows = conn
        .prepare_cached(&format!(
            "SELECT {COLUMNS} WHERE {MATCHES} ORDER BY o.observed_on DESC, o.id DESC LIMIT ?7 OFFSET ?8"
        ))?
        .query_map(
            params![
                filter.crop,
                filter.market_id,
                filter.territory,
                filter.source,
                filter.from,
                filter.to,
                limit,
                offset
            ],
            observation_from,
        )?
        .collect::<crate::db::Result<_>>()?;
    Ok((rows, total))
}

/// Calls `each` for every observation matching `filter`, newest day first; answers how many.
pub fn for_each_match(
    conn: &Connection,
    filter: &ObservationFilter,
    each: impl FnMut(ObservationRow),
) -> crate::db::Result<usize> {
    let sql = format!("SELECT {COLUMNS} WHERE {MATCHES} ORDER BY o.observed_on DESC, o.id DESC");
    super::for_each_row(conn, &sql, filter_params(filter), observation_from, each)
}

/// One week's figures for a crop, unit and scope.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WeekRow {
    pub crop: String,
    /// `""` for every market, `t:<territory>`, `m:<market id>`.
    pub scope: String,
    pub unit: PriceUnit,
    pub week: String,
    pub observations: i64,
    pub median_micros: i64,
    pub low_micros: i64,
    pub high_micros: i64,
    pub sales: i64,
    pub agents: i64,
    pub imports: i64,
    pub outliers: i64,
}

/// Replaces a crop's week with `rows`.
pub fn replace_week(conn: &Connection, crop: &str, week: &str, rows: &[WeekRow]) -> crate::db::Result<()> {
    conn.prepare_cached("DELETE FROM price_weeks WHERE crop = ?1 AND week = ?2")?.execute(params![crop, week])?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO price_weeks (crop, scope, unit, week, observations, median_micros, low_micros, high_micros,
             sales, agents, imports, outliers)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
    )?;
    for r in rows {
        insert.execute(params![
            r.crop,
            r.scope,
            r.unit,
            r.week,
            r.observations,
            r.median_micros,
            r.low_micros,
            r.high_micros,
            r.sales,
            r.agents,
            r.imports,
            r.outliers
        ])?;
    }
    Ok(())
}

/// Weeks from `since` of one scope, of one crop or all.
pub fn weeks(conn: &Connection, scope: &str, crop: Option<&str>, since: &str) -> crate::db::Result<Vec<WeekRow>> {
    read_weeks(conn, "scope = ?1", scope, crop, since)
}

/// Weeks from `since` of every market (scopes `m:<id>`), of one crop or all.
pub fn market_weeks(conn: &Connection, crop: Option<&str>, since: &str) -> crate::db::Result<Vec<WeekRow>> {
    read_weeks(conn, "scope >= ?1 AND scope < 'm;'", "m:", crop, since)
}

fn read_weeks(
    conn: &Connection,
    scope_clause: &str,
    scope: &str,
    crop: Option<&str>,
    since: &str,
) -> crate::db::Result<Vec<WeekRow>> {
    conn.prepare_cached(&format!(
        "SELECT crop, scope, unit, week, observations, median_micros, low_micros, high_micros, sales, agents,
             imports, outliers
         FROM price_weeks WHERE {scope_clause} AND (CAST(?2 AS TEXT) IS NULL OR crop = ?2) AND week >= ?3
         ORDER BY crop, unit, week"
    ))?
    .query_map(params![scope, crop, since], |r| {
        Ok(WeekRow {
            crop: r.get(0)?,
            scope: r.get(1)?,
            unit: r.get(2)?,
            week: r.get(3)?,
            observations: r.get(4)?,
            median_micros: r.get(5)?,
            low_micros: r.get(6)?,
            high_micros: r.get(7)?,
            sales: r.get(8)?,
            agents: r.get(9)?,
            imports: r.get(10)?,
            outliers: r.get(11)?,
        })
    })?
    .collect()
}

/// Moves the version cached answers are checked against.
pub fn touch(conn: &Connection) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE price_state SET version = version + 1 WHERE id = 1")?.execute([])?;
    Ok(())
}

/// Records an admin's correction or removal.
pub fn record_change(
    conn: &Connection,
    observation_id: i64,
    admin_id: i64,
    action: &str,
    before: &str,
    after: Option<&str>,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO price_changes (observation_id, admin_id, action, before, after, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![observation_id, admin_id, action, before, after, now])?;
    Ok(())
}

/// An observation's corrections, oldest first: (action, admin's id, before, after, when).
pub type Change = (String, Option<i64>, String, Option<String>, String);

pub fn changes_of(conn: &Connection, observation_id: i64) -> crate::db::Result<Vec<Change>> {
    conn.prepare_cached(
        "SELECT action, admin_id, before, after, at FROM price_changes WHERE observation_id = ?1 ORDER BY id",
    )?
    .query_map([observation_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)))?
    .collect()
}

/// Gives a market's observations its territory anew; answers the weeks they are in.
pub fn retag_market(conn: &Connection, market_id: i64) -> crate::db::Result<Vec<(String, String)>> {
    conn.prepare_cached(
        "UPDATE price_observations SET territory = (SELECT territory FROM markets WHERE id = ?1) WHERE market_id = ?1",
    )?
    .execute([market_id])?;
    conn.prepare_cached(
        "SELECT DISTINCT crop, week FROM price_observations WHERE market_id = ?1 AND deleted_at IS NULL",
    )?
    .query_map([market_id], |r| Ok((r.get(0)?, r.get(1)?)))?
    .collect()
}

/// The crops (and markets, 0 for every market) a number follows, oldest first.
pub fn alerts_of(conn: &Connection, phone: &str) -> crate::db::Result<Vec<(String, i64)>> {
    conn.prepare_cached("SELECT crop, market_id FROM price_alerts WHERE phone = ?1 ORDER BY created_at, crop")?
        .query_map([phone], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect()
}

/// Follows a crop at a market (0: everywhere); answers whether it was new.
pub fn add_alert(conn: &Connection, phone: &str, crop: &str, market_id: i64, now: &str) -> crate::db::Result<bool> {
    Ok(conn
        .prepare_cached(
            "INSERT INTO price_alerts (phone, crop, market_id, created_at) VALUES (?1, ?2, ?3, ?4)
             ON CONFLICT DO NOTHING",
        )?
        .execute(params![phone, crop, market_id, now])?
        == 1)
}

/// Stops one alert, or every alert of the number when `crop` is none.
pub fn remove_alerts(conn: &Connection, phone: &str, crop: Option<(&str, i64)>) -> crate::db::Result<usize> {
    match crop {
        Some((crop, market_id)) => conn
            .prepare_cached("DELETE FROM price_alerts WHERE phone = ?1 AND crop = ?2 AND market_id = ?3")?
            .execute(params![phone, crop, market_id]),
        None => conn.prepare_cached("DELETE FROM price_alerts WHERE phone = ?1")?.execute([phone]),
    }
}

/// Numbers with alerts that have not been sent `week`'s SMS.
pub fn alert_phones_due(conn: &Connection, week: &str) -> crate::db::Result<Vec<String>> {
    conn.prepare_cached(
        "SELECT DISTINCT a.phone FROM price_alerts a
         WHERE NOT EXISTS (SELECT 1 FROM price_alerts_sent s WHERE s.phone = a.phone AND s.week = ?1)",
    )?
    .query_map([week], |r| r.get(0))?
    .collect()
}

pub fn alert_sent(conn: &Connection, phone: &str, week: &str, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO price_alerts_sent (phone, week, sent_at) VALUES (?1, ?2, ?3) ON CONFLICT DO NOTHING",
    )?
    .execute(params![phone, week, now])?;
    Ok(())
}
