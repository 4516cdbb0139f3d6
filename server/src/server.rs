//! The HTTP/1.1 server loop, with the limits `axum::serve` lacks
//! (docs/security.md, Slow clients):
//!
//! - a cap on open connections below the process's file limit; at the cap,
//!   the connection idle the longest (no request in progress) makes room for
//!   the new one, so a flood of stalled sockets cannot keep real clients out;
//! - a header deadline: once a request's first bytes arrive, its headers must
//!   be complete within `header_timeout`;
//! - an idle deadline: a connection with no request in progress is closed
//!   after `idle_timeout`, longer than browsers keep idle connections, so a
//!   browser never sends a request on a connection we are closing;
//! - and, in `build_app`, a deadline between the pieces of a request body.

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{Semaphore, oneshot, watch};
use tower::ServiceExt;

use crate::Config;

/// Connection limits, from the configuration.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub max_connections: usize,
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
}

impl Limits {
    pub fn of(config: &Config) -> Limits {
        Limits {
            max_connections: config.max_connections.max(1),
            header_timeout: config.header_timeout,
            idle_timeout: config.idle_timeout,
        }
    }
}

/// Serves until `shutdown` resolves, then lets the requests in flight finish.
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
    let reaper = tokio::spawn(reap(Arc::clone(&open), limits));
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
        let io = Watched { stream, id, open: Arc::clone(&open) };
        let mut stop = stop_rx.clone();
        let alive = alive_rx.clone();
        let open = Arc::clone(&open);
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(io), TowerToHyperService::new(service));
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
    reaper.abort();
    drop(listener);
    stop_tx.send(()).ok();
    drop(alive_rx);
    alive_tx.closed().await;
    Ok(())
}

/// Closes, every so often, the connections past their header or idle deadline.
async fn reap(open: Arc<Connections>, limits: Limits) {
    let every = (limits.header_timeout / 4).clamp(Duration::from_millis(100), Duration::from_secs(1));
    let mut ticks = tokio::time::interval(every);
    loop {
        ticks.tick().await;
        open.evict_overdue(limits.header_timeout, limits.idle_timeout);
    }
}

/// The open connections: whether each has a request in progress, since when
/// it has had none, and since when the headers of its next request have been
/// arriving.
#[derive(Default)]
struct Connections {
    next_id: AtomicU64,
    table: Mutex<HashMap<u64, Connection>>,
}

struct Connection {
    requests: usize,
    idle_since: Instant,
    receiving_since: Option<Instant>,
    evict: Option<oneshot::Sender<()>>,
}

impl Connection {
    fn evict(&mut self) {
        if let Some(evict) = self.evict.take() {
            evict.send(()).ok();
        }
    }
}

impl Connections {
    fn add(&self) -> (u64, oneshot::Receiver<()>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (evict, evicted) = oneshot::channel();
        let connection =
            Connection { requests: 0, idle_since: Instant::now(), receiving_since: None, evict: Some(evict) };
        self.lock().insert(id, connection);
        (id, evicted)
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Bytes arrived on `id`: with no request in progress, a request's headers have begun.
    fn bytes_arrived(&self, id: u64) {
        if let Some(connection) = self.lock().get_mut(&id) {
            if connection.requests == 0 && connection.receiving_since.is_none() {
                connection.receiving_since = Some(Instant::now());
            }
        }
    }

    /// Marks a request in progress on `id` (its headers are complete) until the guard is dropped.
    fn busy(self: &Arc<Self>, id: u64) -> Busy {
        if let Some(connection) = self.lock().get_mut(&id) {
            connection.requests += 1;
            connection.receiving_since = None;
        }
        Busy { connections: Arc::clone(self), id }
    }

    /// Closes the connection that has waited longest with no request in progress.
    fn evict_idlest(&self) {
        let mut table = self.lock();
        let idlest = table
            .values_mut()
            .filter(|c| c.requests == 0 && c.evict.is_some())
            .min_by_key(|c| c.receiving_since.unwrap_or(c.idle_since));
        if let Some(connection) = idlest {
            connection.evict();
        }
    }

    /// Closes the connections whose headers are late or that have been idle too long.
    fn evict_overdue(&self, header_timeout: Duration, idle_timeout: Duration) {
        for connection in self.lock().values_mut().filter(|c| c.requests == 0) {
            let overdue = match connection.receiving_since {
                Some(since) => since.elapsed() >= header_timeout,
                None => connection.idle_since.elapsed() >= idle_timeout,
            };
            if overdue {
                connection.evict();
            }
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

/// A connection's socket, telling the table when bytes arrive.
struct Watched {
    stream: TcpStream,
    id: u64,
    open: Arc<Connections>,
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.open.bytes_arrived(self.id);
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, data: &[u8]) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, data)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}
