//! Mobile-money payments through the simulator (docs/payments.md): every
//! test number's behaviour, callbacks verified and idempotent, the status
//! checks that settle what callbacks did not, expiry, and the stock an
//! unpaid order gives back.

use std::time::Duration;

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::uid;

struct Shop {
    app: TestApp,
    buyer: String,
    product: i64,
}

async fn shop() -> Shop {
    let app = spawn_with(|c| c.simulator_delay = Duration::from_millis(50)).await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let product =
        json!({"title": "Tomatoes", "description": "Ripe", "quantity": 50, "price": 2.5, "current_price": 2.5});
    let response = app.call(Method::POST, "/farmer/products", &farmer, Some(json!({"product": product}))).await;
    let product = response.json::<Value>().await.unwrap()["product"]["id"].as_i64().unwrap();
    Shop { app, buyer, product }
}

impl Shop {
    /// A mobile-money order of 4 kg (10.00 + 5.00 shipping); answers its id.
    async fn order(&self, n: u32, method: &str) -> i64 {
        let body = json!({"uid": uid(n), "delivery": "delivery", "payment_method": method,
            "lines": [{"product_id": self.product, "quantity": 4, "unit_price_cents": 250}],
            "shipping": {"first_name": "Neema", "last_name": "Bahati", "email": "n@example.com", "phone": "+243990000001",
                         "address": "Avenue Lumumba 12", "city": "Bukavu", "country": "DRC"}});
        let response = self.app.call(Method::POST, "/orders", &self.buyer, Some(body)).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        response.json::<Value>().await.unwrap()["data"]["id"].as_i64().unwrap()
    }

    async fn pay(&self, order: i64, phone: &str) -> reqwest::Response {
        let body = json!({"operator": "AIRTEL_COD", "phone": phone});
        self.app.call(Method::POST, &format!("/orders/{order}/payments"), &self.buyer, Some(body)).await
    }

    async fn payments(&self, order: i64) -> Value {
        self.app.call(Method::GET, &format!("/orders/{order}/payments"), &self.buyer, None).await.json().await.unwrap()
    }

