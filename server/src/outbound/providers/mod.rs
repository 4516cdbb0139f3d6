//! Payment providers (docs/payments.md) behind one small interface: start a
//! collection with our payment id as the provider's idempotency key, ask how
//! a payment stands, and read a callback. The simulator is the default and
//! needs no keys; it goes through the same code paths, callbacks included.
//! The poller settles what callbacks did not.

pub mod pawapay;
pub mod simulator;

use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::http::HeaderMap;

use crate::db::Db;
use crate::domain::payments::{self as rules, Outcome};

pub use pawapay::PawaPay;
pub use simulator::Simulator;

/// What to collect, and from whom.
#[derive(Debug, Clone)]
pub struct Collection {
    /// Our payment id: the provider's idempotency key.
    pub uid: String,
    pub amount_cents: i64,
    pub currency: String,
    pub operator: String,
    pub phone: String,
}

/// Money given back for a payment that succeeded.
#[derive(Debug, Clone)]
pub struct Refund {
    /// Our refund id: the provider's idempotency key.
    pub uid: String,
    /// The payment it gives back (our payment id).
    pub payment_uid: String,
    pub amount_cents: i64,
    pub currency: String,
}

/// Money sent to a member's wallet (a cooperative's payout).
#[derive(Debug, Clone)]
pub struct Payout {
    /// Our payout id: the provider's idempotency key.
    pub uid: String,
    pub amount_cents: i64,
    pub currency: String,
    pub operator: String,
    /// Digits with the country code.
    pub phone: String,
}

/// The interface every provider implements.
pub(crate) trait PaymentProvider {
    fn name(&self) -> &'static str;
    /// Asks for the money. A timeout or an unclear answer is `Unknown`, never a failure.
    async fn start(&self, collection: &Collection) -> Outcome;
    /// How the payment stands at the provider.
    async fn status(&self, uid: &str) -> Outcome;
    /// The payment a callback says it is about, read from its body alone (nothing
    /// verified, nobody asked): what throttles and repeats are counted against.
    fn claimed(&self, body: &[u8]) -> Option<String>;
    /// Verifies and reads a callback: the payment it is about and its outcome.
    async fn callback(&self, headers: &HeaderMap, body: &[u8]) -> Result<(String, Outcome), String>;
    /// Asks for a refund to the payer's wallet. Unclear is `Unknown`, never a failure.
    async fn refund(&self, refund: &Refund) -> Outcome;
    /// How a refund stands at the provider.
    async fn refund_status(&self, uid: &str) -> Outcome;
    /// Sends money to a wallet. Unclear is `Unknown`, never a failure.
    async fn payout(&self, payout: &Payout) -> Outcome;
    /// How a payout stands at the provider.
    async fn payout_status(&self, uid: &str) -> Outcome;
}

/// The provider this server uses.
#[derive(Clone)]
pub enum Provider {
    Simulator(Arc<Simulator>),
    PawaPay(Arc<PawaPay>),
}

impl Provider {
    pub fn name(&self) -> &'static str {
        match self {
            Provider::Simulator(p) => p.name(),
            Provider::PawaPay(p) => p.name(),
        }
    }
    pub async fn start(&self, collection: &Collection) -> Outcome {
        match self {
            Provider::Simulator(p) => p.start(collection).await,
            Provider::PawaPay(p) => p.start(collection).await,
        }
    }
    /// No real money moves: the built-in simulator answers.
    pub fn is_simulated(&self) -> bool {
        matches!(self, Provider::Simulator(_))
    }

    pub fn claimed(&self, body: &[u8]) -> Option<String> {
        match self {
            Provider::Simulator(p) => p.claimed(body),
            Provider::PawaPay(p) => p.claimed(body),
        }
    }
    pub async fn status(&self, uid: &str) -> Outcome {
        match self {
            Provider::Simulator(p) => p.status(uid).await,
            Provider::PawaPay(p) => p.status(uid).await,
        }
    }
    pub async fn callback(&self, headers: &HeaderMap, body: &[u8]) -> Result<(String, Outcome), String> {
        match self {
            Provider::Simulator(p) => p.callback(headers, body).await,
            Provider::PawaPay(p) => p.callback(headers, body).await,
        }
    }
    pub async fn refund(&self, refund: &Refund) -> Outcome {
        match self {
            Provider::Simulator(p) => p.refund(refund).await,
            Provider::PawaPay(p) => p.refund(refund).await,
        }
    }
    pub async fn refund_status(&self, uid: &str) -> Outcome {
        match self {
            Provider::Simulator(p) => p.refund_status(uid).await,
            Provider::PawaPay(p) => p.refund_status(uid).await,
        }
    }
    pub async fn payout(&self, payout: &Payout) -> Outcome {
        match self {
            Provider::Simulator(p) => p.payout(payout).await,
            Provider::PawaPay(p) => p.payout(payout).await,
        }
    }
    pub async fn payout_status(&self, uid: &str) -> Outcome {
        match self {
            Provider::Simulator(p) => p.payout_status(uid).await,
            Provider::PawaPay(p) => p.payout_status(uid).await,
        }
    }
    /// The simulator, when it is the provider (its prompts are answered in the demo).
    pub fn simulator(&self) -> Option<&Arc<Simulator>> {
        match self {
            Provider::Simulator(p) => Some(p),
            Provider::PawaPay(_) => None,
        }
    }
}

