//! PostgreSQL stopped and started again under load (issue 62, point 2): the whole
//! cluster, not one database's connections. A cluster of this test's own (so the
//! rest of the suite keeps its database), made and driven as the `postgres` system
//! user like scripts/with-postgres does, and stopped when the test ends, also on failure.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::mutation;

/// A throwaway cluster on a unix socket in a temporary directory.
struct Cluster {
    bin: PathBuf,
    dir: tempfile::TempDir,
}

impl Cluster {
    fn start() -> Option<Cluster> {
        let bin = PathBuf::from(std::env::var_os("PG_BIN")?);
        let dir = tempfile::Builder::new().prefix("mavuno-restart").tempdir().unwrap();
        std::fs::set_permissions(dir.path(), std::os::unix::fs::PermissionsExt::from_mode(0o777)).unwrap();
        let cluster = Cluster { bin, dir };
        cluster.pg(&["initdb", "-D", &cluster.data(), "-U", "postgres", "--auth=trust", "--locale=C", "-E", "UTF8"]);
        cluster.ctl("start");
        Some(cluster)
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    fn url(&self) -> String {
        let socket = self.dir.path().display().to_string().replace('/', "%2F");
        format!("postgresql://postgres@{socket}/postgres")
    }

    /// Runs one of PostgreSQL's programs, as the `postgres` user when we are root.
    fn pg(&self, args: &[&str]) {
        let program = self.bin.join(args[0]);
        let root = is_root();
        let mut command = if root { Command::new("runuser") } else { Command::new(&program) };
        if root {
            command.args(["-u", "postgres", "--"]).arg(&program);
        }
        let out = command.args(&args[1..]).output().expect("PostgreSQL's programs");
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }

    fn ctl(&self, verb: &str) {
        let log = self.dir.path().join("log").display().to_string();
        let options = format!("-k {} -c listen_addresses='' -c max_connections=50", self.dir.path().display());
        match verb {
            "start" => self.pg(&["pg_ctl", "-D", &self.data(), "-l", &log, "-w", "-o", &options, "start"]),
            // Fast: what a restart for an upgrade or a changed setting does.
            _ => self.pg(&["pg_ctl", "-D", &self.data(), "-m", "fast", "-w", verb]),
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        drop(std::panic::catch_unwind(|| self.pg(&["pg_ctl", "-D", &data, "-m", "immediate", "stop"])));
    }
}

/// Whether this process runs as root (PostgreSQL's programs then run as `postgres`).
fn is_root() -> bool {
    std::fs::metadata("/proc/self").map(|m| std::os::unix::fs::MetadataExt::uid(&m) == 0).unwrap_or(false)
}

fn survey(n: u32) -> Value {
    json!({"uid": format!("00000000-0000-4000-9000-{n:012}"), "status": "draft", "answers": {"land_size": "1-2 hectares"}})
}

/// A phone pushing batches of two changes, each batch sent again until it is
/// answered, as the PWA does (a refusal's batch may have landed before its answer was
/// lost: the repeat is then answered from the sync results). Counts "answered",
/// "batches" and each refusal by its code.
async fn phone(app: Arc<TestApp>, token: String, phone: u32, stop: Arc<AtomicBool>) -> BTreeMap<String, u32> {
    let client = format!("eeeeeeee-0000-4000-8000-{phone:012}");
    let mut seen = BTreeMap::new();
    let mut batch = 0;
    while !stop.load(Ordering::Relaxed) || batch < 3 {
        let n = phone * 1000 + batch;
        let changes = vec![
            mutation(u64::from(2 * batch + 1), "survey.create", survey(2 * n), None),
            mutation(u64::from(2 * batch + 2), "survey.create", survey(2 * n + 1), None),
        ];
        loop {
            let response = app.push(&token, &client, changes.clone()).await;
            let status = response.status();
            let body: Value = response.json().await.expect("every answer is JSON");
            if status.is_success() {
                *seen.entry("answered".to_owned()).or_default() += 1;
                assert!(body["results"].as_array().unwrap().iter().all(|r| r["status"] == "applied"), "{body}");
                break;
            }
            assert_eq!(status, reqwest::StatusCode::SERVICE_UNAVAILABLE, "{body}");
            *seen.entry(body["code"].as_str().unwrap().to_owned()).or_default() += 1;
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        batch += 1;
        tokio::time::sleep(Duration::from_millis(30)).await;
    }
    seen.insert("batches".to_owned(), batch);
    seen
}

#[tokio::test]
async fn postgresql_restarted_under_load_answers_503_then_recovers_and_loses_or_doubles_nothing() {
    let Some(cluster) = (if on_postgres() { Cluster::start() } else { None }) else {
        return; // SQLite has no server to restart; a stopped server is the off-site drill's.
    };
    let url = cluster.url();
    let app = Arc::new(spawn_with(|config| config.database_url = Some(url.clone().into())).await);
    assert_eq!(app.database_url.as_deref(), Some(url.as_str()));
    let (token, _) = app.register("amani@example.com").await;

    // Four phones push while a reader pulls; PostgreSQL stops for two seconds and comes back.
    let stop = Arc::new(AtomicBool::new(false));
    let phones: Vec<_> =
        (1..=4).map(|p| tokio::spawn(phone(Arc::clone(&app), token.clone(), p, Arc::clone(&stop)))).collect();
    let caught_up = Arc::new(AtomicBool::new(false));
    // A phone pulls in a loop from its cursor, through the outage, until it has caught
    // up after the phones stop.
    let reader = {
        let (app, token, stop) = (Arc::clone(&app), token.clone(), Arc::clone(&caught_up));
        tokio::spawn(async move {
            let (mut seen, mut answers) = (BTreeMap::<String, u32>::new(), BTreeMap::<u16, u32>::new());
            let mut cursor: Option<i64> = None;
            loop {
                let from = cursor.map(|c| format!("&cursor={c}")).unwrap_or_default();
                let url = app.api(&format!("/sync/pull?client_id=dddddddd-0000-4000-8000-000000000001&limit=50{from}"));
                let response = app.client.get(url).bearer_auth(&token).send().await.unwrap();
                let status = response.status().as_u16();
                let page: Value = response.json().await.expect("every answer is JSON");
                *answers.entry(status).or_default() += 1;
                if status != 200 {
                    assert_eq!(page["code"], "server_busy", "{page}");
                } else {
                    for change in page["changes"].as_array().unwrap() {
                        *seen.entry(change["id"].as_str().unwrap().to_owned()).or_default() += 1;
                    }
                    cursor = page["cursor"].as_i64();
                    if !page["has_more"].as_bool().unwrap() && stop.load(Ordering::Relaxed) {
                        return (seen, answers);
                    }
                }
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
        })
    };
    tokio::time::sleep(Duration::from_millis(500)).await;
    let stopping = tokio::task::spawn_blocking(move || {
        cluster.ctl("stop");
        std::thread::sleep(Duration::from_secs(2));
        cluster.ctl("start");
        cluster
    });
    let cluster = stopping.await.unwrap();
    tokio::time::sleep(Duration::from_secs(1)).await;
    stop.store(true, Ordering::Relaxed);

    let mut busy = 0;
    let mut batches = 0;
    for phone in phones {
        let seen = phone.await.unwrap();
        assert_eq!(seen.get("answered"), seen.get("batches"), "every batch answered in the end: {seen:?}");
        assert!(seen.keys().all(|code| ["answered", "batches", "server_busy"].contains(&code.as_str())), "{seen:?}");
        busy += seen.get("server_busy").copied().unwrap_or(0);
        batches += seen["batches"];
    }
    caught_up.store(true, Ordering::Relaxed);
    let (pulled, reads) = reader.await.unwrap();
    assert!(busy > 0 && reads.contains_key(&503), "the outage was seen by pushes ({busy}) and pulls ({reads:?})");
    assert!(reads.keys().all(|status| [200, 503].contains(status)), "{reads:?}");

    // Every change once: no batch half-written, none doubled by its retries, and the
    // phone that pulled through it all has each exactly once.
    let db = app.database();
    let mut statement = db.prepare("SELECT uid FROM surveys ORDER BY uid").unwrap();
    let uids: Vec<String> = statement.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap();
    assert_eq!(uids.len(), 2 * batches as usize);
    let missed: Vec<_> = uids.iter().filter(|uid| !pulled.contains_key(*uid)).collect();
    let twice: Vec<_> = pulled.iter().filter(|(_, times)| **times != 1).collect();
    assert!(missed.is_empty() && twice.is_empty(), "missed {missed:?}, more than once {twice:?}");
    assert_eq!(pulled.len(), uids.len());
    drop(cluster);
}
