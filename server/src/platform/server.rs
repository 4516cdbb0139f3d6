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
//!
//! A connection upgraded to a WebSocket (a phone listening, api/sync) leaves hyper and
//! these deadlines (its own heartbeat closes a silent one) but keeps its slot.

use std::collections::HashMap;
use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
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
use tokio::sync::{OwnedSemaphorePermit, Semaphore, oneshot, watch};
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
    let open = Arc::new(Connections::new());
    let (stop_tx, stop_rx) = watch::channel(());
    // Every connection holds a clone; once all are dropped, every connection has finished.
    let (alive_tx, alive_rx) = watch::channel(());
    let reaper = tokio::spawn(reap(Arc::clone(&open), limits));
    let trimmer = tokio::spawn(give_back_memory());
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
        let (id, conn, evicted) = open.add();
        let app = app.clone();
        let tracked = Arc::clone(&conn);
        let service = tower::service_fn(move |mut request: axum::http::Request<Incoming>| {
            request.extensions_mut().insert(ConnectInfo::<SocketAddr>(peer));
            let busy = Busy::start(&tracked);
            let response = app.clone().oneshot(request.map(Body::new));
            async move {
                let response = response.await;
                drop(busy);
                response
            }
        });
        // The socket holds the connection's slot: one upgraded to a WebSocket (a phone
        // listening, api/sync) leaves hyper and this task, and still counts.
        let io = Watched { stream, conn, _slot: permit };
        let mut stop = stop_rx.clone();
        let alive = alive_rx.clone();
        let open = Arc::clone(&open);
        tokio::spawn(async move {
            let connection = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(io), TowerToHyperService::new(service))
                .with_upgrades();
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
            drop(alive);
        });
    }
    reaper.abort();
    trimmer.abort();
    drop(listener);
    stop_tx.send(()).ok();
    drop(alive_rx);
    alive_tx.closed().await;
    Ok(())
}

/// Every half minute, hands the memory freed since back to the system. Each open
/// HTTP connection holds ~20 KB (hyper's two 8 KB buffers, its task, the request waiting);
/// after ten thousand phones had waited and gone, glibc's allocator kept all 240 MB
/// of it, free but never returned (`malloc_trim` returns the free pages of every arena).
async fn give_back_memory() {
    let mut ticks = tokio::time::interval(Duration::from_secs(30));
    loop {
        ticks.tick().await;
        trim();
    }
}

#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
fn trim() {
    // SAFETY: malloc_trim takes a byte count and only walks the allocator's own lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn trim() {}

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
/// arriving. Each connection keeps its own state in atomics, so reads and
/// requests never take the table's lock; only opening, closing and the
/// evictions' scans do.
struct Connections {
    epoch: Instant,
    next_id: AtomicU64,
    table: Mutex<HashMap<u64, Arc<Conn>>>,
}

struct Conn {
    epoch: Instant,
    requests: AtomicUsize,
    /// Milliseconds since `epoch`; `receiving_since` is 0 while no headers are arriving.
    idle_since: AtomicU64,
    receiving_since: AtomicU64,
    evict: Mutex<Option<oneshot::Sender<()>>>,
}

impl Conn {
    fn now(&self) -> u64 {
        u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX).max(1)
    }

    fn is_idle(&self) -> bool {
        self.requests.load(Ordering::Relaxed) == 0
    }

    /// When it started waiting: for its headers if they are arriving, else since its last request.
    fn waiting_since(&self) -> u64 {
        match self.receiving_since.load(Ordering::Relaxed) {
            0 => self.idle_since.load(Ordering::Relaxed),
            since => since,
        }
    }

    /// Bytes arrived: with no request in progress, a request's headers have begun.
    fn bytes_arrived(&self) {
        if self.is_idle() {
            self.receiving_since.compare_exchange(0, self.now(), Ordering::Relaxed, Ordering::Relaxed).ok();
        }
    }

    /// Closes it (once); answers whether this call did.
    fn evict(&self) -> bool {
        let sender = self.evict.lock().unwrap_or_else(|p| p.into_inner()).take();
        sender.is_some_and(|sender| sender.send(()).is_ok())
    }
}

