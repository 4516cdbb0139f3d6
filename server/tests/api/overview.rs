//! The admin home's figures and recent activity, from data made for the test.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::orders::{line, order};

#[tokio::test]
async fn the_admin_home_counts_what_happened_and_lists_it_newest_first() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let (buyer, _) = app.register("neema@example.com").await;
    let tomatoes = app
        .listed(&farmer, json!({"title": "Tomatoes", "description": "Ripe", "quantity": 50, "price": 3, "current_price": 2.5, "shipping_cost": 5}))
        .await;
    app.listed(
        &farmer,
        json!({"title": "Beans", "description": "Dry", "quantity": 4, "price": 1.2, "current_price": 1.2}),
    )
    .await;
    let placed: Value = app.place(&buyer, order(1, json!([line(tomatoes, 4, 250)]))).await.json().await.unwrap();
    let (id, part) = (placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap());
    for status in ["shipped", "delivered"] {
        assert!(app.patch_part(&farmer, id, part, json!({"status": status})).await.status().is_success());
    }
    app.place(&buyer, order(2, json!([line(tomatoes, 1, 250)]))).await;
    app.submitted(&buyer, None).await;
    // An account made long ago counts in the total, not in the last 30 days; the
    // application is the newest event (everything else happened within this second).
    app.sql("UPDATE users SET created_at = '2020-01-01T00:00:00Z' WHERE email = 'admin@example.com'");
    app.sql("UPDATE surveys SET created_at = '2099-01-01T00:00:00Z'");

    let overview: Value = app.call(Method::GET, "/admin/overview", &admin, None).await.json().await.unwrap();
    assert_eq!(
        overview["figures"],
        json!({"users": 3, "users_last_30_days": 2, "products_on_sale": 2, "products_low_stock": 1, "orders": 2,
               "orders_last_30_days": 2, "revenue": 15.0, "applications_waiting": 1})
    );
    let kinds: Vec<&str> =
        overview["activity"].as_array().unwrap().iter().map(|a| a["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds[0], "application_submitted", "newest first: {kinds:?}");
    assert_eq!(kinds.iter().filter(|k| **k == "order_placed").count(), 2);
    assert_eq!(kinds.iter().filter(|k| **k == "product_listed").count(), 2);
    let first_order =
        overview["activity"].as_array().unwrap().iter().find(|a| a["id"] == id && a["kind"] == "order_placed");
    assert_eq!(first_order.unwrap()["amount"], json!(15.0));
    let signed_up: Vec<&Value> =
        overview["activity"].as_array().unwrap().iter().filter(|a| a["kind"] == "signed_up").collect();
    assert_eq!(signed_up.len(), 3);
    assert!(signed_up.iter().any(|a| a["name"] == "Amani Bahati" && a["detail"] == "user"));

    error_of(app.call(Method::GET, "/admin/overview", &buyer, None).await, StatusCode::FORBIDDEN).await;
}
