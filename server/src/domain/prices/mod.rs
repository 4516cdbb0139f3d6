//! Market prices (docs/prices.md): observations from the platform's sales, from
//! field agents at markets (`price.record`, offline, exactly once) and from admins'
//! imports; each write rewrites its crop's week of figures in the same transaction
//! (`stats::recompute`), so reads never compute over raw observations.

use crate::db::Connection;
use time::{Date, Duration, OffsetDateTime, UtcOffset};

use crate::db::prices::{self as rows, MarketRow, ObservationRow};
use crate::db::users::UserRow;
use crate::domain::made_once;
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::model::price::{Currency, PriceUnit, Source, base_quantity, week_of};
use crate::model::user::Role;
use crate::platform::clock;

pub mod alerts;
pub mod board;
mod crops;
pub mod import;
pub mod markets;
pub mod sales;
pub mod stats;

pub use crops::{CROPS, Crop, crop, crop_named, crop_of_names};

/// The most a price may be, in hundredths of its currency (a tonne of coffee in francs fits).
pub const MAX_PRICE_CENTS: i64 = 100_000_000_000;
pub const MAX_NOTE_CHARS: usize = 200;
/// Nothing observed before this day is taken.
pub const FIRST_DAY: Date = time::macros::date!(2000 - 01 - 01);

/// An observation as typed: by an agent, an admin's correction or an import row.
#[derive(Debug, Default, Clone)]
pub struct PriceFields<'a> {
    pub market: Option<i64>,
    pub crop: &'a str,
    pub unit: &'a str,
    pub price: &'a str,
    pub currency: &'a str,
    pub observed_on: &'a str,
    pub note: Option<&'a str>,
    /// What the price was in US dollars (an import's `usdprice`), used instead of the day's rate.
    pub usd: Option<&'a str>,
}

/// What the fields say once checked.
pub struct Checked {
    pub crop: &'static Crop,
    pub market: Option<MarketRow>,
    pub unit: PriceUnit,
    pub price_cents: i64,
    pub currency: Currency,
    pub usd_micros: i64,
    pub base_unit: PriceUnit,
    pub base_usd_micros: i64,
    pub observed_on: Date,
    pub note: Option<String>,
}

/// A decimal amount with at most two decimals ("1.20", "2500", "1,5") in hundredths.
pub fn hundredths(text: &str) -> Option<i64> {
    let text = text.trim().replace(',', ".");
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    if whole.is_empty() && fraction.is_empty()
        || !whole.chars().all(|c| c.is_ascii_digit())
        || !fraction.chars().all(|c| c.is_ascii_digit())
        || fraction.len() > 2
        || whole.len() > 12
    {
        return None;
    }
    let whole: i64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let fraction: i64 = format!("{fraction:0<2}").parse().ok()?;
    whole.checked_mul(100)?.checked_add(fraction)
}

pub use crate::platform::clock::parse_day as day;

/// A day as people write it: "2026-11-23" is "23/11".
pub fn short_day(day: &str) -> String {
    match (day.get(8..10), day.get(5..7)) {
        (Some(d), Some(m)) => format!("{d}/{m}"),
        _ => day.to_owned(),
    }
}

/// Millionths of a dollar in cents, rounded.
pub fn usd_cents(micros: i64) -> i64 {
    (micros + 5_000) / 10_000
}

/// South Kivu's time (UTC+2, no summer time): the days prices are observed and weeks counted in.
pub const SOUTH_KIVU: UtcOffset = time::macros::offset!(+2);

/// Today in South Kivu.
pub fn today() -> Date {
    OffsetDateTime::now_utc().to_offset(SOUTH_KIVU).date()
}

/// The South Kivu day of a stored time (RFC 3339, UTC): a delivery at 23:00 UTC
/// happened the next morning in Bukavu.
pub fn local_day(at: &str) -> Option<Date> {
    Some(clock::parse(at)?.to_offset(SOUTH_KIVU).date())
}

