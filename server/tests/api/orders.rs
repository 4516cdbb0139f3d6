//! Placing orders and moving them along (docs/orders.md): the checks against
//! the catalogue, idempotent placement through REST and sync, stock
//! reserved under concurrency, one part per farmer, and who may move a part.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::{CLIENT_A, mutation, uid};

/// A marketplace with two farmers: tomatoes (2.50, 50 kg, shipping 5.00) and
/// beans (1.20, 20 kg, min 2, max 10) from Amani; avocados (0.80, 30 pieces,
/// shipping 3.00) from Esther.
struct Market {
    app: TestApp,
    amani: String,
    esther: String,
    buyer: String,
    tomatoes: i64,
    beans: i64,
    avocados: i64,
}

impl TestApp {
    pub async fn listed(&self, token: &str, product: Value) -> i64 {
        let response = self.call(Method::POST, "/farmer/products", token, Some(json!({"product": product}))).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        response.json::<Value>().await.unwrap()["product"]["id"].as_i64().unwrap()
    }

    async fn stock(&self, id: i64) -> i64 {
        let product: Value = self.get(&format!("/products/{id}"), None).await.json().await.unwrap();
        product["data"]["quantity"].as_i64().unwrap()
    }

    pub async fn place(&self, token: &str, order: Value) -> reqwest::Response {
        self.call(Method::POST, "/orders", token, Some(order)).await
    }

    /// The (subject, body) of every email written to `to`, oldest first.
    fn emails_to(&self, to: &str) -> Vec<(String, String)> {
        let conn = self.database();
        let mut stmt = conn.prepare("SELECT subject, body FROM email_outbox WHERE to_email = ?1 ORDER BY id").unwrap();
        stmt.query_map([to], |r| Ok((r.get(0)?, r.get(1)?))).unwrap().collect::<Result<_, _>>().unwrap()
    }

    async fn review(&self, token: &str, product: i64, body: Value) -> reqwest::Response {
        self.call(Method::PUT, &format!("/products/{product}/review"), token, Some(body)).await
    }

    pub async fn patch_part(&self, token: &str, order: i64, part: i64, body: Value) -> reqwest::Response {
        self.call(Method::PATCH, &format!("/orders/{order}/parts/{part}"), token, Some(body)).await
    }
}

async fn market() -> Market {
    let app = spawn_app().await;
    let amani = app.user_with_role("amani@example.com", Role::Farmer).await;
    let esther = app.user_with_role("esther@example.com", Role::Farmer).await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let tomatoes = app
        .listed(&amani, json!({"title": "Tomatoes", "title_fr": "Tomates", "description": "Ripe", "quantity": 50, "price": 3, "current_price": 2.5, "shipping_cost": 5}))
        .await;
    let beans = app
        .listed(
            &amani,
            json!({"title": "Beans", "description": "Dry", "quantity": 20, "price": 1.2, "current_price": 1.2,
                               "min_order": 2, "max_order": 10, "shipping_cost": 2}),
        )
        .await;
    let avocados = app
        .listed(
            &esther,
            json!({"title": "Avocados", "title_sw": "Parachichi", "description": "Hass", "quantity": 30, "price": 1, "current_price": 0.8,
                                "unit": "piece", "shipping_cost": 3}),
        )
        .await;
    Market { app, amani, esther, buyer, tomatoes, beans, avocados }
}

fn address() -> Value {
    json!({"first_name": "Neema", "last_name": "Bahati", "email": "neema@example.com", "phone": "+243990000001",
           "address": "Avenue Lumumba 12", "city": "Bukavu", "postal_code": "", "country": "DRC"})
}

pub fn order(n: u32, lines: Value) -> Value {
    json!({"uid": uid(n), "lines": lines, "delivery": "delivery", "payment_method": "cash_on_delivery", "shipping": address()})
}

pub fn line(product_id: i64, quantity: i64, unit_price_cents: i64) -> Value {
    json!({"product_id": product_id, "quantity": quantity, "unit_price_cents": unit_price_cents})
}

