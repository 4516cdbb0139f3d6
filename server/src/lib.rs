//! The MAVUNO server: REST API, sync endpoint and PWA host in one binary.
//!
//! `AppState::open` prepares the data dir, `build_app` makes the router and
//! `serve` runs it; tests use the same three on port 0.

pub mod api;
pub mod auth;
pub mod cache;
pub mod certificate_pdf;
pub mod clock;
pub mod config;
pub mod csv;
pub mod db;
pub mod demo;
pub mod demo_blogs;
pub mod demo_courses;
pub mod demo_orders;
pub mod demo_pictures;
pub mod demo_prices;
pub mod demo_rates;
pub mod domain;
pub mod error;
pub mod files;
pub mod gsm7;
pub mod housekeeping;
pub mod labels;
pub mod mailer;
pub mod media;
pub mod middleware;
pub mod model;
pub mod providers;
pub mod rate_limit;
pub mod server;
pub mod sms;
pub mod web;

use std::sync::Arc;

use axum::Router;
use axum::response::IntoResponse;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::timeout::RequestBodyTimeoutLayer;

pub use config::Config;
pub use server::serve;

use crate::auth::TokenKeys;
use crate::db::Db;
use crate::error::AppError;
use crate::media::MediaStore;
use crate::rate_limit::Throttles;

/// Bounds the market prices' cache.
const PRICES_CACHE_BYTES: usize = 2 * 1024 * 1024;
/// What the catalogue cache may hold: ~400 pages of 24 products with their brotli form.
const CATALOGUE_CACHE_BYTES: usize = 8 * 1024 * 1024;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: Db,
    pub tokens: Arc<TokenKeys>,
    /// Sign-in, sign-up and contact throttles.
    pub throttles: Arc<Throttles>,
    pub media: MediaStore,
    pub mailer: mailer::Mailer,
    /// Catalogue pages, the same for everyone until a product changes.
    pub catalogue_cache: Arc<cache::VersionedCache>,
    /// Market prices' answers (the board, ranges), the same for everyone until a price changes.
    pub prices_cache: Arc<cache::VersionedCache>,
    /// Where mobile-money payments go (the simulator unless configured).
    pub payments: providers::Provider,
    /// This server's own address, known once it listens (`serve` callers set it).
    pub origin: providers::Origin,
    /// The secret last part of the USSD and incoming-SMS addresses (docs/ussd.md).
    pub gateway_token: Arc<str>,
    /// What USSD sessions learned that their answers cannot say again.
    pub ussd_sessions: Arc<api::ussd::session::Sessions>,
}

#[derive(Debug, thiserror::Error)]
pub enum StartError {
    #[error("cannot use data dir {dir}: {source}")]
    DataDir { dir: String, source: std::io::Error },
    #[error("cannot open the database: {0}")]
    Database(#[from] rusqlite::Error),
    #[error("{0}")]
    Secret(String),
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
        let db = Db::open(&config.data_dir)?;

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
            ussd_sessions: Arc::default(),
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
        .layer(CompressionLayer::new())
        .layer(CatchPanicLayer::custom(|_| AppError::internal("handler panicked").into_response()))
        .layer(axum::middleware::from_fn(middleware::log_request))
        .with_state(state)
}
