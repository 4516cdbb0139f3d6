//! Listening for changes (docs/sync.md, Listening): `GET /sync/listen` (a WebSocket) and
//! `GET /sync/wait` (a long poll). A phone is told of the versions that concern it
//! (`db::scopes`): an app that says who it is hears of the catalogue's changes and its
//! own; an older app, which says nothing, of every change, as before.

use std::time::{Duration, Instant};

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade, rejection::WebSocketUpgradeRejection};
use axum::extract::{Query, State};
use axum::http::header::{AUTHORIZATION, SEC_WEBSOCKET_PROTOCOL};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

use crate::db::Db;
use crate::db::scopes::Audience;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::state::AppState;

/// How long `GET /sync/wait` holds a request when nothing changes (below the
/// idle timeouts of the proxies and phone networks in front of us).
pub const WAIT_LIMIT: std::time::Duration = std::time::Duration::from_secs(25);

/// The subprotocol an app offers to be told only what concerns it; its token, when
/// signed in, comes as a second one, `token.<jwt>` (a browser sets no other header on a
/// WebSocket, and a query string would put it in logs).
const SCOPED: &str = "mavuno";

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct WaitQuery {
    /// The `cursor` of the phone's last pull.
    cursor: i64,
    /// `1`: answer only for versions that concern this phone (the catalogue's, and its
    /// own with a valid `Authorization`), and a version above `cursor` means "pull".
    /// Without it, any change answers, as for older apps.
    #[param(minimum = 1, maximum = 1)]
    scoped: Option<u8>,
}

#[derive(Serialize, ToSchema)]
pub(super) struct WaitResponse {
    /// The newest version that concerns the phone (every change's, without `scoped`): above
    /// `cursor`, there is something to pull.
    version: i64,
    /// Only with `scoped`: the server is behind the phone's cursor (restored from a
    /// backup); the phone's pull starts over.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    restored: bool,
}

fn query_of(query: Result<Query<WaitQuery>, QueryRejection>) -> ApiResult<WaitQuery> {
    let Query(query) = query
        .map_err(|_| AppError::bad_request("invalid_query", "cursor must be a number, and scoped 1 when given"))?;
    Ok(query)
}

/// Who listens: `scoped` apps by their token (none, or one no longer good: the
/// catalogue's changes only); others hear every change.
async fn audience(state: &AppState, scoped: bool, token: Option<&str>) -> Audience {
    match (scoped, token) {
        (false, _) => Audience::Everyone,
        (true, None) => Audience::Public,
        (true, Some(token)) => match crate::auth::signed_in(state, token).await {
            Ok(auth) => Audience::Person(auth.user.id),
            Err(_) => Audience::Public,
        },
    }
}

/// What a phone is told: with `Everyone`, each version that differs from the last told
/// (as before scopes); else each version that concerns it past the last told, and at
/// first a server behind the phone's cursor.
struct Teller {
    db: Db,
    audience: Audience,
    told: i64,
}

impl Teller {
    /// At first: what to tell at once, if anything.
    fn first(&mut self) -> Option<(i64, bool)> {
        let global = *self.db.versions().borrow();
        match self.audience {
            Audience::Everyone => self.next(),
            _ if global < self.told => {
                self.told = global;
                Some((global, true))
            }
            _ => self.next(),
        }
    }

    /// After a change: what to tell, if anything.
    fn next(&mut self) -> Option<(i64, bool)> {
        let newest = self.db.newest_for(self.audience);
        let tell = match self.audience {
            Audience::Everyone => newest != self.told,
            _ => newest > self.told,
        };
        tell.then(|| {
            self.told = newest;
            (newest, false)
        })
    }
}

/// Listening for changes while the app is open: answers as soon as a version that
/// concerns the phone passes `cursor` (without `scoped`: as soon as the server's version
/// differs from it), or after 25 seconds with nothing new (then it asks again). The
/// token is optional: it says only that something changed, not what.
#[utoipa::path(get, path = "/sync/wait", tag = "sync", security((), ("bearer" = [])), params(WaitQuery),
    responses((status = 200, body = WaitResponse), (status = 400, body = ErrorBody)))]
pub(super) async fn wait(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<WaitQuery>, QueryRejection>,
) -> ApiResult<Json<WaitResponse>> {
    let query = query_of(query)?;
    let scoped = query.scoped == Some(1);
    let token = headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok()).and_then(|h| h.strip_prefix("Bearer "));
    let audience = audience(&state, scoped, token.map(str::trim)).await;
    let mut versions = state.db.versions();
    let mut teller = Teller { db: state.db.clone(), audience, told: query.cursor };
    let told = tokio::time::timeout(WAIT_LIMIT, async {
        if let Some(told) = teller.first() {
            return Some(told);
        }
        while versions.changed().await.is_ok() {
            if let Some(told) = teller.next() {
                return Some(told);
            }
        }
        None
    })
    .await;
    let (version, restored) = match told {
        Ok(Some(told)) => {
            state.db.metrics().sync_wakeups.inc();
            told
        }
        // Nothing new: the version the phone has (every change's, for an older app).
        _ if scoped => (query.cursor, false),
        _ => (*versions.borrow(), false),
    };
    Ok(Json(WaitResponse { version, restored }))
}