#[tokio::test]
async fn an_order_is_split_per_farmer_with_the_carts_shipping_and_reserves_stock() {
    let m = market().await;
    m.app.sql("UPDATE users SET country = 'KEN' WHERE email = 'esther@example.com'");
    // The buyer and Esther have phone numbers; Esther turned SMS updates off.
    m.app.sql(
        "UPDATE users SET phone_number = '+243990000111' WHERE email = 'buyer@example.com';
         UPDATE users SET phone_number = '+254700000222', sms_updates = 0 WHERE email = 'esther@example.com';",
    );
    let response = m
        .app
        .place(&m.buyer, order(1, json!([line(m.tomatoes, 4, 250), line(m.beans, 2, 120), line(m.avocados, 5, 80)])))
        .await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let placed = response.json::<Value>().await.unwrap()["data"].clone();
    // 4 × 2.50 + 2 × 1.20 + 5 × 0.80 = 16.40; Amani ships once at her highest (5.00), Esther 3.00.
    assert_eq!(
        (placed["subtotal_cents"].as_i64(), placed["shipping_cents"].as_i64(), placed["total_cents"].as_i64()),
        (Some(1640), Some(800), Some(2440))
    );
    assert_eq!(placed["status"], "processing");
    let parts = placed["parts"].as_array().unwrap();
    assert_eq!(parts.len(), 2);
    assert_eq!(parts[0]["lines"].as_array().unwrap().len(), 2);
    let tomatoes = &parts[0]["lines"][0];
    assert_eq!(
        (&tomatoes["title"], &tomatoes["title_fr"], &tomatoes["title_sw"]),
        (&json!("Tomatoes"), &json!("Tomates"), &Value::Null),
        "the line keeps the names the product had"
    );
    assert_eq!(parts[0]["shipping_cents"], 500);
    assert_eq!(parts[1]["lines"][0]["product_id"].as_i64(), Some(m.avocados));
    assert_eq!((m.app.stock(m.tomatoes).await, m.app.stock(m.avocados).await), (46, 25));

    // Everyone is written to in their language: the buyer and Amani (Congo) in
    // French, Esther (Kenya, changed below before the order) in Kiswahili.
    let number = placed["id"].as_i64().unwrap();
    let buyer_mail = m.app.emails_to("buyer@example.com");
    assert_eq!(buyer_mail.len(), 1);
    assert_eq!(buyer_mail[0].0, format!("Votre commande MAVUNO n° {number}"));
    // Each line in the reader's language, as the marketplace named it (the farmer's names).
    // Amounts written as French writes them (a decimal comma), as the app shows them.
    assert!(buyer_mail[0].1.contains("- Tomates × 4 kg: 10,00 USD"), "{}", buyer_mail[0].1);
    assert!(buyer_mail[0].1.contains("24,40 USD") && buyer_mail[0].1.contains("Paiement à la livraison"));
    assert_eq!(m.app.emails_to("amani@example.com")[0].0, format!("Nouvelle commande n° {number} sur MAVUNO"));
    let esther_mail = m.app.emails_to("esther@example.com");
    assert_eq!(esther_mail[0].0, format!("Oda mpya #{number} kwenye MAVUNO"));
    assert!(esther_mail[0].1.contains("Avenue Lumumba 12, Bukavu"), "{}", esther_mail[0].1);
    assert!(esther_mail[0].1.contains("- Parachichi × 5"), "{}", esther_mail[0].1);
    assert!(!esther_mail[0].1.contains("Tomat"), "a farmer reads their own lines only");
    let texts = m.app.sms_bodies();
    let placed_text =
        format!("MAVUNO: Test, votre commande no {number} de 24,40 USD est passée. Suivez-la dans l'application.");
    assert_eq!(texts, [("+243990000111".to_owned(), placed_text)], "Amani has no number; Esther said no");

    // Each farmer sees the delivery details and their own part only.
    let theirs: Value = m.app.call(Method::GET, "/orders", &m.esther, None).await.json().await.unwrap();
    let seen = &theirs["data"][0];
    assert_eq!(seen["parts"].as_array().unwrap().len(), 1);
    assert_eq!((seen["total_cents"].as_i64(), seen["shipping_address"]["city"].as_str()), (Some(700), Some("Bukavu")));
    // Nobody else sees it at all.
    let stranger = m.app.user_with_role("other@example.com", Role::User).await;
    let id = placed["id"].as_i64().unwrap();
    let response = m.app.call(Method::GET, &format!("/orders/{id}"), &stranger, None).await;
    assert_eq!(error_of(response, StatusCode::NOT_FOUND).await["code"], "order_not_found");
}

