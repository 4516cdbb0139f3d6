//! The HTTP/1.1 server loop, with the limits `axum::serve` lacks
//! (docs/security.md, Slow clients): a cap on open connections below the
//! process's file limit, a deadline for each request's headers (which also
//! closes idle keep-alive connections), and — in `build_app` — a deadline
//! between the pieces of a request body. At the cap, the connection idle the
//! longest makes room for a new one: a flood of stalled sockets then costs
//! one slot each for a moment instead of every file the server has.

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, oneshot, watch};
use tower::ServiceExt;

use crate::Config;

/// Connection limits, from the configuration.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_connections: usize,
    pub header_timeout: Duration,
}

impl Limits {
    pub fn of(config: &Config) -> Limits {
        Limits { max_connections: config.max_connections.max(1), header_timeout: config.header_timeout }
    }
}

/// Serves until `shutdown` resolves, then lets the requests in flight finish.
///
/// At the cap, a new connection takes the place of the connection that has
/// waited longest without a request in progress (a stalled or idle socket),
/// so a flood of half-sent requests cannot keep real clients out.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let open = Arc::new(Connections::default());
    let (stop_tx, stop_rx) = watch::channel(());
    // Every connection holds a clone; once all are dropped, every connection has finished.
    let (alive_tx, alive_rx) = watch::channel(());
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(err) => {
                    // Out of files or a connection reset before it was taken: wait, then go on.
                    tracing::warn!(%err, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let permit = match Arc::clone(&slots).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                open.evict_idlest();
                tokio::select! {
                    permit = Arc::clone(&slots).acquire_owned() => permit.map_err(std::io::Error::other)?,
                    () = &mut shutdown => break,
                }
            }
        };
        stream.set_nodelay(true).ok();
        let (id, evicted) = open.add();
        let tracked = Arc::clone(&open);
        let app = app.clone();
        let service = tower::service_fn(move |mut request: axum::http::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            let busy = tracked.busy(id);
            let response = app.clone().oneshot(request.map(Body::new));
            async move {
                let response = response.await;
                drop(busy);
                response
            }
        });
        let mut stop = stop_rx.clone();
        let alive = alive_rx.clone();
        let open = Arc::clone(&open);
        tokio::spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(limits.header_timeout);
            let connection = builder.serve_connection(TokioIo::new(stream), TowerToHyperService::new(service));
            tokio::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = evicted => {}
                _ = stop.changed() => {
                    connection.as_mut().graceful_shutdown();
                    connection.await.ok();
                }
            }
            open.remove(id);
            drop((permit, alive));
        });
    }
    drop(listener);
    stop_tx.send(()).ok();
    drop(alive_rx);
    alive_tx.closed().await;
    Ok(())
}

/// The open connections: whether each has a request in progress, and since
/// when it has had none.
#[derive(Default)]
struct Connections {
    next_id: AtomicU64,
    table: Mutex<HashMap<u64, Connection>>,
}

struct Connection {
    requests: usize,
    idle_since: Instant,
    evict: Option<oneshot::Sender<()>>,
}

impl Connections {
    fn add(&self) -> (u64, oneshot::Receiver<()>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (evict, evicted) = oneshot::channel();
        let connection = Connection { requests: 0, idle_since: Instant::now(), evict: Some(evict) };
        self.lock().insert(id, connection);
        (id, evicted)
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Marks a request in progress on `id` until the guard is dropped.
    fn busy(self: &Arc<Self>, id: u64) -> Busy {
        if let Some(connection) = self.lock().get_mut(&id) {
            connection.requests += 1;
        }
        Busy { connections: Arc::clone(self), id }
    }

    /// Closes the connection that has waited longest with no request in progress.
    fn evict_idlest(&self) {
        let mut table = self.lock();
        let idlest = table
            .iter_mut()
            .filter(|(_, c)| c.requests == 0 && c.evict.is_some())
            .min_by_key(|(_, c)| c.idle_since)
            .map(|(_, c)| c);
        if let Some(evict) = idlest.and_then(|c| c.evict.take()) {
            evict.send(()).ok();
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Connection>> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }
}

struct Busy {
    connections: Arc<Connections>,
    id: u64,
}

impl Drop for Busy {
    fn drop(&mut self) {
        if let Some(connection) = self.connections.lock().get_mut(&self.id) {
            connection.requests -= 1;
            connection.idle_since = Instant::now();
        }
    }
}
