use mavuno::model::user::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

fn message(subject: &str) -> Value {
    json!({"contact": {"name": "Grace", "email": "grace@example.com", "subject": subject, "message": "How do I sell coffee?"}})
}

#[tokio::test]
async fn a_message_is_kept_for_the_admins() {
    let app = spawn_app().await;
    let response = app.client.post(app.api("/contact")).json(&message("Selling coffee")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["message"], "Message sent successfully!");

    // A signed-in sender is remembered.
    let (buyer, user) = app.register("buyer@example.com").await;
    let response =
        app.client.post(app.api("/contact")).bearer_auth(&buyer).json(&message("Second")).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);

    error_of(app.get("/admin/contact_messages", Some(&buyer)).await, StatusCode::FORBIDDEN).await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let list: Value = app.get("/admin/contact_messages", Some(&admin)).await.json().await.unwrap();
    let data = list["data"].as_array().unwrap();
    assert_eq!(data.len(), 2);
    assert_eq!(data[0]["subject"], "Second", "newest first");
    assert_eq!(data[0]["user_id"], user["id"]);
    assert_eq!(data[1]["user_id"], Value::Null);
    assert_eq!(data[1]["message"], "How do I sell coffee?");
}

#[tokio::test]
async fn every_field_is_required() {
    let app = spawn_app().await;
    let response =
        app.client.post(app.api("/contact")).json(&json!({"contact": {"email": "nope"}})).send().await.unwrap();
    let body = error_of(response, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(
        body["error_codes"],
        json!({"name": ["name_required"], "subject": ["subject_required"], "message": ["message_required"], "email": ["email_invalid"]})
    );
}

#[tokio::test]
async fn an_expired_session_is_not_silently_ignored() {
    let app = spawn_app().await;
    let response =
        app.client.post(app.api("/contact")).bearer_auth("not.a.token").json(&message("x")).send().await.unwrap();
    error_of(response, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn the_form_cannot_flood_the_team() {
    let app = spawn_with(|config| config.contact_max_messages = 2).await;
    for n in 0..2 {
        let response = app.client.post(app.api("/contact")).json(&message(&format!("m{n}"))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::CREATED);
    }
    let response = app.client.post(app.api("/contact")).json(&message("m3")).send().await.unwrap();
    let body = error_of(response, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(body["code"], "too_many_messages");
}
