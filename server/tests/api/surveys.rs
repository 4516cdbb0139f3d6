use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

fn complete() -> Value {
    json!({
        "land_size": "1-2 hectares", "work_type": "With family", "cooperative_name": "Umoja",
        "income_sources": "Farming only", "seed_type": "Improved/hybrid", "seed_source": "Local market",
        "fertilizers": "Compost/manure", "field_preparation": "Hand tools (hoe)",
        "farming_techniques": "Mulching and intercropping", "planting_season": "Season A",
        "higher_season": "Season B", "higher_season_reason": "More rain", "average_yield": "1-2 tons",
        "challenges": "Pests", "post_harvest_losses": "true", "loss_percentage": "30",
        "selling_method": "Sell at local market", "selling_challenges": false,
        "selling_challenges_explanation": "ignored without challenges", "mobile_interest": "1",
        "improvements_production": "Better seed", "improvements_selling": "Group selling"
    })
}

fn with(mut form: Value, extra: Value) -> Value {
    for (key, value) in extra.as_object().unwrap() {
        form[key] = value.clone();
    }
    json!({ "farmer_survey_form": form })
}

const FORMS: &str = "/farmer/farmer_survey_forms";

impl TestApp {
    async fn send(&self, method: reqwest::Method, path: &str, token: &str, body: Option<Value>) -> reqwest::Response {
        let mut request = self.client.request(method, self.api(path)).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send().await.unwrap()
    }

    fn set_status(&self, id: &Value, status: &str) {
        self.sql(&format!("UPDATE surveys SET status = '{status}' WHERE id = {id}"));
    }
}

#[tokio::test]
async fn submitting_a_complete_application() {
    let app = spawn_app().await;
    let (token, user) = app.register("amani@example.com").await;
    let response = app.send(reqwest::Method::POST, FORMS, &token, Some(with(complete(), json!({}))));
    let response = response.await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    let survey = &body["data"];
    assert_eq!(survey["status"], "pending");
    assert_eq!(survey["active"], false);
    assert_eq!(survey["user"]["email"], user["email"]);
    assert_eq!(survey["created_by"]["first_name"], "Amani");
    assert_eq!(survey["post_harvest_losses"], true, "booleans coerced");
    assert_eq!(survey["loss_percentage"], 30);
    assert_eq!(survey["mobile_interest"], true);
    assert_eq!(survey["selling_challenges_explanation"], Value::Null, "only with selling challenges");
    assert_eq!(survey["uid"].as_str().unwrap().len(), 36);

    let list: Value = app.send(reqwest::Method::GET, FORMS, &token, None).await.json().await.unwrap();
    assert_eq!(list["success"], true);
    assert_eq!(list["data"].as_array().unwrap().len(), 1);
    // The spec's client writes the path with a trailing slash.
    let slashed: Value = app.send(reqwest::Method::GET, &format!("{FORMS}/"), &token, None).await.json().await.unwrap();
    assert_eq!(slashed["data"], list["data"]);
}