/// A listening socket's buffers: phones send it nothing but short answers.
const LISTEN_BUFFER: usize = 256;
/// How often a listening socket is told the version even when unchanged: it keeps phone
/// networks' address mappings and proxies open, as the long poll's 25 s does, and lets
/// the app see a socket that died without a word (a phone changing cells).
const LISTEN_HEARTBEAT: Duration = WAIT_LIMIT;
/// A socket that has answered none of the last two messages is closed.
const LISTEN_SILENCE: Duration = Duration::from_secs(2 * 25 + 10);

/// Listening over a WebSocket (the app's way; `GET /sync/wait` where one does not get
/// through): sends `{"version": N}` whenever a version that concerns the phone passes the
/// last one told (at once if one already passed `cursor`), and every 25 s as a
/// heartbeat. An app offers the `mavuno` subprotocol to be told only what concerns it,
/// with `token.<its token>` as a second one when signed in; without it, every version
/// that differs is told, as to older apps. The phone answers each message with any
/// short text; one silent for a minute is closed. A waiting phone costs the server a
/// few KB this way, against ~20 KB for a long poll held in hyper (docs/sync.md, Listening).
#[utoipa::path(get, path = "/sync/listen", tag = "sync", security((), ("bearer" = [])), params(WaitQuery),
    responses(
        (status = 101, description = "A WebSocket: text messages `{\"version\": N}` (as /sync/wait answers; `\"restored\": true` too when the server is behind the cursor) on each change that concerns the phone and every 25 s; answer each with a short text"),
        (status = 400, description = "invalid_query", body = ErrorBody),
        (status = 426, description = "websocket_required: not a WebSocket handshake (`Upgrade: websocket` says what to ask for)", body = ErrorBody),
    ))]
pub(super) async fn listen(
    State(state): State<AppState>,
    headers: HeaderMap,
    query: Result<Query<WaitQuery>, QueryRejection>,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> ApiResult<Response> {
    let cursor = query_of(query)?.cursor;
    let Ok(upgrade) = upgrade else {
        let refused = AppError::client(
            StatusCode::UPGRADE_REQUIRED,
            "websocket_required",
            "open this address as a WebSocket, or use /sync/wait",
        );
        let upgrade = [(header::UPGRADE, "websocket"), (header::CONNECTION, "Upgrade")];
        return Ok((upgrade, refused).into_response());
    };
    let offered: Vec<&str> = headers
        .get_all(SEC_WEBSOCKET_PROTOCOL)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(',').map(str::trim))
        .collect();
    let scoped = offered.contains(&SCOPED);
    let token = offered.iter().find_map(|p| p.strip_prefix("token."));
    let audience = audience(&state, scoped, token).await;
    let teller = Teller { db: state.db.clone(), audience, told: cursor };
    Ok(upgrade
        .protocols([SCOPED])
        .read_buffer_size(LISTEN_BUFFER)
        .write_buffer_size(0)
        .max_message_size(LISTEN_BUFFER)
        .max_frame_size(LISTEN_BUFFER)
        .on_upgrade(move |socket| tell_changes(socket, teller)))
}

/// Tells one listening phone of each version that concerns it until it leaves, goes
/// silent or misbehaves.
async fn tell_changes(mut socket: WebSocket, mut teller: Teller) {
    let metrics = std::sync::Arc::clone(teller.db.metrics());
    let _listening = Listening::new(&metrics.sync_listeners);
    let mut versions = teller.db.versions();
    versions.borrow_and_update();
    let mut heartbeats = tokio::time::interval_at(tokio::time::Instant::now() + LISTEN_HEARTBEAT, LISTEN_HEARTBEAT);
    let mut heard = Instant::now();
    let mut tell = teller.first();
    loop {
        if let Some((version, restored)) = tell.take() {
            if socket.send(version_message(version, restored)).await.is_err() {
                return;
            }
            metrics.sync_wakeups.inc();
        }
        tokio::select! {
            changed = versions.changed() => match changed {
                Ok(()) => tell = teller.next(),
                Err(_) => return,
            },
            _ = heartbeats.tick() => {
                if heard.elapsed() > LISTEN_SILENCE || socket.send(version_message(teller.told, false)).await.is_err() {
                    return;
                }
            }
            // Answers keep it open; a close, an error or a message past the buffer
            // (tungstenite refuses it) end it.
            message = socket.recv() => match message {
                Some(Ok(Message::Close(_)) | Err(_)) | None => return,
                Some(Ok(_)) => heard = Instant::now(),
            },
        }
    }
}

/// A phone listening on this node, counted while it is.
struct Listening(prometheus_client::metrics::gauge::Gauge);

impl Listening {
    fn new(gauge: &prometheus_client::metrics::gauge::Gauge) -> Listening {
        gauge.inc();
        Listening(gauge.clone())
    }
}

impl Drop for Listening {
    fn drop(&mut self) {
        self.0.dec();
    }
}

fn version_message(version: i64, restored: bool) -> Message {
    let restored = if restored { ",\"restored\":true" } else { "" };
    Message::Text(format!("{{\"version\":{version}{restored}}}").into())
}
