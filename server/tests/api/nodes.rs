//! Several servers on one database (docs/operations.md, Several nodes). On PostgreSQL
//! (`scripts/with-postgres`), two nodes, each with a data dir of its own, answer as one:
//! a phone listening on one hears a write made through the other, caches follow any
//! node's write, tokens and limits are the same on both. SQLite is one server: a
//! second on the same data dir is refused. The tests of PostgreSQL's own return early
//! on SQLite.

use std::time::{Duration, Instant};

use mavuno::model::user::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::helpers::*;
use crate::sync::{CLIENT_A, CLIENT_B, draft, listen, mutation, told};

/// A second node on `first`'s database, with a data dir of its own.
async fn second_node(first: &TestApp) -> (TestApp, TempDir) {
    second_node_with(first, |_| {}).await
}

/// A second node on `first`'s database, with a data dir of its own, configured by `adjust`.
pub async fn second_node_with(first: &TestApp, adjust: impl FnOnce(&mut mavuno::Config)) -> (TestApp, TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let url = first.database_url.clone().expect("on PostgreSQL");
    let node = spawn_in(dir.path(), |config| {
        adjust(config);
        config.database_url = Some(url.into());
    })
    .await;
    (node, dir)
}

#[tokio::test]
async fn a_second_server_on_one_sqlite_data_dir_is_refused_with_a_clear_message() {
    if on_postgres() {
        return;
    }
    let first = spawn_app().await;
    let config = mavuno::Config::new(&first.data_dir);
    let refused = mavuno::startup::Application::build(config, "127.0.0.1:0".parse().unwrap()).await.err();
    let message = refused.expect("a second server is refused").to_string();
    assert!(message.contains("another mavuno server is serving from"), "{message}");
    assert!(message.contains("PostgreSQL"), "says what to do instead: {message}");
    assert_eq!(first.get("/health", None).await.status(), StatusCode::OK, "the first serves on");
}

#[tokio::test]
async fn sign_in_limits_outlive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let first = spawn_in(dir.path(), |_| {}).await;
    first.register("amani@example.com").await;
    for _ in 0..10 {
        assert_eq!(first.login("amani@example.com", "wrong1").await.status(), StatusCode::UNAUTHORIZED);
    }
    drop(first);
    let again = spawn_in(dir.path(), |_| {}).await;
    let refused = again.login("amani@example.com", "wrong1").await;
    assert_eq!(error_of(refused, StatusCode::TOO_MANY_REQUESTS).await["code"], "too_many_attempts");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_listening_on_one_node_hears_a_write_made_through_the_other_within_two_seconds() {
    if !on_postgres() {
        return;
    }
    let a = spawn_app().await;
    let (b, _dir) = second_node(&a).await;
    let (token, _) = a.register("listener@example.com").await;
    let (other, _) = a.register("writer@example.com").await;
    let cursor = b.pull(&token, CLIENT_A, None, 100).await["cursor"].as_i64().unwrap();

    // The long poll on B, the write through A.
    let wait = b.client.get(b.api(&format!("/sync/wait?cursor={cursor}"))).send();
    let (answer, written) = tokio::join!(wait, async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        a.push_ok(&other, CLIENT_B, vec![mutation(1, "survey.create", draft(1), None)]).await;
        Instant::now()
    });
    let heard = Instant::now();
    let version = answer.unwrap().json::<Value>().await.unwrap()["version"].as_i64().unwrap();
    assert!(version > cursor);
    assert!(heard.duration_since(written) < Duration::from_secs(2), "heard {:?} after", heard - written);

    // A WebSocket on B, told of each write through A.
    let mut socket = listen(&b, version).await;
    a.push_ok(&other, CLIENT_B, vec![mutation(2, "survey.create", draft(2), None)]).await;
    let next = told(&mut socket, Duration::from_secs(2)).await.expect("told within 2 s");
    assert!(next > version);

    // The connection that hears other nodes is cut: B opens another and still hears.
    let conn = a.database();
    let cut: i64 = conn
        .query_row(
            "SELECT COUNT(pg_terminate_backend(pid)) FROM pg_stat_activity
             WHERE datname = current_database() AND application_name = 'mavuno-listen'",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(cut, 2, "each node listens on a connection of its own");
    tokio::time::sleep(Duration::from_millis(200)).await;
    a.push_ok(&other, CLIENT_B, vec![mutation(3, "survey.create", draft(3), None)]).await;
    let after = told(&mut socket, Duration::from_secs(3)).await.expect("heard after the cut, by the fallback");
    assert!(after > next);
}

#[tokio::test]
async fn caches_tokens_and_limits_are_the_same_on_every_node() {
    if !on_postgres() {
        return;
    }
    let a = spawn_app().await;
    let (b, _dir) = second_node(&a).await;

    // A token signed by one node is good on the other; signed out on one, refused on both.
    let (token, _) = a.register("amani@example.com").await;
    assert_eq!(b.me(&token).await.status(), StatusCode::OK);
    let out = b.client.post(b.api("/auth/logout")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(out.status(), StatusCode::OK);
    assert_eq!(error_of(a.me(&token).await, StatusCode::UNAUTHORIZED).await["code"], "invalid_token");

    // The catalogue cached on B follows a listing made through A.
    let farmer = a.user_with_role("farmer@example.com", Role::Farmer).await;
    let before: Value = b.get("/products", None).await.json().await.unwrap();
    let listed = a
        .listed(
            &farmer,
            json!({"title": "Beans", "description": "Dry", "quantity": 50, "price": 2, "current_price": 2}),
        )
        .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after: Value = b.get("/products", None).await.json().await.unwrap();
    let ids =
        |page: &Value| page["data"].as_array().unwrap().iter().map(|p| p["id"].as_i64().unwrap()).collect::<Vec<_>>();
    assert!(!ids(&before).contains(&listed));
    assert!(ids(&after).contains(&listed), "B's cache gave way to A's write");

    // Wrong passwords spread over both nodes count against one limit of ten.
    a.register("esther@example.com").await;
    let mut refused = 0;
    for n in 0..14 {
        let node = if n % 2 == 0 { &a } else { &b };
        match node.login("esther@example.com", "wrong1").await.status() {
            StatusCode::UNAUTHORIZED => {}
            StatusCode::TOO_MANY_REQUESTS => refused += 1,
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(refused, 4, "ten tries in all, not ten on each node");
}

#[tokio::test]
async fn the_payment_checks_and_the_hourly_round_are_one_node_s_at_a_time() {
    if !on_postgres() {
        return;
    }
    let a = spawn_app().await;
    let (b, _dir) = second_node(&a).await;
    let hold = Duration::from_secs(10);
    for lease in ["payment_poller", "housekeeping"] {
        let (on_a, on_b) = (a.state.db.lease(lease, hold).await.unwrap(), b.state.db.lease(lease, hold).await.unwrap());
        assert!(on_a ^ on_b, "{lease}: held by exactly one node ({on_a}, {on_b})");
    }
    let holders: i64 = a.database().query_row("SELECT COUNT(DISTINCT holder) FROM leases", [], |r| r.get(0)).unwrap();
    assert!(holders >= 1);
}
