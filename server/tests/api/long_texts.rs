//! Long texts edited offline on two devices merge (docs/sync.md, Text that merges).

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::{CLIENT_A, CLIENT_B, mutation, uid};
use mavuno::model::user::Role;

const DESCRIPTION: &str = "Red beans from Kabare. Dried in the sun. Sold by the kilo.";

impl TestApp {
    fn text_documents(&self) -> i64 {
        self.database()
            .query_row("SELECT (SELECT COUNT(*) FROM text_documents) + (SELECT COUNT(*) FROM text_heads)", [], |r| {
                r.get(0)
            })
            .unwrap()
    }
}

async fn record(app: &TestApp, token: &str, client: &str) -> Value {
    app.pull(token, client, None, 100).await["changes"][0]["record"].clone()
}

#[tokio::test]
async fn a_description_edited_offline_on_two_phones_keeps_both_edits() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let fields = json!({"title": "Beans", "description": DESCRIPTION, "quantity": 50, "price": "3.00", "current_price": "3.00",
                        "category": "vegetables", "unit": "kg"});
    let create = mutation(1, "product.create", json!({"uid": uid(1), "fields": fields}), None);
    let created = app.push_ok(&farmer, CLIENT_A, vec![create]).await;
    assert_eq!(created["results"][0]["status"], "applied", "{created}");
    let base = record(&app, &farmer, CLIENT_B).await["version"].as_i64().unwrap();
    let edit = |id, description: String, base| {
        mutation(id, "product.update", json!({"uid": uid(1), "fields": {"description": description}}), Some(base))
    };

    // Different sentences: both edits stay, and neither is a conflict.
    let a = app.push_ok(&farmer, CLIENT_A, vec![edit(2, DESCRIPTION.replace("Kabare", "Walungu"), base)]).await;
    let b = app.push_ok(&farmer, CLIENT_B, vec![edit(1, DESCRIPTION.replace("the kilo", "the 50 kg bag"), base)]).await;
    for result in [&a["results"][0], &b["results"][0]] {
        assert_eq!((&result["status"], &result["conflicts"]), (&json!("applied"), &Value::Null));
    }
    let merged = "Red beans from Walungu. Dried in the sun. Sold by the 50 kg bag.";
    let on_a = record(&app, &farmer, CLIENT_A).await;
    assert_eq!(on_a["description"], merged);
    let product: Value =
        app.client.get(app.api(&format!("/products/{}", on_a["id"]))).send().await.unwrap().json().await.unwrap();
    assert_eq!(product["data"]["description"], merged, "the marketplace shows it");

    // The same sentence: both wordings are kept, the first to arrive first.
    let base = on_a["version"].as_i64().unwrap();
    app.push_ok(&farmer, CLIENT_A, vec![edit(3, merged.replace("in the sun", "on racks"), base)]).await;
    let late = app.push_ok(&farmer, CLIENT_B, vec![edit(2, merged.replace("in the sun", "by the fire"), base)]).await;
    assert_eq!(late["results"][0]["status"], "applied");
    assert_eq!(
        record(&app, &farmer, CLIENT_B).await["description"],
        "Red beans from Walungu. Dried on racks. Dried by the fire. Sold by the 50 kg bag."
    );

    // An edit online (no base) is the text as the farmer wrote it.
    let path = format!("/farmer/products/{}", on_a["id"]);
    let online = app.call(Method::PATCH, &path, &farmer, Some(json!({"product": {"description": "Beans."}}))).await;
    assert_eq!(online.status(), StatusCode::OK);
    assert_eq!(record(&app, &farmer, CLIENT_A).await["description"], "Beans.");
}

