//! Every request's id (docs/operations.md, Logs): taken from `X-Request-Id` when a
//! trusted proxy sent it, else made here; answered in `X-Request-Id`, and carried on every
//! log line the request causes: its span wraps the handler, the database's blocking
//! threads enter it (`carry`), and the SMS and emails it writes keep it in their outbox
//! row, so the sender's lines name it too.

use std::cell::RefCell;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use tracing::Instrument;

use crate::Config;

pub const HEADER: HeaderName = HeaderName::from_static("x-request-id");

tokio::task_local! {
    static TASK: Arc<str>;
}

thread_local! {
    static THREAD: RefCell<Option<Arc<str>>> = const { RefCell::new(None) };
}

/// The id of the request this code runs for, if it runs for one.
pub fn current() -> Option<Arc<str>> {
    TASK.try_with(Arc::clone).ok().or_else(|| THREAD.with(|id| id.borrow().clone()))
}

/// `f` as it will run on another thread (the database's): with this request's id and span.
pub fn carry<T>(f: impl FnOnce() -> T) -> impl FnOnce() -> T {
    let here = Here::now();
    move || here.run(f)
}

/// The request this code runs for, to run more of its work elsewhere (`carry`).
pub struct Here {
    id: Option<Arc<str>>,
    span: tracing::Span,
}

impl Here {
    pub fn now() -> Here {
        Here { id: current(), span: tracing::Span::current() }
    }

    /// Runs `f` with the request's id and in its span, then leaves the thread as it was.
    pub fn run<T>(self, f: impl FnOnce() -> T) -> T {
        let _entered = self.span.enter();
        let before = THREAD.with(|slot| slot.replace(self.id.clone()));
        let value = f();
        THREAD.with(|slot| *slot.borrow_mut() = before);
        value
    }
}

/// The span of the request `id` (none when it was not a request's), for work it caused
/// that runs later (sending the SMS it wrote).
pub fn span_of(id: Option<&str>) -> tracing::Span {
    match id {
        Some(id) => tracing::info_span!("request", id = %id),
        None => tracing::Span::none(),
    }
}

/// A proxy's id is kept when it is one: 1 to 64 letters, digits, `-`, `_`, `.` or `:`.
fn acceptable(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b))
}

/// A new id: 16 hexadecimal digits.
fn new_id() -> String {
    let bytes = uuid::Uuid::new_v4().into_bytes();
    bytes[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// Gives the request its id and runs it in a span that carries it.
pub async fn assign(State(config): State<Arc<Config>>, request: Request, next: Next) -> Response {
    let from_proxy = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .is_some_and(|ConnectInfo(peer)| config.trusted_proxies.contains(&peer.ip()));
    let sent = request.headers().get(&HEADER).and_then(|v| v.to_str().ok()).filter(|id| from_proxy && acceptable(id));
    let id: Arc<str> = sent.map_or_else(new_id, str::to_owned).into();
    let span = tracing::info_span!("request", id = %id);
    let mut response = TASK.scope(Arc::clone(&id), next.run(request).instrument(span)).await;
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(HEADER, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proxy_s_id_is_kept_only_when_it_is_a_plain_short_word() {
        assert!(acceptable("3f2a-77_b.c:9"));
        for wrong in ["", "a b", "x\ny", "é", &"a".repeat(65)] {
            assert!(!acceptable(wrong), "{wrong:?}");
        }
        assert_eq!(new_id().len(), 16);
    }

    #[test]
    fn a_carried_closure_runs_with_the_id_and_leaves_the_thread_as_it_was() {
        let carried = THREAD.with(|slot| {
            *slot.borrow_mut() = Some("outer".into());
            carry(current)
        });
        THREAD.with(|slot| *slot.borrow_mut() = Some("other".into()));
        assert_eq!(carried().as_deref(), Some("outer"));
        assert_eq!(current().as_deref(), Some("other"));
        THREAD.with(|slot| *slot.borrow_mut() = None);
    }
}
