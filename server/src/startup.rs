//! How the server starts, the same for `mavuno serve` and the tests: `AppState::open`
//! prepares the data dir and the database, `build_app` makes the router, and
//! `Application::build` does both, listens, runs a first round of housekeeping and starts
//! the background workers (email and SMS outboxes, the payment poller, the hourly
//! housekeeping), so a test runs the server production runs.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::Router;
use axum::response::IntoResponse;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{NotForContentType, Predicate, SizeAbove};
use tower_http::timeout::RequestBodyTimeoutLayer;

use crate::auth::TokenKeys;
use crate::db::throttles::Throttles;
use crate::db::{self, Db};
use crate::error::AppError;
use crate::outbound::media::MediaStore;
use crate::platform::config::{self, Config};
use crate::platform::request_id;
use crate::platform::server::{Limits, serve};
use crate::state::AppState;
use crate::{
    api, auth, outbound::mailer, outbound::providers, outbound::sms, platform::cache, platform::files,
    platform::middleware, web,
};

/// Bounds the market prices' cache.
const PRICES_CACHE_BYTES: usize = 2 * 1024 * 1024;
/// What the catalogue cache may hold: ~400 pages of 24 products with their brotli form.
const CATALOGUE_CACHE_BYTES: usize = 8 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot use data dir {dir}: {source}")]
    DataDir { dir: String, source: std::io::Error },
    #[error("cannot open the database: {0}")]
    Database(#[from] crate::db::Error),
    #[error("{0}")]
    Secret(String),
    #[error("picture store: {0}")]
    Media(String),
    #[error("off-site copy: {0}")]
    Offsite(String),
    #[error(
        "another mavuno server is serving from {0}: SQLite is served by one process (several nodes need PostgreSQL: docs/operations.md, Several nodes)"
    )]
    DataDirInUse(String),
    #[error("cannot listen on {addr}: {source}")]
    Listen { addr: SocketAddr, source: std::io::Error },
}

/// Where the gateway secret is kept when none is configured.
const GATEWAY_TOKEN_FILE: &str = "gateway-token";

/// The gateway secret: the configured one, else the one kept in the data dir (made on first start).
pub fn gateway_token(config: &Config) -> Result<String, StartError> {
    match &config.gateway_token {
        Some(token) if token.expose().len() < 32 => {
            Err(StartError::Secret("MAVUNO_GATEWAY_TOKEN must be at least 32 characters".to_owned()))
        }
        Some(token) => Ok(token.expose().to_owned()),
        None => auth::load_or_create_secret(&config.data_dir.join(GATEWAY_TOKEN_FILE))
            .map_err(|source| StartError::DataDir { dir: config.data_dir.display().to_string(), source }),
    }
}

/// Makes the secret kept in `file` (the tokens' key, the gateway's) the one every node
/// shares. On PostgreSQL the database keeps it: the first node to start puts its own
/// there (made now, or the one its data dir had, so what it signed stays good), and each
/// node copies it into its data dir, where the server and the tools read it. On SQLite,
/// one server, the data dir's file is the secret.
async fn share_secret(db: &Db, file: std::path::PathBuf, key: &'static str) -> Result<(), StartError> {
    if db.engine() == db::Engine::Sqlite {
        return Ok(());
    }
    let dir_error = |source| StartError::DataDir { dir: file.display().to_string(), source };
    let own = auth::load_or_create_secret(&file).map_err(dir_error)?;
    let offered = own.clone();
    let shared = db
        .write(move |tx| match db::meta::get(tx, key)? {
            Some(shared) => Ok(shared),
            None => {
                db::meta::set(tx, key, &offered)?;
                Ok(offered)
            }
        })
        .await
        .map_err(|err| StartError::Secret(format!("cannot share the {key} through the database: {err}")))?;
    if shared != own {
        auth::write_private(&file, &shared).map_err(dir_error)?;
    }
    Ok(())
}

