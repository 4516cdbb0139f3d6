//! Exchange rates (docs/money.md): an admin sets the francs a dollar buys and the
//! rate's date; everyone reads the one in use, and phones receive it by sync.

use mavuno::demo;
use mavuno::model::user::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

impl TestApp {
    async fn set_rate(&self, token: &str, body: Value) -> reqwest::Response {
        self.client.put(self.api("/admin/exchange-rates/CDF")).bearer_auth(token).json(&body).send().await.unwrap()
    }
}

fn today() -> String {
    time::OffsetDateTime::now_utc().date().to_string()
}

#[tokio::test]
async fn an_admin_sets_the_rate_and_every_phone_receives_the_newest() {
    let app = spawn_app().await;
    let admin = app.user_with_role("rate.admin@example.com", Role::Admin).await;
    let rates: Value = app.get("/exchange-rates", None).await.json().await.unwrap();
    assert_eq!(rates["data"], json!([]), "no rate until an admin sets one");
    let before: Value = app.get("/sync/pull", None).await.json().await.unwrap();

    let saved = app.set_rate(&admin, json!({"francs_per_usd": 2790, "as_of": "2026-11-02"})).await;
    assert_eq!(saved.status(), StatusCode::OK);
    let saved: Value = saved.json().await.unwrap();
    assert_eq!(saved["data"]["francs_per_usd"], 2790);
    assert_eq!(saved["data"]["as_of"], "2026-11-02");
    assert_eq!(saved["data"]["set_by"]["name"], "Test admin");
    // A form's digits are taken too; the newest set is the one in use, the first is kept.
    let newer = app.set_rate(&admin, json!({"francs_per_usd": " 2850 ", "as_of": today()})).await;
    assert_eq!(newer.status(), StatusCode::OK);
    let rates: Value = app.get("/exchange-rates", None).await.json().await.unwrap();
    assert_eq!(rates["data"].as_array().unwrap().len(), 1);
    assert_eq!(rates["data"][0]["currency"], "CDF");
    assert_eq!(rates["data"][0]["francs_per_usd"], 2850);
    assert_eq!(rates["data"][0]["as_of"], today());
    let history: Value = app.get("/admin/exchange-rates/cdf", Some(&admin)).await.json().await.unwrap();
    let kept: Vec<i64> =
        history["data"].as_array().unwrap().iter().map(|r| r["francs_per_usd"].as_i64().unwrap()).collect();
    assert_eq!(kept, [2850, 2790]);

    // A phone that pulled before gets the newest rate only; a first snapshot has it too.
    let cursor = before["cursor"].as_i64().unwrap();
    let pulled: Value = app.get(&format!("/sync/pull?cursor={cursor}"), None).await.json().await.unwrap();
    let rates: Vec<&Value> =
        pulled["changes"].as_array().unwrap().iter().filter(|c| c["entity"] == "exchange_rate").collect();
    assert_eq!(rates.len(), 1, "{pulled}");
    assert_eq!(rates[0]["id"], "CDF");
    assert_eq!(rates[0]["op"], "put");
    assert_eq!(rates[0]["record"]["francs_per_usd"], 2850);
    assert!(rates[0]["record"].get("set_by").is_none(), "phones are not told who set it");
    let snapshot: Value = app.get("/sync/pull", None).await.json().await.unwrap();
    assert!(snapshot["changes"].as_array().unwrap().iter().any(|c| c["entity"] == "exchange_rate"));
    // Nothing new: nothing sent again.
    let cursor = pulled["cursor"].as_i64().unwrap();
    let again: Value = app.get(&format!("/sync/pull?cursor={cursor}"), None).await.json().await.unwrap();
    assert!(again["changes"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn a_wrong_rate_is_refused_with_its_reason_and_changes_nothing() {
    let app = spawn_app().await;
    let admin = app.user_with_role("rate.checks@example.com", Role::Admin).await;
    let tomorrow_but_one = (time::OffsetDateTime::now_utc().date() + time::Duration::days(2)).to_string();
    for (body, field, code) in [
        (json!({"francs_per_usd": 0, "as_of": today()}), "francs_per_usd", "rate_invalid"),
        (json!({"francs_per_usd": 2850.5, "as_of": today()}), "francs_per_usd", "rate_invalid"),
        (json!({"francs_per_usd": "2 850 FC", "as_of": today()}), "francs_per_usd", "rate_invalid"),
        (json!({"francs_per_usd": 1_000_001, "as_of": today()}), "francs_per_usd", "rate_invalid"),
        (json!({"as_of": today()}), "francs_per_usd", "rate_invalid"),
        (json!({"francs_per_usd": 2850}), "as_of", "required"),
        (json!({"francs_per_usd": 2850, "as_of": "23/11/2026"}), "as_of", "date_invalid"),
        (json!({"francs_per_usd": 2850, "as_of": "2026-02-30"}), "as_of", "date_invalid"),
        (json!({"francs_per_usd": 2850, "as_of": tomorrow_but_one}), "as_of", "date_in_future"),
    ] {
        let refused = error_of(app.set_rate(&admin, body.clone()).await, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert_eq!(refused["error_codes"][field][0], code, "{body}");
    }
    let other = app.client.put(app.api("/admin/exchange-rates/EUR")).bearer_auth(&admin);
    let other = other.json(&json!({"francs_per_usd": 1, "as_of": today()})).send().await.unwrap();
    assert_eq!(error_of(other, StatusCode::NOT_FOUND).await["code"], "currency_not_found");
    let malformed = app.client.put(app.api("/admin/exchange-rates/CDF")).bearer_auth(&admin);
    let malformed =
        malformed.header("content-type", "application/json").body("{\"francs_per_usd\":").send().await.unwrap();
    assert!(malformed.status().is_client_error());
    let rates: Value = app.get("/exchange-rates", None).await.json().await.unwrap();
    assert_eq!(rates["data"], json!([]));
    // Only admins set rates.
    let (buyer, _) = app.register("rate.buyer@example.com").await;
    let response = app.set_rate(&buyer, json!({"francs_per_usd": 1, "as_of": today()})).await;
    assert_eq!(response.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn the_demo_sets_a_rate_once_and_an_admins_rate_stays() {
    let app = spawn_app().await;
    demo::seed(&app.state).await.unwrap();
    assert!(mavuno::demo::rates::seed(&app.state).await.unwrap());
    let admin = app.login_token("admin@mavuno.demo", demo::DEMO_PASSWORD).await;
    app.set_rate(&admin, json!({"francs_per_usd": 2900, "as_of": today()})).await;
    assert!(!mavuno::demo::rates::seed(&app.state).await.unwrap());
    let rates: Value = app.get("/exchange-rates", None).await.json().await.unwrap();
    assert_eq!(rates["data"][0]["francs_per_usd"], 2900);
}