#[tokio::test]
async fn an_incomplete_submission_is_refused_and_nothing_is_stored() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let form = with(complete(), json!({"land_size": "", "challenges": null, "seed_type": "Magic beans"}));
    let body =
        error_of(app.send(reqwest::Method::POST, FORMS, &token, Some(form)).await, StatusCode::UNPROCESSABLE_ENTITY)
            .await;
    assert_eq!(body["message"], "Land size is required");
    assert_eq!(
        body["error_codes"],
        json!({"land_size": ["required"], "challenges": ["required"], "seed_type": ["invalid_option"]})
    );
    let bad_loss = with(complete(), json!({"loss_percentage": 120}));
    let body = error_of(
        app.send(reqwest::Method::POST, FORMS, &token, Some(bad_loss)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(body["error_codes"]["loss_percentage"][0], "out_of_range");
    let list: Value = app.send(reqwest::Method::GET, FORMS, &token, None).await.json().await.unwrap();
    assert_eq!(list["data"], json!([]));
}

#[tokio::test]
async fn a_draft_is_saved_as_it_is_then_submitted_then_locked() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let draft = json!({"farmer_survey_form": {"status": "draft", "land_size": "2-5 hectares"}});
    let created: Value = app.send(reqwest::Method::POST, FORMS, &token, Some(draft)).await.json().await.unwrap();
    assert_eq!(created["data"]["status"], "draft");
    let id = created["data"]["id"].clone();
    let path = format!("{FORMS}/{id}");

    let submit_incomplete = json!({"farmer_survey_form": {"status": "pending"}});
    let body = error_of(
        app.send(reqwest::Method::PATCH, &path, &token, Some(submit_incomplete)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(body["error_codes"]["work_type"][0], "required");

    let submit = with(complete(), json!({"status": "pending", "land_size": null}));
    let response = app.send(reqwest::Method::PATCH, &path, &token, Some(submit)).await;
    assert_eq!(response.status(), StatusCode::OK);
    let submitted: Value = response.json().await.unwrap();
    assert_eq!(submitted["data"]["status"], "pending");
    assert_eq!(submitted["data"]["land_size"], "2-5 hectares", "an absent field keeps the draft's answer");
    assert!(submitted["data"]["version"].as_i64() > created["data"]["version"].as_i64());

    let body = error_of(
        app.send(reqwest::Method::PATCH, &path, &token, Some(with(complete(), json!({})))).await,
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(body["code"], "survey_locked");
    error_of(app.send(reqwest::Method::DELETE, &path, &token, None).await, StatusCode::CONFLICT).await;
}

#[tokio::test]
async fn a_rejected_application_can_be_edited_resubmitted_or_deleted() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let created: Value =
        app.send(reqwest::Method::POST, FORMS, &token, Some(with(complete(), json!({})))).await.json().await.unwrap();
    let id = created["data"]["id"].clone();
    let path = format!("{FORMS}/{id}");
    app.set_status(&id, "rejected");

    let edit = json!({"farmer_survey_form": {"challenges": "Drought"}});
    let edited: Value = app.send(reqwest::Method::PATCH, &path, &token, Some(edit)).await.json().await.unwrap();
    assert_eq!(
        (edited["data"]["status"].as_str(), edited["data"]["challenges"].as_str()),
        (Some("rejected"), Some("Drought"))
    );

    let wrong = json!({"farmer_survey_form": {"status": "approved"}});
    let body =
        error_of(app.send(reqwest::Method::PATCH, &path, &token, Some(wrong)).await, StatusCode::UNPROCESSABLE_ENTITY)
            .await;
    assert_eq!(body["error_codes"]["status"][0], "invalid_transition");

    let resubmit = json!({"farmer_survey_form": {"status": "re-submitted"}});
    let resubmitted: Value =
        app.send(reqwest::Method::PATCH, &path, &token, Some(resubmit)).await.json().await.unwrap();
    assert_eq!(resubmitted["data"]["status"], "re-submitted");

    app.set_status(&id, "rejected");
    let response = app.send(reqwest::Method::DELETE, &path, &token, None).await;
    assert_eq!(response.status(), StatusCode::OK);
    let list: Value = app.send(reqwest::Method::GET, FORMS, &token, None).await.json().await.unwrap();
    assert_eq!(list["data"], json!([]));
    // A tombstone stays, with a newer version, so devices learn of the deletion.
    let conn = app.database();
    let (deleted, version): (Option<String>, i64) = conn
        .query_row("SELECT deleted_at, version FROM surveys WHERE id = ?1", [id.as_i64().unwrap()], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap();
    assert!(deleted.is_some());
    assert!(version > resubmitted["data"]["version"].as_i64().unwrap());
}

#[tokio::test]
async fn a_retried_create_with_the_same_uid_makes_one_application() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let uid = "0f8e6a6c-6a3c-4f7e-9d36-1c2b3a4d5e6f";
    let form = with(complete(), json!({"uid": uid}));
    let first = app.send(reqwest::Method::POST, FORMS, &token, Some(form.clone())).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    let second = app.send(reqwest::Method::POST, &format!("{FORMS}/"), &token, Some(form.clone())).await;
    assert_eq!(second.status(), StatusCode::OK);
    let (a, b): (Value, Value) = (first.json().await.unwrap(), second.json().await.unwrap());
    assert_eq!(a["data"]["id"], b["data"]["id"]);
    let list: Value = app.send(reqwest::Method::GET, FORMS, &token, None).await.json().await.unwrap();
    assert_eq!(list["data"].as_array().unwrap().len(), 1);

    let (other, _) = app.register("other@example.com").await;
    let body = error_of(app.send(reqwest::Method::POST, FORMS, &other, Some(form)).await, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "uid_taken");
    let bad = with(complete(), json!({"uid": "123"}));
    let body =
        error_of(app.send(reqwest::Method::POST, FORMS, &token, Some(bad)).await, StatusCode::UNPROCESSABLE_ENTITY)
            .await;
    assert_eq!(body["error_codes"]["uid"][0], "invalid_uid");
}

#[tokio::test]
async fn an_erased_account_loses_its_drafts_but_not_its_submissions() {
    let app = spawn_app().await;
    let (token, user) = app.register("amani@example.com").await;
    app.send(reqwest::Method::POST, FORMS, &token, Some(json!({"farmer_survey_form": {"status": "draft"}}))).await;
    app.send(reqwest::Method::POST, FORMS, &token, Some(with(complete(), json!({})))).await;
    app.send(reqwest::Method::DELETE, "/me/delete", &token, None).await;
    let conn = app.database();
    let kept: Vec<(String, bool)> = conn
        .prepare("SELECT status, deleted_at IS NOT NULL FROM surveys WHERE user_id = ?1 ORDER BY id")
        .unwrap()
        .query_map([user["id"].as_i64().unwrap()], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(kept, [("draft".to_owned(), true), ("pending".to_owned(), false)]);
}

#[tokio::test]
async fn nobody_sees_or_touches_another_persons_application() {
    let app = spawn_app().await;
    let (owner, _) = app.register("owner@example.com").await;
    let (other, _) = app.register("other@example.com").await;
    let draft = json!({"farmer_survey_form": {"status": "draft"}});
    let created: Value = app.send(reqwest::Method::POST, FORMS, &owner, Some(draft)).await.json().await.unwrap();
    let path = format!("{FORMS}/{}", created["data"]["id"]);
    error_of(
        app.send(reqwest::Method::PATCH, &path, &other, Some(json!({"farmer_survey_form": {}}))).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    error_of(app.send(reqwest::Method::DELETE, &path, &other, None).await, StatusCode::NOT_FOUND).await;
    let list: Value = app.send(reqwest::Method::GET, FORMS, &other, None).await.json().await.unwrap();
    assert_eq!(list["data"], json!([]));
    error_of(app.get(FORMS, None).await, StatusCode::UNAUTHORIZED).await;
    let body = error_of(
        app.send(reqwest::Method::POST, FORMS, &owner, Some(json!({"survey": {}}))).await,
        StatusCode::BAD_REQUEST,
    )
    .await;
    assert_eq!(body["code"], "invalid_body");
}
