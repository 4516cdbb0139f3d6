//! Basic phones that can be trusted with money and orders (docs/ussd.md, How the menu
//! works; docs/security.md): an answer acts on the screen the farmer saw though the list
//! changed since; a gateway's retry after a restart writes nothing twice; actions set a
//! state, never toggle it; PIN guesses sent at once get only the tries left.

use mavuno::model::user::Role;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;
use crate::orders::{line, order};
use crate::ussd::{TOKEN, farmer_with_phone, ussd_app};

/// The order's id and its (only) part's id.
fn ids(placed: &Value) -> (i64, i64) {
    (placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap())
}

async fn part_status(app: &TestApp, buyer: &str, order_id: i64) -> String {
    let order: Value = app.get(&format!("/orders/{order_id}"), Some(buyer)).await.json().await.unwrap();
    order["data"]["parts"][0]["status"].as_str().unwrap().to_owned()
}

fn one(app: &TestApp, sql: &str) -> i64 {
    let conn = app.database();
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

fn beans() -> Value {
    json!({"title": "Beans", "title_fr": "Haricots", "description": "Dry", "quantity": 50, "price": 2,
           "current_price": 2})
}

#[tokio::test]
async fn an_answer_acts_on_the_order_the_farmer_saw_though_the_list_changed() {
    let app = ussd_app().await;
    let (farmer, number) = farmer_with_phone(&app, "amani@example.com").await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let beans = app.listed(&farmer, beans()).await;
    let (first, _) = ids(&app.place(&buyer, order(1, json!([line(beans, 5, 200)]))).await.json().await.unwrap());

    let mut phone = app.phone(&number);
    let list = phone.go(&["3", "2580", "2580"]).await;
    assert!(
        list.text.contains(&format!("1 #{first} nouvelle Haricots 5kg 15,00$")),
        "named, with its money: {}",
        list.text
    );
    // A buyer orders while the farmer reads: new orders come first, so the second is now at 1.
    let (second, second_part) =
        ids(&app.place(&buyer, order(2, json!([line(beans, 3, 200)]))).await.json().await.unwrap());
    let detail = phone.answer("1").await;
    assert!(detail.text.starts_with(&format!("#{first} nouvelle")), "the order shown at 1: {}", detail.text);
    let accepted = phone.answer("1").await;
    assert_eq!(accepted.text, format!("La commande #{first} est maintenant acceptée. L'acheteur est prévenu."));
    let accepted =
        |order: i64| one(&app, &format!("SELECT accepted_at IS NOT NULL FROM order_parts WHERE order_id = {order}"));
    assert_eq!(accepted(first), 1);
    assert_eq!(accepted(second), 0, "the order nobody saw is untouched");

    // The order shown changes before the answer: it is said as it is now, and nothing is done.
    let list = phone.go(&["3", "2580"]).await;
    assert!(list.text.contains(&format!("1 #{second} nouvelle")), "new before accepted: {}", list.text);
    let detail = phone.answer("1").await;
    assert!(detail.text.starts_with(&format!("#{second} nouvelle")), "{}", detail.text);
    let cancelled = app.patch_part(&buyer, second, second_part, json!({"status": "cancelled"})).await;
    assert_eq!(cancelled.status(), StatusCode::OK);
    let answered = phone.answer("1").await;
    assert_eq!(
        answered.text,
        format!(
            "La commande #{second} est maintenant annulée : elle a changé depuis votre lecture. Rien n'a été fait."
        )
    );
    assert_eq!(part_status(&app, &buyer, second).await, "cancelled");
}

#[tokio::test]
async fn new_orders_come_before_accepted_ones_however_recent() {
    let app = ussd_app().await;
    let (farmer, number) = farmer_with_phone(&app, "amani@example.com").await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let beans = app.listed(&farmer, beans()).await;
    let (older, _) = ids(&app.place(&buyer, order(1, json!([line(beans, 5, 200)]))).await.json().await.unwrap());
    let (newer, newer_part) =
        ids(&app.place(&buyer, order(2, json!([line(beans, 3, 200)]))).await.json().await.unwrap());
    let accepted = app.patch_part(&farmer, newer, newer_part, json!({"status": "accepted"})).await;
    assert_eq!(accepted.status(), StatusCode::OK);
    let list = app.phone(&number).go(&["3", "2580", "2580"]).await;
    let (at_older, at_newer) =
        (list.text.find(&format!("#{older} nouvelle")), list.text.find(&format!("#{newer} acceptée")));
    assert!(at_older.is_some() && at_newer.is_some() && at_older < at_newer, "the new one first: {}", list.text);
}

#[tokio::test]
async fn a_product_picked_is_the_one_shown_and_a_gateway_s_repeat_shows_the_same_list() {
    let app = ussd_app().await;
    let (farmer, number) = farmer_with_phone(&app, "amani@example.com").await;
    let maize = app
        .listed(
            &farmer,
            json!({"title": "Maize", "title_fr": "Maïs", "description": "Dry", "quantity": 9,
                                           "price": 1, "current_price": 1}),
        )
        .await;
    let mut phone = app.phone(&number);
    let list = phone.go(&["1", "2580", "2580"]).await;
    assert!(list.text.contains("1 Mais-grain 9kg"), "maïs is not \"mais\" (but): {}", list.text);
    // A product listed in the app meanwhile comes first in the list as it is now.
    app.listed(&farmer, beans()).await;
    let repeated = phone.repeat().await;
    assert_eq!(repeated.text, list.text, "a gateway's repeat shows what the person was shown");
    let product = phone.answer("1").await;
    assert!(product.text.starts_with("Mais-grain : 9 kg"), "{}", product.text);
    let off = phone.answer("3").await;
    assert_eq!(off.text, "Mais-grain est retiré de la vente. Les acheteurs ne le voient plus.");
    assert_eq!(one(&app, &format!("SELECT status = 'inactive' FROM products WHERE id = {maize}")), 1);
}

#[tokio::test]
async fn a_gateway_s_retry_after_a_restart_writes_nothing_twice_and_off_sale_is_never_toggled() {
    let dir = tempfile::tempdir().unwrap();
    let gateway = |config: &mut mavuno::Config| config.gateway_token = Some(TOKEN.into());
    let app = spawn_in(dir.path(), gateway).await;
    let (farmer, number) = farmer_with_phone(&app, "amani@example.com").await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let beans = app.listed(&farmer, beans()).await;
    let (first, _) = ids(&app.place(&buyer, order(1, json!([line(beans, 5, 200)]))).await.json().await.unwrap());
    app.place(&buyer, order(2, json!([line(beans, 3, 200)]))).await;
    let mut phone = app.phone(&number);
    let list = phone.go(&["3", "2580", "2580"]).await;
    assert!(list.text.contains(&format!("2 #{first} ")), "{}", list.text);
    phone.answer("2").await;
    let shipped = phone.answer("1").await;
    assert!(shipped.text.starts_with(&format!("La commande #{first} est maintenant acceptée")), "{}", shipped.text);
    // A third order would now stand at 2 in the list as it is.
    app.place(&buyer, order(3, json!([line(beans, 1, 200)]))).await;

    let parked = phone.park();
    drop(phone);
    drop(app);
    let app = spawn_in(dir.path(), gateway).await;
    let again = parked.on(&app).repeat().await;
    assert_eq!(again.text, shipped.text, "the gateway's retry gets the same answer");
    let events = format!("SELECT COUNT(*) FROM order_events WHERE order_id = {first} AND kind = 'accepted'");
    assert_eq!(one(&app, &events), 1, "accepted once");
    assert_eq!(one(&app, "SELECT COUNT(*) FROM order_parts WHERE accepted_at IS NOT NULL"), 1, "and nothing else");

    let mut phone = parked.on(&app);
    let off = phone.go(&["1", "2580", "1", "3"]).await;
    assert!(off.text.contains("est retiré de la vente"), "{}", off.text);
    let parked = phone.park();
    drop(phone);
    drop(app);
    let app = spawn_in(dir.path(), gateway).await;
    let phone = parked.on(&app);
    assert_eq!(phone.repeat().await.text, off.text, "a retry takes it off sale again, it never puts it back");
    let status = |app: &TestApp| one(app, &format!("SELECT status = 'inactive' FROM products WHERE id = {beans}"));
    assert_eq!(status(&app), 1);
    // A day later the session's memory is gone: the answer is not acted on, the screen comes again.
    app.sql("DELETE FROM ussd_memos");
    let later = phone.repeat().await;
    assert!(later.more && later.text.starts_with("Cette liste a changé depuis son affichage."), "{}", later.text);
    assert_eq!(status(&app), 1, "still off sale");
}

/// Posts `count` requests at once, each as its own session of `number`, the n-th typing
/// `text(n)`; answers their bodies.
async fn at_once(app: &TestApp, number: &str, count: usize, text: impl Fn(usize) -> String) -> Vec<String> {
    let mut sent = tokio::task::JoinSet::new();
    for n in 0..count {
        let (client, url, number, text) =
            (app.client.clone(), app.api(&format!("/ussd/{TOKEN}")), number.to_owned(), text(n));
        sent.spawn(async move {
            let fields = [("sessionId", format!("guess-{n}")), ("phoneNumber", number), ("text", text)];
            client.post(url).form(&fields).send().await.unwrap().text().await.unwrap()
        });
    }
    sent.join_all().await
}

#[tokio::test]
async fn pin_guesses_sent_at_once_get_only_the_tries_left_by_ussd_sms_and_the_drawn_phone() {
    let app = spawn_with(|config| {
        config.gateway_token = Some(TOKEN.into());
        config.ussd_max_requests = 1000;
    })
    .await;
    let (farmer, number) = farmer_with_phone(&app, "amani@example.com").await;
    let beans = app.listed(&farmer, beans()).await;
    app.phone(&number).go(&["1", "2580", "2580"]).await;
    let tries = |app: &TestApp| one(app, &format!("SELECT pin_failures FROM phone_settings WHERE phone = '{number}'"));
    let locked = |app: &TestApp| {
        one(app, &format!("SELECT pin_locked_until > '{}' FROM phone_settings WHERE phone = '{number}'", now()))
    };
    let one_try_left = |app: &TestApp| {
        app.sql(&format!(
            "UPDATE phone_settings SET pin_failures = 4, pin_locked_until = NULL WHERE phone = '{number}'"
        ))
    };

    // By USSD: 30 sessions guess at once with one try left.
    one_try_left(&app);
    let answers = at_once(&app, &number, 30, |n| format!("1*{}", 3000 + n)).await;
    assert_eq!(tries(&app), 5, "one guess was checked, not 30");
    assert_eq!(locked(&app), 1, "and the PIN is locked");
    assert!(answers.iter().all(|a| a.starts_with("END Trop de PIN incorrects")), "{answers:?}");
    let right = app.phone(&number).go(&["1"]).await;
    assert!(right.text.starts_with("Trop de PIN incorrects"), "the owner waits for the lock too: {}", right.text);

    // By SMS (STOCK with the PIN last): the same.
    one_try_left(&app);
    let mut sent = tokio::task::JoinSet::new();
    for n in 0..10 {
        let (client, url, from) = (app.client.clone(), app.api(&format!("/sms/incoming/{TOKEN}")), number.clone());
        sent.spawn(async move {
            let fields = [("from", from), ("text", format!("STOCK 1 1 {}", 3000 + n)), ("id", format!("m{n}"))];
            client.post(url).form(&fields).send().await.unwrap().status()
        });
    }
    assert!(sent.join_all().await.iter().all(|s| *s == StatusCode::OK));
    assert_eq!(tries(&app), 5, "one guess was checked, not 10");
    assert_eq!(locked(&app), 1);
    let stock: Value = app.get(&format!("/products/{beans}"), None).await.json().await.unwrap();
    assert_eq!(stock["data"]["quantity"], 50, "no guess changed the stock");

    // By the drawn phone in the app (the farmer's own number).
    one_try_left(&app);
    let mut sent = tokio::task::JoinSet::new();
    for n in 0..20 {
        let (client, url, token) = (app.client.clone(), app.api("/ussd/try"), farmer.clone());
        sent.spawn(async move {
            let body = json!({"session_id": format!("drawn-{n}"), "text": format!("1*{}", 3000 + n)});
            client.post(url).bearer_auth(token).json(&body).send().await.unwrap().json::<Value>().await.unwrap()
        });
    }
    let answers = sent.join_all().await;
    assert!(answers.iter().all(|a| a["end"] == true), "{answers:?}");
    assert_eq!(tries(&app), 5, "one guess was checked, not 20");
    assert_eq!(locked(&app), 1);
}

fn now() -> String {
    mavuno::platform::clock::now()
}

#[tokio::test]
async fn no_gateway_secret_reaches_the_log_of_a_run_through_every_tokenised_route() {
    let (gateway, reports) = ("gw-0123456789abcdef0123456789abcdef", "dr-0123456789abcdef0123456789abcdef");
    let args = [
        ["--gateway-token", gateway],
        ["--at-callback-token", reports],
        // Africa's Talking where nothing listens: sending fails, and its errors are logged too.
        ["--at-username", "sandbox"],
        ["--at-api-key", "at-key-0123456789"],
        ["--at-url", "http://127.0.0.1:9"],
    ]
    .concat();
    let server = ServerProcess::start_keeping(&[], &args, None, 100_000).await;
    let post = |path: String, fields: Vec<(&'static str, &'static str)>| {
        let request = server.client.post(server.api(&path)).form(&fields);
        async move { request.send().await.unwrap().status() }
    };
    let dial = vec![("sessionId", "s1"), ("phoneNumber", "+243971000009"), ("text", "1")];
    assert_eq!(post(format!("/ussd/{gateway}"), dial.clone()).await, StatusCode::OK);
    assert_eq!(post(format!("/ussd/{gateway}?token={gateway}"), dial).await, StatusCode::OK);
    assert_eq!(post(format!("/ussd/{gateway}x"), vec![]).await, StatusCode::NOT_FOUND);
    let sms = vec![("from", "+243971000009"), ("text", "PRIX haricot"), ("id", "m1")];
    assert_eq!(post(format!("/sms/incoming/{gateway}"), sms).await, StatusCode::OK);
    assert_eq!(post(format!("/sms/incoming/{gateway}"), vec![("from", "x")]).await, StatusCode::BAD_REQUEST);
    let report = vec![("id", "ATXid_1"), ("status", "Success")];
    assert_eq!(post(format!("/sms/delivery/{reports}"), report).await, StatusCode::OK);
    assert_eq!(post(format!("/sms/delivery/{reports}"), vec![]).await, StatusCode::BAD_REQUEST);
    assert_eq!(post(format!("/sms/delivery/{gateway}"), vec![]).await, StatusCode::NOT_FOUND);
    // The SMS answer's sending fails (nothing listens) and is logged.
    tokio::time::sleep(std::time::Duration::from_millis(1500)).await;
    let log = server.log_tail();
    assert!(log.contains("/api/v1/ussd/[secret]") && log.contains("/api/v1/sms/delivery/[secret]"), "{log}");
    assert!(log.contains("SMS not sent"), "the provider's failure is in the log: {log}");
    for secret in [gateway, reports, "at-key-0123456789"] {
        assert!(!log.contains(secret), "{secret} in the log:\n{log}");
    }
}

#[tokio::test]
async fn a_number_that_joins_in_kiswahili_is_answered_in_kiswahili_whatever_its_country_code() {
    let app = ussd_app().await;
    let number = "+243971000031";
    // The emulator starts a number with no account in the language it asks for, as a
    // gateway's person would choose it; a Congolese number is French otherwise.
    let mut done = String::new();
    for text in ["", "1", "1*Neema", "1*Neema*Bahati", "1*Neema*Bahati*1", "1*Neema*Bahati*1*2", "1*Neema*Bahati*1*2*1"]
    {
        let fields = [("sessionId", "join-sw"), ("phoneNumber", number), ("text", text), ("lang", "sw")];
        done = app.ussd_raw(TOKEN, &fields).await.1;
    }
    assert!(done.starts_with("END Karibu Neema!"), "{done}");
    let next = app.phone(number).dial().await;
    assert!(
        next.text.starts_with("MAVUNO - Neema\n1 Ombi langu"),
        "the next dial, with no language asked: {}",
        next.text
    );
    let welcome = app.sms_bodies().into_iter().find(|(to, _)| to == number).unwrap().1;
    assert!(welcome.starts_with("MAVUNO: Neema, karibu!"), "{welcome}");
}
