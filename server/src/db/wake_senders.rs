//! The email and SMS senders' wake-up (`outbound::mailer`, `outbound::sms`): what writes
//! to an outbox marks its transaction (`outbox_written`), and the commit wakes both
//! senders (`Pool::committed`), whatever path wrote it. They also look every 30 s
//! (retries, other nodes' messages), so a wake-up lost with a restart loses nothing.

thread_local! {
    /// Set when the transaction running on this thread wrote to an outbox.
    pub(super) static OUTBOX_WRITTEN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Called by what writes to the email or SMS outbox (`outbox::enqueue`, `sms::enqueue`):
/// once its transaction commits, the senders are woken, whatever path wrote it.
pub(crate) fn outbox_written() {
    OUTBOX_WRITTEN.set(true);
}

/// The email and SMS senders' wake-up (`outbound::mailer`, `outbound::sms`): every commit
/// that wrote to an outbox wakes both; they also look every 30 s (retries, other nodes).
#[derive(Default)]
pub struct Outbox {
    email: tokio::sync::Notify,
    sms: tokio::sync::Notify,
}

impl Outbox {
    /// Wakes both senders (a commit that wrote to an outbox does it by itself).
    pub fn wake(&self) {
        self.email.notify_one();
        self.sms.notify_one();
    }

    /// Answers when a commit may have written an email.
    pub async fn email_written(&self) {
        self.email.notified().await;
    }

    /// Answers when a commit may have written an SMS.
    pub async fn sms_written(&self) {
        self.sms.notified().await;
    }
}
