//! The built-in payment simulator: an operator on this machine. The payer's
//! "phone prompt" takes a moment; the outcome depends on the number's last
//! digit (README, docs/payments.md); its callbacks are signed and posted to
//! our own callback endpoint like a real provider's. Numbers without a test
//! ending wait for someone to answer the prompt (the admin's demo screen).

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::http::HeaderMap;
use hmac::{Hmac, Mac};
use serde::{Deserialize, Serialize};
use sha2::Sha256;

use super::{Collection, Origin, PaymentProvider, Payout, Refund};
use crate::domain::payments::Outcome;

pub const SIGNATURE_HEADER: &str = "x-simulator-signature";

/// What a test number does, by its last digit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scenario {
    /// 1: approved after the prompt's delay.
    Approve,
    /// 2: refused: not enough money.
    InsufficientFunds,
    /// 3: refused by the payer.
    Declined,
    /// 4: approved, but the callback never comes (a status check finds it).
    NoCallback,
    /// 5: approved, and the callback arrives twice.
    DuplicateCallback,
    /// 6: approved after ten times the delay.
    Slow,
    /// 7: never answered (the payment expires).
    Silent,
    /// Anything else: waits for someone to answer the prompt.
    Manual,
}

impl Scenario {
    pub fn of(phone: &str) -> Scenario {
        match phone.chars().last() {
            Some('1') => Scenario::Approve,
            Some('2') => Scenario::InsufficientFunds,
            Some('3') => Scenario::Declined,
            Some('4') => Scenario::NoCallback,
            Some('5') => Scenario::DuplicateCallback,
            Some('6') => Scenario::Slow,
            Some('7') => Scenario::Silent,
            _ => Scenario::Manual,
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Answer {
    Waiting,
    Approved,
    Refused(String),
}

/// A prompt on a simulated phone, for the demo screen.
#[derive(Debug, Clone, Serialize)]
pub struct Prompt {
    pub payment_id: String,
    pub phone: String,
    pub operator: String,
    pub amount_cents: i64,
    pub currency: String,
}

/// The callback's body.
#[derive(Debug, Serialize, Deserialize)]
struct Callback {
    payment_id: String,
    /// `succeeded` or `failed`.
    status: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

pub struct Simulator {
    prompts: Mutex<HashMap<String, (Prompt, Answer)>>,
    /// Refunds and payouts made (by their uid): the money moves at once.
    refunds: Mutex<HashSet<String>>,
    delay: Duration,
    secret: Vec<u8>,
    origin: Origin,
    http: reqwest::Client,
}

impl Simulator {
    pub fn new(delay: Duration, secret: Vec<u8>, origin: Origin) -> Simulator {
        Simulator {
            prompts: Mutex::default(),
            refunds: Mutex::default(),
            delay,
            secret,
            origin,
            http: reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(10)).build().unwrap_or_default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, (Prompt, Answer)>> {
        self.prompts.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn sign(&self, body: &[u8]) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.secret).expect("HMAC takes any key length");
        mac.update(body);
        hex::encode(mac.finalize().into_bytes())
    }

    /// The prompts nobody has answered yet (the demo screen).
    pub fn waiting(&self) -> Vec<Prompt> {
        let mut waiting: Vec<Prompt> =
            self.lock().values().filter(|(_, a)| *a == Answer::Waiting).map(|(p, _)| p.clone()).collect();
        waiting.sort_by(|a, b| a.payment_id.cmp(&b.payment_id));
        waiting
    }

    /// Someone answers a prompt: the money moves (or not) and the callback goes out.
    pub async fn answer(&self, payment_id: &str, approve: bool) -> bool {
        let answer = if approve { Answer::Approved } else { Answer::Refused("declined".into()) };
        if !self.resolve(payment_id, answer) {
            return false;
        }
        self.deliver(payment_id, 1).await;
        true
    }

    /// Records an answer to a waiting prompt; false when there is none.
    fn resolve(&self, payment_id: &str, answer: Answer) -> bool {
        match self.lock().get_mut(payment_id) {
            Some((_, current)) if *current == Answer::Waiting => {
                *current = answer;
                true
            }
            _ => false,
        }
    }

    /// Posts the payment's outcome to our callback endpoint, `times` times.
    async fn deliver(&self, payment_id: &str, times: usize) {
        let Some(answer) = self.lock().get(payment_id).map(|(_, a)| a.clone()) else { return };
        let callback = match answer {
            Answer::Waiting => return,
            Answer::Approved => {
                Callback { payment_id: payment_id.to_owned(), status: "succeeded".into(), reason: None }
            }
            Answer::Refused(reason) => {
                Callback { payment_id: payment_id.to_owned(), status: "failed".into(), reason: Some(reason) }
            }
        };
        let Some(origin) = self.origin.get() else {
            tracing::warn!("the simulator does not know where the server listens; the status checks will settle it");
            return;
        };
        let body = serde_json::to_vec(&callback).unwrap_or_default();
        for _ in 0..times {
            let sent = self
                .http
                .post(format!("{origin}/api/v1/payments/callbacks/simulator"))
                .header(SIGNATURE_HEADER, self.sign(&body))
                .header("content-type", "application/json")
                .body(body.clone())
                .send()
                .await;
            if let Err(err) = sent {
                tracing::warn!(%err, "simulated callback not delivered");
            }
        }
    }
}

/// The simulator's name on the payments it takes.
pub const NAME: &str = "simulator";

impl PaymentProvider for Arc<Simulator> {
    fn name(&self) -> &'static str {
        NAME
    }

    async fn start(&self, c: &Collection) -> Outcome {
        let prompt = Prompt {
            payment_id: c.uid.clone(),
            phone: c.phone.clone(),
            operator: c.operator.clone(),
            amount_cents: c.amount_cents,
            currency: c.currency.clone(),
        };
        // The same id again is the same collection (idempotency).
        if self.lock().insert(c.uid.clone(), (prompt, Answer::Waiting)).is_some() {
            return self.status(&c.uid).await;
        }
        let scenario = Scenario::of(&c.phone);
        let (answer, wait, times) = match scenario {
            Scenario::Approve => (Answer::Approved, self.delay, 1),
            Scenario::InsufficientFunds => (Answer::Refused("insufficient_funds".into()), self.delay, 1),
            Scenario::Declined => (Answer::Refused("declined".into()), self.delay, 1),
            Scenario::NoCallback => (Answer::Approved, self.delay, 0),
            Scenario::DuplicateCallback => (Answer::Approved, self.delay, 2),
            Scenario::Slow => (Answer::Approved, self.delay * 10, 1),
            Scenario::Silent | Scenario::Manual => {
                return Outcome::Pending { provider_ref: Some(format!("SIM-{}", &c.uid[..8])) };
            }
        };
        let simulator = Arc::clone(self);
        let uid = c.uid.clone();
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            if simulator.resolve(&uid, answer) {
                simulator.deliver(&uid, times).await;
            }
        });
        Outcome::Pending { provider_ref: Some(format!("SIM-{}", &c.uid[..8])) }
    }

    async fn status(&self, uid: &str) -> Outcome {
        match self.lock().get(uid).map(|(_, a)| a.clone()) {
            None => Outcome::Unknown,
            Some(Answer::Waiting) => Outcome::Pending { provider_ref: None },
            Some(Answer::Approved) => Outcome::Succeeded { provider_ref: None },
            Some(Answer::Refused(reason)) => Outcome::Failed { reason },
        }
    }

    fn claimed(&self, body: &[u8]) -> Option<String> {
        serde_json::from_slice::<Callback>(body).ok().map(|callback| callback.payment_id)
    }

    async fn callback(&self, headers: &HeaderMap, body: &[u8]) -> Result<(String, Outcome), String> {
        let signature = headers.get(SIGNATURE_HEADER).and_then(|v| v.to_str().ok()).unwrap_or_default();
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.secret).map_err(|e| e.to_string())?;
        mac.update(body);
        let expected = hex::decode(signature).map_err(|_| "the signature is not hex".to_owned())?;
        mac.verify_slice(&expected).map_err(|_| "the signature does not match".to_owned())?;
        let callback: Callback = serde_json::from_slice(body).map_err(|e| format!("unreadable callback: {e}"))?;
        let outcome = match callback.status.as_str() {
            "succeeded" => Outcome::Succeeded { provider_ref: None },
            "failed" => Outcome::Failed { reason: callback.reason.unwrap_or_else(|| "failed".into()) },
            other => return Err(format!("unknown status {other:?}")),
        };
        Ok((callback.payment_id, outcome))
    }

    async fn refund(&self, refund: &Refund) -> Outcome {
        self.refunds.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(refund.uid.clone());
        Outcome::Succeeded { provider_ref: None }
    }

    async fn refund_status(&self, uid: &str) -> Outcome {
        if self.refunds.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).contains(uid) {
            Outcome::Succeeded { provider_ref: None }
        } else {
            Outcome::Unknown
        }
    }

    /// A payout lands at once, as a refund does (no wallet to answer a prompt).
    async fn payout(&self, payout: &Payout) -> Outcome {
        self.refunds.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).insert(payout.uid.clone());
        Outcome::Succeeded { provider_ref: None }
    }

    async fn payout_status(&self, uid: &str) -> Outcome {
        self.refund_status(uid).await
    }
}