/// Where this server answers, once it listens: the simulator posts its
/// callbacks there, as a real provider would to our public address.
pub type Origin = Arc<OnceLock<String>>;

/// How often the poller looks for payments due a status check.
const POLL: Duration = Duration::from_secs(2);

/// How long the poller's lease lasts: another node takes the checks over this long
/// after the one making them stopped (docs/operations.md, Several nodes).
const POLLER_LEASE: Duration = Duration::from_secs(10);

/// Starts the poller: payments not settled whose check is due are asked
/// about, and settled, or checked again later, or expired; so are pending refunds.
/// One node polls for all (its lease renewed each round), so each is asked about once.
pub fn spawn_poller(db: &Db, payments: &Provider) {
    let (db, payments) = (db.clone(), payments.clone());
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(POLL);
        loop {
            tick.tick().await;
            let polled = match db.lease("payment_poller", POLLER_LEASE).await {
                Ok(true) => {
                    let started = std::time::Instant::now();
                    let polled = poll_once(&db, &payments).await.map(drop);
                    db.metrics().ran("payment_poller", started.elapsed());
                    polled
                }
                Ok(false) => Ok(()),
                Err(err) => Err(err),
            };
            if let Err(err) = polled {
                tracing::warn!(%err, "payment checks failed");
            }
        }
    });
}

/// One round of status checks (payments, then refunds); public for tests
/// that do not want to wait. Answers how many were asked about.
pub async fn poll_once(db: &Db, payments: &Provider) -> crate::error::ApiResult<usize> {
    let due = db.read(|conn| Ok(crate::db::payments::due(conn, &crate::platform::clock::now(), 20)?)).await?;
    let count = due.len();
    for payment in due {
        let outcome = payments.status(&payment.uid).await;
        let reached = outcome.state();
        let moved = db
            .write(move |tx| {
                let (_, moved) = rules::settle(tx, &payment.uid, &outcome, "check")?;
                if !moved {
                    rules::after_check(tx, &payment)?;
                }
                Ok(moved)
            })
            .await?;
        if moved {
            db.metrics().payment_moved(payments.name(), reached);
        }
    }
    // Orders whose payment was refused or expired and that nobody paid since.
    if !db.read(rules::lapsed_unpaid).await?.is_empty() {
        db.write(rules::release_unpaid).await?;
    }
    let refunds = db.read(|conn| Ok(crate::db::refunds::due(conn, &crate::platform::clock::now(), 20)?)).await?;
    let count = count + refunds.len();
    for refund in refunds {
        let outcome = payments.refund_status(&refund.uid).await;
        db.write(move |tx| {
            let (_, moved) = rules::settle_refund(tx, &refund.uid, &outcome)?;
            if !moved {
                rules::after_refund_check(tx, &refund)?;
            }
            Ok(())
        })
        .await?;
    }
    // Members' payouts by mobile money (docs/cooperatives.md, Payouts).
    let payouts = db.read(|conn| Ok(crate::db::payouts::due(conn, &crate::platform::clock::now(), 20)?)).await?;
    let count = count + payouts.len();
    for payout in payouts {
        let outcome = payments.payout_status(&payout.uid).await;
        let paid = matches!(outcome, Outcome::Succeeded { .. });
        let moved = db
            .write(move |tx| {
                let (_, moved) = crate::domain::cooperatives::payouts::settle(tx, &payout.uid, &outcome)?;
                if !moved {
                    crate::domain::cooperatives::payouts::after_check(tx, &payout)?;
                }
                Ok(moved)
            })
            .await?;
        if moved {
            db.metrics().payout_moved(paid);
        }
    }
    Ok(count)
}
