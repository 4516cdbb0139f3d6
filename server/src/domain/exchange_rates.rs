//! Exchange rates (docs/money.md): an admin sets how many Congolese francs a US dollar
//! buys, and from which day; phones in the DRC show prices' estimates in francs at the
//! newest rate. A new rate takes a sync version, so open apps receive it within seconds.

use crate::db::Connection;
use serde_json::Value;
use time::{Duration, OffsetDateTime};

use crate::db::exchange_rates::{self, NewRate, RateRow};
use crate::db::sync;
use crate::db::users::UserRow;
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::platform::clock;

/// The currencies a rate can be set for (against the US dollar).
pub const CURRENCIES: &[&str] = &["CDF"];
pub const MAX_FRANCS_PER_USD: i64 = 1_000_000;

pub fn check_currency(currency: &str) -> ApiResult<&'static str> {
    CURRENCIES
        .iter()
        .find(|known| known.eq_ignore_ascii_case(currency))
        .copied()
        .ok_or_else(|| AppError::not_found("currency_not_found", "Rates are set for CDF only"))
}

/// What an admin sends: a whole number of francs (a number or digits) and a date.
pub struct RateInput {
    pub francs_per_usd: Option<Value>,
    pub as_of: Option<String>,
}

fn whole_francs(value: &Value) -> Option<i64> {
    let number = match value {
        Value::Number(n) => n.as_i64(),
        Value::String(text) => text.trim().parse().ok(),
        _ => None,
    };
    number.filter(|n| (1..=MAX_FRANCS_PER_USD).contains(n))
}

/// Records a new rate for `currency`; the answer is the rate now in use.
pub fn set(tx: &Connection, admin: &UserRow, currency: &str, input: &RateInput) -> ApiResult<RateRow> {
    let currency = check_currency(currency)?;
    let mut errors = FieldErrors::default();
    let francs = input.francs_per_usd.as_ref().and_then(whole_francs);
    if francs.is_none() {
        errors.add(
            "francs_per_usd",
            "rate_invalid",
            format!("Enter how many francs one US dollar buys, a whole number from 1 to {MAX_FRANCS_PER_USD}"),
        );
    }
    // A day ahead is allowed: in Bukavu (UTC+2) the new day starts before it does in UTC.
    let tomorrow = OffsetDateTime::now_utc().date() + Duration::days(1);
    let as_of = match input.as_of.as_deref().map(clock::parse_day) {
        None => {
            errors.add("as_of", "required", "Enter the date of the rate");
            None
        }
        Some(None) => {
            errors.add("as_of", "date_invalid", "Enter a date as YYYY-MM-DD");
            None
        }
        Some(Some(date)) if date > tomorrow => {
            errors.add("as_of", "date_in_future", "The rate's date cannot be in the future");
            None
        }
        Some(Some(date)) => Some(date),
    };
    // Both are missing only when a field error says why.
    let (Some(francs), Some(as_of)) = (francs, as_of) else { return Err(AppError::Validation(errors)) };
    let now = clock::now();
    let version = sync::next_version(tx)?;
    let as_of = as_of.to_string();
    let rate = NewRate { currency, francs_per_usd: francs, as_of: &as_of, set_by: admin.id, now: &now, version };
    exchange_rates::insert(tx, &rate)?;
    exchange_rates::current(tx, currency)?.ok_or_else(|| AppError::internal("the rate just written is missing"))
}
