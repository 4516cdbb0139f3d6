//! What the off-site copy's checks keep (`outbound::offsite`, docs/operations.md):
//! when the store last held the database's newest transaction, when the pictures were
//! last copied, and the incident the super admins were told of. In the database, so
//! every node and every restart reads the same.

use std::time::Duration;

use crate::db::Connection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::db::{meta, outbox, users};
use crate::error::ApiResult;
use crate::platform::clock;

/// When the store last held the database's newest transaction (RFC 3339).
pub const CONFIRMED: &str = "offsite_confirmed_at";
/// When new pictures were last copied (RFC 3339).
pub const MEDIA: &str = "offsite_media_at";
/// Since when the copy has been configured: the lag of a copy never confirmed counts from it.
const SINCE: &str = "offsite_since";
/// The incident the super admins were told of (the confirmation it lags behind).
const ALERTED: &str = "offsite_alerted_for";

/// The copy runs from `now` on (kept from its first start, so a restart hides no lag).
pub fn started(conn: &Connection, now: &str) -> ApiResult<()> {
    if meta::get(conn, SINCE)?.is_none() {
        meta::set(conn, SINCE, now)?;
    }
    Ok(())
}

/// How long the copy has gone unconfirmed: since its last confirmation, else since it
/// was first configured; `None` when it never ran.
pub fn lag(conn: &Connection) -> ApiResult<Option<Duration>> {
    let since = match meta::get(conn, CONFIRMED)? {
        Some(at) => Some(at),
        None => meta::get(conn, SINCE)?,
    };
    Ok(since.and_then(|at| clock::parse(&at)).map(|at| {
        let lag = time::OffsetDateTime::now_utc() - at;
        Duration::try_from(lag).unwrap_or_default()
    }))
}

/// Tells every active super admin, by email and SMS in their language, that the copy has
/// not been confirmed for longer than `threshold`: once an incident (until it is
/// confirmed again). Answers whether they were told now.
pub fn alert_if_lagging(conn: &Connection, threshold: Duration) -> ApiResult<bool> {
    let Some(lag) = lag(conn)? else { return Ok(false) };
    let incident = meta::get(conn, CONFIRMED)?.unwrap_or_else(|| "never".to_owned());
    if lag <= threshold || meta::get(conn, ALERTED)?.as_deref() == Some(incident.as_str()) {
        return Ok(false);
    }
    let minutes = lag.as_secs().div_ceil(60).to_string();
    for admin in users::active_with_role(conn, crate::model::user::Role::SuperAdmin)? {
        let lang = crate::domain::settings::lang_for(conn, admin.country)?;
        let values = [("name", admin.greeting_name()), ("minutes", minutes.clone())];
        let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
        if let Some(email) = &admin.email {
            let subject = lang.format("email.offsite.subject", &values);
            let body = format!("{}\n\n{}", lang.format("email.offsite.body", &values), lang.text("email.signature"));
            outbox::enqueue(conn, email, &subject, &body, &clock::now())?;
        }
        crate::domain::sms::send(conn, &admin, "offsite_lag", &values)?;
    }
    meta::set(conn, ALERTED, &incident)?;
    Ok(true)
}

/// The copy's state for the super admin's dashboard and the health check.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct OffsiteState {
    /// Whether an off-site copy is configured: without one, this server is the only copy.
    pub configured: bool,
    /// When the store last held the database's newest transaction.
    pub confirmed_at: Option<String>,
    /// When new pictures were last copied.
    pub media_at: Option<String>,
    /// Not confirmed for longer than the alert threshold.
    pub lagging: bool,
}

/// The state, for a copy configured with `threshold` (`None`: no copy).
pub fn state_of(conn: &Connection, threshold: Option<Duration>) -> ApiResult<OffsiteState> {
    let Some(threshold) = threshold else {
        return Ok(OffsiteState { configured: false, confirmed_at: None, media_at: None, lagging: false });
    };
    Ok(OffsiteState {
        configured: true,
        confirmed_at: meta::get(conn, CONFIRMED)?,
        media_at: meta::get(conn, MEDIA)?,
        lagging: lag(conn)?.is_some_and(|lag| lag > threshold),
    })
}
