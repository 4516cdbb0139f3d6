//! Server configuration. Built from the command line (flags, or `MAVUNO_*`
//! environment variables) in main.rs, or directly by tests.

use std::path::PathBuf;
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct Config {
    /// The only state: the SQLite file, uploaded media and the token secret live here.
    pub data_dir: PathBuf,
    /// The built PWA (`pwa/dist`); a small placeholder page is served when it is missing.
    pub web_dir: Option<PathBuf>,
    /// Secret for signing tokens; generated once into the data dir when not given.
    pub jwt_secret: Option<String>,
    /// How long a sign-in lasts. Long, because farmers go offline for days.
    pub token_ttl: Duration,
    /// Failed sign-ins allowed per account and per address within `login_window`.
    pub login_max_failures: usize,
    pub login_window: Duration,
    /// Contact messages allowed per address within `contact_window`.
    pub contact_max_messages: usize,
    pub contact_window: Duration,
    /// Where email goes, e.g. `smtp://user:pass@mail.example.org:587?tls=required`
    /// or `smtps://...`; without it, messages are written to the log.
    pub smtp_url: Option<String>,
    /// The sender of every message.
    pub mail_from: String,
    /// How long the payment simulator's "phone prompt" takes before it answers.
    pub simulator_delay: Duration,
    /// Mobile money through pawaPay instead of the simulator: the API's base
    /// address and token (docs/operations.md).
    pub pawapay: Option<PawaPaySettings>,
}

#[derive(Debug, Clone)]
pub struct PawaPaySettings {
    /// e.g. `https://api.sandbox.pawapay.cloud` or the production address.
    pub url: String,
    pub token: String,
}

impl Config {
    pub fn new(data_dir: impl Into<PathBuf>) -> Config {
        Config {
            data_dir: data_dir.into(),
            web_dir: None,
            jwt_secret: None,
            token_ttl: Duration::from_secs(30 * 24 * 3600),
            login_max_failures: 10,
            login_window: Duration::from_secs(15 * 60),
            contact_max_messages: 5,
            contact_window: Duration::from_secs(60 * 60),
            smtp_url: None,
            mail_from: "MAVUNO <no-reply@mavuno.africa>".to_owned(),
            simulator_delay: Duration::from_secs(3),
            pawapay: None,
        }
    }
}
