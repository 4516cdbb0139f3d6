//! `serve`'s settings of the picture store (docs/operations.md, Several nodes): read from
//! flags or the environment, checked before anything starts.

/// Pictures in an S3-compatible object store every node shares.
#[derive(clap::Args)]
pub struct MediaArgs {
    /// Where pictures are kept when several nodes serve: s3://bucket/prefix on any
    /// S3-compatible store. Without it, the data dir's media/ folder keeps them.
    #[arg(long, env = "MAVUNO_MEDIA_URL")]
    media_url: Option<String>,
    /// The store's address when it is not AWS (e.g. http://127.0.0.1:9000).
    #[arg(long, env = "MAVUNO_MEDIA_ENDPOINT")]
    media_endpoint: Option<String>,
    #[arg(long, env = "MAVUNO_MEDIA_REGION", default_value = "us-east-1")]
    media_region: String,
    /// A key scoped to the one bucket (kept in the environment, not on the command line).
    #[arg(long, env = "MAVUNO_MEDIA_ACCESS_KEY_ID", hide_env_values = true)]
    media_access_key_id: Option<String>,
    #[arg(long, env = "MAVUNO_MEDIA_SECRET_ACCESS_KEY", hide_env_values = true)]
    media_secret_access_key: Option<String>,
}

impl MediaArgs {
    /// The settings, when an object store is asked for, or why they cannot be.
    pub fn settings(self) -> Result<Option<mavuno::platform::config::MediaSettings>, String> {
        // Set but empty (an environment file's `MAVUNO_MEDIA_URL=`) is the data dir, as unset.
        let Some(url) = self.media_url.filter(|url| !url.is_empty()) else { return Ok(None) };
        let (Some(key), Some(secret)) = (self.media_access_key_id, self.media_secret_access_key) else {
            return Err(
                "the picture store needs MAVUNO_MEDIA_ACCESS_KEY_ID and MAVUNO_MEDIA_SECRET_ACCESS_KEY".to_owned()
            );
        };
        let settings = mavuno::platform::config::MediaSettings {
            url,
            endpoint: self.media_endpoint.map(|e| e.trim_end_matches('/').to_owned()),
            region: self.media_region,
            access_key_id: key.into(),
            secret_access_key: secret.into(),
        };
        settings.bucket_and_prefix()?;
        Ok(Some(settings))
    }
}
