//! The `mavuno` binary itself: serve (flags from the environment, SIGTERM),
//! create-user, backup and restore, demo content.

use std::process::Stdio;

use mavuno::demo;
use reqwest::StatusCode;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::process::Command;

use crate::helpers::*;

#[tokio::test]
async fn create_user_makes_any_role_and_refuses_a_duplicate() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let args = [
        "create-user",
        "--data-dir",
        data,
        "--email",
        "Root@Example.com",
        "--password",
        "rootpass",
        "--role",
        "super_admin",
        "--first-name",
        "Neema",
    ];
    let database = postgres_of(dir.path()).unwrap_or_default();
    let first = mavuno().args(args).env("MAVUNO_DATABASE_URL", &database).output().await.unwrap();
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));

    let again = mavuno().args(args).env("MAVUNO_DATABASE_URL", &database).output().await.unwrap();
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("already exists"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );

    let bad_role = mavuno()
        .args([
            "create-user",
            "--data-dir",
            data,
            "--email",
            "x@example.com",
            "--password",
            "rootpass",
            "--role",
            "king",
        ])
        .output()
        .await
        .unwrap();
    assert!(!bad_role.status.success());
    assert!(String::from_utf8_lossy(&bad_role.stderr).contains("super_admin"), "lists the roles");

    let app = spawn_in(dir.path(), |_| {}).await;
    let token = app.login_token("root@example.com", "rootpass").await;
    let me: Value = app.me(&token).await.json().await.unwrap();
    assert_eq!(me["user"]["role"], "super_admin");
    assert_eq!(me["user"]["first_name"], "Neema");
}

#[tokio::test]
async fn a_backup_taken_while_serving_restores_into_a_working_server() {
    if on_postgres() {
        return; // SQLite's own backup; PostgreSQL's is pg_dump's (docs/operations.md, PostgreSQL).
    }
    let live = tempfile::tempdir().unwrap();
    let app = spawn_in(live.path(), |_| {}).await;
    app.register("amani@example.com").await;
    let backup = live.path().join("backup.db");
    let output = mavuno()
        .args(["backup", "--data-dir", live.path().to_str().unwrap(), "--out", backup.to_str().unwrap()])
        .output()
        .await
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));

    // Restore as docs/operations.md says: the backup becomes mavuno.db of a data dir.
    let restored = tempfile::tempdir().unwrap();
    std::fs::copy(&backup, restored.path().join(mavuno::db::DB_FILE)).unwrap();
    std::fs::copy(live.path().join("jwt-secret"), restored.path().join("jwt-secret")).unwrap();
    let app = spawn_in(restored.path(), |_| {}).await;
    assert_eq!(app.login("amani@example.com", PASSWORD).await.status(), StatusCode::OK);

    let missing = mavuno().args(["backup", "--data-dir", "/nonexistent", "--out", "/tmp/x.db"]).output().await.unwrap();
    assert!(!missing.status.success());
}

#[tokio::test]
async fn on_postgresql_the_data_dir_holds_no_sqlite_file_and_backup_says_which_tools_to_use() {
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_in(dir.path(), |_| {}).await;
    app.register("amani@example.com").await;
    // On PostgreSQL the data dir holds media and the secrets, no SQLite database.
    assert_eq!(dir.path().join(mavuno::db::DB_FILE).exists(), !on_postgres());

    let out = dir.path().join("backup.db");
    let backup = |url: Option<&str>| {
        let mut command = mavuno();
        command.args(["backup", "--data-dir", dir.path().to_str().unwrap(), "--out", out.to_str().unwrap()]);
        command.env_remove("MAVUNO_DATABASE_URL");
        if let Some(url) = url {
            command.env("MAVUNO_DATABASE_URL", url);
        }
        command.output()
    };
    let refused = backup(Some("postgres://mavuno@127.0.0.1:1/mavuno")).await.unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("database is PostgreSQL") && said.contains("pg_dump"), "{said}");
    assert!(!out.exists());
    let restore = mavuno()
        .args(["restore", "--data-dir", dir.path().join("new").to_str().unwrap()])
        .env("MAVUNO_DATABASE_URL", "postgres://mavuno@127.0.0.1:1/mavuno")
        .output()
        .await
        .unwrap();
    assert!(String::from_utf8_lossy(&restore.stderr).contains("database is PostgreSQL"));

    // A data dir whose SQLite file is empty (left by an older server on PostgreSQL):
    // said plainly, and no half-written copy left behind.
    std::fs::write(dir.path().join(mavuno::db::DB_FILE), b"").unwrap();
    let refused = backup(None).await.unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("no SQLite database in") && said.contains("pg_dump"), "{said}");
    assert!(!out.exists());
}

