//! The continuous off-site copy (docs/operations.md, Off-site copy): the database by
//! Litestream, which ships each change's pages to an S3-compatible object store within
//! a second or so; the pictures (`media/`: named by their content, never changed once
//! written) by rclone, whatever is new each minute. Both are well-kept tools made for
//! it, started and watched by the server (`spawn`) when `--offsite-url` is given: a tool
//! that stops is started again, and each dies with the server. Every 30 s
//! (`check_every`) the server asks the store what it holds: when the store has the
//! database's newest transaction, the copy is confirmed (`offsite::CONFIRMED`, kept in
//! the database, so every node and restart reads it: `domain::offsite`); when it has not
//! been confirmed for `lag_alert`, every super admin gets one email and one SMS for the
//! incident.
//!
//! `restore` brings a deployment back on a new machine: the database as the store has
//! it (latest, or at a time), marked as restored so every phone takes a new snapshot
//! and sends again what the server lost (docs/sync.md, Push), and the pictures.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

use crate::db::{self, Db, meta};
use crate::domain::offsite;
use crate::platform::clock;
use crate::platform::config::OffsiteSettings;

/// The config Litestream reads, written into the data dir (no secret in it).
const LITESTREAM_CONFIG: &str = "litestream.yml";
/// How often Litestream reads the WAL for new transactions (its default is 1 s), and
/// how often it ships what it read to the store: together they bound the seconds of
/// acknowledged writes a lost disk takes with it (the recovery point: docs/operations.md,
/// Off-site copy). The store is asked at most this often, and only when something changed.
const MONITOR_EVERY: &str = "250ms";
const SYNC_EVERY: &str = "250ms";

/// How the tools reach the store, from the settings.
impl OffsiteSettings {
    /// The bucket, and `part`'s path under the prefix.
    fn path(&self, part: &str) -> Result<(String, String), String> {
        let (bucket, prefix) = self.bucket_and_prefix()?;
        Ok((bucket, if prefix.is_empty() { part.to_owned() } else { format!("{prefix}/{part}") }))
    }

    /// Litestream's configuration for the database in `data_dir` (its keys come from the
    /// environment, never from this file).
    fn litestream_config(&self, data_dir: &Path) -> Result<String, String> {
        let (bucket, path) = self.path("db")?;
        let db = data_dir.join(db::DB_FILE);
        let endpoint = match &self.endpoint {
            Some(endpoint) => format!("      endpoint: {endpoint}\n      force-path-style: true\n"),
            None => String::new(),
        };
        Ok(format!(
            "# Written by mavuno serve from its settings; changed at each start.\ndbs:\n  - path: {}\n    \
             monitor-interval: {MONITOR_EVERY}\n    replica:\n      type: s3\n      bucket: {bucket}\n      path: {path}\n      \
             region: {}\n{endpoint}      sync-interval: {SYNC_EVERY}\n",
            db.display(),
            self.region,
        ))
    }

    /// A tool's environment: the keys, and nothing that would make it refuse the store.
    fn command(&self, program: &Path) -> Command {
        let mut command = Command::new(program);
        command
            .env("LITESTREAM_ACCESS_KEY_ID", self.access_key_id.expose())
            .env("LITESTREAM_SECRET_ACCESS_KEY", self.secret_access_key.expose())
            .env("RCLONE_S3_PROVIDER", if self.endpoint.is_some() { "Other" } else { "AWS" })
            .env("RCLONE_S3_ACCESS_KEY_ID", self.access_key_id.expose())
            .env("RCLONE_S3_SECRET_ACCESS_KEY", self.secret_access_key.expose())
            .env("RCLONE_S3_REGION", &self.region)
            .env("RCLONE_S3_FORCE_PATH_STYLE", "true")
            .env("RCLONE_S3_NO_CHECK_BUCKET", "true")
            // Litestream's S3 client refuses a custom CA bundle set this way.
            .env_remove("AWS_CA_BUNDLE")
            .stdin(Stdio::null())
            .kill_on_drop(true);
        if let Some(endpoint) = &self.endpoint {
            command.env("RCLONE_S3_ENDPOINT", endpoint);
        }
        die_with_server(&mut command);
        command
    }

    /// rclone's name for the pictures in the store.
    fn media_remote(&self) -> Result<String, String> {
        let (bucket, path) = self.path("media")?;
        Ok(format!(":s3:{bucket}/{path}"))
    }
}

