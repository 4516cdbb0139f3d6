//! Sends the email outbox. Messages are written to `email_outbox` in the same
//! transaction as what they announce; this task sends them by SMTP when
//! `MAVUNO_SMTP_URL` is set and otherwise keeps them in the outbox, marked `logged`
//! (the log says which, without their words), so nothing is lost when mail is not configured (docs/operations.md).

use std::time::Duration;

use lettre::message::{Mailbox, Message, header::ContentType};
use lettre::{AsyncSmtpTransport, AsyncTransport, Tokio1Executor};
use time::OffsetDateTime;

use tracing::Instrument;

use crate::db::Db;
use crate::db::outbox::{self, Email};
use crate::platform::clock;
use crate::platform::config::Config;

/// How often the outbox is looked at when nobody wakes the sender (retries).
const POLL: Duration = Duration::from_secs(30);
const BATCH: i64 = 20;
/// A claimed batch is this sender's for this long: another node tries a message again
/// only when its sender stopped before marking it.
const CLAIM: Duration = Duration::from_secs(5 * 60);

enum Transport {
    Smtp(Box<AsyncSmtpTransport<Tokio1Executor>>, Mailbox),
    Log,
}

/// Starts the sender; it runs as long as the runtime does.
pub fn spawn(config: &Config, db: &Db) -> Result<(), String> {
    let transport = match &config.smtp_url {
        Some(url) => {
            let smtp = AsyncSmtpTransport::<Tokio1Executor>::from_url(url.expose())
                .map_err(|e| format!("MAVUNO_SMTP_URL cannot be used: {e}"))?
                .timeout(Some(Duration::from_secs(20)))
                .build();
            let from =
                config.mail_from.parse::<Mailbox>().map_err(|e| format!("MAVUNO_MAIL_FROM is not an address: {e}"))?;
            Transport::Smtp(Box::new(smtp), from)
        }
        None => Transport::Log,
    };
    let (db, outbox) = (db.clone(), db.outbox());
    tokio::spawn(async move {
        loop {
            if let Err(err) = send_due(&db, &transport).await {
                tracing::warn!(%err, "could not read the email outbox");
            }
            // Woken by every commit that wrote an email (`db::Outbox`).
            let _ = tokio::time::timeout(POLL, outbox.email_written()).await;
        }
    });
    Ok(())
}

async fn send_due(db: &Db, transport: &Transport) -> Result<(), crate::error::AppError> {
    loop {
        // Read first: an idle outbox costs no write.
        if db.read(|conn| Ok(outbox::due(conn, &clock::now(), 1)?)).await?.is_empty() {
            return Ok(());
        }
        let until = clock::format(time::OffsetDateTime::now_utc() + CLAIM);
        let due = db.write(move |tx| Ok(outbox::claim_due(tx, &clock::now(), &until, BATCH)?)).await?;
        if due.is_empty() {
            return Ok(()); // another node took them
        }
        for email in due {
            // The lines about it name the request that wrote it.
            let span = crate::platform::request_id::span_of(email.request_id.as_deref());
            async {
                let outcome = deliver(transport, &email).await;
                super::sms::count(db, "email", outcome.is_ok());
                db.write(move |tx| {
                    match outcome {
                        Ok(delivery) => outbox::mark_sent(tx, email.id, delivery, &clock::now())?,
                        Err(error) => {
                            tracing::warn!(id = email.id, %error, "email not sent; will retry");
                            outbox::mark_failed(tx, email.id, &error, &retry_at(email.attempts))?
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

async fn deliver(transport: &Transport, email: &Email) -> Result<&'static str, String> {
    match transport {
        Transport::Log => {
            // Neither the body (reset links) nor the address reaches the log: the message
            // stays readable in `email_outbox`, where it was written.
            tracing::info!(id = email.id, "email kept in the outbox, not sent (no SMTP configured)");
            Ok("logged")
        }
        Transport::Smtp(smtp, from) => {
            let to = email.to_email.parse::<Mailbox>().map_err(|e| format!("bad address: {e}"))?;
            // The sender's name set by the super admin, with the configured address.
            let from = match &email.from_name {
                Some(name) => Mailbox::new(Some(name.clone()), from.email.clone()),
                None => from.clone(),
            };
            let message = Message::builder()
                .from(from)
                .to(to)
                .subject(&email.subject)
                .header(ContentType::TEXT_PLAIN)
                .body(email.body.clone())
                .map_err(|e| e.to_string())?;
            smtp.send(message).await.map(|_| "smtp").map_err(|e| e.to_string())
        }
    }
}

/// 1, 2, 4 ... minutes after each failure, at most six hours apart.
pub(crate) fn retry_at(attempts: i64) -> String {
    let minutes = 1i64 << attempts.clamp(0, 9);
    clock::format(OffsetDateTime::now_utc() + time::Duration::minutes(minutes.min(360)))
}
