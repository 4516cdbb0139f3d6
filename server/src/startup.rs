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
use crate::db::{self, Db};
use crate::error::AppError;
use crate::outbound::media::MediaStore;
use crate::platform::config::{self, Config};
use crate::platform::rate_limit::Throttles;
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
    #[error("off-site copy: {0}")]
    Offsite(String),
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

impl AppState {
    /// Creates the data dir if needed, opens and migrates the database, and loads the token secret.
    pub fn open(config: Config) -> Result<AppState, StartError> {
        let dir_error = |source| StartError::DataDir { dir: config.data_dir.display().to_string(), source };
        files::create_private_dir(&config.data_dir).map_err(dir_error)?;
        db::make_private(&config.data_dir).map_err(dir_error)?;
        let db = match &config.database_url {
            Some(url) => Db::open_postgres(url.expose(), config.database_pool, config.database_ca.as_deref())?,
            None => Db::open(&config.data_dir)?,
        };

        let tokens =
            TokenKeys::load(&config.data_dir, config.jwt_secret.as_ref().map(config::Secret::expose), config.token_ttl)
                .map_err(|err| match err.kind() {
                    std::io::ErrorKind::InvalidInput => StartError::Secret(err.to_string()),
                    _ => dir_error(err),
                })?;
        let media = MediaStore::new(&config.data_dir).map_err(dir_error)?;
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
        Ok(AppState {
            payments,
            origin,
            gateway_token: gateway_token.into(),
            throttles: Arc::new(Throttles::new(&config)),
            config: Arc::new(config),
            db,
            tokens: Arc::new(tokens),
            media,
            mailer: mailer::Mailer::default(),
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
}

impl Application {
    /// Opens the data dir, listens on `addr` (port 0: any free port), tidies once (a
    /// server starts with nothing overdue), and starts the workers.
    pub async fn build(config: Config, addr: SocketAddr) -> Result<Application, StartError> {
        let state = AppState::open(config)?;
        let listener = bind(addr).map_err(|source| StartError::Listen { addr, source })?;
        let origin = format!("http://{}", listener.local_addr().map_err(|source| StartError::Listen { addr, source })?);
        state.origin.set(origin.clone()).ok();
        mailer::spawn(&state.config, &state.db, &state.mailer).map_err(StartError::Secret)?;
        sms::spawn(&state.config, &state.db, &state.mailer);
        providers::spawn_poller(&state.db, &state.payments);
        if let Some(offsite) = &state.config.offsite {
            crate::outbound::offsite::spawn(offsite, &state.config.data_dir, &state.db, &state.mailer)
                .map_err(StartError::Offsite)?;
        }
        let housekeeping = state.housekeeping();
        if let Err(err) = housekeeping.run_once().await {
            tracing::warn!(%err, "could not tidy at start");
        }
        housekeeping.spawn();
        Ok(Application { state, listener, origin })
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
        serve(self.listener, build_app(self.state), limits, shutdown).await
    }
}
