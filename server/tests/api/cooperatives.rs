//! Cooperatives and their weigh book (docs/cooperatives.md), on both engines.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::mutation;

/// A cooperative with an admin, a manager (a field agent), and a member farmer with a
/// phone that takes SMS: (admin, manager, member, member's id, cooperative's id).
pub struct Coop {
    pub app: TestApp,
    pub admin: String,
    pub manager: String,
    pub member: String,
    pub member_id: i64,
    pub id: i64,
}

async fn id_of(app: &TestApp, token: &str) -> i64 {
    let me: Value = app.get("/me", Some(token)).await.json().await.unwrap();
    me["user"]["id"].as_i64().unwrap()
}

impl Coop {
    pub async fn new() -> Coop {
        Coop::on(crate::ussd::ussd_app().await).await
    }

    pub async fn on(app: TestApp) -> Coop {
        let admin = app.user_with_role("admin@example.com", Role::Admin).await;
        let manager = app.user_with_role("agent@example.com", Role::FieldAgent).await;
        let member = app.user_with_role("neema@example.com", Role::Farmer).await;
        app.sql(
            "UPDATE users SET phone_number = '+243990000101', first_name = 'Neema' WHERE email = 'neema@example.com'",
        );
        let made = app
            .call(
                Method::POST,
                "/admin/cooperatives",
                &admin,
                Some(json!({
                    "name": "Kabare Coffee Growers", "territory": "Kabare", "market_id": 1,
                    "description": "Washed arabica from Kabare's hills", "fee_percent": 2.5
                })),
            )
            .await;
        assert_eq!(made.status(), StatusCode::CREATED);
        let made: Value = made.json().await.unwrap();
        let id = made["data"]["id"].as_i64().unwrap();
        assert_eq!(made["data"]["fee_percent"], 2.5);
        let (manager_id, member_id) = (id_of(&app, &manager).await, id_of(&app, &member).await);
        let named = app
            .call(
                Method::PUT,
                &format!("/cooperatives/{id}/members/{manager_id}"),
                &admin,
                Some(json!({"role": "manager", "status": "active"})),
            )
            .await;
        assert_eq!(named.status(), StatusCode::OK);
        let asked = app.call(Method::POST, &format!("/cooperatives/{id}/join"), &member, None).await;
        assert_eq!(asked.json::<Value>().await.unwrap()["data"]["status"], "asked");
        let accepted = app
            .call(
                Method::PUT,
                &format!("/cooperatives/{id}/members/{member_id}"),
                &manager,
                Some(json!({"status": "active"})),
            )
            .await;
        assert_eq!(accepted.status(), StatusCode::OK);
        Coop { app, admin, manager, member, member_id, id }
    }

    pub fn delivery(&self, uid: u32, quantity: &str) -> Value {
        json!({"uid": crate::sync::uid(uid), "cooperative": self.id, "member": self.member_id, "crop": "bean",
            "grade": "A", "quantity": quantity, "unit": "kg", "delivered_on": today(), "place": "Kabare centre"})
    }

    pub async fn book(&self) -> Vec<Value> {
        let book: Value = self
            .app
            .get(&format!("/cooperatives/{}/deliveries", self.id), Some(&self.manager))
            .await
            .json()
            .await
            .unwrap();
        book["data"].as_array().unwrap().clone()
    }

    async fn stock(&self) -> Value {
        let stock: Value =
            self.app.get(&format!("/cooperatives/{}/stock", self.id), Some(&self.manager)).await.json().await.unwrap();
        stock["data"].clone()
    }
}

fn today() -> String {
    mavuno::domain::prices::today().to_string()
}

