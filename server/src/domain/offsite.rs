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
use crate::model::offsite::{OffsiteFailure, OffsiteHealth};
use crate::platform::clock;

/// When the store last held the database's newest transaction (RFC 3339).
pub const CONFIRMED: &str = "offsite_confirmed_at";
/// When new pictures were last copied (RFC 3339).
pub const MEDIA: &str = "offsite_media_at";
/// Since when the copy has been configured: the lag of a copy never confirmed counts from it.
const SINCE: &str = "offsite_since";
/// The incident the super admins were told of (the confirmation it lags behind).
const ALERTED: &str = "offsite_alerted_for";
/// Why the store refused the last look (an `OffsiteFailure`'s word); absent when it answered.
const FAILING: &str = "offsite_failing";

/// The class of a tool's error, from what S3 answered (its error codes) or how the
/// connection failed.
pub fn failure_of(error: &str) -> OffsiteFailure {
    const DENIED: [&str; 6] = [
        "SignatureDoesNotMatch",
        "InvalidAccessKeyId",
        "AccessDenied",
        "InvalidToken",
        "ExpiredToken",
        "StatusCode: 403",
    ];
    const UNREACHABLE: [&str; 6] =
        ["connection refused", "no such host", "i/o timeout", "timed out", "dial tcp", "network is unreachable"];
    if error.contains("NoSuchBucket") {
        OffsiteFailure::BucketMissing
    } else if DENIED.iter().any(|word| error.contains(word)) {
        OffsiteFailure::Denied
    } else if UNREACHABLE.iter().any(|word| error.to_lowercase().contains(word)) {
        OffsiteFailure::Unreachable
    } else {
        OffsiteFailure::Other
    }
}

/// What the last look at the store found: `None`, it answered; else why not.
pub fn looked(conn: &Connection, failure: Option<OffsiteFailure>) -> ApiResult<()> {
    match failure {
        Some(failure) => meta::set(conn, FAILING, failure.as_str())?,
        None => meta::remove(conn, FAILING)?,
    }
    Ok(())
}

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
    pub state: OffsiteHealth,
    /// Why the store refused the last look, when `state` is `failing`.
    pub failure: Option<OffsiteFailure>,
    /// When the store last held the database's newest transaction.
    pub confirmed_at: Option<String>,
    /// When new pictures were last copied.
    pub media_at: Option<String>,
    /// Not confirmed for longer than the alert threshold.
    pub lagging: bool,
}

/// The state, for a copy configured with `threshold` (`None`: no copy). `ok` means the
/// store held this database's newest transaction within the threshold, nothing else.
pub fn state_of(conn: &Connection, threshold: Option<Duration>) -> ApiResult<OffsiteState> {
    let Some(threshold) = threshold else {
        return Ok(OffsiteState {
            configured: false,
            state: OffsiteHealth::None,
            failure: None,
            confirmed_at: None,
            media_at: None,
            lagging: false,
        });
    };
    let confirmed_at = meta::get(conn, CONFIRMED)?;
    let lagging = lag(conn)?.is_some_and(|lag| lag > threshold);
    let failure = meta::get(conn, FAILING)?.map(|word| OffsiteFailure::parse(&word).unwrap_or(OffsiteFailure::Other));
    let state = match (failure, lagging, &confirmed_at) {
        (Some(_), _, _) => OffsiteHealth::Failing,
        (None, true, _) => OffsiteHealth::Lagging,
        (None, false, None) => OffsiteHealth::Pending,
        (None, false, Some(_)) => OffsiteHealth::Ok,
    };
    Ok(OffsiteState { configured: true, state, failure, confirmed_at, media_at: meta::get(conn, MEDIA)?, lagging })
}

#[cfg(test)]
mod tests {
    use super::failure_of;

    #[test]
    fn a_tools_error_is_read_as_what_an_operator_acts_on() {
        // Litestream 0.5's words against rclone's `serve s3`, and the look's own time-out.
        let said = [
            (
                "litestream: Error: operation error S3: ListObjectsV2, https response error StatusCode: 403, RequestID: , \
              HostID: , api error SignatureDoesNotMatch: The request signature we calculated does not match",
                "denied",
            ),
            ("api error InvalidAccessKeyId: The Access Key Id you provided does not exist in our records.", "denied"),
            (
                "https response error StatusCode: 404, RequestID: E78A, NoSuchBucket: The specified bucket does not exist",
                "bucket_missing",
            ),
            ("dial tcp 127.0.0.1:9: connect: connection refused", "unreachable"),
            ("the store did not answer within 20 s (i/o timeout)", "unreachable"),
            ("litestream: ", "other"),
        ];
        for (error, class) in said {
            assert_eq!(failure_of(error).as_str(), class, "{error}");
        }
    }
}