/// A tool dies with the server, also when the server is killed (`kill -9`, a crash),
/// which `kill_on_drop` does not see: a Litestream left running would copy a database
/// another server then writes. The signal is sent when the thread that started the tool
/// ends; the tools are started from the runtime's workers, which live as long as it.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn die_with_server(command: &mut Command) {
    // SAFETY: between fork and exec only prctl runs, which is async-signal-safe and
    // touches no memory of ours.
    unsafe {
        command.pre_exec(|| {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(not(target_os = "linux"))]
fn die_with_server(_command: &mut Command) {}

/// Starts the copy of the data dir's database (Litestream) and pictures (rclone), and
/// the check of what the store holds.
pub fn spawn(settings: &OffsiteSettings, data_dir: &Path, db: &Db) -> Result<(), String> {
    if db.engine() == db::Engine::Postgres {
        return Err("the off-site copy is SQLite's (Litestream); on PostgreSQL use the engine's own \
                    backups (docs/operations.md, PostgreSQL) and leave --offsite-url unset"
            .to_owned());
    }
    let noting = db.clone();
    tokio::spawn(async move {
        if let Err(err) = noting.write(|tx| offsite::started(tx, &clock::now())).await {
            tracing::warn!(%err, "off-site copy: cannot note its start");
        }
    });
    let config = data_dir.join(LITESTREAM_CONFIG);
    std::fs::write(&config, settings.litestream_config(data_dir)?)
        .map_err(|err| format!("cannot write {}: {err}", config.display()))?;
    tokio::spawn(keep_running(settings.clone(), config.clone()));
    tokio::spawn(copy_media(db.clone(), settings.clone(), data_dir.join("media")));
    tokio::spawn(check(db.clone(), settings.clone(), config, data_dir.join(db::DB_FILE)));
    Ok(())
}

/// Runs `litestream replicate`, starting it again (after 1 s, then up to a minute) when
/// it stops; its lines go to the server's log.
async fn keep_running(settings: OffsiteSettings, config: PathBuf) {
    let mut pause = Duration::from_secs(1);
    loop {
        let mut command = settings.command(&settings.litestream);
        command.arg("replicate").arg("-config").arg(&config).stdout(Stdio::piped()).stderr(Stdio::piped());
        match command.spawn() {
            Ok(mut child) => {
                tracing::info!("off-site copy: Litestream started");
                if let Some(out) = child.stderr.take() {
                    tokio::spawn(forward("litestream", out));
                }
                if let Some(out) = child.stdout.take() {
                    tokio::spawn(forward("litestream", out));
                }
                let status = child.wait().await;
                tracing::warn!(?status, "off-site copy: Litestream stopped; starting it again");
            }
            Err(err) => {
                tracing::warn!(%err, program = %settings.litestream.display(), "off-site copy: cannot start Litestream")
            }
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_secs(60));
    }
}

/// A tool's output, line by line, into the server's log.
async fn forward(tool: &'static str, out: impl tokio::io::AsyncRead + Unpin) {
    let mut lines = BufReader::new(out).lines();
    while let Ok(Some(line)) = lines.next_line().await {
        tracing::info!(tool, "{}", line.chars().take(500).collect::<String>());
    }
}

/// Copies the pictures that are new since the last copy (all of them the first time),
/// every `media_every`. A picture is never changed once written, so a copy never
/// replaces one, and a picture removed here stays in the store (a restore may want it).
async fn copy_media(db: Db, settings: OffsiteSettings, media: PathBuf) {
    let mut since: Option<std::time::Instant> = None;
    loop {
        let started = std::time::Instant::now();
        let result = copy_media_once(&settings, &media, since.map(|at| at.elapsed() + Duration::from_secs(120))).await;
        match result {
            Ok(()) => {
                since = Some(started);
                db.metrics().offsite_media_runs.inc();
                let now = clock::now();
                if let Err(err) = db.write(move |tx| Ok(meta::set(tx, offsite::MEDIA, &now)?)).await {
                    tracing::warn!(%err, "off-site copy: cannot note the pictures' copy");
                }
            }
            Err(err) => tracing::warn!(%err, "off-site copy: the pictures were not copied; tried again soon"),
        }
        tokio::time::sleep(settings.media_every).await;
    }
}

async fn copy_media_once(settings: &OffsiteSettings, media: &Path, newer_than: Option<Duration>) -> Result<(), String> {
    let remote = settings.media_remote()?;
    let mut command = settings.command(&settings.rclone);
    command.arg("copy").arg(media).arg(remote).args(["--ignore-existing", "--no-traverse", "--quiet"]);
    if let Some(age) = newer_than {
        command.arg("--max-age").arg(format!("{}s", age.as_secs().max(1)));
    }
    let output = command.output().await.map_err(|err| format!("cannot start rclone: {err}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!("rclone: {}", String::from_utf8_lossy(&output.stderr).lines().last().unwrap_or_default()))
    }
}

/// Asks the store what it holds every `check_every` (30 s): its newest transaction
/// against the database's. Confirmed, the time is kept; refused, why (`offsite::OffsiteFailure`:
/// unreachable, denied, bucket missing), until a look succeeds; not confirmed for
/// `lag_alert`, the super admins are told once for the incident.
async fn check(db: Db, settings: OffsiteSettings, config: PathBuf, db_path: PathBuf) {
    loop {
        tokio::time::sleep(settings.check_every).await;
        let looked = confirmed(&settings, &config, &db_path).await;
        let failure = looked.as_ref().err().map(|err| {
            let failure = offsite::failure_of(err);
            tracing::warn!(%err, failure = failure.as_str(), "off-site copy: cannot read what the store holds");
            failure
        });
        let confirmed_now = looked.unwrap_or(false).then(clock::now);
        let noted = db
            .write(move |tx| {
                offsite::looked(tx, failure)?;
                if let Some(now) = &confirmed_now {
                    meta::set(tx, offsite::CONFIRMED, now)?;
                }
                Ok(())
            })
            .await;
        if let Err(err) = noted {
            tracing::warn!(%err, "off-site copy: cannot note what the store holds");
        }
        let lag_alert = settings.lag_alert;
        let alerted = db.write(move |tx| offsite::alert_if_lagging(tx, lag_alert)).await;
        match alerted {
            Ok(true) => tracing::warn!("off-site copy: not confirmed for too long; the super admins are told"),
            Ok(false) => {}
            Err(err) => tracing::warn!(%err, "off-site copy: cannot tell the super admins"),
        }
    }
}

/// Whether the store holds the database's newest transaction.
async fn confirmed(settings: &OffsiteSettings, config: &Path, db_path: &Path) -> Result<bool, String> {
    let local = tool_json(settings, &["status", "-json", "-config"], config, db_path).await?;
    let local = local.as_array().and_then(|dbs| dbs.first()).and_then(|d| d["local_txid"].as_str()).map(txid);
    let stored = tool_json(settings, &["ltx", "-json", "-level", "all", "-config"], config, db_path).await?;
    let stored =
        stored.as_array().map(|files| files.iter().filter_map(|f| f["max_txid"].as_str().map(txid)).max().unwrap_or(0));
    Ok(matches!((local, stored), (Some(local), Some(stored)) if stored >= local && local > 0))
}

fn txid(hex: &str) -> u64 {
    u64::from_str_radix(hex, 16).unwrap_or(0)
}

async fn tool_json(
    settings: &OffsiteSettings,
    args: &[&str],
    config: &Path,
    db_path: &Path,
) -> Result<serde_json::Value, String> {
    let mut command = settings.command(&settings.litestream);
    command.args(args).arg(config).arg(db_path);
    // Litestream's S3 client retries an address that does not answer for a minute or more.
    let patience = settings.check_every.clamp(Duration::from_secs(2), Duration::from_secs(20));
    let output = tokio::time::timeout(patience, command.output())
        .await
        .map_err(|_| format!("the store did not answer within {} s (i/o timeout)", patience.as_secs()))?
        .map_err(|err| format!("cannot start Litestream: {err}"))?;
    if !output.status.success() {
        return Err(format!("litestream: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    serde_json::from_slice(&output.stdout).map_err(|err| format!("litestream answered unreadably: {err}"))
}

/// Brings a deployment back from the store into the empty `data_dir`: the database (the
/// latest the store holds, or as it was at `at`, RFC 3339), marked as restored (every
/// phone takes a new snapshot at its next pull and sends again what the server lost),
/// then the pictures. Answers a line saying what was restored.
pub async fn restore(settings: &OffsiteSettings, data_dir: &Path, at: Option<&str>) -> Result<String, String> {
    let db_path = data_dir.join(db::DB_FILE);
    if db_path.exists() {
        return Err(format!("{} holds a database already: restore into an empty data dir", data_dir.display()));
    }
    crate::platform::files::create_private_dir(data_dir)
        .map_err(|err| format!("cannot make {}: {err}", data_dir.display()))?;
    let config = data_dir.join(LITESTREAM_CONFIG);
    std::fs::write(&config, settings.litestream_config(data_dir)?)
        .map_err(|err| format!("cannot write {}: {err}", config.display()))?;
    let started = std::time::Instant::now();
    let mut command = settings.command(&settings.litestream);
    command.arg("restore").arg("-config").arg(&config).arg("-o").arg(&db_path);
    if let Some(at) = at {
        command.arg("-timestamp").arg(at);
    }
    let output = command.arg(&db_path).output().await.map_err(|err| format!("cannot start Litestream: {err}"))?;
    if !output.status.success() {
        return Err(format!("litestream restore: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    crate::db::mark_restored(&db_path).map_err(|err| format!("cannot mark the restored database: {err}"))?;
    crate::db::make_private(data_dir).map_err(|err| format!("cannot make the database private: {err}"))?;
    let database = started.elapsed();
    let media = data_dir.join("media");
    let mut command = settings.command(&settings.rclone);
    command.arg("copy").arg(settings.media_remote()?).arg(&media).arg("--quiet");
    let output = command.output().await.map_err(|err| format!("cannot start rclone: {err}"))?;
    if !output.status.success() {
        return Err(format!("rclone copy: {}", String::from_utf8_lossy(&output.stderr).trim()));
    }
    let size = std::fs::metadata(&db_path).map(|m| m.len()).unwrap_or(0);
    let pictures = std::fs::read_dir(&media).map(|dir| dir.count()).unwrap_or(0);
    Ok(format!(
        "restored {} ({:.1} MB, in {:.1} s) and {pictures} pictures into {}; marked as restored: phones take a \
         new snapshot and send again what was lost. Start the server with the same JWT secret and gateway token.",
        db::DB_FILE,
        size as f64 / 1e6,
        database.as_secs_f64(),
        data_dir.display(),
    ))
}