#[tokio::test]
async fn free_text_answers_merge_and_a_merge_past_the_limit_lets_the_later_edit_win() {
    let app = spawn_app().await;
    let (phone, _) = app.register("amani@example.com").await;
    let laptop = app.login_token("amani@example.com", PASSWORD).await;
    let draft = json!({"uid": uid(1), "status": "draft", "answers": {"challenges": "Pests. Drought."}});
    app.push_ok(&phone, CLIENT_A, vec![mutation(1, "survey.create", draft, None)]).await;
    let base = record(&app, &laptop, CLIENT_B).await["version"].as_i64().unwrap();
    let answer = |id, challenges: &str, base| {
        mutation(id, "survey.update", json!({"uid": uid(1), "answers": {"challenges": challenges}}), Some(base))
    };

    app.push_ok(&phone, CLIENT_A, vec![answer(2, "Pests in the maize. Drought.", base)]).await;
    let b = app.push_ok(&laptop, CLIENT_B, vec![answer(1, "Pests. Drought since June.", base)]).await;
    assert_eq!(b["results"][0]["status"], "applied");
    let merged = record(&app, &phone, CLIENT_A).await;
    assert_eq!(merged["challenges"], "Pests in the maize. Drought since June.");

    // Two long additions that would not fit together: the later one wins, and says so.
    let base = merged["version"].as_i64().unwrap();
    let long = |word: &str| format!("Pests in the maize. Drought since June. {}", format!("{word}. ").repeat(150));
    app.push_ok(&phone, CLIENT_A, vec![answer(3, long("Floods").trim(), base)]).await;
    let c = app.push_ok(&laptop, CLIENT_B, vec![answer(2, long("Theft").trim(), base)]).await;
    assert_eq!((&c["results"][0]["status"], &c["results"][0]["conflicts"]), (&json!("merged"), &json!(["challenges"])));
    assert_eq!(record(&app, &phone, CLIENT_A).await["challenges"], long("Theft").trim());
}

#[tokio::test]
async fn erasing_an_account_forgets_its_texts_earlier_wordings() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let draft = json!({"uid": uid(1), "status": "draft", "answers": {"challenges": "Pests."}});
    app.push_ok(&token, CLIENT_A, vec![mutation(1, "survey.create", draft, None)]).await;
    let base = record(&app, &token, CLIENT_A).await["version"].as_i64().unwrap();
    let edit = json!({"uid": uid(1), "answers": {"challenges": "Pests and theft."}});
    app.push_ok(&token, CLIENT_A, vec![mutation(2, "survey.update", edit, Some(base))]).await;
    assert!(app.text_documents() > 0);
    let response = app.client.delete(app.api("/me/delete")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(app.text_documents(), 0);
}

#[tokio::test]
async fn a_description_in_another_language_edited_offline_on_two_phones_keeps_both_edits() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let french = "Haricots rouges de Kabare. Séchés au soleil. Vendus au kilo.";
    let fields = json!({"title": "Beans", "description": "Beans.", "description_fr": french, "quantity": 50,
                        "price": "3.00", "current_price": "3.00", "category": "vegetables", "unit": "kg"});
    app.push_ok(&farmer, CLIENT_A, vec![mutation(1, "product.create", json!({"uid": uid(1), "fields": fields}), None)])
        .await;
    let base = record(&app, &farmer, CLIENT_B).await["version"].as_i64().unwrap();
    let edit = |id, text: String| {
        mutation(id, "product.update", json!({"uid": uid(1), "fields": {"description_fr": text}}), Some(base))
    };
    let a = app.push_ok(&farmer, CLIENT_A, vec![edit(2, french.replace("Kabare", "Walungu"))]).await;
    let b = app.push_ok(&farmer, CLIENT_B, vec![edit(1, french.replace("au kilo", "par sac de 50 kg"))]).await;
    for result in [&a["results"][0], &b["results"][0]] {
        assert_eq!((&result["status"], &result["conflicts"]), (&json!("applied"), &Value::Null));
    }
    let merged = record(&app, &farmer, CLIENT_A).await;
    assert_eq!(merged["description_fr"], "Haricots rouges de Walungu. Séchés au soleil. Vendus par sac de 50 kg.");
    assert_eq!(merged["description"], "Beans.", "the other texts untouched");
}