    /// Waits (at most 5 s) until the order's latest payment is `status`.
    async fn until(&self, order: i64, status: &str) -> Value {
        for _ in 0..100 {
            let all = self.payments(order).await;
            let latest = all["data"].as_array().unwrap().last().cloned().unwrap_or_default();
            if latest["status"] == status {
                return latest;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the payment of order {order} never became {status}: {}", self.payments(order).await);
    }

    async fn stock(&self) -> i64 {
        let product: Value = self.app.get(&format!("/products/{}", self.product), None).await.json().await.unwrap();
        product["data"]["quantity"].as_i64().unwrap()
    }

    fn callbacks(&self) -> Vec<(String, bool)> {
        let conn = self.app.database();
        let mut stmt = conn.prepare("SELECT effect, verified FROM payment_callbacks ORDER BY id").unwrap();
        stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().collect::<Result<_, _>>().unwrap()
    }
}

#[tokio::test]
async fn a_payment_approved_on_the_phone_is_settled_by_its_callback() {
    let s = shop().await;
    let order = s.order(1, "mobile_money").await;
    let started = s.pay(order, "+243 990 000 001").await;
    assert_eq!(started.status(), StatusCode::CREATED);
    let payment: Value = started.json().await.unwrap();
    assert_eq!(
        (payment["data"]["status"].as_str(), payment["data"]["amount_cents"].as_i64()),
        (Some("pending"), Some(1500))
    );
    assert_eq!(payment["data"]["simulated"], true, "the simulator's payments say no real money moved");
    // Asking again while it is under way answers the same payment.
    let again = s.pay(order, "+243990000001").await;
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(again.json::<Value>().await.unwrap()["data"]["id"], payment["data"]["id"]);

    let settled = s.until(order, "succeeded").await;
    let steps: Vec<(&str, &str)> = settled["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["status"].as_str().unwrap(), e["source"].as_str().unwrap()))
        .collect();
    assert_eq!(steps, [("initiating", "start"), ("pending", "start"), ("succeeded", "callback")]);
    let seen: Value = s.app.call(Method::GET, &format!("/orders/{order}"), &s.buyer, None).await.json().await.unwrap();
    assert_eq!(
        (seen["data"]["payment_status"].as_str(), seen["data"]["status"].as_str()),
        (Some("succeeded"), Some("processing"))
    );
    assert_eq!(error_of(s.pay(order, "+243990000001").await, StatusCode::CONFLICT).await["code"], "already_paid");
}

#[tokio::test]
async fn a_refused_payment_keeps_the_order_for_a_while_then_gives_the_stock_back() {
    let s = shop().await;
    for (n, phone, reason) in [(2, "+243990000002", "insufficient_funds"), (3, "+243990000003", "declined")] {
        let order = s.order(n, "mobile_money").await;
        assert_eq!(s.stock().await, 46);
        assert_eq!(s.pay(order, phone).await.status(), StatusCode::CREATED);
        let failed = s.until(order, "failed").await;
        assert_eq!(failed["failure_reason"], reason);
        assert_eq!(s.stock().await, 46, "the order keeps its stock, to pay again or on delivery");
        let seen: Value =
            s.app.call(Method::GET, &format!("/orders/{order}"), &s.buyer, None).await.json().await.unwrap();
        assert_eq!(
            (seen["data"]["status"].as_str(), seen["data"]["payment_status"].as_str()),
            (Some("processing"), Some("failed"))
        );
        assert!(
            seen["data"]["unpaid_until"].as_str().is_some_and(|until| until > failed["created_at"].as_str().unwrap())
        );

        // Nobody pays within the grace: the clock has moved on, and the poller lets the stock go.
        s.app.sql(&format!("UPDATE payments SET updated_at = '{}' WHERE status = 'failed'", minutes_ago(31)));
        mavuno::outbound::providers::poll_once(&s.app.state.db, &s.app.state.payments).await.unwrap();
        assert_eq!(s.stock().await, 50, "the order let its stock go");
        let seen: Value =
            s.app.call(Method::GET, &format!("/orders/{order}"), &s.buyer, None).await.json().await.unwrap();
        assert_eq!(seen["data"]["status"], "cancelled");
        assert!(seen["data"]["unpaid_until"].is_null());
        assert_eq!(
            error_of(s.pay(order, "+243990000001").await, StatusCode::CONFLICT).await["code"],
            "order_cancelled"
        );
    }
}

#[tokio::test]
async fn after_a_refusal_the_buyer_pays_again_or_on_delivery() {
    let s = shop().await;
    // Paying again: a new payment, approved.
    let again = s.order(4, "mobile_money").await;
    s.pay(again, "+243990000002").await;
    s.until(again, "failed").await;
    assert_eq!(s.pay(again, "+243990000001").await.status(), StatusCode::CREATED, "a new payment after a refusal");
    s.until(again, "succeeded").await;

    // On delivery instead: the order goes on as cash on delivery, with its stock.
    let cash = s.order(5, "mobile_money").await;
    s.pay(cash, "+243990000003").await;
    s.until(cash, "failed").await;
    let stranger = s.app.user_with_role("other@example.com", mavuno::model::user::Role::User).await;
    let path = format!("/orders/{cash}/cash-on-delivery");
    assert_eq!(s.app.call(Method::POST, &path, &stranger, None).await.status(), StatusCode::NOT_FOUND);
    let switched = s.app.call(Method::POST, &path, &s.buyer, None).await;
    assert_eq!(switched.status(), StatusCode::OK);
    let order: Value = switched.json().await.unwrap();
    assert_eq!(
        (order["data"]["payment_method"].as_str(), order["data"]["status"].as_str()),
        (Some("cash_on_delivery"), Some("processing"))
    );
    assert!(order["data"]["unpaid_until"].is_null());
    assert!(order["data"]["events"].as_array().unwrap().iter().any(|e| e["kind"] == "pay_on_delivery"), "{order}");
    assert_eq!(
        error_of(s.app.call(Method::POST, &path, &s.buyer, None).await, StatusCode::CONFLICT).await["code"],
        "not_mobile_money"
    );
    assert_eq!(error_of(s.pay(cash, "+243990000001").await, StatusCode::CONFLICT).await["code"], "not_mobile_money");
    // Past the grace, an order paid on delivery is not released.
    s.app.sql(&format!("UPDATE payments SET updated_at = '{}'", minutes_ago(31)));
    mavuno::outbound::providers::poll_once(&s.app.state.db, &s.app.state.payments).await.unwrap();
    let kept: Value = s.app.call(Method::GET, &format!("/orders/{cash}"), &s.buyer, None).await.json().await.unwrap();
    assert_eq!(kept["data"]["status"], "processing");
    // A paid order cannot switch.
    let paid = format!("/orders/{again}/cash-on-delivery");
    assert_eq!(
        error_of(s.app.call(Method::POST, &paid, &s.buyer, None).await, StatusCode::CONFLICT).await["code"],
        "already_paid"
    );
}

#[tokio::test]
async fn lost_and_duplicate_callbacks_and_silence_are_settled_by_checks_and_the_clock() {
    let s = shop().await;
    // 4: approved, but no callback ever comes; the status check finds it.
    let lost = s.order(4, "mobile_money").await;
    s.pay(lost, "+243990000004").await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(s.payments(lost).await["data"][0]["status"], "pending");
    s.app.sql("UPDATE payments SET next_check_at = '2000-01-01T00:00:00Z'");
    mavuno::outbound::providers::poll_once(&s.app.state.db, &s.app.state.payments).await.unwrap();
    let found = s.until(lost, "succeeded").await;
    assert_eq!(found["events"].as_array().unwrap().last().unwrap()["source"], "check");

    // 5: the callback arrives twice; the second changes nothing.
    let twice = s.order(5, "mobile_money").await;
    s.pay(twice, "+243990000005").await;
    s.until(twice, "succeeded").await;
    // The second arrives about a payment already settled: answered without asking
    // anyone, and not kept (issue 35).
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(s.callbacks(), [("applied".to_owned(), true)]);

    // 6: approved, slowly (ten times the prompt's delay).
    let slow = s.order(6, "mobile_money").await;
    s.pay(slow, "+243990000006").await;
    tokio::time::sleep(Duration::from_millis(150)).await;
    assert_eq!(s.payments(slow).await["data"][0]["status"], "pending", "not yet");
    s.until(slow, "succeeded").await;

    // 7: nobody answers; once the window is over the payment expires and the order lets go.
    let silent = s.order(7, "mobile_money").await;
    s.pay(silent, "+243990000007").await;
    s.app.sql("UPDATE payments SET next_check_at = '2000-01-01T00:00:00Z', expires_at = '2000-01-01T00:00:00Z' WHERE status = 'pending'");
    mavuno::outbound::providers::poll_once(&s.app.state.db, &s.app.state.payments).await.unwrap();
    let expired = s.until(silent, "expired").await;
    assert_eq!(expired["events"].as_array().unwrap().last().unwrap()["source"], "expiry");
    assert_eq!(s.stock().await, 34, "the expired order keeps its 4 kg a while, to pay again or on delivery");
    s.app.sql(&format!("UPDATE payments SET updated_at = '{}' WHERE status = 'expired'", minutes_ago(31)));
    mavuno::outbound::providers::poll_once(&s.app.state.db, &s.app.state.payments).await.unwrap();
    assert_eq!(s.stock().await, 38, "three paid orders hold 12 kg; the expired one gave its 4 back");

    // A forged callback is refused and kept as it came.
    let forged = s
        .app
        .client
        .post(s.app.api("/payments/callbacks/simulator"))
        .header("x-simulator-signature", "00")
        .body(r#"{"payment_id":"x","status":"succeeded"}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(forged, StatusCode::UNAUTHORIZED).await["code"], "callback_unverified");
    assert_eq!(s.callbacks().last().unwrap(), &("unverified".to_owned(), false));
}

#[tokio::test]
async fn in_the_demo_an_admin_answers_the_prompt_a_phone_would_show() {
    let s = shop().await;
    let admin = s.app.user_with_role("admin@example.com", Role::Admin).await;
    let order = s.order(8, "mobile_money").await;
    let payment: Value = s.pay(order, "+243990000008").await.json().await.unwrap();
    let id = payment["data"]["id"].as_str().unwrap().to_owned();
    let waiting: Value = s.app.call(Method::GET, "/admin/payments/prompts", &admin, None).await.json().await.unwrap();
    assert_eq!(waiting["data"][0]["payment_id"], id);
    assert_eq!(waiting["data"][0]["amount_cents"], 1500);
    assert_eq!(
        s.app.call(Method::GET, "/admin/payments/prompts", &s.buyer, None).await.status(),
        StatusCode::FORBIDDEN
    );
    let answered = s
        .app
        .call(Method::POST, &format!("/admin/payments/prompts/{id}"), &admin, Some(json!({"approve": true})))
        .await;
    assert_eq!(answered.status(), StatusCode::OK);
    s.until(order, "succeeded").await;
    // The admin's order list filters by where the payment stands.
    let paid: Value =
        s.app.call(Method::GET, "/admin/orders?payment=succeeded", &admin, None).await.json().await.unwrap();
    assert_eq!(paid["data"][0]["id"].as_i64(), Some(order));
    let unpaid: Value =
        s.app.call(Method::GET, "/admin/orders?payment=unpaid", &admin, None).await.json().await.unwrap();
    assert_eq!(unpaid["total"], 0);
    let twice = s
        .app
        .call(Method::POST, &format!("/admin/payments/prompts/{id}"), &admin, Some(json!({"approve": false})))
        .await;
    assert_eq!(error_of(twice, StatusCode::NOT_FOUND).await["code"], "prompt_not_found");
}

#[tokio::test]
async fn only_the_buyer_pays_a_mobile_money_order_with_an_operator_of_its_country() {
    let s = shop().await;
    let congo: Value = s.app.get("/payments/operators?country=DRC", None).await.json().await.unwrap();
    let ids: Vec<&str> = congo["data"].as_array().unwrap().iter().map(|o| o["id"].as_str().unwrap()).collect();
    assert_eq!(ids, ["VODACOM_MPESA_COD", "AIRTEL_COD", "ORANGE_COD"]);
    assert_eq!(s.app.get("/payments/operators?country=FRA", None).await.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let cash = s.order(9, "cash_on_delivery").await;
    assert_eq!(error_of(s.pay(cash, "+243990000001").await, StatusCode::CONFLICT).await["code"], "not_mobile_money");
    let order = s.order(10, "mobile_money").await;
    let kenyan = s
        .app
        .call(
            Method::POST,
            &format!("/orders/{order}/payments"),
            &s.buyer,
            Some(json!({"operator": "NOT_AN_OPERATOR", "phone": "+254700000001"})),
        )
        .await;
    assert_eq!(
        error_of(kenyan, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["operator"][0],
        "operator_invalid"
    );
    assert_eq!(
        error_of(s.pay(order, "12").await, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["phone"][0],
        "phone_invalid"
    );
    // A 099 number is Airtel's in the DRC: Vodacom would not find its wallet.
    let astray = s
        .app
        .call(
            Method::POST,
            &format!("/orders/{order}/payments"),
            &s.buyer,
            Some(json!({"operator": "VODACOM_MPESA_COD", "phone": "0990000001"})),
        )
        .await;
    assert_eq!(
        error_of(astray, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["operator"][0],
        "operator_not_of_number"
    );
    // Free products (a price of 0 is allowed) leave nothing to collect.
    s.app.sql(&format!("UPDATE products SET current_price_cents = 0 WHERE id = {}", s.product));
    let free = s
        .app
        .call(
            Method::POST,
            "/orders",
            &s.buyer,
            Some(json!({"uid": uid(11), "delivery": "pickup", "payment_method": "mobile_money",
            "lines": [{"product_id": s.product, "quantity": 1, "unit_price_cents": 0}],
            "shipping": {"first_name": "N", "last_name": "B", "email": "n@example.com", "phone": "+243990000001",
                         "address": "A", "city": "Bukavu", "country": "DRC"}})),
        )
        .await;
    let free = free.json::<Value>().await.unwrap()["data"]["id"].as_i64().unwrap();
    assert_eq!(error_of(s.pay(free, "+243990000001").await, StatusCode::CONFLICT).await["code"], "nothing_to_pay");
    let stranger = s.app.user_with_role("other@example.com", Role::User).await;
    let theirs = s
        .app
        .call(
            Method::POST,
            &format!("/orders/{order}/payments"),
            &stranger,
            Some(json!({"operator": "AIRTEL_COD", "phone": "+243990000001"})),
        )
        .await;
    assert_eq!(error_of(theirs, StatusCode::NOT_FOUND).await["code"], "order_not_found");
}

fn minutes_ago(minutes: u64) -> String {
    mavuno::platform::clock::before_now(std::time::Duration::from_secs(minutes * 60))
}