#[tokio::test]
async fn admins_make_cooperatives_farmers_ask_to_join_managers_answer_and_suspended_ones_hide() {
    let c = Coop::new().await;
    let app = &c.app;
    // What an admin typed wrong is named field by field.
    let wrong = app
        .call(
            Method::POST,
            "/admin/cooperatives",
            &c.admin,
            Some(json!({
                "name": "kabare coffee GROWERS", "territory": "", "market_id": 999, "fee_percent": 25
            })),
        )
        .await;
    let wrong = error_of(wrong, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(
        wrong["error_codes"],
        json!({"name": ["name_taken"], "territory": ["required"], "market_id": ["market_unknown"], "fee_percent": ["cooperative_fee_invalid"]})
    );
    // The public list and page.
    let listed: Value = app.get("/cooperatives", None).await.json().await.unwrap();
    assert_eq!(listed["data"][0]["name"], "Kabare Coffee Growers");
    assert_eq!(listed["data"][0]["members"], 2, "the manager and the member");
    assert_eq!(listed["data"][0]["market_name"], "Kadutu");
    // Only farmers join; members' numbers are for managers.
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let refused = app.call(Method::POST, &format!("/cooperatives/{}/join", c.id), &buyer, None).await;
    assert_eq!(error_of(refused, StatusCode::FORBIDDEN).await["code"], "farmers_only");
    let people: Value =
        app.get(&format!("/cooperatives/{}/members", c.id), Some(&c.manager)).await.json().await.unwrap();
    let neema = people["data"].as_array().unwrap().iter().find(|m| m["first_name"] == "Neema").unwrap().clone();
    assert_eq!((neema["status"].as_str(), neema["phone_number"].as_str()), (Some("active"), Some("+243990000101")));
    let refused = app.get(&format!("/cooperatives/{}/members", c.id), Some(&c.member)).await;
    assert_eq!(error_of(refused, StatusCode::FORBIDDEN).await["code"], "managers_only");
    // A manager answers members but does not name managers.
    let refused = app
        .call(
            Method::PUT,
            &format!("/cooperatives/{}/members/{}", c.id, c.member_id),
            &c.manager,
            Some(json!({"role": "manager"})),
        )
        .await;
    assert_eq!(error_of(refused, StatusCode::FORBIDDEN).await["code"], "admins_name_managers");
    // The member heard they were accepted, by SMS.
    let sms = app.sms_bodies();
    assert!(sms.iter().any(|(to, body)| to == "+243990000101" && body.contains("Kabare Coffee Growers")), "{sms:?}");
    let mine: Value = app.get("/me/cooperatives", Some(&c.member)).await.json().await.unwrap();
    assert_eq!(mine["data"][0]["status"], "active");
    assert!(mine["data"][0].get("phone_number").is_none());
    // Suspended: off the public list and page, still there for its people and admins.
    let suspended = app
        .call(
            Method::PATCH,
            &format!("/admin/cooperatives/{}", c.id),
            &c.admin,
            Some(json!({
                "name": "Kabare Coffee Growers", "territory": "Kabare", "market_id": 1, "status": "suspended"
            })),
        )
        .await;
    assert_eq!(suspended.status(), StatusCode::OK);
    let listed: Value = app.get("/cooperatives", None).await.json().await.unwrap();
    assert_eq!(listed["data"], json!([]));
    assert_eq!(app.get(&format!("/cooperatives/{}", c.id), None).await.status(), StatusCode::NOT_FOUND);
    assert_eq!(app.get(&format!("/cooperatives/{}", c.id), Some(&c.member)).await.status(), StatusCode::OK);
    let all: Value = app.get("/admin/cooperatives", Some(&c.admin)).await.json().await.unwrap();
    assert_eq!(all["data"][0]["status"], "suspended");
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let refused = app.call(Method::POST, &format!("/cooperatives/{}/join", c.id), &farmer, None).await;
    assert_eq!(error_of(refused, StatusCode::CONFLICT).await["code"], "cooperative_suspended");
}

#[tokio::test]
async fn a_delivery_weighed_offline_lands_once_with_a_receipt_and_a_correction_keeps_the_history() {
    let c = Coop::new().await;
    let app = &c.app;
    let before = app.sms_bodies().len();
    // The manager's phone sends the entry, then again (its answer was lost).
    let phone = "cccccccc-0000-4000-8000-000000000001";
    let change = vec![mutation(1, "delivery.record", c.delivery(1, "48.5"), None)];
    let first = app.push_ok(&c.manager, phone, change.clone()).await;
    assert_eq!(first["results"][0]["status"], "applied", "{first}");
    let again = app.push_ok(&c.manager, phone, change).await;
    assert_eq!(again["results"][0]["duplicate"], true);
    let book = c.book().await;
    assert_eq!(book.len(), 1, "once");
    let entry = &book[0];
    assert_eq!((entry["kilograms"].as_str(), entry["member_name"].as_str()), (Some("48.5"), Some("Neema farmer")));
    let reference = entry["reference"].as_str().unwrap().to_owned();
    // The receipt, once, in the member's language (DRC: French), in one segment.
    let sms = app.sms_bodies();
    assert_eq!(sms.len(), before + 1, "{sms:?}");
    let (to, receipt) = sms.last().unwrap();
    assert_eq!(to, "+243990000101");
    assert!(
        receipt.contains("48,5 kg haricots qualité A") && receipt.contains(&format!("LITIGE {reference}")),
        "{receipt}"
    );
    assert!(mavuno::platform::gsm7::units(receipt).is_some_and(|n| n <= 160));
    assert_eq!(
        c.stock().await,
        json!([{"crop": "bean", "grade": "A", "received_kilograms": "48.5", "in_lots_kilograms": "0",
                "available_kilograms": "48.5", "sold_kilograms": 0, "members": 1}])
    );

    // What the phone got wrong comes back with every field's reason, and nothing is written.
    let mut wrong = c.delivery(2, "0");
    wrong["crop"] = json!("gold");
    wrong["member"] = json!(999_999);
    wrong["delivered_on"] = json!("2099-01-01");
    let refused = app.push_ok(&c.manager, phone, vec![mutation(2, "delivery.record", wrong, None)]).await;
    let result = &refused["results"][0];
    assert_eq!(result["status"], "rejected");
    assert_eq!(
        result["error_codes"],
        json!({"member_id": ["not_a_member"], "crop": ["crop_unknown"], "quantity": ["out_of_range"],
               "delivered_on": ["date_future"]})
    );
    assert_eq!(c.book().await.len(), 1);
    // Tomorrow in South Kivu, where the scale is, is not written yet.
    let mut tomorrow = c.delivery(80, "10");
    tomorrow["delivered_on"] = json!((mavuno::domain::prices::today() + time::Duration::days(1)).to_string());
    let another_phone = "cccccccc-0000-4000-8000-000000000002";
    let refused = app.push_ok(&c.manager, another_phone, vec![mutation(1, "delivery.record", tomorrow, None)]).await;
    assert_eq!(refused["results"][0]["error_codes"], json!({"delivered_on": ["date_future"]}), "{refused}");
    assert_eq!(c.book().await.len(), 1);
    // Only managers weigh in.
    let refused = app
        .call(
            Method::POST,
            &format!("/cooperatives/{}/deliveries", c.id),
            &c.member,
            Some(json!({
                "uid": crate::sync::uid(3), "member_id": c.member_id, "crop": "bean", "grade": "A", "quantity": "10",
                "unit": "kg", "delivered_on": today(), "place": "Kabare"
            })),
        )
        .await;
    assert_eq!(error_of(refused, StatusCode::FORBIDDEN).await["code"], "managers_only");

    // The member disputes it; a manager corrects it with a new entry, and the history stays.
    let id = entry["id"].as_i64().unwrap();
    let nothing_to_keep = app
        .call(Method::POST, &format!("/deliveries/{id}/keep"), &c.manager, Some(json!({"note": "Weighed twice"})))
        .await;
    assert_eq!(error_of(nothing_to_keep, StatusCode::CONFLICT).await["code"], "not_disputed");
    let disputed = app
        .call(
            Method::POST,
            &format!("/deliveries/{id}/dispute"),
            &c.member,
            Some(json!({"reason": "It was 46 kg, two were stones"})),
        )
        .await;
    assert_eq!(disputed.status(), StatusCode::OK);
    let twice =
        app.call(Method::POST, &format!("/deliveries/{id}/dispute"), &c.member, Some(json!({"reason": "Again"}))).await;
    assert_eq!(error_of(twice, StatusCode::CONFLICT).await["code"], "already_disputed");
    let mut correction = c.delivery(4, "46");
    correction["replaces"] = json!(crate::sync::uid(1));
    let unexplained =
        app.push_ok(&c.manager, phone, vec![mutation(3, "delivery.record", correction.clone(), None)]).await;
    assert_eq!(unexplained["results"][0]["error_codes"], json!({"note": ["required"]}));
    correction["note"] = json!("Stones taken out");
    let corrected =
        app.push_ok(&c.manager, phone, vec![mutation(4, "delivery.record", correction.clone(), None)]).await;
    assert_eq!(corrected["results"][0]["status"], "applied", "{corrected}");
    assert_eq!(c.stock().await[0]["received_kilograms"], "46");
    let mine: Value = app.get("/me/deliveries", Some(&c.member)).await.json().await.unwrap();
    let mine = mine["data"].as_array().unwrap();
    assert_eq!(mine.len(), 2, "the entry and its correction");
    assert_eq!(mine[0]["replaces_id"], id);
    assert_eq!(mine[1]["replaced_by"], mine[0]["id"]);
    assert_eq!(mine[1]["dispute"]["answer"], "corrected");
    let receipt = app.sms_bodies().last().unwrap().1.clone();
    assert!(receipt.contains(&format!("entrée {reference} corrigée: 46 kg")), "{receipt}");
    // A corrected entry is not corrected twice; nobody else sees the member's entries.
    correction["uid"] = json!(crate::sync::uid(5));
    let twice = app.push_ok(&c.manager, phone, vec![mutation(5, "delivery.record", correction, None)]).await;
    assert_eq!(
        (&twice["results"][0]["status"], &twice["results"][0]["code"]),
        (&json!("rejected"), &json!("already_corrected")),
        "{twice}"
    );
    let other = app.user_with_role("other@example.com", Role::Farmer).await;
    let theirs: Value = app.get("/me/deliveries", Some(&other)).await.json().await.unwrap();
    assert_eq!(theirs["data"], json!([]));
    let refused =
        app.call(Method::POST, &format!("/deliveries/{id}/dispute"), &other, Some(json!({"reason": "Not mine"}))).await;
    assert_eq!(error_of(refused, StatusCode::NOT_FOUND).await["code"], "delivery_not_found");

    // The scale's photo goes first: until it has arrived the entry waits (retry), then lands.
    let photo = png(40, 30);
    let hash = sha(&photo);
    let mut pictured = c.delivery(6, "12");
    pictured["photo"] = json!(hash);
    let change = vec![mutation(6, "delivery.record", pictured, None)];
    let early = app.push_ok(&c.manager, phone, change.clone()).await;
    assert_eq!(
        (early["results"][0]["status"].as_str(), early["results"][0]["code"].as_str()),
        (Some("retry"), Some("photo_missing"))
    );
    let put = app.client.put(app.api(&format!("/uploads/{hash}"))).bearer_auth(&c.manager).body(photo).send().await;
    assert_eq!(put.unwrap().status(), StatusCode::CREATED);
    assert_eq!(app.push_ok(&c.manager, phone, change).await["results"][0]["status"], "applied");
    let book = c.book().await;
    assert_eq!(book[0]["photo"].as_str(), Some(hash.as_str()));
}

#[tokio::test]
async fn a_member_on_a_basic_phone_disputes_a_delivery_by_replying_with_its_reference() {
    let c = Coop::new().await;
    let app = &c.app;
    let written = app
        .call(
            Method::POST,
            &format!("/cooperatives/{}/deliveries", c.id),
            &c.manager,
            Some(json!({
                "uid": crate::sync::uid(9), "member_id": c.member_id, "crop": "coffee", "grade": "B", "quantity": "2",
                "unit": "bag_50kg", "delivered_on": today(), "place": "Kabare centre"
            })),
        )
        .await;
    assert_eq!(written.status(), StatusCode::CREATED);
    let written: Value = written.json().await.unwrap();
    assert_eq!(written["data"]["kilograms"], "100");
    let reference = written["data"]["reference"].as_str().unwrap().to_owned();
    let number = "+243990000101";
    let (status, _) = app.text_in(number, &format!("LITIGE {reference} c'était 90 kg"), "sms-1").await;
    assert_eq!(status, StatusCode::OK);
    let answer = app.answers_to(number).last().unwrap().clone();
    assert!(answer.contains(&format!("la livraison {reference} est contestée")), "{answer}");
    let mine: Value = app.get("/me/deliveries", Some(&c.member)).await.json().await.unwrap();
    assert_eq!(mine["data"][0]["dispute"]["reason"], "c'etait 90 kg");
    app.text_in(number, &format!("litige {reference}"), "sms-2").await;
    assert!(app.answers_to(number).last().unwrap().contains("déjà contestée"));
    // Someone else's reference, or none, is answered with what to send.
    app.text_in(number, "LITIGE D999999", "sms-3").await;
    assert!(app.answers_to(number).last().unwrap().starts_with("Aucune livraison D999999"));
    app.text_in(number, "LITIGE", "sms-4").await;
    assert!(app.answers_to(number).last().unwrap().starts_with("Pour contester une livraison"));
    // Their latest deliveries, asked by SMS.
    app.text_in(number, "livraisons", "sms-5").await;
    let answer = app.answers_to(number).last().unwrap().clone();
    assert_eq!(answer, format!("Vos livraisons : {reference} 100 kg café B {}", today()));
    // And in the USSD menu, the farmer's last choice, behind their PIN as their earnings
    // are: their deliveries, or joining another.
    let menu = app.phone(number).dial().await;
    assert!(menu.text.ends_with("9 Ma coopérative"), "{}", menu.text);
    let pin = app.phone(number).go(&["9"]).await;
    assert!(pin.text.starts_with("Choisissez un PIN"), "{}", pin.text);
    let screen = app.phone(number).go(&["9", "2580", "2580", "1"]).await;
    assert!(!screen.more);
    assert_eq!(screen.text, format!("Vos livraisons : {reference} 100 kg café B {}", today()));
    let none = app.phone(number).go(&["9", "2580", "2"]).await;
    assert_eq!(none.text, "Il n'y a pas encore d'autre coopérative à rejoindre.");
    let other = json!({"name": "Uvira Rice Growers", "territory": "Uvira", "market_id": 7});
    assert_eq!(
        app.call(Method::POST, "/admin/cooperatives", &c.admin, Some(other)).await.status(),
        StatusCode::CREATED
    );
    let mut phone = app.phone(number);
    let list = phone.go(&["9", "2580", "2"]).await;
    assert!(list.text.contains("1 Uvira Rice Growers (Uvira)"), "{}", list.text);
    let asked = phone.answer("1").await;
    assert!(!asked.more);
    assert!(asked.text.starts_with("Vous avez demandé à rejoindre Uvira Rice Growers."), "{}", asked.text);
    let mine: Value = app.get("/me/cooperatives", Some(&c.member)).await.json().await.unwrap();
    let statuses: Vec<&str> = mine["data"].as_array().unwrap().iter().map(|m| m["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["active", "asked"]);
}

#[tokio::test]
async fn the_demo_has_two_cooperatives_with_weeks_of_deliveries_and_a_corrected_dispute() {
    let app = spawn_app().await;
    assert!(mavuno::demo::seed(&app.state).await.unwrap());
    assert!(mavuno::demo::cooperatives::seed(&app.state).await.unwrap());
    assert!(!mavuno::demo::cooperatives::seed(&app.state).await.unwrap(), "once");
    let listed: Value = app.get("/cooperatives", None).await.json().await.unwrap();
    let names: Vec<&str> = listed["data"].as_array().unwrap().iter().map(|c| c["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Kabare Coffee Growers", "Walungu Bean Cooperative"]);
    assert_eq!(listed["data"][0]["members"], 3);
    assert_eq!(listed["data"][0]["crops"], json!(["coffee"]));
    let agent = app.login_token("agent@mavuno.demo", mavuno::demo::DEMO_PASSWORD).await;
    let farmer = app.login_token("farmer@mavuno.demo", mavuno::demo::DEMO_PASSWORD).await;
    let id = listed["data"][0]["id"].as_i64().unwrap();
    let stock: Value = app.get(&format!("/cooperatives/{id}/stock"), Some(&agent)).await.json().await.unwrap();
    assert_eq!(
        stock["data"],
        json!([{"crop": "coffee", "grade": "A", "received_kilograms": "229", "in_lots_kilograms": "200",
                "available_kilograms": "29", "sold_kilograms": 80, "members": 2},
               {"crop": "coffee", "grade": "B", "received_kilograms": "20", "in_lots_kilograms": "0",
                "available_kilograms": "20", "sold_kilograms": 0, "members": 1}])
    );
    // A lot sold and delivered (its members paid their shares), one of each cooperative on sale.
    let lots: Value = app.get(&format!("/cooperatives/{id}/lots"), Some(&agent)).await.json().await.unwrap();
    let sold: Vec<(i64, i64)> = lots["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["sold_kilograms"].as_i64().unwrap(), l["on_sale_kilograms"].as_i64().unwrap()))
        .collect();
    assert_eq!(sold, [(0, 120), (80, 0)]);
    let earned: Value = app.get("/farmer/earnings", Some(&farmer)).await.json().await.unwrap();
    assert!(earned["entries"].as_array().unwrap().iter().any(|e| e["kind"] == "share"), "{earned}");
    let market: Value = app.get("/products?q=Walungu", None).await.json().await.unwrap();
    assert_eq!(market["data"][0]["lot"]["cooperative_name"], "Walungu Bean Cooperative", "{market}");
    let farmer = app.login_token("farmer@mavuno.demo", mavuno::demo::DEMO_PASSWORD).await;
    let mine: Value = app.get("/me/deliveries", Some(&farmer)).await.json().await.unwrap();
    let corrected = mine["data"].as_array().unwrap().iter().find(|d| !d["replaced_by"].is_null()).unwrap();
    assert_eq!(corrected["dispute"]["answer"], "corrected");
    // The manager's spreadsheet of the book, in French: every entry, the correction named.
    let sheet = app.get(&format!("/cooperatives/{id}/deliveries/export?lang=fr"), Some(&agent)).await;
    assert!(sheet.headers()["content-type"].to_str().unwrap().starts_with("text/csv"));
    let text = sheet.text().await.unwrap();
    let lines: Vec<&str> = text.trim_start_matches('\u{feff}').lines().collect();
    assert!(lines[0].starts_with("Référence,Jour,Membre,Culture,Qualité"), "{}", lines[0]);
    assert_eq!(lines.len(), 1 + 6, "five entries and a correction");
    let fixed = lines.iter().find(|l| l.contains(",Corrigée,")).unwrap();
    assert!(fixed.contains("It was 20 kg"), "{fixed}");
    assert!(lines.iter().any(|l| l.contains(",Café,A,62.5,kg,62.5,Kavumu station,")), "{text}");
    let refused = app.get(&format!("/cooperatives/{id}/deliveries/export?day=2000-01-01"), Some(&agent)).await;
    assert_eq!(error_of(refused, StatusCode::NOT_FOUND).await["code"], "no_deliveries");
}

impl Coop {
    /// Writes a delivery through the API (the manager online): its uid's number, the
    /// member, kilograms and grade.
    pub async fn weigh(&self, n: u32, member: i64, kg: &str, grade: &str) {
        let written = self
            .app
            .call(
                Method::POST,
                &format!("/cooperatives/{}/deliveries", self.id),
                &self.manager,
                Some(json!({"uid": crate::sync::uid(n), "member_id": member, "crop": "bean", "grade": grade,
                            "quantity": kg, "unit": "kg", "delivered_on": today(), "place": "Kabare centre"})),
            )
            .await;
        assert_eq!(written.status(), StatusCode::CREATED);
    }

    async fn make_lot(&self, token: &str, body: Value) -> reqwest::Response {
        self.app.call(Method::POST, &format!("/cooperatives/{}/lots", self.id), token, Some(body)).await
    }
}

fn part_value(order: &Value) -> Value {
    order["data"]["parts"][0]["id"].clone()
}

fn lot(n: u32, kilograms: i64) -> Value {
    json!({"uid": crate::sync::uid(n), "crop": "bean", "grade": "A", "kilograms": kilograms, "price": "0.85",
           "min_order": 20, "pickup": "Kabare centre"})
}

/// Every ledger entry of a kind for a person: (person, cents).
fn entries(app: &TestApp, kind: &str) -> Vec<(i64, i64)> {
    let conn = app.database();
    let mut stmt =
        conn.prepare("SELECT farmer_id, amount_cents FROM earnings WHERE kind = ?1 ORDER BY farmer_id, id").unwrap();
    stmt.query_map([kind], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().collect::<Result<_, _>>().unwrap()
}

#[tokio::test]
async fn a_lot_is_drawn_from_stock_sold_through_checkout_and_shared_between_its_members_to_the_cent() {
    let c = Coop::new().await;
    let app = &c.app;
    let second = app.user_with_role("baraka@example.com", Role::Farmer).await;
    app.sql(
        "UPDATE users SET phone_number = '+243990000102', first_name = 'Baraka' WHERE email = 'baraka@example.com'",
    );
    let second_id = id_of(app, &second).await;
    let added = app
        .call(
            Method::PUT,
            &format!("/cooperatives/{}/members/{second_id}", c.id),
            &c.manager,
            Some(json!({"status": "active"})),
        )
        .await;
    assert_eq!(added.status(), StatusCode::OK);
    c.weigh(1, c.member_id, "300", "A").await;
    c.weigh(2, second_id, "200", "A").await;
    c.weigh(3, c.member_id, "50", "B").await;

    // Never more than is held, only by managers, every field checked.
    let too_big = c.make_lot(&c.manager, lot(10, 501)).await;
    let too_big = error_of(too_big, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(too_big["error_codes"], json!({"kilograms": ["more_than_stock"]}));
    let by_member = c.make_lot(&c.member, lot(10, 10)).await;
    assert_eq!(error_of(by_member, StatusCode::FORBIDDEN).await["code"], "managers_only");
    let wrong = c
        .make_lot(
            &c.manager,
            json!({"uid": crate::sync::uid(10), "crop": "gold", "grade": "Z", "kilograms": 0, "price": "-1", "pickup": ""}),
        )
        .await;
    assert_eq!(
        error_of(wrong, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"],
        json!({"crop": ["crop_unknown"], "grade": ["invalid_option"], "kilograms": ["lot_size_invalid"],
               "price": ["market_price_invalid"], "pickup": ["required"]})
    );
    let made = c.make_lot(&c.manager, lot(10, 400)).await;
    assert_eq!(made.status(), StatusCode::CREATED);
    let made: Value = made.json().await.unwrap();
    let again = c.make_lot(&c.manager, lot(10, 400)).await;
    assert_eq!(again.status(), StatusCode::OK, "a resent lot is made once");
    assert_eq!(again.json::<Value>().await.unwrap()["data"]["id"], made["data"]["id"]);
    let (lot_id, product) = (made["data"]["id"].as_i64().unwrap(), made["data"]["product_id"].as_i64().unwrap());
    assert_eq!(made["data"]["members"], 2);
    let stock = c.stock().await;
    assert_eq!(
        (&stock[0]["in_lots_kilograms"], &stock[0]["available_kilograms"], &stock[1]["available_kilograms"]),
        (&json!("400"), &json!("100"), &json!("50"))
    );
    // An entry drawn into a lot is not corrected any more.
    let correction = app
        .call(
            Method::POST,
            &format!("/cooperatives/{}/deliveries", c.id),
            &c.manager,
            Some(json!({"uid": crate::sync::uid(4), "member_id": c.member_id, "crop": "bean", "grade": "A",
                        "quantity": "290", "unit": "kg", "delivered_on": today(), "place": "Kabare centre",
                        "replaces": crate::sync::uid(1), "note": "Wet beans"})),
        )
        .await;
    assert_eq!(
        error_of(correction, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"],
        json!({"replaces": ["delivery_in_lot"]})
    );

    // The marketplace shows it as the cooperative's, in the reader's language.
    let shown: Value = app.get(&format!("/products/{product}"), None).await.json().await.unwrap();
    let shown = &shown["data"];
    assert_eq!(shown["farmer"]["name"], "Kabare Coffee Growers");
    assert_eq!((shown["quantity"].as_i64(), shown["current_price"].as_f64()), (Some(400), Some(0.85)));
    assert_eq!(shown["lot"]["members"], 2);
    assert_eq!(shown["lot"]["cooperative_id"], c.id);
    assert_eq!(shown["lot"]["collected_from"], today());
    assert!(shown["title_fr"].as_str().unwrap().contains("qualité A"), "{shown}");
    assert!(shown["description_sw"].as_str().unwrap().contains("kilo 400"), "{shown}");
    // Its days as a reader writes them ("pesé du 30 novembre 2026"), not as the database keeps them.
    let description_fr = shown["description_fr"].as_str().unwrap();
    assert!(!description_fr.contains(&today()), "{description_fr}");
    let day = mavuno::labels::Lang::parse(Some("fr")).long_date(&today());
    assert!(description_fr.contains(&day) && day.contains(" 20"), "{description_fr}");

    // Buyers race for it: never oversold.
    let super_admin = app.user_with_role("boss@example.com", Role::SuperAdmin).await;
    let fee = app.call(Method::PATCH, "/admin/settings", &super_admin, Some(json!({"platform_fee_bp": 500}))).await;
    assert_eq!(fee.status(), StatusCode::OK);
    let pickup = |n: u32, kg: i64| {
        let mut body = crate::orders::order(n, json!([crate::orders::line(product, kg, 85)]));
        body["delivery"] = json!("pickup");
        body
    };
    let buyer = app.user_with_role("processor@example.com", Role::User).await;
    // A lot is collected at the cooperative's store: not delivered; collected, no address is asked.
    let mut delivered = pickup(49, 10);
    delivered["delivery"] = json!("delivery");
    let delivered = error_of(app.place(&buyer, delivered).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(delivered["error_codes"], json!({"delivery": ["lot_pickup_only"]}), "{delivered}");
    let mut first = pickup(50, 123);
    first["shipping"]["address"] = json!("");
    first["shipping"]["city"] = json!("");
    let first = app.place(&buyer, first).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    let order: Value = first.json().await.unwrap();
    let mut racers = tokio::task::JoinSet::new();
    for n in 0..10u32 {
        let token = app.user_with_role(&format!("racer{n}@example.com"), Role::User).await;
        let (client, url, body) = (app.client.clone(), app.api("/orders"), pickup(60 + n, 40));
        racers.spawn(async move { client.post(url).bearer_auth(token).json(&body).send().await.unwrap().status() });
    }
    let statuses = racers.join_all().await;
    let placed = statuses.iter().filter(|s| **s == StatusCode::CREATED).count();
    assert_eq!(placed, 6, "277 kg left: six orders of 40 kg; {statuses:?}");
    let lots: Value = app.get(&format!("/cooperatives/{}/lots", c.id), Some(&c.manager)).await.json().await.unwrap();
    assert_eq!(lots["data"][0]["on_sale_kilograms"], 37);

    // The manager sees and moves the cooperative's part; a member who is not a manager cannot.
    let (order_id, part) = (order["data"]["id"].as_i64().unwrap(), order["data"]["parts"][0]["id"].as_i64().unwrap());
    let listed: Value = app.get("/orders", Some(&c.manager)).await.json().await.unwrap();
    let theirs = listed["data"].as_array().unwrap().iter().find(|o| o["id"] == order_id).unwrap().clone();
    assert_eq!(theirs["parts"].as_array().unwrap().len(), 1, "the manager sees the cooperative's part: {theirs}");
    // So does their phone, in the sync pull.
    let pulled = app.get("/sync/pull", Some(&c.manager)).await.json::<Value>().await.unwrap();
    let record = pulled["changes"].as_array().unwrap().iter().find(|c| c["entity"] == "order").unwrap().clone();
    assert_eq!(record["record"]["parts"][0]["id"], part_value(&order), "{record}");
    let not_theirs = app.patch_part(&second, order_id, part, json!({"status": "delivered"})).await;
    assert_eq!(not_theirs.status(), StatusCode::NOT_FOUND);
    let delivered = app.patch_part(&c.manager, order_id, part, json!({"status": "delivered"})).await;
    assert_eq!(delivered.status(), StatusCode::OK);
    let again = app.patch_part(&c.manager, order_id, part, json!({"status": "delivered"})).await;
    assert_eq!(again.status(), StatusCode::OK);

    // 123 kg × 0.85 = 104.55; less 5 % for the platform (5.23) and 2.5 % for the
    // cooperative (2.61): 96.71, shared 300:100 → 72.5325 and 24.1775: the spare cent
    // to the larger remainder.
    assert_eq!(entries(app, "share"), vec![(c.member_id, 7253), (second_id, 2418)]);
    let seller = shown["farmer"]["id"].as_i64().unwrap();
    assert_eq!(entries(app, "shared"), vec![(seller, -9671)]);
    let balance: i64 = app
        .database()
        .query_row("SELECT SUM(amount_cents) FROM earnings WHERE farmer_id = ?1", [seller], |r| r.get(0))
        .unwrap();
    assert_eq!(balance, 261, "what stays with the cooperative is its fee");
    let earned: Value = app.get("/farmer/earnings", Some(&c.member)).await.json().await.unwrap();
    assert_eq!(earned["earned_cents"], 7253);
    assert_eq!(earned["entries"][0]["kind"], "share");
    let statement = app.sms_bodies().into_iter().rfind(|(to, _)| to == "+243990000101").unwrap().1;
    assert!(statement.contains("72,53 USD"), "{statement}");
    // The sale is a market price at the cooperative's market.
    let observed: i64 = app
        .database()
        .query_row(
            "SELECT COUNT(*) FROM price_observations WHERE source = 'sale' AND crop = 'bean' AND market_id = 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(observed, 1);

    // The cooperative's seller account is no farmer in the platform's goals: Neema and Baraka are.
    let goals: Value = app.get("/admin/analytics/goals?period=all", Some(&c.admin)).await.json().await.unwrap();
    let farmers = goals["data"]["figures"].as_array().unwrap().iter().find(|f| f["key"] == "farmers").unwrap().clone();
    assert_eq!(farmers["value"].as_f64(), Some(2.0), "{goals}");

    // The origin: named only with the member's agreement, the plot where recorded.
    let bad = app
        .call(
            Method::PUT,
            &format!("/me/cooperatives/{}/origin", c.id),
            &c.member,
            Some(json!({"latitude": 91, "longitude": 28.8})),
        )
        .await;
    assert_eq!(
        error_of(bad, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"],
        json!({"latitude": ["plot_invalid"]})
    );
    let outsider = app.user_with_role("outsider@example.com", Role::Farmer).await;
    let refused = app
        .call(
            Method::PUT,
            &format!("/me/cooperatives/{}/origin", c.id),
            &outsider,
            Some(json!({"named_in_origin": true})),
        )
        .await;
    assert_eq!(refused.status(), StatusCode::NOT_FOUND);
    let recorded = app
        .call(
            Method::PUT,
            &format!("/me/cooperatives/{}/origin", c.id),
            &c.member,
            Some(json!({"latitude": -2.4123456789, "longitude": 28.7912, "named_in_origin": true})),
        )
        .await;
    assert_eq!(recorded.json::<Value>().await.unwrap()["latitude"], -2.412346);
    let origin: Value = app.get(&format!("/lots/{lot_id}/origin"), None).await.json().await.unwrap();
    let members = origin["members"].as_array().unwrap();
    assert_eq!(members.len(), 2);
    assert_eq!((&members[0]["name"], &members[0]["kilograms"]), (&json!("Neema farmer"), &json!("300")));
    assert_eq!((&members[1]["name"], &members[1]["latitude"]), (&json!(""), &Value::Null));
    let geo: Value = app.get(&format!("/lots/{lot_id}/origin.geojson"), None).await.json().await.unwrap();
    assert_eq!(geo["features"].as_array().unwrap().len(), 1);
    assert_eq!(geo["features"][0]["geometry"]["coordinates"], json!([28.7912, -2.412346]));
    assert_eq!(geo["properties"]["unlocated_kilograms"], "100");
    let csv = app.get(&format!("/lots/{lot_id}/origin.csv?lang=fr"), None).await.text().await.unwrap();
    let rows: Vec<&str> = csv.trim_start_matches('\u{feff}').lines().collect();
    assert_eq!(rows.len(), 3, "{csv}");
    assert!(rows[1].contains(",Neema farmer,Kabare,-2.412346,28.791200,300,"), "{csv}");
    assert!(rows[0].starts_with("Lot,Coopérative,Produit"), "{csv}");
    // One number for the lot: its title's, the manager's list's and the origin files'.
    let made: Value = app.get(&format!("/cooperatives/{}/lots", c.id), Some(&c.manager)).await.json().await.unwrap();
    let number = made["data"].as_array().unwrap().iter().find(|l| l["id"] == lot_id).unwrap()["number"].clone();
    let title: Value = app.get(&format!("/products/{product}?lang=en"), None).await.json().await.unwrap();
    let title = title["data"]["title"].as_str().unwrap().to_owned();
    assert!(title.contains(&format!(", lot {number} of ")), "{title} is lot {number}");
    assert_eq!(geo["properties"]["lot"], number);
    assert!(rows[1].starts_with(&format!("{number},")), "{csv}");
    assert!(!csv.contains("Baraka") && !csv.contains("+243"), "no name without agreement, never a number: {csv}");
    let missing = app.get("/lots/999999/origin", None).await;
    assert_eq!(error_of(missing, StatusCode::NOT_FOUND).await["code"], "lot_not_found");

    // Suspended, its lots leave the marketplace; renamed, they carry the new name.
    let suspend = json!({"name": "Kabare Bean Growers", "territory": "Kabare", "market_id": 1, "status": "suspended"});
    let changed = app.call(Method::PATCH, &format!("/admin/cooperatives/{}", c.id), &c.admin, Some(suspend)).await;
    assert_eq!(changed.status(), StatusCode::OK);
    assert_eq!(app.get(&format!("/products/{product}"), None).await.status(), StatusCode::NOT_FOUND);
    // An edit names only what changes: the rest (the description too) keeps its value.
    let active = json!({"status": "active"});
    let back: Value = app
        .call(Method::PATCH, &format!("/admin/cooperatives/{}", c.id), &c.admin, Some(active))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(back["data"]["name"], "Kabare Bean Growers");
    assert_eq!(back["data"]["description"], "Washed arabica from Kabare's hills", "{back}");
    assert_eq!(back["data"]["fee_percent"], 2.5, "{back}");
    let back: Value = app.get(&format!("/products/{product}"), None).await.json().await.unwrap();
    assert_eq!(back["data"]["farmer"]["name"], "Kabare Bean Growers");
    let fee: Value = app
        .call(Method::PATCH, &format!("/admin/cooperatives/{}", c.id), &c.admin, Some(json!({"fee_percent": 3})))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!((&fee["data"]["status"], &fee["data"]["fee_percent"]), (&json!("active"), &json!(3.0)));
}

impl Coop {
    /// The member's beans weighed in (`kg` grade A), put on sale as one lot at 1.00 a kg,
    /// bought whole and delivered: the member is owed it less the cooperative's 2.5 %.
    pub async fn with_shares(&self, kg: i64) {
        self.weigh(90, self.member_id, &kg.to_string(), "A").await;
        let mut body = lot(91, kg);
        body["price"] = json!("1");
        body["min_order"] = json!(1);
        let made: Value = self.make_lot(&self.manager, body).await.json().await.unwrap();
        let product = made["data"]["product_id"].as_i64().unwrap();
        let buyer = self.app.user_with_role("school@example.com", Role::User).await;
        let mut order = crate::orders::order(92, json!([crate::orders::line(product, kg, 100)]));
        order["delivery"] = json!("pickup");
        let placed: Value = self.app.place(&buyer, order).await.json().await.unwrap();
        let (order, part) =
            (placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap());
        let delivered = self.app.patch_part(&self.manager, order, part, json!({"status": "delivered"})).await;
        assert_eq!(delivered.status(), StatusCode::OK);
    }

    pub async fn pay(&self, n: u32, body: Value) -> reqwest::Response {
        let mut body = body;
        body["uid"] = json!(crate::sync::uid(n));
        body["member_id"] = json!(self.member_id);
        self.app.call(Method::POST, &format!("/cooperatives/{}/payouts", self.id), &self.manager, Some(body)).await
    }

    pub async fn account(&self) -> Value {
        let books: Value = self
            .app
            .get(&format!("/cooperatives/{}/accounts", self.id), Some(&self.manager))
            .await
            .json()
            .await
            .unwrap();
        books["data"].as_array().unwrap().iter().find(|a| a["member_id"] == self.member_id).unwrap().clone()
    }

    async fn confirm(&self, payout: i64, code: &str) -> reqwest::Response {
        let path = format!("/cooperatives/{}/payouts/{payout}/confirm", self.id);
        self.app.call(Method::POST, &path, &self.manager, Some(json!({"code": code}))).await
    }

    /// The code in the member's last SMS.
    fn code(&self) -> String {
        let sms = self.app.sms_bodies().into_iter().rfind(|(to, _)| to == "+243990000101").unwrap().1;
        sms.split_whitespace()
            .find(|w| w.len() == 6 && w.bytes().all(|b| b.is_ascii_digit()))
            .unwrap_or_else(|| panic!("no code in {sms}"))
            .to_owned()
    }
}

#[tokio::test]
async fn members_are_paid_their_shares_in_cash_against_their_code_or_by_mobile_money_never_twice() {
    let c = Coop::new().await;
    let app = &c.app;
    let nothing = app.phone("+243990000101").go(&["9", "2580", "2580", "3"]).await;
    assert_eq!(nothing.text, "Aucune coopérative ne vous doit encore rien.");
    c.with_shares(100).await;
    // 100.00 less the cooperative's 2.5 %.
    let account = c.account().await;
    assert_eq!((account["shares_cents"].as_i64(), account["owed_cents"].as_i64()), (Some(9750), Some(9750)));
    let books: Value = app.get(&format!("/cooperatives/{}/accounts", c.id), Some(&c.admin)).await.json().await.unwrap();
    assert_eq!((books["sales_cents"].as_i64(), books["kept_cents"].as_i64()), (Some(10000), Some(250)));

    let too_much = c.pay(1, json!({"method": "cash", "amount_cents": 9751})).await;
    assert_eq!(
        error_of(too_much, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"],
        json!({"amount": ["more_than_owed"]})
    );
    let by_member = app
        .call(
            Method::POST,
            &format!("/cooperatives/{}/payouts", c.id),
            &c.member,
            Some(json!({"uid": crate::sync::uid(1), "member_id": c.member_id, "method": "cash"})),
        )
        .await;
    assert_eq!(error_of(by_member, StatusCode::FORBIDDEN).await["code"], "managers_only");

    // Cash: the member gets a code; five wrong codes lock the payout, which is cancelled.
    let cash: Value = c.pay(2, json!({"method": "cash", "amount_cents": 5000})).await.json().await.unwrap();
    let payout = cash["data"]["id"].as_i64().unwrap();
    assert_eq!(cash["data"]["status"], "pending");
    let code = c.code();
    let sms = app.sms_bodies().last().unwrap().1.clone();
    assert!(
        sms.contains("50,00 USD en espèces") && mavuno::platform::gsm7::units(&sms).is_some_and(|n| n <= 160),
        "{sms}"
    );
    assert_eq!(c.account().await["owed_cents"], 4750, "being paid is not owed");
    for _ in 0..5 {
        let wrong = c.confirm(payout, "000000").await;
        assert_eq!(
            error_of(wrong, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"],
            json!({"code": ["payout_code_wrong"]})
        );
    }
    assert_eq!(error_of(c.confirm(payout, &code).await, StatusCode::CONFLICT).await["code"], "code_locked");
    let path = format!("/cooperatives/{}/payouts/{payout}/cancel", c.id);
    let cancelled: Value = app.call(Method::POST, &path, &c.manager, None).await.json().await.unwrap();
    assert_eq!(
        (cancelled["data"]["status"].as_str(), cancelled["data"]["failure_reason"].as_str()),
        (Some("failed"), Some("cancelled"))
    );
    assert_eq!(c.account().await["owed_cents"], 9750, "a cancelled payout counts for nothing");

    // Paid in cash against the right code, once.
    let cash: Value = c.pay(3, json!({"method": "cash", "amount_cents": 5000})).await.json().await.unwrap();
    let payout = cash["data"]["id"].as_i64().unwrap();
    let code = c.code();
    let confirmed = c.confirm(payout, &code).await;
    assert_eq!(confirmed.status(), StatusCode::OK);
    let receipt = app.sms_bodies().last().unwrap().1.clone();
    assert!(receipt.contains("payé 50,00 USD") && receipt.contains("47,50 USD"), "{receipt}");
    assert_eq!(error_of(c.confirm(payout, &code).await, StatusCode::CONFLICT).await["code"], "not_pending");
    let metrics = crate::metrics::samples(&app.state.db.metrics().render());
    let paid = crate::metrics::value(&metrics, "mavuno_payouts_moved_total", &[("state", "paid")]);
    assert_eq!(paid, 1.0, "one payout paid, in the metrics (the wrong codes and the repeat moved none)");

    // The member's 099 number is Airtel's in the DRC: Vodacom would send the money astray.
    let astray = c.pay(4, json!({"method": "mobile_money", "operator": "VODACOM_MPESA_COD"})).await;
    let astray = error_of(astray, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(astray["error_codes"], json!({"operator": ["operator_not_of_number"]}), "{astray}");
    let listed: Value = app.get("/payments/operators?country=DRC", None).await.json().await.unwrap();
    let airtel = listed["data"].as_array().unwrap().iter().find(|o| o["id"] == "AIRTEL_COD").unwrap().clone();
    assert_eq!(airtel["prefixes"], json!(["97", "98", "99"]));

    // The rest by mobile money (the simulator pays at once): five requests racing, one payout.
    let mut racers = tokio::task::JoinSet::new();
    for n in 0..5u32 {
        let body = json!({"uid": crate::sync::uid(10 + n), "member_id": c.member_id, "method": "mobile_money",
                          "operator": "AIRTEL_COD"});
        let (client, url, token) =
            (app.client.clone(), app.api(&format!("/cooperatives/{}/payouts", c.id)), c.manager.clone());
        racers.spawn(async move { client.post(url).bearer_auth(token).json(&body).send().await.unwrap().status() });
    }
    let statuses = racers.join_all().await;
    assert_eq!(statuses.iter().filter(|s| **s == StatusCode::CREATED).count(), 1, "{statuses:?}");
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::CONFLICT).count(),
        4,
        "nothing owed any more: {statuses:?}"
    );
    let account = c.account().await;
    assert_eq!((account["paid_cents"].as_i64(), account["owed_cents"].as_i64()), (Some(9750), Some(0)));
    // A retried request is the same payout.
    let payouts: Value =
        app.get(&format!("/cooperatives/{}/payouts", c.id), Some(&c.manager)).await.json().await.unwrap();
    let mobile = payouts["data"][0].clone();
    assert_eq!(
        (mobile["method"].as_str(), mobile["status"].as_str(), mobile["amount_cents"].as_i64()),
        (Some("mobile_money"), Some("paid"), Some(4750))
    );
    let again = c.pay(0, json!({"method": "mobile_money", "operator": "AIRTEL_COD"})).await;
    assert_eq!(error_of(again, StatusCode::CONFLICT).await["code"], "nothing_owed");
    let uid = mobile["uid"].as_str().unwrap();
    let retried = app
        .call(
            Method::POST,
            &format!("/cooperatives/{}/payouts", c.id),
            &c.manager,
            Some(json!({"uid": uid, "member_id": c.member_id, "method": "mobile_money", "operator": "AIRTEL_COD"})),
        )
        .await;
    assert_eq!(retried.status(), StatusCode::OK);
    assert_eq!(retried.json::<Value>().await.unwrap()["data"]["id"], mobile["id"]);

    // The member sees it; the manager downloads the accounts.
    let mine: Value = app.get("/me/payouts", Some(&c.member)).await.json().await.unwrap();
    assert_eq!(mine["accounts"][0]["paid_cents"], 9750);
    assert_eq!(mine["data"].as_array().unwrap().len(), 3);
    let csv = app
        .get(&format!("/cooperatives/{}/accounts/export?lang=fr", c.id), Some(&c.manager))
        .await
        .text()
        .await
        .unwrap();
    assert!(csv.contains("Neema farmer,97.50,97.50,0.00,0.00,USD"), "{csv}");
    // And on the member's basic phone.
    let screen = app.phone("+243990000101").go(&["9", "2580", "3"]).await;
    assert_eq!(screen.text, "Kabare Coffee Growers : reste 0,00 USD, payé 97,50 USD");
    // And by SMS.
    let (status, _) = app.text_in("+243990000101", "argent", "sms-money").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(
        app.answers_to("+243990000101").last().unwrap(),
        "Kabare Coffee Growers : reste 0,00 USD, payé 97,50 USD"
    );
}

#[tokio::test]
async fn a_manager_changes_a_lots_price_or_takes_it_off_sale_and_what_was_not_ordered_goes_back() {
    let c = Coop::new().await;
    let app = &c.app;
    let second = app.user_with_role("baraka@example.com", Role::Farmer).await;
    let second_id = id_of(app, &second).await;
    let path = format!("/cooperatives/{}/members/{second_id}", c.id);
    app.call(Method::PUT, &path, &c.manager, Some(json!({"status": "active"}))).await;
    c.weigh(1, c.member_id, "60", "A").await;
    c.weigh(2, second_id, "40", "A").await;
    let mut body = lot(3, 100);
    body["min_order"] = json!(1);
    let made: Value = c.make_lot(&c.manager, body).await.json().await.unwrap();
    let (lot_id, product) = (made["data"]["id"].as_i64().unwrap(), made["data"]["product_id"].as_i64().unwrap());
    let lot_path = format!("/cooperatives/{}/lots/{lot_id}", c.id);

    // A new price, checked like the first.
    let bad = app.call(Method::PATCH, &lot_path, &c.manager, Some(json!({"price": "0"}))).await;
    assert_eq!(
        error_of(bad, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"],
        json!({"price": ["market_price_invalid"]})
    );
    let by_member = app.call(Method::PATCH, &lot_path, &c.member, Some(json!({"price": "2"}))).await;
    assert_eq!(error_of(by_member, StatusCode::FORBIDDEN).await["code"], "managers_only");
    let priced = app.call(Method::PATCH, &lot_path, &c.manager, Some(json!({"price": "1.25"}))).await;
    assert_eq!(priced.status(), StatusCode::OK);
    let shown: Value = app.get(&format!("/products/{product}"), None).await.json().await.unwrap();
    assert_eq!(shown["data"]["current_price"], 1.25);

    // 30 kg ordered, then the lot taken off sale: the other 70 kg go back, the latest delivery first.
    let buyer = app.user_with_role("school@example.com", Role::User).await;
    let mut order = crate::orders::order(4, json!([crate::orders::line(product, 30, 125)]));
    order["delivery"] = json!("pickup");
    let placed: Value = app.place(&buyer, order).await.json().await.unwrap();
    let off: Value =
        app.call(Method::PATCH, &lot_path, &c.manager, Some(json!({"on_sale": false}))).await.json().await.unwrap();
    assert_eq!((off["data"]["kilograms"].as_i64(), off["data"]["members"].as_i64()), (Some(30), Some(1)), "{off}");
    assert_eq!(off["data"]["withdrawn"], true);
    assert_eq!(c.stock().await[0]["available_kilograms"], "70");
    assert_eq!(app.get(&format!("/products/{product}"), None).await.status(), StatusCode::NOT_FOUND);
    let again = app.call(Method::PATCH, &lot_path, &c.manager, Some(json!({"price": "2"}))).await;
    assert_eq!(error_of(again, StatusCode::CONFLICT).await["code"], "lot_withdrawn");
    // The order still goes through; what it brings is the first member's alone (their 30 kg are what is left).
    let (order_id, part) = (placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap());
    let delivered = app.patch_part(&c.manager, order_id, part, json!({"status": "delivered"})).await;
    assert_eq!(delivered.status(), StatusCode::OK);
    // 37.50 less the cooperative's 2.5 % (0.94).
    assert_eq!(entries(app, "share"), vec![(c.member_id, 3656)]);

    // A lot nothing was ordered from goes altogether.
    let small_lot = |n: u32| {
        let mut small = lot(n, 10);
        small["min_order"] = json!(5);
        small
    };
    let small = c.make_lot(&c.manager, small_lot(5)).await;
    assert_eq!(small.status(), StatusCode::CREATED);
    let small: Value = small.json().await.unwrap();
    let small_path = format!("/cooperatives/{}/lots/{}", c.id, small["data"]["id"]);
    let gone = app.call(Method::PATCH, &small_path, &c.manager, Some(json!({"on_sale": false}))).await;
    assert_eq!(gone.status(), StatusCode::OK);
    assert_eq!(gone.json::<Value>().await.unwrap()["data"], Value::Null);
    assert_eq!(c.stock().await[0]["available_kilograms"], "70");
    let lots: Value = app.get(&format!("/cooperatives/{}/lots", c.id), Some(&c.manager)).await.json().await.unwrap();
    assert_eq!(lots["data"].as_array().unwrap().len(), 1);
    // Its number is not given again: the next lot is the third, as its title says.
    assert_eq!(small["data"]["number"], 2, "{small}");
    let next: Value = c.make_lot(&c.manager, small_lot(6)).await.json().await.unwrap();
    assert_eq!(next["data"]["number"], 3, "{next}");
    let title: Value = app.get(&format!("/products/{}", next["data"]["product_id"]), None).await.json().await.unwrap();
    assert!(title["data"]["title"].as_str().unwrap().contains(", lot 3 of "), "{title}");
}

#[tokio::test]
async fn a_lot_is_collected_on_the_days_its_manager_says_and_delivered_only_when_the_cooperative_does() {
    let c = Coop::new().await;
    let app = &c.app;
    c.weigh(1, c.member_id, "200", "A").await;
    // Days are days of the week; a delivery cost is 0 or more US dollars.
    let mut wrong = lot(2, 50);
    wrong["pickup_days"] = json!(["mon", "someday"]);
    wrong["delivery_cost"] = json!("-1");
    assert_eq!(
        error_of(c.make_lot(&c.manager, wrong).await, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"],
        json!({"pickup_days": ["pickup_days_invalid"], "delivery_cost": ["delivery_cost_invalid"]})
    );
    let mut none = lot(2, 50);
    none["pickup_days"] = json!([]);
    assert_eq!(
        error_of(c.make_lot(&c.manager, none).await, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"],
        json!({"pickup_days": ["pickup_days_invalid"]})
    );

    // Not said: Monday to Saturday, collected only.
    let plain: Value = c.make_lot(&c.manager, lot(3, 50)).await.json().await.unwrap();
    assert_eq!(plain["data"]["pickup_days"], json!(["mon", "tue", "wed", "thu", "fri", "sat"]));
    assert_eq!(plain["data"]["delivery_cost"], Value::Null);
    // Said: in the week's order, and delivered for 2.50 US dollars.
    let mut delivered = lot(4, 100);
    delivered["pickup_days"] = json!(["sat", "tue", "tue"]);
    delivered["delivery_cost"] = json!("2,50");
    let delivered: Value = c.make_lot(&c.manager, delivered).await.json().await.unwrap();
    assert_eq!(delivered["data"]["pickup_days"], json!(["tue", "sat"]));
    assert_eq!(delivered["data"]["delivery_cost"], 2.5);
    let product = delivered["data"]["product_id"].as_i64().unwrap();
    let shown: Value = app.get(&format!("/products/{product}"), None).await.json().await.unwrap();
    assert_eq!(shown["data"]["lot"]["pickup_days"], json!(["tue", "sat"]));
    assert_eq!(
        (&shown["data"]["shipping"]["available"], &shown["data"]["shipping"]["cost"]),
        (&json!(true), &json!(2.5))
    );

    // A buyer has the delivering lot delivered at its cost; the other is collected only.
    let buyer = app.user_with_role("processor@example.com", Role::User).await;
    let mut home = crate::orders::order(5, json!([crate::orders::line(product, 20, 85)]));
    home["delivery"] = json!("delivery");
    let home = app.place(&buyer, home).await;
    assert_eq!(home.status(), StatusCode::CREATED);
    let home: Value = home.json().await.unwrap();
    assert_eq!(home["data"]["shipping_cents"], 250, "{home}");
    let only_collected = plain["data"]["product_id"].as_i64().unwrap();
    let mut refused = crate::orders::order(6, json!([crate::orders::line(only_collected, 20, 85)]));
    refused["delivery"] = json!("delivery");
    let refused = error_of(app.place(&buyer, refused).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(refused["error_codes"], json!({"delivery": ["lot_pickup_only"]}));
}
