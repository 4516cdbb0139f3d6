//! Reads on a streaming replica (docs/operations.md, Read replicas), against a real one:
//! scripts/with-postgres starts a standby of its throwaway cluster (pg_basebackup), whose
//! address it gives in MAVUNO_TEST_DATABASE_REPLICA_URL. PostgreSQL only (on SQLite they
//! return at once), but for the list of reads a replica may answer.

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
async fn only_version_guarded_reads_go_to_the_replica_and_each_reads_what_was_just_written() {
    if !on_postgres() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let primary = postgres_of(dir.path()).unwrap();
    let replica = replica_of(&primary).expect("scripts/with-postgres starts a replica");
    let standby = replica_connection(&replica).await;
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), crate::first_screen::template()).unwrap();
    let app = spawn_in(dir.path(), |config| {
        config.database_read_url = Some(replica.clone().into());
        config.gateway_token = Some(crate::ussd::TOKEN.into());
        config.web_dir = Some(web.path().to_owned());
    })
    .await;
    // A cooperative whose manager weighs (people, roles and members made beforehand).
    let c = crate::cooperatives::Coop::on(app).await;
    let app = &c.app;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    assert_eq!(app.me(&farmer).await.status(), StatusCode::OK);
    // Reads reach the replica once it has caught up.
    reads_reach(app, &standby).await;

    // The replica stops replaying. Each read that may go to it (`Db::read_versioned`)
    // reads at once what was just written: the write moved a version the replica lacks.
    pause(&standby).await;
    let listed = app
        .listed(
            &farmer,
            json!({"title": "Beans", "description": "Dry", "quantity": 50, "price": 2, "current_price": 2}),
        )
        .await;
    let product: Value = app.get(&format!("/products/{listed}"), None).await.json().await.unwrap();
    assert_eq!(product["data"]["title"], "Beans", "read at once: {product}");
    let page: Value = app.get("/products?q=Beans", None).await.json().await.unwrap();
    assert!(page["data"].as_array().unwrap().iter().any(|p| p["id"] == listed), "the catalogue has it: {page}");
    assert!(first_screen(app, &format!("/product/{listed}")).await.contains("Beans"), "its page");
    assert!(first_screen(app, "/marketplace?q=Beans").await.contains(&format!("/product/{listed}")), "the market");
    let market =
        app.call(Method::POST, "/admin/markets", &c.admin, Some(json!({"name": "Mugogo", "territory": "Walungu"})));
    let market = market.await.json::<Value>().await.unwrap()["data"]["id"].as_i64().unwrap();
    let markets: Value = app.get("/prices/markets", None).await.json().await.unwrap();
    assert!(markets["data"].as_array().unwrap().iter().any(|m| m["id"] == market), "the markets: {markets}");
    assert_eq!(app.get(&format!("/prices?market={market}"), None).await.status(), StatusCode::OK, "its board");
    assert!(first_screen(app, "/prices?territory=Walungu").await.contains("Mugogo"), "the prices' page");
    let draft = vec![crate::sync::mutation(1, "survey.create", crate::sync::draft(1), None)];
    app.push_ok(&farmer, crate::sync::CLIENT_A, draft).await;
    let pulled = app.pull(&farmer, crate::sync::CLIENT_A, None, 100).await;
    let uids: Vec<&Value> = pulled["changes"].as_array().unwrap().iter().map(|c| &c["record"]["uid"]).collect();
    assert!(uids.contains(&&json!(crate::sync::uid(1))), "the pull has the draft: {pulled}");
    let on_replica = one(&standby, &format!("SELECT COUNT(*) FROM products WHERE id = {listed}"));
    assert_eq!(on_replica, 0, "the replica has not replayed it: the database answered");
    resume(&standby, listed).await;

    // Every other read is on the database: rows whose writes move no version are read
    // back at once while the replica stands still (only this test pauses its replay: it is
    // the cluster's, shared by the tests). A person made a moment ago signs in.
    pause(&standby).await;
    let super_admin = app.user_with_role("super@example.com", Role::SuperAdmin).await;
    let again = app.login_token("farmer@example.com", PASSWORD).await;
    assert_eq!(app.me(&again).await.status(), StatusCode::OK, "signed in a moment ago");
    let out = app.client.post(app.api("/auth/logout")).bearer_auth(&farmer).send().await.unwrap();
    assert_eq!(out.status(), StatusCode::OK);
    assert_eq!(error_of(app.me(&farmer).await, StatusCode::UNAUTHORIZED).await["code"], "invalid_token", "signed out");
    // The crops a person follows by SMS.
    let (follower, _) = app.register("follow@example.com").await;
    let follow = json!({"crop": "haricots", "market_id": null});
    assert_eq!(app.call(Method::PUT, "/me/price-alerts", &follower, Some(follow)).await.status(), StatusCode::OK);
    let followed: Value = app.get("/me/price-alerts", Some(&follower)).await.json().await.unwrap();
    assert_eq!(followed["data"], json!([{"crop": "bean", "market": null}]), "followed a moment ago");
    // A basic phone's (what a USSD session showed, a number's language): the next answer
    // and the next dial act on what it did a moment ago.
    let mut phone = app.phone("+243971000004");
    assert!(phone.go(&["5", "3"]).await.text.starts_with("Karibu MAVUNO"));
    assert!(phone.dial().await.text.starts_with("Karibu MAVUNO"), "the chosen language at once");
    // The weigh book: a bag weighed a moment ago is in it, and in the member's own list.
    c.weigh(1, c.member_id, "48.5", "A").await;
    assert_eq!(c.book().await.len(), 1, "the weigh book has it");
    let mine: Value = app.get("/me/deliveries", Some(&c.member)).await.json().await.unwrap();
    assert_eq!(mine["data"].as_array().map(Vec::len), Some(1), "the member's deliveries: {mine}");
    // A setting changed a moment ago.
    let fee = app.call(Method::PATCH, "/admin/settings", &super_admin, Some(json!({"platform_fee_bp": 500}))).await;
    assert_eq!(fee.status(), StatusCode::OK);
    let settings: Value = app.get("/admin/settings", Some(&super_admin)).await.json().await.unwrap();
    assert_eq!(settings["data"]["platform_fee_bp"], 500, "{settings}");
    standby.execute_batch("SELECT pg_wal_replay_resume()").unwrap();
}

