//! Times are stored and sent as RFC 3339 UTC with whole seconds
//! (`2026-11-21T08:30:00Z`), so they also sort correctly as text in SQLite.

use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

pub fn format(at: OffsetDateTime) -> String {
    at.to_offset(time::UtcOffset::UTC)
        .replace_nanosecond(0)
        .expect("zero nanoseconds is valid")
        .format(&Rfc3339)
        .expect("RFC 3339 formats every UTC time")
}

pub fn now() -> String {
    format(OffsetDateTime::now_utc())
}

/// Milliseconds since 1970, as throttles and leases keep times.
pub fn now_ms() -> i64 {
    i64::try_from(OffsetDateTime::now_utc().unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

/// A time as stored (RFC 3339); any offset is read, not only UTC.
pub fn parse(text: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(text, &Rfc3339).ok()
}

/// A calendar day as written and stored, YYYY-MM-DD (a `Date` writes itself so too).
pub fn parse_day(text: &str) -> Option<time::Date> {
    time::Date::parse(text.trim(), &time::macros::format_description!("[year]-[month]-[day]")).ok()
}

/// The time `ago` before now, in the stored format.
pub fn before_now(ago: std::time::Duration) -> String {
    format(OffsetDateTime::now_utc() - ago)
}
