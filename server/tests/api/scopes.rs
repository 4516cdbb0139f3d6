//! Wake-ups per scope (docs/sync.md, Listening): a phone that says who it is hears of
//! the catalogue's changes and its own, not of other people's; an older app that says
//! nothing hears of every change, as before. On PostgreSQL, across two nodes too.

use std::time::Duration;

use mavuno::model::user::Role;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

use crate::helpers::*;
use crate::orders::{line, order};
use crate::sync::{CLIENT_A, CLIENT_B, Listening, draft, listen, mutation, told};

/// A phone listening as today's app does: the `mavuno` subprotocol, and its token when signed in.
async fn listen_as(app: &TestApp, cursor: i64, token: Option<&str>) -> Listening {
    let url = app.api(&format!("/sync/listen?cursor={cursor}")).replacen("http", "ws", 1);
    let mut request = url.into_client_request().unwrap();
    let offered = match token {
        Some(token) => format!("mavuno, token.{token}"),
        None => "mavuno".to_owned(),
    };
    request.headers_mut().insert("sec-websocket-protocol", offered.parse().unwrap());
    let (socket, answer) = tokio_tungstenite::connect_async(request).await.expect("a WebSocket");
    assert_eq!(answer.headers()["sec-websocket-protocol"], "mavuno", "the token is never echoed");
    socket
}

async fn version_now(app: &TestApp) -> i64 {
    app.get("/sync/wait?cursor=-1", None).await.json::<Value>().await.unwrap()["version"].as_i64().unwrap()
}

const QUIET: Duration = Duration::from_millis(700);
const SOON: Duration = Duration::from_secs(3);

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_phone_hears_of_the_catalogue_and_its_own_changes_not_of_other_peoples() {
    let app = spawn_app().await;
    let (amani, _) = app.register("amani@example.com").await;
    let (esther, _) = app.register("esther@example.com").await;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let cursor = version_now(&app).await;
    let mut mine = listen_as(&app, cursor, Some(&amani)).await;
    let mut public = listen_as(&app, cursor, None).await;
    let mut older = listen(&app, cursor).await;

    // Esther's draft: the older app hears of it; Amani's phone and a signed-out one do not.
    app.push_ok(&esther, CLIENT_B, vec![mutation(1, "survey.create", draft(1), None)]).await;
    assert!(told(&mut older, SOON).await.is_some());
    assert_eq!(told(&mut mine, QUIET).await, None, "another person's draft");
    assert_eq!(told(&mut public, QUIET).await, None);

    // Amani's own draft: his phone hears of it.
    app.push_ok(&amani, CLIENT_A, vec![mutation(1, "survey.create", draft(2), None)]).await;
    let own = told(&mut mine, SOON).await.expect("his own change");
    assert!(own > cursor);
    assert_eq!(told(&mut public, QUIET).await, None);

    // A listing: every phone hears of it.
    let beans = app
        .listed(
            &farmer,
            json!({"title": "Beans", "description": "Dry", "quantity": 50, "price": 2, "current_price": 2}),
        )
        .await;
    let listed = told(&mut mine, SOON).await.expect("the catalogue's change");
    assert!(listed > own);
    assert_eq!(told(&mut public, SOON).await, Some(listed));

    // An order wakes its buyer and its seller, not a bystander.
    let mut seller = listen_as(&app, version_now(&app).await, Some(&farmer)).await;
    let mut bystander = listen_as(&app, version_now(&app).await, Some(&esther)).await;
    let placed = app.place(&amani, order(1, json!([line(beans, 2, 200)]))).await;
    assert_eq!(placed.status(), reqwest::StatusCode::CREATED);
    assert!(told(&mut seller, SOON).await.is_some(), "the seller of a part");
    assert!(told(&mut mine, SOON).await.is_some(), "the buyer");
    // The order's stock change is the catalogue's: the bystander hears of that, once.
    let stock = told(&mut bystander, SOON).await;
    assert!(stock.is_some());
    assert_eq!(told(&mut bystander, QUIET).await, None);
}

#[tokio::test]
async fn a_long_poll_that_says_who_it_is_answers_for_its_own_changes_only() {
    let app = spawn_app().await;
    let (amani, _) = app.register("amani@example.com").await;
    let (esther, _) = app.register("esther@example.com").await;
    let cursor = version_now(&app).await;
    let wait = || app.client.get(app.api(&format!("/sync/wait?cursor={cursor}&scoped=1"))).bearer_auth(&amani).send();
    // Another person's draft does not answer it.
    let (answer, _) = tokio::join!(wait(), async {
        tokio::time::sleep(Duration::from_millis(200)).await;
        app.push_ok(&esther, CLIENT_B, vec![mutation(1, "survey.create", draft(1), None)]).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
        app.push_ok(&amani, CLIENT_A, vec![mutation(1, "survey.create", draft(2), None)]).await;
    });
    let answer: Value = answer.unwrap().json().await.unwrap();
    let version = answer["version"].as_i64().unwrap();
    assert_eq!(version, version_now(&app).await, "answered by his own draft, the newest: {answer}");
    assert!(answer.get("restored").is_none());

    // A cursor ahead of the server (restored from a backup): answered at once, so.
    let ahead = app.client.get(app.api(&format!("/sync/wait?cursor={}&scoped=1", version + 50))).send();
    let ahead: Value = tokio::time::timeout(SOON, ahead).await.expect("at once").unwrap().json().await.unwrap();
    assert_eq!((ahead["version"].as_i64(), ahead["restored"].as_bool()), (Some(version), Some(true)));
    // A socket too.
    let mut socket = listen_as(&app, version + 50, Some(&amani)).await;
    assert_eq!(told(&mut socket, SOON).await, Some(version));
    // A token no longer good listens as a signed-out phone: no error, the catalogue's changes.
    let out = app.client.post(app.api("/auth/logout")).bearer_auth(&esther).send().await.unwrap();
    assert!(out.status().is_success());
    let revoked = app.client.get(app.api(&format!("/sync/wait?cursor={version}&scoped=1"))).bearer_auth(&esther);
    let held = tokio::time::timeout(QUIET, revoked.send()).await;
    assert!(held.is_err(), "held: nothing public changed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn across_nodes_a_phone_hears_of_its_own_changes_only() {
    if !on_postgres() {
        return;
    }
    let a = spawn_app().await;
    let (b, _dir) = crate::nodes::second_node_with(&a, |_| {}).await;
    let (amani, _) = a.register("amani@example.com").await;
    let (esther, _) = a.register("esther@example.com").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut mine = listen_as(&b, version_now(&b).await, Some(&amani)).await;
    a.push_ok(&esther, CLIENT_B, vec![mutation(1, "survey.create", draft(1), None)]).await;
    assert_eq!(told(&mut mine, QUIET).await, None, "another person's draft, through the other node");
    a.push_ok(&amani, CLIENT_A, vec![mutation(1, "survey.create", draft(2), None)]).await;
    assert!(told(&mut mine, Duration::from_secs(2)).await.is_some(), "his own, within 2 s");
}
