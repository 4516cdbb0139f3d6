//! `serve`'s and `restore`'s settings of the off-site copy (docs/operations.md,
//! Off-site copy): read from flags or the environment, checked before anything starts.

use std::path::PathBuf;
use std::time::Duration;

/// The off-site copy's store and tools (docs/operations.md, Off-site copy).
#[derive(clap::Args)]
pub struct OffsiteArgs {
    /// Where the continuous off-site copy goes: s3://bucket/prefix on any S3-compatible
    /// store (the database by Litestream, the pictures by rclone). Without it, this server
    /// is the only copy of the data, which the super admin's dashboard says.
    #[arg(long, env = "MAVUNO_OFFSITE_URL")]
    offsite_url: Option<String>,
    /// The store's address when it is not AWS (e.g. https://s3.eu-central-003.backblazeb2.com).
    #[arg(long, env = "MAVUNO_OFFSITE_ENDPOINT")]
    offsite_endpoint: Option<String>,
    #[arg(long, env = "MAVUNO_OFFSITE_REGION", default_value = "us-east-1")]
    offsite_region: String,
    /// A key scoped to the one bucket (best kept in the environment, not on the command line).
    #[arg(long, env = "MAVUNO_OFFSITE_ACCESS_KEY_ID", hide_env_values = true)]
    offsite_access_key_id: Option<String>,
    #[arg(long, env = "MAVUNO_OFFSITE_SECRET_ACCESS_KEY", hide_env_values = true)]
    offsite_secret_access_key: Option<String>,
    /// Litestream's program (the copy of the database).
    #[arg(long, env = "MAVUNO_LITESTREAM", default_value = "litestream")]
    litestream: PathBuf,
    /// rclone's program (the copy of the pictures).
    #[arg(long, env = "MAVUNO_RCLONE", default_value = "rclone")]
    rclone: PathBuf,
    /// Seconds between two copies of new pictures.
    #[arg(long, env = "MAVUNO_OFFSITE_MEDIA_EVERY", default_value_t = 60)]
    offsite_media_every: u64,
    /// Seconds between two looks at what the store holds.
    #[arg(long, env = "MAVUNO_OFFSITE_CHECK_EVERY", default_value_t = 30)]
    offsite_check_every: u64,
    /// Minutes a copy may go unconfirmed before the super admins are told (email and SMS).
    #[arg(long, env = "MAVUNO_OFFSITE_LAG_ALERT", default_value_t = 10)]
    offsite_lag_alert: u64,
}

impl OffsiteArgs {
    /// The settings, when an off-site copy is asked for, or why they cannot be.
    pub fn settings(self) -> Result<Option<mavuno::platform::config::OffsiteSettings>, String> {
        // Set but empty (an environment file's `MAVUNO_OFFSITE_URL=`) is no copy, as unset.
        let Some(url) = self.offsite_url.filter(|url| !url.is_empty()) else { return Ok(None) };
        let (Some(key), Some(secret)) = (self.offsite_access_key_id, self.offsite_secret_access_key) else {
            return Err(
                "the off-site copy needs MAVUNO_OFFSITE_ACCESS_KEY_ID and MAVUNO_OFFSITE_SECRET_ACCESS_KEY".to_owned()
            );
        };
        let settings = mavuno::platform::config::OffsiteSettings {
            url,
            endpoint: self.offsite_endpoint.map(|e| e.trim_end_matches('/').to_owned()),
            region: self.offsite_region,
            access_key_id: key.into(),
            secret_access_key: secret.into(),
            litestream: self.litestream,
            rclone: self.rclone,
            media_every: Duration::from_secs(self.offsite_media_every.max(1)),
            check_every: Duration::from_secs(self.offsite_check_every.max(1)),
            lag_alert: Duration::from_secs(self.offsite_lag_alert.max(1) * 60),
        };
        settings.bucket_and_prefix()?;
        for (tool, program) in [("Litestream", &settings.litestream), ("rclone", &settings.rclone)] {
            let found = std::process::Command::new(program).arg("version").stdout(std::process::Stdio::null()).status();
            if !found.is_ok_and(|status| status.success()) {
                return Err(format!(
                    "the off-site copy needs {tool}: {} does not run (install it, or name it with --{})",
                    program.display(),
                    tool.to_lowercase()
                ));
            }
        }
        Ok(Some(settings))
    }
}
