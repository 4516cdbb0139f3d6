//! Server configuration. Built from the command line (flags, or `MAVUNO_*`
//! environment variables) in main.rs, or directly by tests.

use std::path::PathBuf;
use std::time::Duration;

/// A secret setting (a key, a token, a password in an address): its Debug form says
/// nothing of it, so a logged or panicking `Config` shows none (docs/security.md).
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(String);

impl Secret {
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

impl From<String> for Secret {
    fn from(value: String) -> Secret {
        Secret(value)
    }
}

impl From<&str> for Secret {
    fn from(value: &str) -> Secret {
        Secret(value.to_owned())
    }
}

#[derive(Debug, Clone)]
pub struct Config {
    /// The only state: the SQLite file, uploaded media and the token secret live here.
    pub data_dir: PathBuf,
    /// PostgreSQL's address (`postgres://…`): the database lives there instead of in
    /// the data dir's SQLite file (docs/operations.md, PostgreSQL).
    pub database_url: Option<Secret>,
    /// A streaming replica of that database for reads (docs/operations.md, Read replicas).
    pub database_read_url: Option<Secret>,
    /// PostgreSQL connections kept open.
    pub database_pool: usize,
    /// PostgreSQL's certificate authority (a PEM file), when its certificate is not
    /// signed by one of Mozilla's roots.
    pub database_ca: Option<PathBuf>,
    /// The built PWA (`pwa/dist`); a small placeholder page is served when it is missing.
    pub web_dir: Option<PathBuf>,
    /// Secret for signing tokens; generated once into the data dir when not given.
    pub jwt_secret: Option<Secret>,
    /// How long a sign-in lasts. Long, because farmers go offline for days.
    pub token_ttl: Duration,
    /// Failed sign-ins allowed per (account, address) within `login_window`.
    pub login_max_failures: usize,
    /// Failed sign-ins allowed per address on any accounts: much higher, as a
    /// carrier or a proxy puts thousands of phones behind one address.
    pub login_address_max_failures: usize,
    /// Past this many failures on an account from anywhere, its sign-ins are
    /// spaced `login_spacing` apart (except from where its owner signed in before).
    pub login_slow_after: usize,
    pub login_spacing: Duration,
    pub login_window: Duration,
    /// Sign-ups allowed per address within `signup_window` (a field agent
    /// registering a village from one phone stays well within it).
    pub signup_max: usize,
    pub signup_window: Duration,
    /// Contact messages allowed per address within `contact_window`.
    pub contact_max_messages: usize,
    pub contact_window: Duration,
    /// Where email goes, e.g. `smtp://user:pass@mail.example.org:587?tls=required`
    /// or `smtps://...`; without it, messages are written to the log.
    pub smtp_url: Option<Secret>,
    /// Where people open the app, for links in emails (`--public-url`); the listening
    /// address when unset. A request's Host header is never used: anyone can forge it.
    pub public_url: Option<String>,
    /// The sender of every message.
    pub mail_from: String,
    /// How long the payment simulator's "phone prompt" takes before it answers.
    pub simulator_delay: Duration,
    /// Open connections at most; `main` keeps it below the process's file limit.
    pub max_connections: usize,
    /// Once a request's first bytes arrive, its headers must be complete within this time.
    pub header_timeout: Duration,
    /// A connection with no request in progress is closed after this long:
    /// longer than browsers keep idle connections (5 minutes), so they never
    /// reuse one we are closing.
    pub idle_timeout: Duration,
    /// A request body may pause at most this long between two pieces.
    pub body_timeout: Duration,
    /// Reverse proxies whose `X-Forwarded-For` / `X-Forwarded-Proto` are believed.
    pub trusted_proxies: Vec<std::net::IpAddr>,
    /// `Strict-Transport-Security: max-age=...` on answers that came over HTTPS; 0 sends none.
    pub hsts_max_age: u64,
    /// Uploaded pictures nothing uses are removed after this long (a phone
    /// uploads a photo just before the change that names it).
    pub upload_grace: Duration,
    /// Mobile money through pawaPay instead of the simulator: the API's base
    /// address and token (docs/operations.md).
    pub pawapay: Option<PawaPaySettings>,
    /// Where SMS go; without it they are written to the log (docs/sms.md).
    pub africas_talking: Option<AfricasTalkingSettings>,
    /// The secret last part of the USSD and incoming-SMS addresses (docs/ussd.md), at
    /// least 32 characters; without it the server makes one in the data dir.
    pub gateway_token: Option<Secret>,
    /// Prometheus' bearer token for `/api/v1/metrics` (at least 32 characters); none:
    /// the metrics are not served.
    pub metrics_token: Option<Secret>,
    /// USSD requests one number may make a minute (a person answers a screen every few seconds at most).
    pub ussd_max_requests: usize,
    /// The continuous off-site copy (docs/operations.md, Off-site copy); none: this
    /// server is the only copy, which the super admin's dashboard says.
    pub offsite: Option<OffsiteSettings>,
    /// Pictures in an object store rather than the data dir (docs/operations.md, Several nodes).
    pub media: Option<MediaSettings>,
}

#[derive(Debug, Clone)]
pub struct AfricasTalkingSettings {
    /// `https://api.africastalking.com`, or the sandbox's `https://api.sandbox.africastalking.com`.
    pub url: String,
    pub username: String,
    pub api_key: Secret,
    /// The sender id or short code, when the account has one.
    pub from: Option<String>,
    /// The secret part of the delivery-report address set in Africa's Talking's
    /// dashboard (`/api/v1/sms/delivery/{token}`); no reports are taken without it.
    pub callback_token: Option<Secret>,
}

/// Where the off-site copy goes and with what (`outbound::offsite`).
#[derive(Debug, Clone)]
pub struct OffsiteSettings {
    /// `s3://bucket/prefix`: the database goes under `prefix/db`, the pictures `prefix/media`.
    pub url: String,
    /// An S3-compatible store's address (e.g. `https://s3.eu-central-003.backblazeb2.com`,
    /// or a local one); AWS's when not given.
    pub endpoint: Option<String>,
    pub region: String,
    /// Keys scoped to the one bucket (docs/operations.md, Protect the copy).
    pub access_key_id: Secret,
    pub secret_access_key: Secret,
    /// The tools' programs (on the PATH by default).
    pub litestream: PathBuf,
    pub rclone: PathBuf,
    /// How often new pictures are copied.
    pub media_every: Duration,
    /// How often the store is asked what it holds.
    pub check_every: Duration,
    /// A copy not confirmed for this long is an incident the super admins hear of.
    pub lag_alert: Duration,
}

impl OffsiteSettings {
    /// The bucket and the prefix of `url`, or why it is not one.
    pub fn bucket_and_prefix(&self) -> Result<(String, String), String> {
        bucket_and_prefix(&self.url)
    }
}

/// The bucket and the prefix of an `s3://bucket/prefix` address, or why it is not one.
fn bucket_and_prefix(url: &str) -> Result<(String, String), String> {
    let rest = url.strip_prefix("s3://").ok_or_else(|| format!("{url} is not an s3:// address"))?;
    let (bucket, prefix) = rest.split_once('/').unwrap_or((rest, ""));
    let ok = |s: &str| s.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c));
    if bucket.is_empty() || !ok(bucket) || !ok(prefix) {
        return Err(format!("{url} is not a bucket and a path (s3://bucket/prefix)"));
    }
    Ok((bucket.to_owned(), prefix.trim_matches('/').to_owned()))
}

