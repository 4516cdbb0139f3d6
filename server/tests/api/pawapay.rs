//! The pawaPay adapter against a local fake of pawaPay's deposits API
//! (nothing here reaches the internet): the deposit request as pawaPay
//! takes it, callbacks verified by asking pawaPay, forged ones changing
//! nothing, status checks, a rejected request, and pawaPay unreachable;
//! refunds of a course payment through its refunds API; a cooperative's payout to a
//! member through its payouts API.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode as AxumStatus};
use axum::routing::{get, post};
use axum::{Json, Router};
use mavuno::model::user::Role;
use mavuno::platform::config::PawaPaySettings;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::uid;

const TOKEN: &str = "fake-pawapay-token";

/// The fake: deposits and refunds by id (their last requested body and status).
#[derive(Clone, Default)]
struct Fake {
    deposits: Arc<Mutex<HashMap<String, (Value, String)>>>,
    refunds: Arc<Mutex<HashMap<String, (Value, String)>>>,
    payouts: Arc<Mutex<HashMap<String, (Value, String)>>>,
    /// How many times a deposit's status was read (each a call on the merchant's quota).
    status_reads: Arc<std::sync::atomic::AtomicUsize>,
}

impl Fake {
    fn set(&self, id: &str, status: &str) {
        self.deposits.lock().unwrap().get_mut(id).unwrap().1 = status.to_owned();
    }
    fn set_refund(&self, id: &str, status: &str) {
        self.refunds.lock().unwrap().get_mut(id).unwrap().1 = status.to_owned();
    }
    fn request(&self, id: &str) -> Value {
        self.deposits.lock().unwrap()[id].0.clone()
    }
}

fn authorised(headers: &HeaderMap) -> bool {
    headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&format!("Bearer {TOKEN}"))
}

