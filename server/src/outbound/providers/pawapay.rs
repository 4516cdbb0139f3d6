//! pawaPay's deposits, refunds and payouts API (one integration for Vodacom M-Pesa, Airtel and
//! Orange in the DRC, and Kenya, Rwanda, Uganda and Tanzania): a deposit is
//! requested with our payment id as `depositId` (pawaPay ignores a repeat),
//! its status is read back, and a callback is verified by asking pawaPay
//! itself how that deposit stands, so a forged callback changes nothing.
//! Configured by `MAVUNO_PAWAPAY_URL` and `MAVUNO_PAWAPAY_TOKEN`
//! (docs/operations.md); tested against a local fake of the API.

use std::time::Duration;

use axum::http::HeaderMap;
use serde::Deserialize;
use serde_json::json;

use super::{Collection, PaymentProvider, Payout, Refund};
use crate::domain::payments::Outcome;
use crate::model::decimal_amount;

pub struct PawaPay {
    base: String,
    token: String,
    http: reqwest::Client,
}

#[derive(Debug, Deserialize)]
struct Reason {
    #[serde(default, alias = "rejectionCode", alias = "failureCode")]
    code: Option<String>,
}

/// A deposit, a refund or a payout as pawaPay describes it (request answers, status
/// reads, callbacks); `id` is the `depositId`, the `refundId` or the `payoutId`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Deposit {
    #[serde(alias = "depositId", alias = "refundId", alias = "payoutId")]
    id: String,
    status: String,
    #[serde(default)]
    rejection_reason: Option<Reason>,
    #[serde(default)]
    failure_reason: Option<Reason>,
}

impl Deposit {
    fn outcome(self) -> Outcome {
        let reason = |r: Option<Reason>| r.and_then(|r| r.code).unwrap_or_else(|| "failed".into()).to_lowercase();
        match self.status.as_str() {
            "COMPLETED" => Outcome::Succeeded { provider_ref: Some(self.id) },
            "FAILED" => Outcome::Failed { reason: reason(self.failure_reason) },
            "REJECTED" => Outcome::Failed { reason: reason(self.rejection_reason) },
            // ACCEPTED, SUBMITTED, ENQUEUED, DUPLICATE_IGNORED: not final yet.
            _ => Outcome::Pending { provider_ref: Some(self.id) },
        }
    }
}

impl PawaPay {
    pub fn new(base: &str, token: &str) -> PawaPay {
        PawaPay {
            base: base.trim_end_matches('/').to_owned(),
            token: token.to_owned(),
            http: reqwest::Client::builder().timeout(Duration::from_secs(20)).build().unwrap_or_default(),
        }
    }
}

impl PawaPay {
    /// Sends a request (a deposit or a refund); pawaPay answers where it stands.
    async fn request(&self, what: &str, body: serde_json::Value) -> Outcome {
        let sent = self.http.post(format!("{}/{what}", self.base)).bearer_auth(&self.token).json(&body).send().await;
        match sent {
            Ok(response) if response.status().is_success() => match response.json::<Deposit>().await {
                Ok(answer) => answer.outcome(),
                Err(err) => {
                    tracing::warn!(%err, what, "pawaPay answered a request unreadably");
                    Outcome::Unknown
                }
            },
            Ok(response) => {
                tracing::warn!(status = %response.status(), what, "pawaPay refused a request");
                Outcome::Unknown
            }
            Err(err) => {
                tracing::warn!(%err, "pawaPay could not be reached");
                Outcome::Unknown
            }
        }
    }

    /// Reads how a deposit or refund stands (pawaPay answers a list of at most one).
    async fn read(&self, what: &str, id: &str) -> Outcome {
        let sent = self.http.get(format!("{}/{what}/{id}", self.base)).bearer_auth(&self.token).send().await;
        let Ok(response) = sent else { return Outcome::Unknown };
        if !response.status().is_success() {
            return Outcome::Unknown;
        }
        match response.json::<Vec<Deposit>>().await {
            Ok(found) => found.into_iter().next().map_or(Outcome::Unknown, Deposit::outcome),
            Err(_) => Outcome::Unknown,
        }
    }
}

impl PaymentProvider for PawaPay {
    fn name(&self) -> &'static str {
        "pawapay"
    }

    async fn start(&self, c: &Collection) -> Outcome {
        let body = json!({
            "depositId": c.uid,
            "amount": decimal_amount(c.amount_cents),
            "currency": c.currency,
            "correspondent": c.operator,
            "payer": { "type": "MSISDN", "address": { "value": c.phone } },
            "customerTimestamp": crate::platform::clock::now(),
            "statementDescription": "MAVUNO",
        });
        self.request("deposits", body).await
    }

    async fn status(&self, uid: &str) -> Outcome {
        self.read("deposits", uid).await
    }

    fn claimed(&self, body: &[u8]) -> Option<String> {
        serde_json::from_slice::<Deposit>(body).ok().map(|deposit| deposit.id)
    }

    async fn callback(&self, _headers: &HeaderMap, body: &[u8]) -> Result<(String, Outcome), String> {
        // The body only says which deposit to look at; pawaPay says how it stands.
        let claimed: Deposit = serde_json::from_slice(body).map_err(|e| format!("unreadable callback: {e}"))?;
        match self.status(&claimed.id).await {
            Outcome::Unknown => Err(format!("pawaPay does not know deposit {}", claimed.id)),
            known => Ok((claimed.id, known)),
        }
    }

    async fn refund(&self, r: &Refund) -> Outcome {
        let body = json!({
            "refundId": r.uid,
            "depositId": r.payment_uid,
            "amount": decimal_amount(r.amount_cents),
        });
        self.request("refunds", body).await
    }

    async fn refund_status(&self, uid: &str) -> Outcome {
        self.read("refunds", uid).await
    }

    async fn payout(&self, p: &Payout) -> Outcome {
        let body = json!({
            "payoutId": p.uid,
            "amount": decimal_amount(p.amount_cents),
            "currency": p.currency,
            "correspondent": p.operator,
            "recipient": { "type": "MSISDN", "address": { "value": p.phone } },
            "customerTimestamp": crate::platform::clock::now(),
            "statementDescription": "MAVUNO cooperative",
        });
        self.request("payouts", body).await
    }

    async fn payout_status(&self, uid: &str) -> Outcome {
        self.read("payouts", uid).await
    }
}