/// Checks the fields in the form's order; every failure is named by field.
pub fn check(conn: &Connection, fields: &PriceFields<'_>) -> ApiResult<Checked> {
    let mut errors = FieldErrors::default();
    let market = match fields.market {
        Some(id) => rows::market(conn, id)?,
        None => None,
    };
    if market.is_none() {
        errors.add("market", "market_unknown", "Choose one of the markets on the list");
    }
    let crop = crop_named(fields.crop);
    if crop.is_none() {
        errors.add("crop", "crop_unknown", "Choose one of the crops on the list");
    }
    let unit = PriceUnit::parse(fields.unit.trim());
    if unit.is_none() {
        errors.add("unit", "unit_unknown", "Choose one of the units on the list");
    }
    let price_cents = hundredths(fields.price).filter(|c| (1..=MAX_PRICE_CENTS).contains(c));
    if price_cents.is_none() {
        errors.add("price", "market_price_invalid", "Enter a price above 0, with at most two decimals");
    }
    let currency = Currency::parse(&fields.currency.trim().to_uppercase());
    if currency.is_none() {
        errors.add("currency", "currency_unknown", "Prices are recorded in USD or CDF");
    }
    let observed_on = day(fields.observed_on);
    match observed_on {
        None => errors.add("observed_on", "date_invalid", "Enter the day as YYYY-MM-DD"),
        // A day ahead is allowed: a phone's clock in another zone.
        Some(d) if d > today() + Duration::days(1) => {
            errors.add("observed_on", "date_future", "The day cannot be in the future")
        }
        Some(d) if d < FIRST_DAY => errors.add("observed_on", "date_too_old", "The day must be in 2000 or later"),
        Some(_) => {}
    }
    let note = fields.note.map(str::trim).filter(|n| !n.is_empty());
    if note.is_some_and(|n| n.chars().count() > MAX_NOTE_CHARS || super::input::has_hidden_characters(n, false)) {
        errors.add("note", "note_invalid", format!("A note has at most {MAX_NOTE_CHARS} characters on one line"));
    }
    let usd = fields.usd.map(str::trim).filter(|u| !u.is_empty());
    let usd_cents = usd.map(|u| hundredths(u).filter(|c| (1..=MAX_PRICE_CENTS).contains(c)));
    if usd_cents.is_some_and(|c| c.is_none()) {
        errors.add("usd", "market_price_invalid", "The price in USD must be above 0, with at most two decimals");
    }
    let (Some(crop), Some(unit), Some(price_cents), Some(currency), Some(observed_on)) =
        (crop, unit, price_cents, currency, observed_on)
    else {
        return Err(AppError::Validation(errors));
    };
    let usd_micros = match (usd_cents.flatten(), currency) {
        (Some(cents), _) => Some(cents * 10_000),
        (None, Currency::Usd) => Some(price_cents * 10_000),
        (None, Currency::Cdf) => {
            let rate = crate::db::exchange_rates::francs_on(conn, "CDF", &observed_on.to_string())?;
            if rate.is_none() {
                errors.add("currency", "rate_missing", "No exchange rate is set for CDF yet: record the price in USD");
            }
            rate.map(|francs| (price_cents * 10_000 / francs).max(1))
        }
    };
    errors.finish()?;
    let usd_micros = usd_micros.unwrap_or(1);
    let (base_unit, per_base) = match base_quantity(crop.key, crop.base_unit(), unit) {
        Some(quantity) => (crop.base_unit(), quantity),
        None => (unit, 1),
    };
    Ok(Checked {
        crop,
        market,
        unit,
        price_cents,
        currency,
        usd_micros,
        base_unit,
        base_usd_micros: (usd_micros / per_base).max(1),
        observed_on,
        note: note.map(str::to_owned),
    })
}

fn observation(uid: String, source: Source, checked: Checked, by: Option<i64>) -> ObservationRow {
    ObservationRow {
        id: 0,
        uid,
        source,
        crop: checked.crop.key.to_owned(),
        market_id: checked.market.as_ref().map(|m| m.id),
        territory: checked.market.as_ref().map(|m| m.territory.clone()),
        market_name: checked.market.map(|m| m.name),
        place: None,
        unit: checked.unit,
        price_cents: checked.price_cents,
        currency: checked.currency,
        usd_micros: checked.usd_micros,
        base_unit: checked.base_unit,
        base_usd_micros: checked.base_usd_micros,
        observed_on: checked.observed_on.to_string(),
        week: week_of(checked.observed_on).to_string(),
        note: checked.note,
        outlier: false,
        recorded_by: by,
        deleted: false,
    }
}

/// Writes a new observation and its week's figures.
pub fn add(conn: &Connection, new: &ObservationRow, order_line_id: Option<i64>) -> ApiResult<i64> {
    let id = rows::insert(conn, new, order_line_id, &clock::now())?;
    stats::recompute(conn, &new.crop, &new.week)?;
    rows::touch(conn)?;
    Ok(id)
}

