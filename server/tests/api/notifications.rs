//! Notifications: one for each event, to the people it concerns only; pulled by their
//! phones, marked read from there.

use mavuno::model::user::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;
use crate::orders::{line, order};
use crate::sync::{CLIENT_A, CLIENT_B, mutation};

/// The kinds of the notifications of the account of `email`, oldest first.
pub fn kinds_of(app: &TestApp, email: &str) -> Vec<String> {
    let conn = app.database();
    let mut stmt = conn
        .prepare("SELECT n.kind FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.email = ?1 ORDER BY n.id")
        .unwrap();
    stmt.query_map([email], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap()
}

fn notifications(page: &Value) -> Vec<Value> {
    page["changes"].as_array().unwrap().iter().filter(|c| c["entity"] == "notification").cloned().collect()
}

#[tokio::test]
async fn an_orders_steps_notify_its_buyer_and_farmer_once_and_they_read_them_on_their_phones() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let buyer = app.user_with_role("neema@example.com", Role::User).await;
    app.user_with_role("admin@example.com", Role::Admin).await;
    let tomatoes = app
        .listed(
            &farmer,
            json!({"title": "Tomatoes", "description": "Ripe", "quantity": 50, "price": 3, "current_price": 2.5}),
        )
        .await;
    let placed: Value = app.place(&buyer, order(1, json!([line(tomatoes, 4, 250)]))).await.json().await.unwrap();
    // The same order sent again (a retry) tells nobody twice.
    app.place(&buyer, order(1, json!([line(tomatoes, 4, 250)]))).await;
    let (id, part) = (placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap());
    app.patch_part(&farmer, id, part, json!({"status": "shipped"})).await;
    assert_eq!(kinds_of(&app, "neema@example.com"), ["order_placed", "order_shipped"]);
    assert_eq!(kinds_of(&app, "amani@example.com"), ["order_new"]);
    assert!(kinds_of(&app, "admin@example.com").is_empty());

    let page = app.pull(&buyer, CLIENT_A, None, 100).await;
    let mine = notifications(&page);
    assert_eq!(mine.len(), 2, "only the buyer's own");
    let shipped = mine.iter().find(|n| n["record"]["kind"] == "order_shipped").unwrap();
    assert_eq!(shipped["record"]["params"], json!({"number": id.to_string()}));
    assert_eq!(shipped["record"]["link"], "/dashboard?section=orders");
    assert_eq!(shipped["record"]["read"], false);

    let uid = shipped["id"].as_str().unwrap().to_owned();
    let read = app.push_ok(&buyer, CLIENT_A, vec![mutation(1, "notification.read", json!({"uid": uid}), None)]).await;
    assert_eq!(read["results"][0]["status"], "applied");
    let later = app.pull(&buyer, CLIENT_A, page["cursor"].as_i64(), 100).await;
    assert_eq!(notifications(&later)[0]["record"]["read"], true);
    // Someone else's notification is not theirs to read.
    let other = app.push_ok(&farmer, CLIENT_B, vec![mutation(1, "notification.read", json!({"uid": uid}), None)]).await;
    assert_eq!(other["results"][0]["code"], "notification_not_found");

    // An erased account's notifications go with it.
    let erased = app.client.delete(app.api("/me/delete")).bearer_auth(&buyer).send().await.unwrap();
    assert_eq!(erased.status(), StatusCode::OK);
    let conn = app.database();
    let left: i64 = conn.query_row("SELECT COUNT(*) FROM notifications", [], |r| r.get(0)).unwrap();
    assert_eq!(left, 1, "the farmer's");
}
