use mavuno::domain::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::CLIENT_A;

fn complete() -> Value {
    json!({
        "land_size": "1-2 hectares", "work_type": "With family", "income_sources": "Farming only",
        "seed_type": "Improved/hybrid", "seed_source": "Local market", "fertilizers": "Compost/manure",
        "field_preparation": "Hand tools (hoe)", "farming_techniques": "Mulching", "planting_season": "Season A",
        "higher_season": "Season B", "higher_season_reason": "Rain", "average_yield": "1-2 tons",
        "challenges": "Pests", "selling_method": "Sell at local market",
        "improvements_production": "Seed", "improvements_selling": "Groups"
    })
}

impl TestApp {
    async fn call(&self, method: Method, path: &str, token: &str, body: Option<Value>) -> reqwest::Response {
        let mut request = self.client.request(method, self.api(path)).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send().await.unwrap()
    }

    /// A buyer's submitted application; returns its id.
    async fn submitted(&self, token: &str, status: Option<&str>) -> Value {
        let mut form = complete();
        if let Some(status) = status {
            form["status"] = json!(status);
        }
        let body: Value = self.call(Method::POST, "/farmer/farmer_survey_forms", token, Some(json!({"farmer_survey_form": form}))).await.json().await.unwrap();
        body["data"]["id"].clone()
    }
}

fn decide(status: &str, comment: &str) -> Value {
    json!({"farmer_survey_form": {"status": status, "admin_comment": comment}})
}

#[tokio::test]
async fn approving_makes_the_buyer_a_farmer_and_reaches_their_phone() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("amani@example.com").await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let id = app.submitted(&buyer, None).await;
    let list: Value = app.call(Method::GET, "/admin/surveys", &admin, None).await.json().await.unwrap();
    assert_eq!(list["data"][0]["user"]["email"], "amani@example.com");

    let response = app.call(Method::PATCH, &format!("/admin/surveys/{id}"), &admin, Some(decide("approved", "Welcome to MAVUNO"))).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!((body["data"]["status"].as_str(), body["data"]["active"].as_bool()), (Some("approved"), Some(true)));
    assert!(body["data"]["reviewed_at"].is_string());

    let me: Value = app.me(&buyer).await.json().await.unwrap();
    assert_eq!(me["user"]["role"], "farmer");
    let pulled = app.pull(&buyer, CLIENT_A, None, 100).await;
    let record = &pulled["changes"][0]["record"];
    assert_eq!((record["status"].as_str(), record["admin_comment"].as_str()), (Some("approved"), Some("Welcome to MAVUNO")));
}

#[tokio::test]
async fn only_pending_or_resubmitted_applications_are_decided() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("amani@example.com").await;
    let admin = app.user_with_role("super@example.com", Role::SuperAdmin).await;
    let id = app.submitted(&buyer, None).await;
    let path = format!("/admin/surveys/{id}");
    let rejected: Value = app.call(Method::PATCH, &path, &admin, Some(decide("rejected", "Add your yield"))).await.json().await.unwrap();
    assert_eq!((rejected["data"]["status"].as_str(), rejected["data"]["active"].as_bool()), (Some("rejected"), Some(false)));
    let body = error_of(app.call(Method::PATCH, &path, &admin, Some(decide("approved", ""))).await, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "not_reviewable");

    // The owner resubmits; the spec client's "active" approves it.
    app.call(Method::PATCH, &format!("/farmer/farmer_survey_forms/{id}"), &buyer, Some(json!({"farmer_survey_form": {"status": "re-submitted"}}))).await;
    let approved: Value = app.call(Method::PATCH, &path, &admin, Some(decide("active", ""))).await.json().await.unwrap();
    assert_eq!(approved["data"]["status"], "approved");
    assert_eq!(approved["data"]["admin_comment"], Value::Null, "a blank comment is no comment");

    let draft = app.submitted(&buyer, Some("draft")).await;
    error_of(app.call(Method::PATCH, &format!("/admin/surveys/{draft}"), &admin, Some(decide("approved", ""))).await, StatusCode::CONFLICT).await;
    let body = error_of(app.call(Method::PATCH, &path, &admin, Some(decide("pending", ""))).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"]["status"][0], "invalid_transition");
    error_of(app.call(Method::PATCH, "/admin/surveys/999", &admin, Some(decide("approved", ""))).await, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn a_bulk_decision_reports_each_application() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("amani@example.com").await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let (a, b, draft) = (app.submitted(&buyer, None).await, app.submitted(&buyer, None).await, app.submitted(&buyer, Some("draft")).await);
    let body: Value = app
        .call(Method::POST, "/admin/surveys/bulk", &admin, Some(json!({"ids": [a, b, draft], "status": "rejected", "admin_comment": "Incomplete"})))
        .await
        .json()
        .await
        .unwrap();
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.iter().map(|r| r["success"].as_bool().unwrap()).collect::<Vec<_>>(), [true, true, false]);
    assert_eq!(results[2]["code"], "not_reviewable");
    assert!(results[2]["message"].as_str().unwrap().contains("draft"));
    let body = error_of(app.call(Method::POST, "/admin/surveys/bulk", &admin, Some(json!({"ids": [], "status": "approved"}))).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"]["ids"][0], "nothing_selected");
}

#[tokio::test]
async fn an_admin_creates_an_application_for_a_person() {
    let app = spawn_app().await;
    let (buyer, user) = app.register("amani@example.com").await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let body = error_of(app.call(Method::POST, "/admin/surveys", &admin, Some(json!({"farmer_survey_form": complete()}))).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["message"], "Please select a user");
    let mut form = complete();
    form["user_id"] = user["id"].clone();
    let response = app.call(Method::POST, "/admin/surveys", &admin, Some(json!({"farmer_survey_form": form}))).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    assert_eq!(created["data"]["user"]["email"], "amani@example.com");
    assert_eq!(created["data"]["created_by"]["email"], "admin@example.com");
    let mine: Value = app.call(Method::GET, "/farmer/farmer_survey_forms", &buyer, None).await.json().await.unwrap();
    assert_eq!(mine["data"].as_array().unwrap().len(), 1, "the applicant sees it as theirs");
}

#[tokio::test]
async fn buyers_farmers_and_agents_cannot_review() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("amani@example.com").await;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let id = app.submitted(&buyer, None).await;
    for token in [&buyer, &farmer, &agent] {
        error_of(app.call(Method::GET, "/admin/surveys", token, None).await, StatusCode::FORBIDDEN).await;
        error_of(app.call(Method::PATCH, &format!("/admin/surveys/{id}"), token, Some(decide("approved", ""))).await, StatusCode::FORBIDDEN).await;
        error_of(app.call(Method::POST, "/admin/surveys/bulk", token, Some(json!({"ids": [id], "status": "approved"}))).await, StatusCode::FORBIDDEN).await;
    }
}