/// A field agent (or an admin) records what a crop sells for at a market. `uid`,
/// made on the phone, keeps it single: the same uid again answers the first.
pub fn record(conn: &Connection, by: &UserRow, uid: &str, fields: &PriceFields<'_>) -> ApiResult<ObservationRow> {
    if !matches!(by.role, Role::FieldAgent) && !by.role.is_admin() {
        return Err(AppError::forbidden("agents_only", "Only field agents record market prices"));
    }
    if !super::is_uuid(uid) {
        return Err(AppError::bad_request("invalid_uid", "uid must be a UUID"));
    }
    let known = rows::by_uid(conn, uid)?;
    if let Some(known) = made_once(known, |k| k.recorded_by == Some(by.id), "This uid names another observation")? {
        return Ok(known);
    }
    let new = observation(uid.to_owned(), Source::Agent, check(conn, fields)?, Some(by.id));
    let id = add(conn, &new, None)?;
    Ok(rows::by_id(conn, id)?.unwrap_or(new))
}

fn not_found() -> AppError {
    AppError::not_found("price_not_found", "This price observation does not exist")
}

fn as_json(o: &ObservationRow) -> String {
    serde_json::json!({
        "crop": o.crop, "market_id": o.market_id, "unit": o.unit, "price_cents": o.price_cents,
        "currency": o.currency, "observed_on": o.observed_on, "note": o.note,
    })
    .to_string()
}

/// An admin corrects an observation; what it was and what it became are kept.
/// An admin's correction: the fields to change; one left out keeps its value (an empty
/// note clears it).
pub struct PriceChange<'a> {
    pub market: Option<i64>,
    pub crop: Option<&'a str>,
    pub unit: Option<&'a str>,
    pub price: Option<&'a str>,
    pub currency: Option<&'a str>,
    pub observed_on: Option<&'a str>,
    pub note: Option<&'a str>,
}

pub fn correct(conn: &Connection, admin: &UserRow, id: i64, change: &PriceChange<'_>) -> ApiResult<ObservationRow> {
    let before = rows::by_id(conn, id)?.filter(|o| !o.deleted).ok_or_else(not_found)?;
    if before.source == Source::Sale {
        return Err(AppError::conflict("sale_price", "A sale's price is what the buyer paid; remove it instead"));
    }
    let price = crate::model::decimal_amount(before.price_cents);
    let fields = PriceFields {
        market: change.market.or(before.market_id),
        crop: change.crop.unwrap_or(&before.crop),
        unit: change.unit.unwrap_or(before.unit.as_str()),
        price: change.price.unwrap_or(&price),
        currency: change.currency.unwrap_or(before.currency.as_str()),
        observed_on: change.observed_on.unwrap_or(&before.observed_on),
        note: change.note.or(before.note.as_deref()),
        usd: None,
    };
    let checked = check(conn, &fields)?;
    let mut after = observation(before.uid.clone(), before.source, checked, before.recorded_by);
    after.id = id;
    let now = clock::now();
    rows::update(conn, &after, &now)?;
    rows::record_change(conn, id, admin.id, "correct", &as_json(&before), Some(&as_json(&after)), &now)?;
    stats::recompute(conn, &before.crop, &before.week)?;
    stats::recompute(conn, &after.crop, &after.week)?;
    rows::touch(conn)?;
    rows::by_id(conn, id)?.ok_or_else(not_found)
}

/// An admin removes an observation (kept, with who removed it, out of every figure).
pub fn remove(conn: &Connection, admin: &UserRow, id: i64) -> ApiResult<()> {
    let before = rows::by_id(conn, id)?.filter(|o| !o.deleted).ok_or_else(not_found)?;
    let now = clock::now();
    rows::remove(conn, id, &now)?;
    rows::record_change(conn, id, admin.id, "remove", &as_json(&before), None, &now)?;
    stats::recompute(conn, &before.crop, &before.week)?;
    rows::touch(conn)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_are_read_in_hundredths() {
        assert_eq!(hundredths("1.20"), Some(120));
        assert_eq!(hundredths("1,5"), Some(150));
        assert_eq!(hundredths("2500"), Some(250_000));
        assert_eq!(hundredths(".5"), Some(50));
        assert_eq!(hundredths("0"), Some(0));
        for bad in ["", ".", "-1", "1.234", "abc", "1e3", "1 000", "9999999999999"] {
            assert_eq!(hundredths(bad), None, "{bad:?}");
        }
    }
}