#[tokio::test]
async fn serve_reads_its_settings_from_the_environment_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().unwrap();
    let mut child = mavuno()
        .arg("serve")
        .env("MAVUNO_ADDR", "127.0.0.1:0")
        .env("MAVUNO_DATA_DIR", dir.path())
        .env("MAVUNO_DEMO", "true")
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let origin = read_origin(&mut lines).await;
    assert!(dir.path().join(mavuno::db::DB_FILE).is_file());
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let response = client
        .post(format!("{origin}/api/v1/users/login"))
        .json(&serde_json::json!({"user": {"email": "farmer@mavuno.demo", "password": demo::DEMO_PASSWORD}}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK, "demo accounts were loaded");
    let (log_tx, mut log_rx) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            log_tx.send(line).ok();
        }
    });

    let pid = child.id().unwrap().to_string();
    assert!(Command::new("kill").args(["-TERM", &pid]).status().await.unwrap().success());
    let status = tokio::time::timeout(std::time::Duration::from_secs(10), child.wait()).await.unwrap().unwrap();
    assert!(status.success(), "graceful exit: {status:?}");
    let mut logs = Vec::new();
    while let Ok(line) = log_rx.try_recv() {
        logs.push(line);
    }
    assert!(
        logs.iter().any(|l| l.contains("path=\"/api/v1/users/login\"") && l.contains("status=200")),
        "request log: {logs:?}"
    );
}

