//! What the server tidies every hour, so nothing grows without bound
//! (docs/security.md, Retention): expired sessions, pictures nothing uses, emails
//! and SMS older than `EMAILS_KEPT` (sent or given up), payment callbacks older
//! than `CALLBACKS_KEPT`, what USSD sessions learned and the ids of answered SMS
//! after a day, reset links and codes expired that long, and the tombstones of
//! applications and favourites deleted more than `TOMBSTONES_KEPT` ago (raising
//! the sync horizon: a phone that has not synced since is told to take a new
//! snapshot). A device's sync results are bounded as they are written
//! (`db::sync::RESULTS_KEPT`).
//!
//! It also does what is due by the calendar (docs/prices.md): deliveries made
//! before market prices existed become price observations, and on Monday mornings
//! the weekly price SMS go out. And it merges the catalogue's search index into one
//! segment (`db::product_search::compact_search`), which the day's listings had split.

use std::time::Duration;

use crate::db::sync::{self, Purgeable};
use crate::db::{Db, outbox, password_resets, payments, product_search, sessions, sms, throttles, ussd_memos};
use crate::domain::prices;
use crate::error::ApiResult;
use crate::outbound::media::MediaStore;
use crate::platform::clock;

/// An email (or SMS) is kept this long after it was written: long enough to look
/// up what was sent, and a message still unsent after that is no longer news.
pub const EMAILS_KEPT: Duration = Duration::from_secs(30 * 24 * 3600);

/// A payment callback is kept this long (to look into a disputed payment).
pub const CALLBACKS_KEPT: Duration = Duration::from_secs(90 * 24 * 3600);

/// A deletion is sent to phones for this long; a phone that stays away longer
/// takes a new snapshot instead.
pub const TOMBSTONES_KEPT: Duration = Duration::from_secs(90 * 24 * 3600);

/// What one round removed.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Tidied {
    pub sessions: usize,
    pub pictures: usize,
    pub emails: usize,
    pub unsent_emails: usize,
    pub tombstones: usize,
    /// Delivered order lines turned into market prices.
    pub sales_prices: usize,
    /// Weekly price SMS written.
    pub price_alerts: usize,
}

/// What a round works on: the database and the pictures (`AppState::housekeeping` makes it).
#[derive(Clone)]
pub struct Housekeeping {
    pub db: Db,
    pub media: MediaStore,
    /// How long an upload nothing uses is kept (`Config::upload_grace`).
    pub upload_grace: Duration,
}

impl Housekeeping {
    pub async fn run_once(&self) -> ApiResult<Tidied> {
        self.run_at(time::OffsetDateTime::now_utc()).await
    }

    /// A round as it would run at `at` (what is due by the calendar; the rest by now).
    pub async fn run_at(&self, at: time::OffsetDateTime) -> ApiResult<Tidied> {
        let now = clock::now();
        let emails_before = clock::before_now(EMAILS_KEPT);
        let deleted_before = clock::before_now(TOMBSTONES_KEPT);
        let callbacks_before = clock::before_now(CALLBACKS_KEPT);
        let (sessions, (emails, unsent_emails), tombstones) = self
            .db
            .write(move |tx| {
                let mut tombstones = 0;
                for table in [Purgeable::Surveys, Purgeable::Favourites] {
                    let (removed, newest) = sync::purge_tombstones(tx, table, &deleted_before)?;
                    sync::raise_horizon(tx, newest)?;
                    tombstones += removed;
                }
                sms::prune(tx, &emails_before)?;
                payments::prune_callbacks(tx, &callbacks_before)?;
                password_resets::prune(tx, &emails_before)?;
                ussd_memos::prune(tx, &clock::before_now(crate::domain::basic_phones::MEMOS_KEPT))?;
                throttles::prune(tx)?;
                Ok((sessions::purge_expired(tx, &now)?, outbox::prune(tx, &emails_before)?, tombstones))
            })
            .await?;
        let (sales_prices, price_alerts) =
            self.db.write(move |tx| Ok((prices::sales::observe(tx)?, prices::alerts::send_due(tx, at)?))).await?;
        self.db.write(|tx| Ok(product_search::compact_search(tx)?)).await?;
        let pictures = self.collect_unused(self.upload_grace).await?;
        Ok(Tidied { sessions, pictures, emails, unsent_emails, tombstones, sales_prices, price_alerts })
    }

    /// Forgets uploads nothing has used for `grace` and removes the pictures
    /// nothing uses any more: photos of removed products, replaced avatars,
    /// uploads never named by a change (docs/security.md, Disk).
    pub async fn collect_unused(&self, grace: Duration) -> ApiResult<usize> {
        let before = clock::before_now(grace);
        let used = self.db.write(move |tx| crate::domain::uploads::forget_unused(tx, &before)).await?;
        self.media.remove_unused(used, grace).await
    }

    /// Runs a round every hour from an hour on (the server ran one as it started:
    /// `startup::Application::build`), logging what it removed. With several nodes on
    /// one database, the one that holds the lease runs it: a round about every hour in
    /// all. (A round is safe twice: what it removes is gone, what it sends is marked.)
    pub fn spawn(self) {
        tokio::spawn(async move {
            let hour = Duration::from_secs(3600);
            let mut hourly = tokio::time::interval_at(tokio::time::Instant::now() + hour, hour);
            loop {
                hourly.tick().await;
                match self.db.lease("housekeeping", hour - Duration::from_secs(600)).await {
                    Ok(true) => {}
                    Ok(false) => continue,
                    Err(err) => {
                        tracing::warn!(%err, "could not tidy");
                        continue;
                    }
                }
                let started = std::time::Instant::now();
                let tidied = self.run_once().await;
                self.db.metrics().ran("housekeeping", started.elapsed());
                match tidied {
                    Ok(tidied) if tidied.unsent_emails > 0 => {
                        tracing::warn!(?tidied, "tidied; some old emails were never sent")
                    }
                    Ok(tidied) if tidied != Tidied::default() => tracing::info!(?tidied, "tidied"),
                    Ok(_) => {}
                    Err(err) => tracing::warn!(%err, "could not tidy"),
                }
            }
        });
    }
}