impl AppState {
    /// Creates the data dir if needed, opens and migrates the database, and loads the token secret.
    pub async fn open(config: Config) -> Result<AppState, StartError> {
        let dir_error = |source| StartError::DataDir { dir: config.data_dir.display().to_string(), source };
        files::create_private_dir(&config.data_dir).map_err(dir_error)?;
        if config.database_read_url.is_some() && config.database_url.is_none() {
            let why = "--database-read-url is a replica of --database-url's PostgreSQL: give both, or neither";
            return Err(StartError::Database(db::Error::Other(why.to_owned())));
        }
        let db = match &config.database_url {
            Some(url) => Db::open_postgres(
                url.expose(),
                config.database_read_url.as_ref().map(config::Secret::expose),
                config.database_pool,
                config.database_ca.as_deref(),
            )?,
            None => {
                // On PostgreSQL the data dir holds no SQLite file (only media/ and the secrets).
                db::make_private(&config.data_dir).map_err(dir_error)?;
                Db::open(&config.data_dir)?
            }
        };
        if config.jwt_secret.is_none() {
            share_secret(&db, config.data_dir.join(auth::SECRET_FILE), "jwt_secret").await?;
        }
        if config.gateway_token.is_none() {
            share_secret(&db, config.data_dir.join(GATEWAY_TOKEN_FILE), "gateway_token").await?;
        }

        let tokens =
            TokenKeys::load(&config.data_dir, config.jwt_secret.as_ref().map(config::Secret::expose), config.token_ttl)
                .map_err(|err| match err.kind() {
                    std::io::ErrorKind::InvalidInput => StartError::Secret(err.to_string()),
                    _ => dir_error(err),
                })?;
        let media = match &config.media {
            Some(settings) => MediaStore::in_store(&config.data_dir, settings).map_err(StartError::Media)?,
            None => MediaStore::new(&config.data_dir).map_err(dir_error)?,
        };
        let origin = providers::Origin::default();
        // The simulator signs its callbacks with a key of this process's own.
        let secret = uuid::Uuid::new_v4().as_bytes().to_vec();
        let payments = match &config.pawapay {
            Some(settings) => {
                providers::Provider::PawaPay(Arc::new(providers::PawaPay::new(&settings.url, settings.token.expose())))
            }
            None => providers::Provider::Simulator(Arc::new(providers::Simulator::new(
                config.simulator_delay,
                secret,
                Arc::clone(&origin),
            ))),
        };
        let gateway_token = gateway_token(&config)?;
        if config.metrics_token.as_ref().is_some_and(|token| token.expose().len() < 32) {
            return Err(StartError::Secret("MAVUNO_METRICS_TOKEN must be at least 32 characters".to_owned()));
        }
        Ok(AppState {
            payments,
            origin,
            gateway_token: gateway_token.into(),
            throttles: Arc::new(Throttles::new(&config, &db)),
            config: Arc::new(config),
            db,
            tokens: Arc::new(tokens),
            media,
            catalogue_cache: Arc::new(cache::VersionedCache::new(512, CATALOGUE_CACHE_BYTES)),
            prices_cache: Arc::new(cache::VersionedCache::new(256, PRICES_CACHE_BYTES)),
        })
    }
}

pub fn build_app(state: AppState) -> Router {
    let web = web::routes(state.config.web_dir.as_deref(), &state.media);
    Router::new()
        .merge(api::routes())
        .merge(web)
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&state.config), middleware::security_headers))
        // A body that stops arriving frees its connection (and its share of the picture budget).
        .layer(RequestBodyTimeoutLayer::new(state.config.body_timeout))
        // Not below 1 KB: a small answer saves a few hundred bytes at most, and brotli's
        // half-megabyte tables, allocated and freed for each, cost a sync push a third
        // of its time (page faults and the other core's TLB flushed on each free).
        .layer(
            CompressionLayer::new().compress_when(
                SizeAbove::new(1024)
                    .and(NotForContentType::GRPC)
                    .and(NotForContentType::IMAGES)
                    .and(NotForContentType::SSE),
            ),
        )
        .layer(CatchPanicLayer::custom(|_| AppError::internal("handler panicked").into_response()))
        .layer(axum::middleware::from_fn(middleware::log_request))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(&state.config), request_id::assign))
        .layer(axum::middleware::from_fn_with_state(Arc::clone(state.db.metrics()), middleware::observe))
        .with_state(state)
}