#[tokio::test]
async fn demo_content_has_every_role_and_loads_only_once() {
    let app = spawn_app().await;
    assert!(demo::seed(&app.state).await.unwrap());
    for (email, role) in [
        ("superadmin@mavuno.demo", "super_admin"),
        ("admin@mavuno.demo", "admin"),
        ("farmer@mavuno.demo", "farmer"),
        ("buyer@mavuno.demo", "user"),
        ("agent@mavuno.demo", "field_agent"),
    ] {
        let token = app.login_token(email, demo::DEMO_PASSWORD).await;
        let me: Value = app.me(&token).await.json().await.unwrap();
        assert_eq!(me["user"]["role"], role);
    }
    // The demo buyer's four orders, one in each state (the README says so).
    let buyer = app.login_token("buyer@mavuno.demo", demo::DEMO_PASSWORD).await;
    let orders: Value =
        app.client.get(app.api("/orders")).bearer_auth(&buyer).send().await.unwrap().json().await.unwrap();
    let mut states: Vec<&str> =
        orders["data"].as_array().unwrap().iter().map(|o| o["status"].as_str().unwrap()).collect();
    states.sort_unstable();
    assert_eq!(states, ["cancelled", "delivered", "processing", "shipped"], "{orders}");
    // An admin deletes a demo account; a restart with --demo does not bring it back.
    let buyer = app.login_token("buyer@mavuno.demo", demo::DEMO_PASSWORD).await;
    app.client.delete(app.api("/me/delete")).bearer_auth(&buyer).send().await.unwrap();
    assert!(!demo::seed(&app.state).await.unwrap());
    assert_eq!(app.login("buyer@mavuno.demo", demo::DEMO_PASSWORD).await.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn the_terminal_phone_dials_a_running_server_through_the_gateway_address() {
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_in(dir.path(), |_| {}).await;
    let data = dir.path().to_str().unwrap();
    let mut phone = mavuno()
        .args(["ussd", "--phone", "+254711000070", "--server", &app.origin, "--data-dir", data, "--lang", "en"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = phone.stdin.take().unwrap();
    tokio::io::AsyncWriteExt::write_all(&mut stdin, b"2\n3\n").await.unwrap();
    drop(stdin);
    let output = phone.wait_with_output().await.unwrap();
    let shown = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{shown}\n{}", String::from_utf8_lossy(&output.stderr));
    assert!(shown.contains("Welcome to MAVUNO\n1 Join"), "--lang for a number with no language yet: {shown}");
    assert!(shown.contains("Cassava, all markets: no prices in the last 12 weeks"), "the last screen: {shown}");

    let wrong = mavuno()
        .args(["ussd", "--phone", "+254711000070", "--server", &app.origin, "--gateway-token", &"x".repeat(40)])
        .stdin(Stdio::null())
        .output()
        .await
        .unwrap();
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("404"), "{}", String::from_utf8_lossy(&wrong.stderr));
}

#[tokio::test]
async fn a_server_with_no_payment_provider_refuses_to_start_unless_the_simulator_is_chosen() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let refused = mavuno().args(["serve", "--addr", "127.0.0.1:0", "--data-dir", data]).output().await.unwrap();
    assert!(!refused.status.success());
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("no payment provider") && said.contains("--payments simulator"), "{said}");

    let both = mavuno()
        .args(["serve", "--addr", "127.0.0.1:0", "--data-dir", data, "--payments", "simulator"])
        .args(["--pawapay-token", "some-token"])
        .output()
        .await
        .unwrap();
    assert!(!both.status.success(), "the simulator and pawaPay together are refused");

    let server = ServerProcess::start(
        &[&["create-user", "--email", "root@example.com", "--password", "rootpass", "--role", "admin"]],
        &[],
        None,
    )
    .await;
    let login = server
        .client
        .post(server.api("/users/login"))
        .json(&serde_json::json!({"user": {"email": "root@example.com", "password": "rootpass"}}))
        .send()
        .await
        .unwrap();
    let token = login.json::<Value>().await.unwrap()["user"]["token"].as_str().unwrap().to_owned();
    let overview: Value = server
        .client
        .get(server.api("/admin/overview"))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(overview["payments_simulated"], true, "the admin's dashboard says no real money moves");
    assert!(server.log_tail().contains("no real money moves"), "and the log at start-up: {}", server.log_tail());
}

#[tokio::test]
async fn the_off_site_copy_refuses_settings_it_cannot_use_with_a_clear_message() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let said = |output: std::process::Output| {
        assert!(!output.status.success());
        String::from_utf8_lossy(&output.stderr).into_owned()
    };
    let keys = [("MAVUNO_OFFSITE_ACCESS_KEY_ID", "key"), ("MAVUNO_OFFSITE_SECRET_ACCESS_KEY", "s3cr3t-never-printed")];
    // Not a store's address; no keys; a tool that is not there: the server does not start.
    let run = |args: &[&str], env: &[(&str, &str)]| {
        let mut command = mavuno();
        command.args(args).env_remove("MAVUNO_OFFSITE_URL");
        for (key, value) in env {
            command.env(key, value);
        }
        command.output()
    };
    let serve = ["serve", "--addr", "127.0.0.1:0", "--data-dir", data];
    let bad_url = said(run(&[&serve[..], &["--offsite-url", "https://example.org/x"]].concat(), &keys).await.unwrap());
    assert!(bad_url.contains("not an s3:// address"), "{bad_url}");
    let no_keys = said(run(&[&serve[..], &["--offsite-url", "s3://bucket/mavuno"]].concat(), &[]).await.unwrap());
    assert!(no_keys.contains("MAVUNO_OFFSITE_ACCESS_KEY_ID"), "{no_keys}");
    let no_tool = said(
        run(
            &[&serve[..], &["--offsite-url", "s3://bucket/mavuno", "--litestream", "/nonexistent/litestream"]].concat(),
            &keys,
        )
        .await
        .unwrap(),
    );
    assert!(no_tool.contains("needs Litestream"), "{no_tool}");
    assert!(!no_tool.contains("s3cr3t"), "the secret stays out of what is printed");
    // A restore needs the store, and never writes over a database.
    let no_store = said(run(&["restore", "--data-dir", data], &[]).await.unwrap());
    assert!(no_store.contains("--offsite-url"), "{no_store}");
    std::fs::write(dir.path().join(mavuno::db::DB_FILE), b"").unwrap();
    let found = said(
        run(
            &[
                "restore",
                "--data-dir",
                data,
                "--offsite-url",
                "s3://bucket/mavuno",
                "--litestream",
                "true",
                "--rclone",
                "true",
            ],
            &keys,
        )
        .await
        .unwrap(),
    );
    assert!(found.contains("holds a database already"), "{found}");
}

#[tokio::test]
async fn a_database_out_of_reach_at_start_is_one_clear_line_and_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    for (url, cause) in [
        ("postgresql://mavuno:s3cret-word@127.0.0.1:1/mavuno", "Connection refused"),
        ("postgresql://mavuno@%2Fno%2Fsuch%2Fdir/mavuno", "No such file or directory"),
        ("mysql://somewhere", "cannot be read"),
    ] {
        let refused = mavuno()
            .args(["serve", "--addr", "127.0.0.1:0", "--data-dir", data, "--payments", "simulator"])
            .env("MAVUNO_DATABASE_URL", url)
            .output()
            .await
            .unwrap();
        assert!(!refused.status.success());
        let said = String::from_utf8_lossy(&refused.stderr);
        let last = said.lines().last().unwrap_or_default();
        assert!(last.starts_with("mavuno: cannot open the database: ") && last.contains(cause), "{said}");
        assert!(!said.contains("panicked") && !said.contains("s3cret-word"), "no panic, no password: {said}");
    }
}