impl Connections {
    fn new() -> Connections {
        Connections { epoch: Instant::now(), next_id: AtomicU64::new(0), table: Mutex::new(HashMap::new()) }
    }

    fn add(&self) -> (u64, Arc<Conn>, oneshot::Receiver<()>) {
        let id = self.next_id.fetch_add(1, Ordering::Relaxed);
        let (evict, evicted) = oneshot::channel();
        let conn = Arc::new(Conn {
            epoch: self.epoch,
            requests: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            receiving_since: AtomicU64::new(0),
            evict: Mutex::new(Some(evict)),
        });
        conn.idle_since.store(conn.now(), Ordering::Relaxed);
        self.lock().insert(id, Arc::clone(&conn));
        (id, conn, evicted)
    }

    fn remove(&self, id: u64) {
        self.lock().remove(&id);
    }

    /// Closes the connection that has waited longest with no request in progress.
    fn evict_idlest(&self) {
        let table = self.lock();
        // Each connection's wait is read once: its own task moves it meanwhile, and a sort
        // whose keys change under it is no order at all (Rust's sort then panics, and this
        // runs in the accept loop: a flood at the cap stopped the server).
        let mut idle: Vec<(u64, &Arc<Conn>)> =
            table.values().filter(|c| c.is_idle()).map(|c| (c.waiting_since(), c)).collect();
        idle.sort_by_key(|(since, _)| *since);
        // One already told to close (and not gone yet) does not count.
        idle.into_iter().find(|(_, c)| c.evict());
    }

    /// Closes the connections whose headers are late or that have been idle too long.
    fn evict_overdue(&self, header_timeout: Duration, idle_timeout: Duration) {
        let now = u64::try_from(self.epoch.elapsed().as_millis()).unwrap_or(u64::MAX);
        let millis = |d: Duration| u64::try_from(d.as_millis()).unwrap_or(u64::MAX);
        for conn in self.lock().values().filter(|c| c.is_idle()) {
            let overdue = match conn.receiving_since.load(Ordering::Relaxed) {
                0 => now.saturating_sub(conn.idle_since.load(Ordering::Relaxed)) >= millis(idle_timeout),
                since => now.saturating_sub(since) >= millis(header_timeout),
            };
            if overdue {
                conn.evict();
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u64, Arc<Conn>>> {
        self.table.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// A request in progress on a connection (its headers are complete), until dropped.
struct Busy(Arc<Conn>);

impl Busy {
    fn start(conn: &Arc<Conn>) -> Busy {
        conn.requests.fetch_add(1, Ordering::Relaxed);
        conn.receiving_since.store(0, Ordering::Relaxed);
        Busy(Arc::clone(conn))
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.0.idle_since.store(self.0.now(), Ordering::Relaxed);
        self.0.requests.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A connection's socket, telling its state when bytes arrive.
struct Watched {
    stream: TcpStream,
    conn: Arc<Conn>,
    _slot: OwnedSemaphorePermit,
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.stream).poll_read(cx, buf);
        if matches!(polled, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.conn.bytes_arrived();
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicBool;

    /// At the cap, each new connection evicts the idlest while the others' tasks keep
    /// moving their state: evicting must go on (no panic), one connection at a time.
    #[test]
    fn evicting_holds_while_the_connections_move() {
        let open = Connections::new();
        let (conns, mut evicted): (Vec<_>, Vec<_>) = (0..128).map(|_| open.add()).map(|(_, c, e)| (c, e)).unzip();
        let done = Arc::new(AtomicBool::new(false));
        let movers: Vec<_> = conns
            .chunks(32)
            .map(|part| {
                let (part, done) = (part.to_vec(), Arc::clone(&done));
                std::thread::spawn(move || {
                    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
                    while !done.load(Ordering::Relaxed) {
                        for conn in &part {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            conn.receiving_since.store(x % 1000 + 1, Ordering::Relaxed);
                        }
                    }
                })
            })
            .collect();
        for _ in 0..20_000 {
            open.evict_idlest();
        }
        done.store(true, Ordering::Relaxed);
        for mover in movers {
            mover.join().unwrap();
        }
        // Each eviction closed a different connection, until none was left to close.
        assert!(evicted.iter_mut().all(|e| e.try_recv().is_ok()));
    }
}
