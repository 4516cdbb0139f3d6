//! The admin's Products section: every listing with filters, hide with a reason (the
//! farmer is told and sees it; buyers and phones no longer see the listing), restore.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::CLIENT_A;

fn ids(page: &Value) -> Vec<i64> {
    page["data"].as_array().unwrap().iter().map(|p| p["id"].as_i64().unwrap()).collect()
}

#[tokio::test]
async fn an_admin_hides_a_listing_with_a_reason_and_restores_it() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let other = app.user_with_role("esther@example.com", Role::Farmer).await;
    let honey = app
        .listed(&farmer, json!({"title": "Honey", "description": "Wild", "quantity": 40, "price": 6, "current_price": 6, "category": "herbs"}))
        .await;
    let beans = app
        .listed(&farmer, json!({"title": "Beans", "description": "Dry", "quantity": 4, "price": 1, "current_price": 1, "category": "grains", "status": "inactive"}))
        .await;
    let milk = app
        .listed(&other, json!({"title": "Milk", "description": "Fresh", "quantity": 9, "price": 1, "current_price": 1, "category": "dairy"}))
        .await;
    let list = async |query: &str| app.call(Method::GET, &format!("/admin/products?{query}"), &admin, None).await;
    assert_eq!(ids(&list("").await.json().await.unwrap()), [milk, beans, honey], "every listing, newest first");
    assert_eq!(ids(&list("status=off_sale").await.json().await.unwrap()), [beans]);
    assert_eq!(ids(&list("low_stock=true").await.json().await.unwrap()), [milk, beans]);
    assert_eq!(ids(&list("category=herbs").await.json().await.unwrap()), [honey]);
    assert_eq!(ids(&list("q=mil").await.json().await.unwrap()), [milk]);
    let body = error_of(list("status=gone").await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"]["status"][0], "invalid_filter");

    app.sql("UPDATE users SET phone_number = '+243990000123' WHERE email = 'amani@example.com'");
    // Hidden: with a reason only; the farmer is told by email and SMS and sees it on their product.
    let hide = async |reason: Value| {
        app.call(Method::POST, &format!("/admin/products/{honey}/hide"), &admin, Some(reason)).await
    };
    let body = error_of(hide(json!({"reason": "  "})).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"]["reason"][0], "hide_reason_required");
    let hidden: Value = hide(json!({"reason": "The photos show another farm's honey."})).await.json().await.unwrap();
    assert_eq!(hidden["product"]["hidden"]["reason"], "The photos show another farm's honey.");
    assert_eq!(app.get(&format!("/products/{honey}"), None).await.status(), StatusCode::NOT_FOUND);
    let catalogue: Value = app.get("/products", None).await.json().await.unwrap();
    assert_eq!(ids(&catalogue), [milk]);
    assert_eq!(ids(&list("status=hidden").await.json().await.unwrap()), [honey]);
    let page = app.pull(&farmer, CLIENT_A, None, 100).await;
    let mine = page["changes"].as_array().unwrap().iter().find(|c| c["record"]["id"] == honey).unwrap().clone();
    assert_eq!(mine["record"]["hidden"]["reason"], "The photos show another farm's honey.");
    let conn = app.database();
    let subject: String = conn
        .query_row("SELECT subject FROM email_outbox WHERE to_email = 'amani@example.com' ORDER BY id DESC", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(subject, "Votre annonce « Honey » est masquée sur le marché MAVUNO", "in the farmer's language");
    // The farmer cannot put it back by editing it.
    let path = format!("/farmer/products/{honey}");
    app.call(Method::PATCH, &path, &farmer, Some(json!({"product": {"status": "active", "quantity": 41}}))).await;
    assert_eq!(app.get(&format!("/products/{honey}"), None).await.status(), StatusCode::NOT_FOUND);

    let restored = app.call(Method::POST, &format!("/admin/products/{honey}/restore"), &admin, None).await;
    let restored: Value = restored.json().await.unwrap();
    assert_eq!(restored["product"]["hidden"], Value::Null);
    assert_eq!(app.get(&format!("/products/{honey}"), None).await.status(), StatusCode::OK);
    let texts: Vec<String> = app.sms_bodies().into_iter().map(|(_, body)| body).collect();
    assert!(texts.iter().any(|t| t.contains("Honey est masquée sur le marché")), "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("Honey est de retour sur le marché")), "{texts:?}");

    let export = app.call(Method::GET, "/admin/products/export?lang=fr", &admin, None).await;
    assert_eq!(export.status(), StatusCode::OK);
    let csv = export.text().await.unwrap();
    assert_eq!(csv.lines().count(), 4, "a header and three listings: {csv}");
    // The language is one of the three (a regional form is its language); another is refused.
    let export = app.call(Method::GET, "/admin/products/export?lang=fr-CD", &admin, None).await;
    assert_eq!(export.text().await.unwrap(), csv);
    let refused = app.call(Method::GET, "/admin/products/export?lang=de", &admin, None).await;
    assert_eq!(error_of(refused, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["lang"][0], "invalid_filter");
    error_of(
        app.call(Method::POST, "/admin/products/999999/hide", &admin, Some(json!({"reason": "x"}))).await,
        StatusCode::NOT_FOUND,
    )
    .await;
}