async fn request_deposit(
    State(fake): State<Fake>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (AxumStatus, Json<Value>) {
    if !authorised(&headers) {
        return (AxumStatus::UNAUTHORIZED, Json(json!({"errorMessage": "bad token"})));
    }
    let id = body["depositId"].as_str().unwrap().to_owned();
    let mut deposits = fake.deposits.lock().unwrap();
    if deposits.contains_key(&id) {
        return (AxumStatus::OK, Json(json!({"depositId": id, "status": "DUPLICATE_IGNORED"})));
    }
    // pawaPay refuses a number it cannot use at once.
    if body["payer"]["address"]["value"].as_str().unwrap().ends_with('2') {
        deposits.insert(id.clone(), (body, "REJECTED".into()));
        return (
            AxumStatus::OK,
            Json(
                json!({"depositId": id, "status": "REJECTED", "rejectionReason": {"rejectionCode": "INVALID_PAYER_FORMAT"}}),
            ),
        );
    }
    deposits.insert(id.clone(), (body, "SUBMITTED".into()));
    (AxumStatus::OK, Json(json!({"depositId": id, "status": "ACCEPTED", "created": "2026-11-23T10:00:00Z"})))
}

/// pawaPay's answer to a status read: a list of at most one, with a failure's reason.
fn status_list(key: &str, id: &str, found: Option<String>, failure_code: &str) -> Json<Value> {
    Json(match found {
        None => json!([]),
        Some(status) if status == "FAILED" => {
            json!([{key: id, "status": status, "failureReason": {"failureCode": failure_code}}])
        }
        Some(status) => json!([{key: id, "status": status}]),
    })
}

async fn deposit_status(
    State(fake): State<Fake>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> (AxumStatus, Json<Value>) {
    if !authorised(&headers) {
        return (AxumStatus::UNAUTHORIZED, Json(json!({})));
    }
    fake.status_reads.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let found = fake.deposits.lock().unwrap().get(&id).map(|(_, status)| status.clone());
    (AxumStatus::OK, status_list("depositId", &id, found, "PAYER_LIMIT_REACHED"))
}

/// pawaPay refunds a completed deposit only.
async fn request_refund(
    State(fake): State<Fake>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (AxumStatus, Json<Value>) {
    if !authorised(&headers) {
        return (AxumStatus::UNAUTHORIZED, Json(json!({})));
    }
    let id = body["refundId"].as_str().unwrap().to_owned();
    let deposit = body["depositId"].as_str().unwrap_or_default();
    let completed = fake.deposits.lock().unwrap().get(deposit).is_some_and(|(_, status)| status == "COMPLETED");
    if !completed {
        let reason = json!({"rejectionCode": "DEPOSIT_NOT_FOUND"});
        return (AxumStatus::OK, Json(json!({"refundId": id, "status": "REJECTED", "rejectionReason": reason})));
    }
    fake.refunds.lock().unwrap().insert(id.clone(), (body, "SUBMITTED".into()));
    (AxumStatus::OK, Json(json!({"refundId": id, "status": "ACCEPTED", "created": "2026-11-23T10:00:00Z"})))
}

async fn refund_status(
    State(fake): State<Fake>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> (AxumStatus, Json<Value>) {
    if !authorised(&headers) {
        return (AxumStatus::UNAUTHORIZED, Json(json!({})));
    }
    let found = fake.refunds.lock().unwrap().get(&id).map(|(_, status)| status.clone());
    (AxumStatus::OK, status_list("refundId", &id, found, "RECIPIENT_NOT_FOUND"))
}

/// pawaPay takes a payout (a repeat is ignored) and settles it later.
async fn request_payout(
    State(fake): State<Fake>,
    headers: HeaderMap,
    Json(body): Json<Value>,
) -> (AxumStatus, Json<Value>) {
    if !authorised(&headers) {
        return (AxumStatus::UNAUTHORIZED, Json(json!({})));
    }
    let id = body["payoutId"].as_str().unwrap().to_owned();
    let mut payouts = fake.payouts.lock().unwrap();
    if payouts.contains_key(&id) {
        return (AxumStatus::OK, Json(json!({"payoutId": id, "status": "DUPLICATE_IGNORED"})));
    }
    payouts.insert(id.clone(), (body, "SUBMITTED".into()));
    (AxumStatus::OK, Json(json!({"payoutId": id, "status": "ACCEPTED", "created": "2026-11-29T10:00:00Z"})))
}

async fn payout_status(
    State(fake): State<Fake>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> (AxumStatus, Json<Value>) {
    if !authorised(&headers) {
        return (AxumStatus::UNAUTHORIZED, Json(json!({})));
    }
    let found = fake.payouts.lock().unwrap().get(&id).map(|(_, status)| status.clone());
    (AxumStatus::OK, status_list("payoutId", &id, found, "RECIPIENT_NOT_FOUND"))
}

async fn fake_pawapay() -> (Fake, String) {
    let fake = Fake::default();
    let app = Router::new()
        .route("/deposits", post(request_deposit))
        .route("/deposits/{id}", get(deposit_status))
        .route("/refunds", post(request_refund))
        .route("/refunds/{id}", get(refund_status))
        .route("/payouts", post(request_payout))
        .route("/payouts/{id}", get(payout_status))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (fake, url)
}

struct Setup {
    app: TestApp,
    buyer: String,
    product: i64,
}

async fn setup(url: String) -> Setup {
    let app = spawn_with(|c| c.pawapay = Some(PawaPaySettings { url, token: TOKEN.into() })).await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let product = json!({"title": "Beans", "description": "Dry", "quantity": 40, "price": 2, "current_price": 2});
    let response = app.call(Method::POST, "/farmer/products", &farmer, Some(json!({"product": product}))).await;
    let product = response.json::<Value>().await.unwrap()["product"]["id"].as_i64().unwrap();
    Setup { app, buyer, product }
}

impl Setup {
    async fn order(&self, n: u32) -> i64 {
        let body = json!({"uid": uid(n), "delivery": "pickup", "payment_method": "mobile_money",
            "lines": [{"product_id": self.product, "quantity": 5, "unit_price_cents": 200}],
            "shipping": {"first_name": "Neema", "last_name": "Bahati", "email": "n@example.com", "phone": "+243990000001",
                         "address": "Avenue Lumumba 12", "city": "Bukavu", "country": "DRC"}});
        self.app.call(Method::POST, "/orders", &self.buyer, Some(body)).await.json::<Value>().await.unwrap()["data"]["id"]
            .as_i64()
            .unwrap()
    }

    async fn pay(&self, order: i64, phone: &str) -> Value {
        let body = json!({"operator": "AIRTEL_COD", "phone": phone});
        let response = self.app.call(Method::POST, &format!("/orders/{order}/payments"), &self.buyer, Some(body)).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        response.json::<Value>().await.unwrap()["data"].clone()
    }

    async fn status(&self, order: i64) -> Value {
        let all: Value = self
            .app
            .call(Method::GET, &format!("/orders/{order}/payments"), &self.buyer, None)
            .await
            .json()
            .await
            .unwrap();
        all["data"].as_array().unwrap().last().unwrap().clone()
    }

    async fn callback(&self, body: Value) -> reqwest::Response {
        self.app.client.post(self.app.api("/payments/callbacks/pawapay")).json(&body).send().await.unwrap()
    }
}

#[tokio::test]
async fn a_deposit_is_requested_as_pawapay_takes_it_and_settled_by_a_verified_callback() {
    let (fake, url) = fake_pawapay().await;
    let s = setup(url).await;
    let order = s.order(1).await;
    let payment = s.pay(order, "+243 970 000 001").await;
    assert_eq!(payment["status"], "pending");
    assert_eq!(payment["simulated"], false);
    let id = payment["id"].as_str().unwrap();
    let sent = fake.request(id);
    assert_eq!(
        (sent["amount"].as_str(), sent["currency"].as_str(), sent["correspondent"].as_str()),
        (Some("10.00"), Some("USD"), Some("AIRTEL_COD"))
    );
    assert_eq!(
        (sent["payer"]["type"].as_str(), sent["payer"]["address"]["value"].as_str()),
        (Some("MSISDN"), Some("243970000001"))
    );

    // A forged "COMPLETED" changes nothing: pawaPay still says SUBMITTED.
    let forged = s.callback(json!({"depositId": id, "status": "COMPLETED"})).await;
    assert_eq!(forged.status(), StatusCode::OK);
    assert_eq!(s.status(order).await["status"], "pending");
    // pawaPay completes it; its callback is checked with pawaPay and applied.
    fake.set(id, "COMPLETED");
    s.callback(json!({"depositId": id, "status": "COMPLETED"})).await;
    let paid = s.status(order).await;
    assert_eq!(
        (paid["status"].as_str(), paid["events"].as_array().unwrap().last().unwrap()["source"].as_str()),
        (Some("succeeded"), Some("callback"))
    );
    // A callback about a deposit pawaPay does not know is refused.
    let unknown = s.callback(json!({"depositId": "00000000-0000-4000-8000-000000000000", "status": "COMPLETED"})).await;
    assert_eq!(error_of(unknown, StatusCode::UNAUTHORIZED).await["code"], "callback_unverified");
}

#[tokio::test]
async fn status_checks_rejections_and_an_unreachable_pawapay() {
    let (fake, url) = fake_pawapay().await;
    let s = setup(url).await;
    // A failure found by the status check (its callback lost).
    let order = s.order(2).await;
    let id = s.pay(order, "+243970000001").await["id"].as_str().unwrap().to_owned();
    fake.set(&id, "FAILED");
    s.app.sql("UPDATE payments SET next_check_at = '2000-01-01T00:00:00Z'");
    mavuno::outbound::providers::poll_once(&s.app.state.db, &s.app.state.payments).await.unwrap();
    let failed = s.status(order).await;
    assert_eq!(
        (failed["status"].as_str(), failed["failure_reason"].as_str()),
        (Some("failed"), Some("payer_limit_reached"))
    );

    // Rejected at once.
    let rejected = s.order(3).await;
    assert_eq!(s.pay(rejected, "+243970000002").await["status"], "failed");

    // pawaPay unreachable: the payment stays pending, never failed.
    let down =
        spawn_with(|c| c.pawapay = Some(PawaPaySettings { url: "http://127.0.0.1:9".into(), token: TOKEN.into() }))
            .await;
    let farmer = down.user_with_role("amani@example.com", Role::Farmer).await;
    let buyer = down.user_with_role("buyer@example.com", Role::User).await;
    let product = json!({"title": "Beans", "description": "Dry", "quantity": 40, "price": 2, "current_price": 2});
    let product: Value = down
        .call(Method::POST, "/farmer/products", &farmer, Some(json!({"product": product})))
        .await
        .json()
        .await
        .unwrap();
    let unreachable = Setup { app: down, buyer, product: product["product"]["id"].as_i64().unwrap() };
    let order = unreachable.order(4).await;
    assert_eq!(unreachable.pay(order, "+243970000001").await["status"], "pending");
}

#[tokio::test]
async fn a_course_refund_is_asked_of_pawapay_and_settled_by_its_status_check() {
    let (fake, url) = fake_pawapay().await;
    let s = setup(url).await;
    let admin = crate::courses::admin(&s.app).await;
    let mut fields = crate::courses::fields("Coffee certification", "certification", "intermediate");
    fields["price"] = json!(29.99);
    let course = s.app.course(&admin, fields).await;
    let path = format!("/courses/{}/payments", course.id);
    let content = format!("/courses/{}/content", course.id);
    let pay = |phone: &'static str| {
        let body = json!({"operator": "AIRTEL_COD", "phone": phone});
        s.app.ok(Method::POST, &path, &s.buyer, Some(body))
    };
    let (app, admin_token) = (&s.app, admin.as_str());
    let refund = move |payment: String| async move {
        app.call(Method::POST, &format!("/admin/payments/{payment}/refund"), admin_token, None).await
    };
    let check = || async {
        s.app.sql("UPDATE payments SET next_check_at = '2000-01-01T00:00:00Z'");
        s.app.sql("UPDATE refunds SET next_check_at = '2000-01-01T00:00:00Z'");
        mavuno::outbound::providers::poll_once(&s.app.state.db, &s.app.state.payments).await.unwrap();
    };

    let deposit = pay("+243970000001").await["data"]["id"].as_str().unwrap().to_owned();
    assert_eq!(fake.request(&deposit)["amount"], "29.99");
    fake.set(&deposit, "COMPLETED");
    check().await;
    assert_eq!(s.app.get(&content, Some(&s.buyer)).await.status(), StatusCode::OK);

    // Refused by the operator: the refund fails, the learner keeps the course; tried again, it goes through.
    let first = refund(deposit.clone()).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    let first = first.json::<Value>().await.unwrap()["data"].clone();
    assert_eq!(first["status"], "pending");
    let first_id = first["id"].as_str().unwrap();
    let asked = fake.refunds.lock().unwrap()[first_id].0.clone();
    assert_eq!(asked, json!({"refundId": first_id, "depositId": deposit, "amount": "29.99"}));
    fake.set_refund(first_id, "FAILED");
    check().await;
    let purchases =
        s.app.ok(Method::GET, &format!("/admin/courses/{}/purchases", course.id), &admin, None).await["data"][0]
            .clone();
    assert_eq!(
        (purchases["refund"]["status"].as_str(), purchases["refund"]["failure_reason"].as_str()),
        (Some("failed"), Some("recipient_not_found"))
    );
    assert_eq!(s.app.get(&content, Some(&s.buyer)).await.status(), StatusCode::OK);

    let second =
        refund(deposit.clone()).await.json::<Value>().await.unwrap()["data"]["id"].as_str().unwrap().to_owned();
    assert_ne!(second, first_id);
    check().await;
    assert_eq!(s.app.get(&content, Some(&s.buyer)).await.status(), StatusCode::OK, "pending: still enrolled");
    fake.set_refund(&second, "COMPLETED");
    check().await;
    assert_eq!(s.app.get(&content, Some(&s.buyer)).await.status(), StatusCode::FORBIDDEN);
}

#[tokio::test]
async fn large_repeated_callbacks_keep_little_and_ask_pawapay_little() {
    use std::sync::atomic::Ordering::SeqCst;
    let (fake, url) = fake_pawapay().await;
    let s = setup(url).await;
    let padding = "x".repeat(60_000);
    let rows = |app: &TestApp| -> (i64, i64) {
        let conn = app.database();
        conn.query_row("SELECT COUNT(*), COALESCE(MAX(LENGTH(body)), 0) FROM payment_callbacks", [], |r| {
            Ok((r.get(0)?, r.get(1)?))
        })
        .unwrap()
    };

    // A payment under way: each callback is checked with pawaPay, ten an hour for one payment.
    let pending = s.pay(s.order(5).await, "+243970000001").await["id"].as_str().unwrap().to_owned();
    // The status checks of the poller wait: only callbacks ask pawaPay here.
    s.app.sql("UPDATE payments SET next_check_at = '2999-01-01T00:00:00Z'");
    let before = fake.status_reads.load(SeqCst);
    // Thirty at once: each is counted before pawaPay is asked.
    let callbacks =
        (0..30).map(|_| s.callback(json!({"depositId": pending, "status": "COMPLETED", "metadata": padding})));
    let mut refused = 0;
    for response in futures_util::future::join_all(callbacks).await {
        if response.status() == StatusCode::TOO_MANY_REQUESTS {
            assert_eq!(error_of(response, StatusCode::TOO_MANY_REQUESTS).await["code"], "too_many_callbacks");
            refused += 1;
        }
    }
    assert_eq!(refused, 20, "ten checks an hour for one payment");
    assert_eq!(fake.status_reads.load(SeqCst) - before, 10, "pawaPay asked ten times, not thirty");
    let (count, longest) = rows(&s.app);
    assert_eq!(count, 10);
    assert!(longest <= 2048, "the first 2 KB of each: {longest}");

    // A settled payment: repeats are answered without asking pawaPay, and not kept.
    let paid = s.pay(s.order(6).await, "+243970000001").await["id"].as_str().unwrap().to_owned();
    s.app.sql("UPDATE payments SET next_check_at = '2999-01-01T00:00:00Z'");
    fake.set(&paid, "COMPLETED");
    let first: Value = s.callback(json!({"depositId": paid, "status": "COMPLETED"})).await.json().await.unwrap();
    assert_eq!(first["effect"], "applied");
    let asked = fake.status_reads.load(SeqCst);
    for _ in 0..9 {
        let again: Value = s
            .callback(json!({"depositId": paid, "status": "COMPLETED", "metadata": padding}))
            .await
            .json()
            .await
            .unwrap();
        assert_eq!(again["effect"], "duplicate");
    }
    assert_eq!(fake.status_reads.load(SeqCst), asked, "a settled payment's repeats ask nobody");
    assert_eq!(rows(&s.app).0, 11);
}

#[tokio::test]
async fn a_members_payout_is_sent_as_pawapay_takes_it_and_settled_by_its_status_check() {
    let (fake, url) = fake_pawapay().await;
    let app = spawn_with(|c| {
        c.pawapay = Some(PawaPaySettings { url, token: TOKEN.into() });
        c.gateway_token = Some(crate::ussd::TOKEN.into());
    })
    .await;
    let c = crate::cooperatives::Coop::on(app).await;
    c.with_shares(40).await;
    let sent = c.pay(1, json!({"method": "mobile_money", "operator": "AIRTEL_COD", "phone": "+243 970 000 003"})).await;
    assert_eq!(sent.status(), StatusCode::CREATED);
    let payout = sent.json::<Value>().await.unwrap()["data"].clone();
    assert_eq!(payout["status"], "pending", "pawaPay accepted it; it is not paid yet");
    let id = payout["uid"].as_str().unwrap();
    let asked = fake.payouts.lock().unwrap()[id].0.clone();
    assert_eq!(
        (asked["amount"].as_str(), asked["currency"].as_str(), asked["correspondent"].as_str()),
        (Some("39.00"), Some("USD"), Some("AIRTEL_COD"))
    );
    assert_eq!(
        (asked["recipient"]["type"].as_str(), asked["recipient"]["address"]["value"].as_str()),
        (Some("MSISDN"), Some("243970000003"))
    );
    assert_eq!(c.account().await["pending_cents"], 3900);
    // A failure found by the status check: nothing was paid, it is owed again.
    fake.payouts.lock().unwrap().get_mut(id).unwrap().1 = "FAILED".into();
    let check = || async {
        c.app.sql("UPDATE cooperative_payouts SET next_check_at = '2000-01-01T00:00:00Z' WHERE status = 'pending'");
        mavuno::outbound::providers::poll_once(&c.app.state.db, &c.app.state.payments).await.unwrap();
    };
    check().await;
    let account = c.account().await;
    assert_eq!((account["pending_cents"].as_i64(), account["owed_cents"].as_i64()), (Some(0), Some(3900)));
    // Paid again: pawaPay completes it.
    let second = c.pay(2, json!({"method": "mobile_money", "operator": "AIRTEL_COD"})).await;
    let second = second.json::<Value>().await.unwrap()["data"]["uid"].as_str().unwrap().to_owned();
    assert_eq!(
        fake.payouts.lock().unwrap()[&second].0["recipient"]["address"]["value"],
        "243990000101",
        "the member's own number"
    );
    fake.payouts.lock().unwrap().get_mut(&second).unwrap().1 = "COMPLETED".into();
    check().await;
    let account = c.account().await;
    assert_eq!((account["paid_cents"].as_i64(), account["owed_cents"].as_i64()), (Some(3900), Some(0)));
    assert!(c.app.sms_bodies().last().unwrap().1.contains("39,00 USD"));
}
