//! Reads on a streaming replica (docs/operations.md, Read replicas), against a real one:
//! scripts/with-postgres starts a standby of its throwaway cluster (pg_basebackup), whose
//! address it gives in MAVUNO_TEST_DATABASE_REPLICA_URL. PostgreSQL only: on SQLite these
//! return at once.

use std::time::Duration;

use mavuno::db::Connection;
use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;

/// The replica's copy of the database `url` names.
fn replica_of(url: &str) -> Option<String> {
    let replica = std::env::var("MAVUNO_TEST_DATABASE_REPLICA_URL").ok()?;
    let (_, name) = url.rsplit_once('/')?;
    let (base, _) = replica.rsplit_once('/')?;
    Some(format!("{base}/{name}"))
}

/// A connection to the replica's copy, once the standby has replayed its creation.
async fn replica_connection(url: &str) -> Connection {
    for _ in 0..100 {
        if let Ok(conn) = Connection::open_url(url) {
            return conn;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the replica never had the database");
}

fn one(conn: &Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |row| row.get(0)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reads_go_to_the_replica_yet_a_phone_reads_its_own_writes_at_once() {
    if !on_postgres() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let primary = postgres_of(dir.path()).unwrap();
    let replica = replica_of(&primary).expect("scripts/with-postgres starts a replica");
    let standby = replica_connection(&replica).await;
    let app = spawn_in(dir.path(), |config| {
        config.database_read_url = Some(replica.clone().into());
        config.gateway_token = Some(crate::ussd::TOKEN.into());
    })
    .await;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;

    assert_eq!(app.me(&farmer).await.status(), StatusCode::OK);
    // Reads reach the replica once it has caught up.
    reads_reach(&app, &standby).await;

    // The replica stops replaying: what the farmer writes is read back at once all the same.
    pause(&standby).await;
    let listed = app
        .listed(
            &farmer,
            json!({"title": "Beans", "description": "Dry", "quantity": 50, "price": 2, "current_price": 2}),
        )
        .await;
    let product: Value = app.get(&format!("/products/{listed}"), None).await.json().await.unwrap();
    assert_eq!(product["data"]["title"], "Beans", "read at once: {product}");
    let page: Value = app.get("/products", None).await.json().await.unwrap();
    assert!(page["data"].as_array().unwrap().iter().any(|p| p["id"] == listed), "the catalogue has it: {page}");
    let on_replica = one(&standby, &format!("SELECT COUNT(*) FROM products WHERE id = {listed}"));
    assert_eq!(on_replica, 0, "the replica has not replayed it: the database answered");

    // Replaying again, the replica catches up and has it.
    standby.execute_batch("SELECT pg_wal_replay_resume()").unwrap();
    let mut caught_up = false;
    for _ in 0..100 {
        caught_up = one(&standby, &format!("SELECT COUNT(*) FROM products WHERE id = {listed}")) == 1;
        if caught_up {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(caught_up, "the replica never caught up");

    // Only one test pauses the standby's replay (it is the cluster's, shared by the tests).
    // Who is signed in is read on the database itself (a session moves no version, so
    // the replica, caught up with every version, may lack one): a sign-in and a sign-out
    // hold at once while the replica stands still.
    pause(&standby).await;
    let again = app.login_token("farmer@example.com", PASSWORD).await;
    assert_eq!(app.me(&again).await.status(), StatusCode::OK, "signed in a moment ago");
    let out = app.client.post(app.api("/auth/logout")).bearer_auth(&farmer).send().await.unwrap();
    assert_eq!(out.status(), StatusCode::OK);
    assert_eq!(error_of(app.me(&farmer).await, StatusCode::UNAUTHORIZED).await["code"], "invalid_token", "signed out");
    // And the crops a person follows by SMS (their own list, which moves no version).
    let (follower, _) = app.register("follow@example.com").await;
    let follow = json!({"crop": "haricots", "market_id": null});
    assert_eq!(app.call(Method::PUT, "/me/price-alerts", &follower, Some(follow)).await.status(), StatusCode::OK);
    let followed: Value = app.get("/me/price-alerts", Some(&follower)).await.json().await.unwrap();
    assert_eq!(followed["data"], json!([{"crop": "bean", "market": null}]), "followed a moment ago");
    // So is a basic phone's (what a USSD session showed, a number's language): the next
    // answer and the next dial act on what it did a moment ago.
    let mut phone = app.phone("+243971000004");
    assert!(phone.go(&["5", "3"]).await.text.starts_with("Karibu MAVUNO"));
    assert!(phone.dial().await.text.starts_with("Karibu MAVUNO"), "the chosen language at once");
    standby.execute_batch("SELECT pg_wal_replay_resume()").unwrap();
}

/// Waits until the server reads on the replica (it has caught up; one that failed
/// before replaying the migrations is passed over for 5 s).
async fn reads_reach(app: &TestApp, standby: &Connection) {
    for _ in 0..150 {
        assert_eq!(app.get("/products", None).await.status(), StatusCode::OK);
        let reading = one(
            standby,
            "SELECT COUNT(*) FROM pg_stat_activity WHERE application_name = 'mavuno' AND datname = current_database()",
        );
        if reading > 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the server never read on the replica");
}

/// Stops the replica's replay, once it says so.
async fn pause(standby: &Connection) {
    standby.execute_batch("SELECT pg_wal_replay_pause()").unwrap();
    for _ in 0..100 {
        let state: String = standby.query_row("SELECT pg_get_wal_replay_pause_state()", [], |r| r.get(0)).unwrap();
        if state == "paused" {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the replica never paused");
}

#[tokio::test]
async fn a_replica_out_of_reach_is_passed_over() {
    if !on_postgres() {
        return;
    }
    let nowhere = "postgresql://postgres@127.0.0.1:1/nowhere?connect_timeout=1";
    let app = spawn_with(|config| config.database_read_url = Some(nowhere.into())).await;
    let (token, _) = app.register("amani@example.com").await;
    assert_eq!(app.me(&token).await.status(), StatusCode::OK);
    assert_eq!(app.get("/products", None).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_replica_without_a_database_is_refused_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let config = mavuno::Config {
        database_url: None,
        database_read_url: Some("postgresql://postgres@127.0.0.1:1/x".into()),
        ..mavuno::Config::new(dir.path())
    };
    let refused = mavuno::state::AppState::open(config).await.err().expect("refused");
    assert!(refused.to_string().contains("--database-read-url"), "{refused}");
}