/// Listens on `addr` with room for 4,096 connections not yet taken (the kernel caps it at
/// `net.core.somaxconn`). The usual 128 overflowed when thousands of phones came at once,
/// as after a restart (docs/operations.md, Capacity): each one refused waited a second to retry.
fn bind(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() { tokio::net::TcpSocket::new_v4()? } else { tokio::net::TcpSocket::new_v6()? };
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(4096)
}

/// The server, open and listening, its workers running; `run_until` serves it.
pub struct Application {
    state: AppState,
    listener: tokio::net::TcpListener,
    origin: String,
    /// On SQLite, the data dir's lock, held while the server serves.
    _serving: Option<std::fs::File>,
}

impl Application {
    /// Opens the data dir, listens on `addr` (port 0: any free port), tidies once (a
    /// server starts with nothing overdue), and starts the workers.
    pub async fn build(config: Config, addr: SocketAddr) -> Result<Application, StartError> {
        let serving = match config.database_url {
            None => Some(lock_data_dir(&config.data_dir).await?),
            Some(_) => None,
        };
        let state = AppState::open(config).await?;
        let listener = bind(addr).map_err(|source| StartError::Listen { addr, source })?;
        let origin = format!("http://{}", listener.local_addr().map_err(|source| StartError::Listen { addr, source })?);
        state.origin.set(origin.clone()).ok();
        mailer::spawn(&state.config, &state.db).map_err(StartError::Secret)?;
        sms::spawn(&state.config, &state.db);
        providers::spawn_poller(&state.db, &state.payments);
        if let Some(offsite) = &state.config.offsite {
            crate::outbound::offsite::spawn(offsite, &state.config.data_dir, &state.db).map_err(StartError::Offsite)?;
        }
        let housekeeping = state.housekeeping();
        if let Err(err) = housekeeping.run_once().await {
            tracing::warn!(%err, "could not tidy at start");
        }
        housekeeping.spawn();
        Ok(Application { state, listener, origin, _serving: serving })
    }

    pub fn state(&self) -> &AppState {
        &self.state
    }

    /// `http://` and the address it listens on.
    pub fn origin(&self) -> &str {
        &self.origin
    }

    /// Serves until `shutdown` completes, then lets requests in progress finish.
    pub async fn run_until(self, shutdown: impl Future<Output = ()> + Send + 'static) -> std::io::Result<()> {
        let limits = Limits::of(&self.state.config);
        let served = serve(self.listener, build_app(self.state), limits, shutdown).await;
        drop(self._serving);
        served
    }
}

/// The file a serving process locks in a SQLite data dir.
const SERVING_LOCK: &str = "serving.lock";

/// Locks the data dir for this process: two servers on one SQLite file would each keep
/// their own wake-ups, limits and workers. The lock is the kernel's (`flock`), so it ends
/// with the process however it ends. A server that just stopped may still be finishing
/// its last requests: a start waits up to 5 s for it before refusing.
async fn lock_data_dir(dir: &std::path::Path) -> Result<std::fs::File, StartError> {
    let dir_error = |source| StartError::DataDir { dir: dir.display().to_string(), source };
    files::create_private_dir(dir).map_err(dir_error)?;
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(dir.join(SERVING_LOCK))
        .map_err(dir_error)?;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match try_lock(&file) {
            Ok(()) => return Ok(file),
            Err(err) if err.kind() == std::io::ErrorKind::WouldBlock => {
                if tokio::time::Instant::now() >= deadline {
                    return Err(StartError::DataDirInUse(dir.display().to_string()));
                }
                tokio::time::sleep(std::time::Duration::from_millis(100)).await;
            }
            Err(err) => return Err(dir_error(err)),
        }
    }
}

/// `flock(LOCK_EX | LOCK_NB)`: `File::try_lock` is newer than our rust-version.
#[allow(unsafe_code)]
fn try_lock(file: &std::fs::File) -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    // SAFETY: flock only reads the descriptor, which `file` keeps open.
    if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}
