//! Every refusal the API answers, as it answers it: with `MAVUNO_RECORD_REFUSALS` set to a
//! file, each operation's (method, path, status, code) is appended to it once per process.
//! `scripts/test` sets it for the API tests and schemathesis on both engines, and
//! `scripts/refusals.mjs` fails when one the tests met is not in the document (one only
//! schemathesis met is told): the codes an operation answers come from the code, so a new
//! refusal a test reaches cannot go undocumented (issue 75).
//! Off unless set; a line holds no value a request sent, only the route's template.

use std::collections::HashSet;
use std::io::Write;
use std::sync::{Mutex, OnceLock};

use axum::body::Body;
use axum::extract::{MatchedPath, Request};
use axum::http::StatusCode;
use axum::middleware::Next;
use axum::response::Response;

/// Where the refusals are written, when they are.
pub const RECORD_TO: &str = "MAVUNO_RECORD_REFUSALS";

/// An error's body is a few hundred bytes; the limit only keeps a runaway one from
/// filling memory (the body is read whole to find its code, then sent on).
const ENVELOPE_LIMIT: usize = 16 << 20;

struct Record {
    file: std::fs::File,
    written: HashSet<String>,
}

fn record() -> Option<&'static Mutex<Record>> {
    static RECORD: OnceLock<Option<Mutex<Record>>> = OnceLock::new();
    RECORD
        .get_or_init(|| {
            let path = std::env::var_os(RECORD_TO)?;
            let file = std::fs::OpenOptions::new().create(true).append(true).open(&path);
            match file {
                Ok(file) => Some(Mutex::new(Record { file, written: HashSet::new() })),
                Err(err) => {
                    tracing::warn!(%err, "cannot record refusals");
                    None
                }
            }
        })
        .as_ref()
}

/// Whether refusals are recorded (the layer is added only then).
pub fn enabled() -> bool {
    record().is_some()
}

/// Notes a refusal of a documented route: its code from the envelope, or the one
/// `api::json_errors` gives a body that is not JSON.
pub async fn layer(request: Request, next: Next) -> Response {
    let method = request.method().as_str().to_ascii_lowercase();
    let path = request.extensions().get::<MatchedPath>().map(|p| p.as_str().to_owned());
    let response = next.run(request).await;
    let status = response.status();
    let (Some(path), Some(record)) = (path, record()) else { return response };
    // (405: the address is a route's, the method is no operation's.)
    if !(status.is_client_error() || status.is_server_error()) || status == StatusCode::METHOD_NOT_ALLOWED {
        return response;
    }
    let (parts, body) = response.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, ENVELOPE_LIMIT).await else {
        return Response::from_parts(parts, Body::empty());
    };
    let code = serde_json::from_slice::<serde_json::Value>(&bytes)
        .ok()
        .and_then(|envelope| envelope["code"].as_str().map(str::to_owned))
        .unwrap_or_else(|| super::fallback_error(status).0.to_owned());
    let path = path.strip_prefix("/api/v1").unwrap_or(&path);
    let line = format!("{method} {path} {} {code}", status.as_u16());
    if let Ok(mut record) = record.lock()
        && record.written.insert(line.clone())
    {
        // One write a line: lines of processes appending to one file do not mix.
        if let Err(err) = record.file.write_all(format!("{line}\n").as_bytes()) {
            tracing::warn!(%err, "cannot record a refusal");
        }
    }
    Response::from_parts(parts, Body::from(bytes))
}
