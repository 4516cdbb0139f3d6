//! Sends the SMS outbox (docs/sms.md). Messages are written to `sms_outbox` in
//! the same transaction as what they announce; this task sends them through
//! Africa's Talking when it is configured (`--at-username`, `--at-api-key`) and
//! otherwise keeps them in the outbox, marked `logged` and said in the log without
//! their text, so everything runs on one machine with no keys. A failure is tried again 1, 2, 4 ... minutes later, `ATTEMPTS` times;
//! a number the provider cannot reach is not tried again.

use std::time::Duration;

use serde_json::Value;

use tracing::Instrument;

use crate::db::Db;
use crate::db::sms::{self, Sms};
use crate::error::AppError;
use crate::platform::clock;
use crate::platform::config::{AfricasTalkingSettings, Config};

const POLL: Duration = Duration::from_secs(30);
const BATCH: i64 = 20;
/// A claimed batch is this sender's for this long: another node tries a message again
/// only when its sender stopped before marking it.
const CLAIM: Duration = Duration::from_secs(5 * 60);
/// Attempts before a message is given up.
pub const ATTEMPTS: i64 = 8;

enum Transport {
    AfricasTalking(reqwest::Client, AfricasTalkingSettings),
    Log,
}

/// What became of one attempt.
enum Outcome {
    Sent {
        delivery: &'static str,
        provider_id: Option<String>,
    },
    /// Worth trying again later.
    Failed(String),
    /// The provider will never deliver it (a bad or barred number).
    Refused(String),
}

/// Starts the sender; it runs as long as the runtime does.
pub fn spawn(config: &Config, db: &Db) {
    let transport = match &config.africas_talking {
        Some(settings) => Transport::AfricasTalking(
            reqwest::Client::builder().timeout(Duration::from_secs(20)).build().unwrap_or_default(),
            settings.clone(),
        ),
        None => Transport::Log,
    };
    let (db, outbox) = (db.clone(), db.outbox());
    tokio::spawn(async move {
        loop {
            if let Err(err) = send_due(&db, &transport).await {
                tracing::warn!(%err, "could not read the SMS outbox");
            }
            // Woken by every commit that wrote an SMS (`db::Outbox`).
            let _ = tokio::time::timeout(POLL, outbox.sms_written()).await;
        }
    });
}

async fn send_due(db: &Db, transport: &Transport) -> Result<(), AppError> {
    loop {
        // Read first: an idle outbox costs no write.
        if db.read(|conn| Ok(sms::due(conn, &clock::now(), 1)?)).await?.is_empty() {
            return Ok(());
        }
        let until = clock::format(time::OffsetDateTime::now_utc() + CLAIM);
        let due = db.write(move |tx| Ok(sms::claim_due(tx, &clock::now(), &until, BATCH)?)).await?;
        if due.is_empty() {
            return Ok(()); // another node took them
        }
        for message in due {
            // The lines about it name the request that wrote it.
            let span = crate::platform::request_id::span_of(message.request_id.as_deref());
            async {
                let outcome = deliver(transport, &message).await;
                count(db, "sms", matches!(outcome, Outcome::Sent { .. }));
                db.write(move |tx| {
                    match outcome {
                        Outcome::Sent { delivery, provider_id } => {
                            sms::mark_sent(tx, message.id, delivery, provider_id.as_deref(), &clock::now())?
                        }
                        Outcome::Failed(error) if message.attempts + 1 < ATTEMPTS => {
                            tracing::warn!(id = message.id, %error, "SMS not sent; will retry");
                            sms::mark_failed(
                                tx,
                                message.id,
                                &error,
                                Some(&crate::outbound::mailer::retry_at(message.attempts)),
                            )?
                        }
                        Outcome::Failed(error) | Outcome::Refused(error) => {
                            tracing::warn!(id = message.id, %error, "SMS given up");
                            sms::mark_failed(tx, message.id, &error, None)?
                        }
                    }
                    Ok(())
                })
                .await
            }
            .instrument(span)
            .await?;
        }
    }
}

/// One sending attempt of an outbox's message, in the metrics.
pub(crate) fn count(db: &Db, outbox: &'static str, sent: bool) {
    let family = if sent { &db.metrics().outbox_sent } else { &db.metrics().outbox_failed };
    family.get_or_create(&crate::platform::metrics::Outbox { outbox }).inc();
}

async fn deliver(transport: &Transport, message: &Sms) -> Outcome {
    match transport {
        Transport::Log => {
            // Neither the text (cash codes, reset codes) nor the number reaches the log:
            // the message stays readable in `sms_outbox`, where it was written.
            tracing::info!(id = message.id, "SMS kept in the outbox, not sent (no provider configured)");
            Outcome::Sent { delivery: "logged", provider_id: None }
        }
        Transport::AfricasTalking(http, settings) => africas_talking(http, settings, message).await,
    }
}

/// Africa's Talking's SMS API: `POST /version1/messaging`, a form, the key in
/// an `apiKey` header; the answer names each recipient's status code
/// (100-102: taken; 403, 404, 406: a number it will never reach).
async fn africas_talking(http: &reqwest::Client, settings: &AfricasTalkingSettings, message: &Sms) -> Outcome {
    let mut form =
        vec![("username", settings.username.as_str()), ("to", &message.to_number), ("message", &message.body)];
    if let Some(from) = &settings.from {
        form.push(("from", from));
    }
    let url = format!("{}/version1/messaging", settings.url);
    let response = match http
        .post(url)
        .header("apiKey", settings.api_key.expose())
        .header("Accept", "application/json")
        .form(&form)
        .send()
        .await
    {
        Ok(response) => response,
        Err(err) => return Outcome::Failed(format!("Africa's Talking unreachable: {err}")),
    };
    let status = response.status();
    let body: Value = match response.json().await {
        Ok(body) if status.is_success() => body,
        Ok(_) | Err(_) => return Outcome::Failed(format!("Africa's Talking answered {status}")),
    };
    let recipient = &body["SMSMessageData"]["Recipients"][0];
    let (code, words) = (recipient["statusCode"].as_i64().unwrap_or(0), recipient["status"].as_str().unwrap_or(""));
    match code {
        100..=102 => Outcome::Sent {
            delivery: "africastalking",
            provider_id: recipient["messageId"].as_str().map(str::to_owned),
        },
        403 | 404 | 406 => Outcome::Refused(format!("{code} {words}")),
        _ => Outcome::Failed(format!("{code} {words}")),
    }
}