/// Pictures in an S3-compatible object store every node shares (`outbound::media`),
/// instead of the data dir's `media/` folder.
#[derive(Debug, Clone)]
pub struct MediaSettings {
    /// `s3://bucket/prefix`: each picture is `prefix/{hash}-{size}.jpg`.
    pub url: String,
    /// An S3-compatible store's address; AWS's when not given.
    pub endpoint: Option<String>,
    pub region: String,
    pub access_key_id: Secret,
    pub secret_access_key: Secret,
}

impl MediaSettings {
    /// The bucket and the prefix of `url`, or why it is not one.
    pub fn bucket_and_prefix(&self) -> Result<(String, String), String> {
        bucket_and_prefix(&self.url)
    }
}

#[derive(Debug, Clone)]
pub struct PawaPaySettings {
    /// e.g. `https://api.sandbox.pawapay.cloud` or the production address.
    pub url: String,
    pub token: Secret,
}

impl Config {
    pub fn new(data_dir: impl Into<PathBuf>) -> Config {
        Config {
            data_dir: data_dir.into(),
            database_url: None,
            database_read_url: None,
            database_pool: 16,
            database_ca: None,
            web_dir: None,
            jwt_secret: None,
            token_ttl: Duration::from_secs(30 * 24 * 3600),
            login_max_failures: 10,
            login_address_max_failures: 100,
            login_slow_after: 10,
            login_spacing: Duration::from_secs(5),
            login_window: Duration::from_secs(15 * 60),
            signup_max: 20,
            signup_window: Duration::from_secs(10 * 60),
            contact_max_messages: 5,
            contact_window: Duration::from_secs(60 * 60),
            smtp_url: None,
            public_url: None,
            mail_from: "MAVUNO <no-reply@mavuno.africa>".to_owned(),
            simulator_delay: Duration::from_secs(3),
            pawapay: None,
            africas_talking: None,
            gateway_token: None,
            metrics_token: None,
            ussd_max_requests: 60,
            offsite: None,
            media: None,
            max_connections: 16_384,
            upload_grace: Duration::from_secs(7 * 24 * 3600),
            trusted_proxies: Vec::new(),
            hsts_max_age: 31_536_000,
            header_timeout: Duration::from_secs(15),
            idle_timeout: Duration::from_secs(360),
            body_timeout: Duration::from_secs(30),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_secret_shows_in_the_debug_form_of_the_configuration() {
        let secrets = [
            "jwt-secret-value-0123456789",
            "smtp://user:hunter2@mail.example",
            "pawapay-token-value",
            "at-api-key-value",
            "at-callback-token-value-0123456789ab",
            "gateway-token-value-0123456789abcdef",
        ];
        let config = Config {
            jwt_secret: Some(secrets[0].into()),
            smtp_url: Some(secrets[1].into()),
            pawapay: Some(PawaPaySettings {
                url: "https://api.sandbox.pawapay.cloud".into(),
                token: secrets[2].into(),
            }),
            africas_talking: Some(AfricasTalkingSettings {
                url: "https://api.africastalking.com".into(),
                username: "mavuno".into(),
                api_key: secrets[3].into(),
                from: None,
                callback_token: Some(secrets[4].into()),
            }),
            gateway_token: Some(secrets[5].into()),
            ..Config::new("/tmp/data")
        };
        let shown = format!("{config:?} {config:#?}");
        for secret in secrets {
            assert!(!shown.contains(secret), "{secret} shows in {shown}");
        }
        assert!(shown.contains("Secret([redacted])") && shown.contains("mavuno"), "the rest still shows");
    }
}
