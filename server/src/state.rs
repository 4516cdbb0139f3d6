//! What every handler shares: the handles of the database, the tokens, the throttles,
//! the pictures, the outboxes, the caches and the payment provider. `startup` opens it
//! (`AppState::open`); `api/`, `web/` and `demo/` take it. The workers below them take
//! only the handles they use (`housekeeping::Housekeeping`, the outboxes' `spawn`), and
//! the sign-in extractors take the tokens and the database through `FromRef`, so
//! nothing under this module imports it back.

use std::sync::Arc;

use axum::extract::FromRef;

use crate::auth::TokenKeys;
use crate::db::Db;
use crate::db::throttles::Throttles;
use crate::housekeeping::Housekeeping;
use crate::outbound::media::MediaStore;
use crate::outbound::providers;
use crate::platform::cache;
use crate::platform::config::Config;

#[derive(Clone)]
pub struct AppState {
    pub config: Arc<Config>,
    pub db: Db,
    pub tokens: Arc<TokenKeys>,
    /// Sign-in, sign-up and contact throttles.
    pub throttles: Arc<Throttles>,
    pub media: MediaStore,
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
}

impl AppState {
    /// What the hourly round works on.
    pub fn housekeeping(&self) -> Housekeeping {
        Housekeeping { db: self.db.clone(), media: self.media.clone(), upload_grace: self.config.upload_grace }
    }
}

impl FromRef<AppState> for Db {
    fn from_ref(state: &AppState) -> Db {
        state.db.clone()
    }
}

impl FromRef<AppState> for Arc<TokenKeys> {
    fn from_ref(state: &AppState) -> Arc<TokenKeys> {
        Arc::clone(&state.tokens)
    }
}