#[tokio::test]
async fn a_changed_price_short_stock_limits_or_an_off_sale_product_place_nothing_and_say_which_lines() {
    let m = market().await;
    // Amani raises the price of tomatoes while the buyer was offline.
    let raised = m
        .app
        .call(
            Method::PATCH,
            &format!("/farmer/products/{}", m.tomatoes),
            &m.amani,
            Some(json!({"product": {"current_price": 2.8}})),
        )
        .await;
    assert_eq!(raised.status(), StatusCode::OK);
    let response = m
        .app
        .place(&m.buyer, order(2, json!([line(m.tomatoes, 4, 250), line(m.beans, 11, 120), line(m.avocados, 31, 80)])))
        .await;
    let error = error_of(response, StatusCode::CONFLICT).await;
    assert_eq!(error["code"], "order_changed");
    let reasons: Vec<(i64, &str)> = error["details"]["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["product_id"].as_i64().unwrap(), l["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(reasons, [(m.tomatoes, "price_changed"), (m.beans, "above_max_order"), (m.avocados, "short_stock")]);
    assert_eq!(error["details"]["lines"][0]["price_cents"], 280);
    assert_eq!((m.app.stock(m.tomatoes).await, m.app.stock(m.beans).await), (50, 20), "nothing reserved");

    let below = m.app.place(&m.buyer, order(3, json!([line(m.beans, 1, 120)]))).await;
    assert_eq!(error_of(below, StatusCode::CONFLICT).await["details"]["lines"][0]["reason"], "below_min_order");

    m.app.sql(&format!("UPDATE products SET status = 'inactive' WHERE id = {}", m.avocados));
    let off = m.app.place(&m.buyer, order(4, json!([line(m.avocados, 1, 80)]))).await;
    assert_eq!(error_of(off, StatusCode::CONFLICT).await["details"]["lines"][0]["reason"], "off_sale");

    // A farmer who is no longer active takes their products off sale too.
    m.app.sql("UPDATE users SET status = 'inactive' WHERE email = 'amani@example.com'");
    let inactive = m.app.place(&m.buyer, order(5, json!([line(m.beans, 2, 120)]))).await;
    assert_eq!(error_of(inactive, StatusCode::CONFLICT).await["details"]["lines"][0]["reason"], "off_sale");
}

#[tokio::test]
async fn the_checkout_form_is_checked_in_order() {
    let m = market().await;
    let mut bad = order(6, json!([]));
    bad["payment_method"] = json!("card");
    bad["shipping"] = json!({"email": "not-an-email", "country": "FRA"});
    let error = error_of(m.app.place(&m.buyer, bad).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    let codes: Vec<&str> = error["error_codes"]
        .as_object()
        .unwrap()
        .values()
        .flat_map(|v| v.as_array().unwrap())
        .map(|c| c.as_str().unwrap())
        .collect();
    assert_eq!(
        codes,
        [
            "payment_method_invalid",
            "cart_empty",
            "first_name_required",
            "last_name_required",
            "email_invalid",
            "phone_required",
            "address_required",
            "city_required",
            "country_required"
        ]
    );
    let own = m.app.place(&m.amani, order(7, json!([line(m.tomatoes, 1, 250)]))).await;
    assert_eq!(error_of(own, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["lines"][0], "own_product");
}

#[tokio::test]
async fn the_same_order_sent_twice_through_rest_or_sync_is_one_order() {
    let m = market().await;
    let first = m.app.place(&m.buyer, order(8, json!([line(m.tomatoes, 3, 250)]))).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    let again = m.app.place(&m.buyer, order(8, json!([line(m.tomatoes, 3, 250)]))).await;
    assert_eq!(again.status(), StatusCode::OK);
    assert_eq!(m.app.stock(m.tomatoes).await, 47);

    // Offline: the phone queues order.place; the answer is lost and it is sent again.
    let queued = mutation(1, "order.place", order(9, json!([line(m.avocados, 2, 80)])), None);
    let answer = m.app.push_ok(&m.buyer, CLIENT_A, vec![queued.clone()]).await;
    assert_eq!(answer["results"][0]["status"], "applied");
    let replay = m.app.push_ok(&m.buyer, CLIENT_A, vec![queued]).await;
    assert_eq!(
        (replay["results"][0]["status"].as_str(), replay["results"][0]["duplicate"].as_bool()),
        (Some("applied"), Some(true))
    );
    // Even under a new sequence (a wiped phone), the uid finds the same order.
    let resent = m
        .app
        .push_ok(&m.buyer, CLIENT_A, vec![mutation(2, "order.place", order(9, json!([line(m.avocados, 2, 80)])), None)])
        .await;
    assert_eq!(resent["results"][0]["status"], "applied");
    assert_eq!(m.app.stock(m.avocados).await, 28);
    let mine: Value = m.app.call(Method::GET, "/orders", &m.buyer, None).await.json().await.unwrap();
    assert_eq!(mine["data"].as_array().unwrap().len(), 2);

    // The order reaches the phone (and the farmer's) through pull.
    let pulled = m.app.pull(&m.buyer, CLIENT_A, None, 100).await;
    let orders: Vec<&Value> = pulled["changes"].as_array().unwrap().iter().filter(|c| c["entity"] == "order").collect();
    assert_eq!(orders.len(), 2);
    assert_eq!(pulled["last_mutation_id"], 2);

    // A price the buyer did not see is refused through sync too, with the lines.
    m.app.sql(&format!("UPDATE products SET current_price_cents = 300 WHERE id = {}", m.tomatoes));
    let refused = m
        .app
        .push_ok(
            &m.buyer,
            CLIENT_A,
            vec![mutation(3, "order.place", order(10, json!([line(m.tomatoes, 1, 250)])), None)],
        )
        .await;
    let result = &refused["results"][0];
    assert_eq!((result["status"].as_str(), result["code"].as_str()), (Some("rejected"), Some("order_changed")));
    assert_eq!(result["details"]["lines"][0]["price_cents"], 300);
}

#[tokio::test]
async fn buyers_racing_for_the_last_units_never_oversell() {
    let m = market().await;
    m.app.sql(&format!("UPDATE products SET quantity = 5 WHERE id = {}", m.avocados));
    let mut buyers = Vec::new();
    for n in 0..12 {
        buyers.push(m.app.user_with_role(&format!("racer{n}@example.com"), Role::User).await);
    }
    let mut racers = tokio::task::JoinSet::new();
    for (n, token) in buyers.into_iter().enumerate() {
        let (client, url) = (m.app.client.clone(), m.app.api("/orders"));
        let body = order(100 + n as u32, json!([line(m.avocados, 1, 80)]));
        racers.spawn(async move { client.post(url).bearer_auth(token).json(&body).send().await.unwrap().status() });
    }
    let statuses = racers.join_all().await;
    let placed = statuses.iter().filter(|s| **s == StatusCode::CREATED).count();
    let refused = statuses.iter().filter(|s| **s == StatusCode::CONFLICT).count();
    assert_eq!((placed, refused), (5, 7), "{statuses:?}");
    assert_eq!(m.app.stock(m.avocados).await, 0);
}

#[tokio::test]
async fn each_part_moves_by_the_people_allowed_to_and_a_cancellation_restores_stock() {
    let m = market().await;
    let placed: Value = m
        .app
        .place(&m.buyer, order(20, json!([line(m.tomatoes, 4, 250), line(m.avocados, 5, 80)])))
        .await
        .json()
        .await
        .unwrap();
    let id = placed["data"]["id"].as_i64().unwrap();
    let amani_part = placed["data"]["parts"][0]["id"].as_i64().unwrap();
    let esther_part = placed["data"]["parts"][1]["id"].as_i64().unwrap();

    // Esther cannot touch Amani's part; the buyer cannot ship it.
    assert_eq!(
        error_of(
            m.app.patch_part(&m.esther, id, amani_part, json!({"status": "shipped"})).await,
            StatusCode::FORBIDDEN
        )
        .await["code"],
        "not_your_part"
    );
    assert_eq!(
        error_of(m.app.patch_part(&m.buyer, id, amani_part, json!({"status": "shipped"})).await, StatusCode::CONFLICT)
            .await["code"],
        "invalid_transition"
    );
    // Amani ships, then delivers; delivered before shipped is refused.
    assert_eq!(
        error_of(
            m.app.patch_part(&m.amani, id, amani_part, json!({"status": "delivered"})).await,
            StatusCode::CONFLICT
        )
        .await["code"],
        "invalid_transition"
    );
    assert_eq!(m.app.patch_part(&m.amani, id, amani_part, json!({"status": "shipped"})).await.status(), StatusCode::OK);
    // The buyer can no longer cancel a shipped part; asking again for "shipped" changes nothing.
    assert_eq!(
        m.app.patch_part(&m.buyer, id, amani_part, json!({"status": "cancelled"})).await.status(),
        StatusCode::CONFLICT
    );
    assert_eq!(m.app.patch_part(&m.amani, id, amani_part, json!({"status": "shipped"})).await.status(), StatusCode::OK);
    let delivered: Value =
        m.app.patch_part(&m.amani, id, amani_part, json!({"status": "delivered"})).await.json().await.unwrap();
    assert_eq!(delivered["data"]["parts"][0]["status"], "delivered");

    // Esther must say why she cancels; then her stock comes back.
    let error = error_of(
        m.app.patch_part(&m.esther, id, esther_part, json!({"status": "cancelled"})).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(error["error_codes"]["reason"][0], "reason_required");
    assert_eq!(m.app.stock(m.avocados).await, 25);
    let cancelled: Value = m
        .app
        .patch_part(&m.esther, id, esther_part, json!({"status": "cancelled", "reason": "Harvest lost to hail"}))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(m.app.stock(m.avocados).await, 30);
    assert_eq!(cancelled["data"]["parts"][0]["cancel_reason"], "Harvest lost to hail");
    // The buyer heard of each step, in French; the reason came with the cancellation.
    let subjects: Vec<String> = m.app.emails_to("buyer@example.com").into_iter().map(|(s, _)| s).collect();
    assert_eq!(
        subjects,
        [
            format!("Votre commande MAVUNO n° {id}"),
            format!("Votre commande n° {id} est en route"),
            format!("Votre commande n° {id} a été livrée"),
            format!("Une partie de votre commande n° {id} a été annulée"),
        ]
    );
    assert!(m.app.emails_to("buyer@example.com")[3].1.contains("Raison : Harvest lost to hail"));

    // Amani earned the delivered part (goods and shipping); the ledger says so once.
    let earned: Value = m.app.call(Method::GET, "/farmer/earnings", &m.amani, None).await.json().await.unwrap();
    assert_eq!((earned["earned_cents"].as_i64(), earned["pending_cents"].as_i64()), (Some(1500), Some(0)));
    assert_eq!(earned["entries"].as_array().unwrap().len(), 1);
    assert_eq!(earned["by_month"][0]["sales"], 1);
    let esther_earned: Value = m.app.call(Method::GET, "/farmer/earnings", &m.esther, None).await.json().await.unwrap();
    assert_eq!(esther_earned["earned_cents"], 0, "a cancelled part earns nothing");
    assert_eq!(m.app.call(Method::GET, "/farmer/earnings", &m.buyer, None).await.status(), StatusCode::FORBIDDEN);

    // The buyer reviews what was delivered, once (editable); the ratings follow.
    assert_eq!(
        m.app.review(&m.buyer, m.tomatoes, json!({"rating": 4, "comment": "Firm"})).await.status(),
        StatusCode::OK
    );
    let refused = m.app.review(&m.buyer, m.avocados, json!({"rating": 5})).await;
    assert_eq!(error_of(refused, StatusCode::FORBIDDEN).await["code"], "not_delivered");
    let bad = m.app.review(&m.buyer, m.tomatoes, json!({"rating": 6})).await;
    assert_eq!(error_of(bad, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["rating"][0], "rating_invalid");
    assert_eq!(
        m.app.review(&m.buyer, m.tomatoes, json!({"rating": 5, "comment": "Firm and sweet"})).await.status(),
        StatusCode::OK
    );
    let product: Value = m.app.get(&format!("/products/{}", m.tomatoes), None).await.json().await.unwrap();
    assert_eq!(
        (
            product["data"]["rating"].as_f64(),
            product["data"]["reviews"].as_i64(),
            product["data"]["farmer"]["rating"].as_f64()
        ),
        (Some(5.0), Some(1), Some(5.0))
    );
    let reviews: Value = m.app.get(&format!("/products/{}/reviews", m.tomatoes), None).await.json().await.unwrap();
    assert_eq!(
        (reviews["data"][0]["author"].as_str(), reviews["data"][0]["comment"].as_str()),
        (Some("Test u."), Some("Firm and sweet"))
    );

    // The buyer's order: delivered (the live part), with a timeline of every step.
    let seen: Value = m.app.call(Method::GET, &format!("/orders/{id}"), &m.buyer, None).await.json().await.unwrap();
    assert_eq!(seen["data"]["status"], "delivered");
    let kinds: Vec<&str> =
        seen["data"]["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["placed", "shipped", "delivered", "cancelled"]);

    // The buyer cancels a processing order through sync (offline), and the stock returns.
    let second: Value = m.app.place(&m.buyer, order(21, json!([line(m.beans, 3, 120)]))).await.json().await.unwrap();
    let part = second["data"]["parts"][0]["id"].as_i64().unwrap();
    assert_eq!(m.app.stock(m.beans).await, 17);
    let change = json!({"uid": uid(21), "part_id": part, "status": "cancelled"});
    let answer = m.app.push_ok(&m.buyer, CLIENT_A, vec![mutation(1, "order.update_part", change, None)]).await;
    assert_eq!(answer["results"][0]["status"], "applied");
    assert_eq!(m.app.stock(m.beans).await, 20);
    let to_amani = m.app.emails_to("amani@example.com");
    assert_eq!(
        to_amani.last().unwrap().0,
        format!("La commande n° {} a été annulée par l'acheteur", second["data"]["id"])
    );
}

#[tokio::test]
async fn admins_list_filter_and_export_every_order_and_nobody_else_may() {
    let m = market().await;
    let admin = m.app.user_with_role("admin@example.com", Role::Admin).await;
    for (n, lines) in [(30, json!([line(m.tomatoes, 1, 250)])), (31, json!([line(m.avocados, 2, 80)]))] {
        assert_eq!(m.app.place(&m.buyer, order(n, lines)).await.status(), StatusCode::CREATED);
    }
    let listed: Value = m.app.call(Method::GET, "/orders", &m.buyer, None).await.json().await.unwrap();
    let avocados_order = listed["data"][0]["id"].as_i64().unwrap();
    let part = listed["data"][0]["parts"][0]["id"].as_i64().unwrap();
    let shipped = m.app.patch_part(&m.esther, avocados_order, part, json!({"status": "shipped"})).await;
    assert_eq!(shipped.status(), StatusCode::OK);

    let page: Value = m.app.call(Method::GET, "/admin/orders", &admin, None).await.json().await.unwrap();
    assert_eq!(
        (page["total"].as_i64(), page["stats"]["processing"].as_i64(), page["stats"]["shipped"].as_i64()),
        (Some(2), Some(1), Some(1))
    );
    let only: Value = m.app.call(Method::GET, "/admin/orders?status=shipped", &admin, None).await.json().await.unwrap();
    assert_eq!(only["data"].as_array().unwrap().len(), 1);
    assert_eq!(only["data"][0]["id"].as_i64(), Some(avocados_order));
    // Search by the buyer's name, with the payment filter.
    let by_buyer: Value = m
        .app
        .call(Method::GET, "/admin/orders?q=neema&payment_method=cash_on_delivery", &admin, None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(by_buyer["total"], 2);
    let none: Value = m.app.call(Method::GET, "/admin/orders?q=nobody", &admin, None).await.json().await.unwrap();
    assert_eq!(none["total"], 0);
    let bad = m.app.call(Method::GET, "/admin/orders?status=lost", &admin, None).await;
    assert_eq!(error_of(bad, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["status"][0], "invalid_filter");

    // The export: one row per farmer's part, in the admin's language, with the same filters.
    let csv = m.app.call(Method::GET, "/admin/orders/export?lang=fr", &admin, None).await;
    assert_eq!(csv.status(), StatusCode::OK);
    assert!(csv.headers()["content-disposition"].to_str().unwrap().contains("orders_"));
    let text = csv.text().await.unwrap();
    let rows: Vec<&str> = text.trim_start_matches('\u{feff}').lines().collect();
    assert!(rows[0].starts_with("Commande,Passée le,Acheteur"), "{}", rows[0]);
    assert_eq!(rows.len(), 3);
    assert!(
        rows[1].contains("Expédiée") && rows[1].contains("Avocados × 2") && rows[1].contains("1.60"),
        "{}",
        rows[1]
    );
    let empty = m.app.call(Method::GET, "/admin/orders/export?q=nobody", &admin, None).await;
    assert_eq!(error_of(empty, StatusCode::NOT_FOUND).await["code"], "no_orders");

    // Buyers, farmers and field agents may not.
    let agent = m.app.user_with_role("agent@example.com", Role::FieldAgent).await;
    for token in [&m.buyer, &m.amani, &agent] {
        assert_eq!(m.app.call(Method::GET, "/admin/orders", token, None).await.status(), StatusCode::FORBIDDEN);
    }
    // An admin reads any order's details and timeline.
    let details: Value =
        m.app.call(Method::GET, &format!("/orders/{avocados_order}"), &admin, None).await.json().await.unwrap();
    assert_eq!(details["data"]["events"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn a_farmer_accepts_a_new_part_before_preparing_it_and_the_buyer_hears_it() {
    let m = market().await;
    let placed: Value = m.app.place(&m.buyer, order(31, json!([line(m.beans, 2, 120)]))).await.json().await.unwrap();
    let (id, part) = (placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap());
    assert!(placed["data"]["parts"][0]["accepted_at"].is_null());
    let by_buyer = m.app.patch_part(&m.buyer, id, part, json!({"status": "accepted"})).await;
    assert_eq!(error_of(by_buyer, StatusCode::FORBIDDEN).await["code"], "not_your_part");
    let accepted = m.app.patch_part(&m.amani, id, part, json!({"status": "accepted"})).await;
    assert_eq!(accepted.status(), StatusCode::OK);
    let accepted: Value = accepted.json().await.unwrap();
    let at = accepted["data"]["parts"][0]["accepted_at"].clone();
    assert!(at.is_string() && accepted["data"]["parts"][0]["status"] == "processing", "{accepted}");
    let again: Value = m.app.patch_part(&m.amani, id, part, json!({"status": "accepted"})).await.json().await.unwrap();
    assert_eq!(again["data"]["parts"][0]["accepted_at"], at, "accepting again changes nothing");
    let kinds: Vec<&str> =
        again["data"]["events"].as_array().unwrap().iter().map(|e| e["kind"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["placed", "accepted"]);
    let told = m.app.emails_to("buyer@example.com");
    assert!(
        told.iter().any(|(subject, _)| subject == &format!("Votre commande n° {id} est en préparation")),
        "{told:?}"
    );
    // Then it is shipped as before; a shipped part cannot be accepted.
    let shipped = m.app.patch_part(&m.amani, id, part, json!({"status": "shipped"})).await;
    assert_eq!(shipped.status(), StatusCode::OK);
    let placed: Value = m.app.place(&m.buyer, order(32, json!([line(m.beans, 2, 120)]))).await.json().await.unwrap();
    let (late, late_part) =
        (placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap());
    m.app.patch_part(&m.amani, late, late_part, json!({"status": "shipped"})).await;
    let too_late = m.app.patch_part(&m.amani, late, late_part, json!({"status": "accepted"})).await;
    assert_eq!(error_of(too_late, StatusCode::CONFLICT).await["code"], "invalid_transition");
}