/// A page's first screen (its HTML as a first visit gets it).
async fn first_screen(app: &TestApp, path: &str) -> String {
    crate::first_screen::page(app, path, "en").await
}

/// Lets the replica replay again, and waits until it has the product `listed`.
async fn resume(standby: &Connection, listed: i64) {
    standby.execute_batch("SELECT pg_wal_replay_resume()").unwrap();
    for _ in 0..100 {
        if one(standby, &format!("SELECT COUNT(*) FROM products WHERE id = {listed}")) == 1 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the replica never caught up");
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

/// The reads a replica may answer, each a call of `Db::read_versioned` (file, calls):
/// pull pages, the catalogue and its products, market prices, and their first screens.
/// The test above writes each with the replica's replay paused and reads it back.
const VERSIONED_READS: [(&str, usize); 6] = [
    ("api/prices.rs", 2),
    ("api/products.rs", 2),
    ("api/sync/flows.rs", 1),
    ("web/first_screen/detail.rs", 1),
    ("web/first_screen/lists.rs", 1),
    ("web/first_screen/prices.rs", 1),
];

#[test]
fn a_read_goes_to_a_replica_only_where_it_is_listed() {
    fn walk(dir: &std::path::Path, root: &std::path::Path, found: &mut Vec<(String, usize)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, found);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let calls = std::fs::read_to_string(&path).unwrap().matches(".read_versioned(").count();
                if calls > 0 {
                    found.push((path.strip_prefix(root).unwrap().to_string_lossy().into_owned(), calls));
                }
            }
        }
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut found = Vec::new();
    walk(&root, &root, &mut found);
    found.sort();
    let listed: Vec<(String, usize)> = VERSIONED_READS.iter().map(|(f, n)| ((*f).to_owned(), *n)).collect();
    assert_eq!(found, listed, "a new read on the replica is listed here, in docs/operations.md and tested above");
}
