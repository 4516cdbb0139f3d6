//! USSD menus for basic phones (docs/ussd.md), through Africa's Talking's exact
//! request format: whole sessions in three languages, the PIN, replays, bad input,
//! and the same rules, data and versions as the app.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::orders::{line, order};

pub const TOKEN: &str = "ussd-test-gateway-secret-0123456789abcdef";

/// A basic phone: one number, a session id, and the answers given so far.
pub struct Phone<'a> {
    app: &'a TestApp,
    pub number: String,
    session: String,
    answers: Vec<String>,
}

impl TestApp {
    /// Posts one request as Africa's Talking does; answers (status, body).
    pub async fn ussd_raw(&self, token: &str, fields: &[(&str, &str)]) -> (StatusCode, String) {
        let response = self.client.post(self.api(&format!("/ussd/{token}"))).form(fields).send().await.unwrap();
        (response.status(), response.text().await.unwrap())
    }

    pub fn phone(&self, number: &str) -> Phone<'_> {
        Phone { app: self, number: number.to_owned(), session: format!("ATUid_{}", uuid_ish()), answers: Vec::new() }
    }
}

fn uuid_ish() -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(1);
    format!("{:016x}", NEXT.fetch_add(1, Ordering::Relaxed) * 0x9e37_79b9)
}

/// A screen: whether the session goes on (`CON`) and its text. Every screen is
/// GSM-7 and at most 182 characters.
#[derive(Debug)]
pub struct Screen {
    pub more: bool,
    pub text: String,
}

impl Phone<'_> {
    /// Sends the answers so far (the first request has none) and reads the screen.
    async fn send(&self) -> Screen {
        let text = self.answers.join("*");
        let fields = [
            ("sessionId", self.session.as_str()),
            ("serviceCode", "*384*1234#"),
            ("phoneNumber", self.number.as_str()),
            ("networkCode", "63001"),
            ("text", text.as_str()),
        ];
        let (status, body) = self.app.ussd_raw(TOKEN, &fields).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        screen_of(&body)
    }

    pub async fn dial(&mut self) -> Screen {
        self.session = format!("ATUid_{}", uuid_ish());
        self.answers.clear();
        self.send().await
    }

    pub async fn answer(&mut self, answer: &str) -> Screen {
        self.answers.push(answer.to_owned());
        self.send().await
    }

    /// The same request again, as a gateway that did not hear the answer sends it.
    pub async fn repeat(&self) -> Screen {
        self.send().await
    }

    /// This phone's session as it stands, apart from its server (to send it again to
    /// the server started again on the same data).
    pub fn park(&self) -> Parked {
        Parked { number: self.number.clone(), session: self.session.clone(), answers: self.answers.clone() }
    }

    /// Dials and gives `answers` one by one; the last screen.
    pub async fn go(&mut self, answers: &[&str]) -> Screen {
        let mut screen = self.dial().await;
        for answer in answers {
            assert!(screen.more, "the session ended before {answer}: {}", screen.text);
            screen = self.answer(answer).await;
        }
        screen
    }
}

/// A phone's session kept across a server's restart (`Phone::park`).
pub struct Parked {
    number: String,
    session: String,
    answers: Vec<String>,
}

impl Parked {
    pub fn on<'a>(&self, app: &'a TestApp) -> Phone<'a> {
        Phone { app, number: self.number.clone(), session: self.session.clone(), answers: self.answers.clone() }
    }
}

pub fn screen_of(body: &str) -> Screen {
    let (kind, text) = body.split_once(' ').unwrap_or((body, ""));
    assert!(kind == "CON" || kind == "END", "not a USSD answer: {body}");
    let units: usize = text.chars().map(|c| if "^{}\\[~]|€".contains(c) { 2 } else { 1 }).sum();
    assert!(units <= 182, "{units} characters: {text}");
    assert!(text.chars().all(|c| mavuno::platform::gsm7::units(&c.to_string()).is_some()), "outside GSM-7: {text}");
    Screen { more: kind == "CON", text: text.to_owned() }
}

pub async fn ussd_app() -> TestApp {
    spawn_with(|config| config.gateway_token = Some(TOKEN.into())).await
}

/// A farmer who registered with the phone number of `email` (signed in).
pub async fn farmer_with_phone(app: &TestApp, email: &str) -> (String, String) {
    let (token, _) = app.register(email).await;
    app.sql(&format!("UPDATE users SET role = 'farmer', location = 'Kabare, South Kivu' WHERE email = '{email}'"));
    (token, e164_of(email))
}

async fn product(app: &TestApp, id: i64) -> Value {
    app.get(&format!("/products/{id}"), None).await.json::<Value>().await.unwrap()["data"].clone()
}

#[tokio::test]
async fn a_new_number_joins_in_french_and_a_repeated_confirmation_makes_one_account() {
    let app = ussd_app().await;
    let mut phone = app.phone("+243971000001");
    let first = phone.dial().await;
    assert!(first.more);
    assert!(first.text.starts_with("Bienvenue sur MAVUNO\n1 S'inscrire"), "{}", first.text);

    assert!(phone.answer("1").await.text.contains("Votre prénom"));
    let refused = phone.answer("A").await;
    assert!(refused.text.starts_with("Écrivez de 2 à 40 lettres."), "the same screen with why: {}", refused.text);
    // The gateway keeps a refused answer in `text`; the menu skips it.
    assert!(phone.answer("Furaha").await.text.contains("Votre nom"));
    let province = phone.answer("Mapendo").await;
    assert!(province.text.contains("1 Sud-Kivu") && province.text.contains("3 Autre"), "{}", province.text);
    assert!(phone.answer("7").await.text.starts_with("Choisissez de 1 à 3."));
    let territories = phone.answer("1").await;
    assert!(territories.text.contains("2 Kabare"), "{}", territories.text);
    let confirm = phone.answer("3").await;
    assert!(confirm.text.contains("Furaha Mapendo, Walungu, Sud-Kivu"), "in the reader's words: {}", confirm.text);
    let done = phone.answer("1").await;
    assert!(!done.more);
    assert!(done.text.starts_with("Bienvenue Furaha !"), "{}", done.text);
    let again = phone.repeat().await;
    assert_eq!(again.text, done.text, "a repeated request gets the same last screen");

    let conn = app.database();
    let (count, role, location, hash): (i64, String, String, String) = conn
        .query_row(
            "SELECT COUNT(*) OVER (), role, location, password_hash FROM users WHERE phone_number = '+243971000001'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert_eq!((count, role.as_str(), location.as_str(), hash.as_str()), (1, "user", "Walungu, South Kivu", "!"));
    let texted: Vec<_> = app.sms_bodies().into_iter().filter(|(to, _)| to == "+243971000001").collect();
    assert_eq!(texted.len(), 1, "told once how to sign in: {texted:?}");
    assert!(
        texted[0]
            .1
            .starts_with("MAVUNO: Furaha, bienvenue ! Recomposez *384*1234# pour les prix, vendre et vos commandes."),
        "welcomed with the code dialled (none is set), not told an agent opened the account: {}",
        texted[0].1
    );
    // Later messages name the code dialled too, not "the MAVUNO phone menu".
    let stock = [("from", "+250788000009"), ("text", "STOCK 1 40 2580"), ("id", "s9")];
    app.client.post(app.api(&format!("/sms/incoming/{TOKEN}"))).form(&stock).send().await.unwrap();
    let answer = app.sms_bodies().into_iter().find(|(to, _)| to == "+250788000009").unwrap().1;
    assert_eq!(answer, "This number has no MAVUNO account. Dial *384*1234# to join.");

    let member = phone.dial().await;
    assert!(member.text.starts_with("MAVUNO - Furaha\n1 Ma demande"), "{}", member.text);
    let apply = phone.answer("1").await;
    assert!(apply.text.starts_with("1/19 Quelle surface cultivez-vous ?\n1 Moins d'un hectare"), "{}", apply.text);
}

#[tokio::test]
async fn the_sms_name_the_ussd_code_a_super_admin_set() {
    let app = ussd_app().await;
    let boss = app.user_with_role("boss@example.com", Role::SuperAdmin).await;
    let set = app.call(Method::PATCH, "/admin/settings", &boss, Some(json!({"ussd_code": " *384*12# "}))).await;
    assert_eq!(set.status(), StatusCode::OK);
    app.phone("+243971000002").go(&["1", "Neema", "Bahati", "1", "2", "1"]).await;
    let stock = [("from", "+250788000003"), ("text", "STOCK 1 40 2580"), ("id", "s1")];
    app.client.post(app.api(&format!("/sms/incoming/{TOKEN}"))).form(&stock).send().await.unwrap();
    let texts = app.sms_bodies();
    let to = |number: &str| texts.iter().find(|(to, _)| to == number).map(|(_, body)| body.clone()).unwrap();
    assert!(to("+243971000002").starts_with("MAVUNO: Neema, bienvenue ! Recomposez *384*12# pour les prix"));
    assert_eq!(to("+250788000003"), "This number has no MAVUNO account. Dial *384*12# to join.");
}

#[tokio::test]
async fn each_number_is_greeted_in_its_language_and_a_chosen_language_is_kept() {
    let app = ussd_app().await;
    assert!(app.phone("+254711000002").dial().await.text.starts_with("Karibu MAVUNO\n1 Jiunge"));
    assert!(app.phone("+250788000003").dial().await.text.starts_with("Welcome to MAVUNO\n1 Join"));
    let mut phone = app.phone("+243971000004");
    let switched = phone.go(&["5", "3"]).await;
    assert!(switched.text.starts_with("Karibu MAVUNO\n1 Jiunge"), "{}", switched.text);
    assert!(!switched.text.contains("00 "), "back at the main menu: {}", switched.text);
    assert!(phone.dial().await.text.starts_with("Karibu MAVUNO"), "remembered for the number");
}

#[tokio::test]
async fn a_farmer_changes_stock_and_price_behind_a_pin_and_the_app_sees_it() {
    let app = ussd_app().await;
    let (token, number) = farmer_with_phone(&app, "amani@example.com").await;
    let beans = app
        .listed(&token, json!({"title": "Beans", "title_fr": "Haricots", "description": "Dry", "quantity": 20, "price": 1.2, "current_price": 1.2}))
        .await;
    let before = product(&app, beans).await["version"].as_i64().unwrap();
    let mut phone = app.phone(&number);
    let menu = phone.dial().await;
    assert!(menu.text.contains("1 Mes produits") && menu.text.contains("8 Paramètres"), "{}", menu.text);

    assert!(phone.answer("1").await.text.starts_with("Choisissez un PIN"), "a first PIN is chosen");
    assert!(phone.answer("1111").await.text.starts_with("Trop facile"));
    phone.answers.pop();
    let invalid = phone.answer("12a4").await;
    assert!(invalid.text.starts_with("Un PIN a 4 chiffres, comme 2580. Tapez-le à nouveau :\n"), "{}", invalid.text);
    phone.answers.pop();
    assert!(phone.answer("2580").await.text.contains("PIN encore"));
    let mismatch = phone.answer("2581").await;
    assert!(mismatch.text.starts_with("Les deux PIN étaient différents."), "{}", mismatch.text);
    phone.answer("2580").await;
    let list = phone.answer("2580").await;
    assert!(list.text.contains("1 Haricots 20kg"), "titles in the person's language: {}", list.text);
    let detail = phone.answer("1").await;
    assert!(detail.text.starts_with("Haricots : 20 kg à 1,20 USD. En vente."), "{}", detail.text);
    phone.answer("1").await;
    assert!(phone.answer("1.5").await.text.starts_with("Écrivez un nombre entier de 0 à 1000000."));
    phone.answers.pop();
    // 0 is "back" on every screen: here it asks before emptying the stock.
    let zero = phone.answer("0").await;
    assert!(zero.text.starts_with("Haricots : mettre le stock à 0 kg, plus rien à vendre ?\n1 Oui"), "{}", zero.text);
    let back = phone.answer("2").await;
    assert!(back.text.starts_with("Haricots : 20 kg à 1,20 USD."), "back at the product: {}", back.text);
    assert_eq!(product(&app, beans).await["quantity"], 20);
    phone.answer("1").await;
    let done = phone.answer("35").await;
    assert_eq!(done.text, "Haricots : le stock est maintenant de 35 kg.");
    phone.repeat().await;
    let after = product(&app, beans).await;
    assert_eq!(after["quantity"], 35, "written once, through the same rules as the app");
    assert!(after["version"].as_i64().unwrap() > before, "a new version: the app pulls it");

    // A new session asks for the PIN again; a price with letters is refused, `#` reads as a point.
    let price = phone.go(&["1", "2580", "1", "2", "abc"]).await;
    assert!(price.text.starts_with("Écrivez un prix comme 1#25 pour 1,25 USD"), "{}", price.text);
    phone.answers.pop();
    assert_eq!(phone.answer("1#35").await.text, "Haricots : le prix est maintenant de 1,35 USD par kg.");
    assert_eq!(product(&app, beans).await["current_price"], 1.35);

    let off = phone.go(&["1", "2580", "1", "3"]).await;
    assert!(off.text.starts_with("Haricots est retiré de la vente."), "{}", off.text);
    let pull = app.call(Method::GET, "/farmer/products", &token, None).await.json::<Value>().await.unwrap();
    assert_eq!(pull["data"][0]["status"], "inactive", "{pull}");
    let back = phone.go(&["1", "2580", "1", "3"]).await;
    assert!(back.text.starts_with("Haricots est de nouveau en vente."), "{}", back.text);
}

#[tokio::test]
async fn wrong_pins_are_counted_once_each_and_lock_the_pin() {
    let app = ussd_app().await;
    let (_, number) = farmer_with_phone(&app, "amani@example.com").await;
    let mut phone = app.phone(&number);
    phone.go(&["4", "2580", "2580"]).await;
    let wrong = phone.go(&["4", "1111"]).await;
    assert!(wrong.text.starts_with("PIN incorrect, encore 4 essais. Entrez votre PIN :\n"), "{}", wrong.text);
    assert!(phone.repeat().await.text.starts_with("PIN incorrect, encore 4 essais."), "a repeat counts once");
    let right = phone.answer("2580").await;
    assert!(!right.more && right.text.starts_with("Ce mois : 0,00 USD."), "then the right PIN opens: {}", right.text);
    for left in [4, 3, 2, 1] {
        let text = phone.go(&["4", "1111"]).await.text;
        let expected = if left == 1 { "encore 1 essai.".to_owned() } else { format!("encore {left} essais.") };
        assert!(text.contains(&expected), "{text}");
    }
    let locked = phone.answer("1112").await;
    assert!(!locked.more && locked.text.starts_with("Trop de PIN incorrects."), "{}", locked.text);
    let still = phone.go(&["4"]).await;
    assert!(
        !still.more && still.text.starts_with("Trop de PIN incorrects."),
        "the right PIN waits too: {}",
        still.text
    );
}

#[tokio::test]
async fn selling_something_new_lists_it_once_with_its_names_in_three_languages() {
    let app = ussd_app().await;
    let (token, number) = farmer_with_phone(&app, "amani@example.com").await;
    // What the farmer listed in the app before: its smallest order and delivery are the defaults.
    app.listed(
        &token,
        json!({"title": "Beans", "description": "Dry", "quantity": 9, "price": 1, "current_price": 1, "min_order": 10,
               "shipping_available": true, "shipping_cost": 3, "shipping_days": "2-3"}),
    )
    .await;
    let mut phone = app.phone(&number);
    phone.go(&["2", "2580", "2580"]).await;
    let crops = phone.go(&["2", "2580"]).await;
    assert!(crops.text.starts_with("Que vendez-vous ?\n1 Mais-grain"), "{}", crops.text);
    assert!(crops.text.contains("98 Suite"), "{}", crops.text);
    let more = phone.answer("98").await;
    assert!(more.text.contains("1 Sorgho") || more.text.contains("1 Arachides"), "{}", more.text);
    phone.answer("0").await;
    // The crop's unit is known: its quantity is asked at once.
    assert!(phone.answer("2").await.text.starts_with("Combien de kg"), "beans, by the kg");
    assert!(phone.answer("0").await.text.starts_with("Que vendez-vous ?"), "0 goes back one question");
    assert!(phone.answer("4").await.text.starts_with("Combien de pièces"), "bananas, by the piece");
    let per_piece = phone.answer("40").await;
    assert!(per_piece.text.starts_with("Prix en USD pour 1 pièce ? Tapez # pour la virgule"), "{}", per_piece.text);
    phone.answers.truncate(phone.answers.len() - 4);
    assert!(phone.answer("2").await.text.contains("Combien de kg"));
    assert!(phone.answer("abc").await.text.starts_with("Écrivez un nombre entier de 1"));
    phone.answers.pop();
    phone.answer("120").await;
    assert!(phone.answer("1.234").await.text.starts_with("Écrivez un prix"));
    phone.answers.pop();
    let confirm = phone.answer("1#10").await;
    assert!(
        confirm.text.starts_with("Haricots : 120 kg, 1,10 USD par kg, dès 10 kg. Mettre en vente ?"),
        "the smallest order of the farmer's beans: {}",
        confirm.text
    );
    let done = phone.answer("1").await;
    assert!(done.text.starts_with("Haricots est en vente."), "{}", done.text);
    phone.repeat().await;

    let mine = app.call(Method::GET, "/farmer/products", &token, None).await.json::<Value>().await.unwrap();
    let products = mine["data"].as_array().unwrap();
    assert_eq!(products.len(), 2, "one product whatever the repeats: {mine}");
    let p = &products[0];
    assert_eq!(
        (p["title"].as_str(), p["title_en"].as_str(), p["title_sw"].as_str()),
        (Some("Haricots"), Some("Beans"), Some("Maharage"))
    );
    assert_eq!(
        (p["quantity"].as_i64(), p["current_price"].as_f64(), p["min_order"].as_f64()),
        (Some(120), Some(1.1), Some(10.0))
    );
    assert_eq!(
        (
            p["shipping"]["available"].as_bool(),
            p["shipping"]["cost"].as_f64(),
            p["shipping"]["estimated_days"].as_str()
        ),
        (Some(true), Some(3.0), Some("2-3")),
        "delivered as the farmer's last listing"
    );
    assert_eq!((p["category"].as_str(), p["status"].as_str()), (Some("grains"), Some("active")));
    let found = app.get("/products?search=maharage", None).await.json::<Value>().await.unwrap();
    let titles: Vec<&Value> = found["data"].as_array().unwrap().iter().map(|p| &p["title_sw"]).collect();
    assert!(titles.contains(&&json!("Maharage")), "found by its Kiswahili name: {found}");
}

#[tokio::test]
async fn a_farmer_ships_delivers_and_cancels_orders_and_reads_earnings() {
    let app = ussd_app().await;
    let (farmer, number) = farmer_with_phone(&app, "amani@example.com").await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let beans = app
        .listed(
            &farmer,
            json!({"title": "Beans", "title_fr": "Haricots", "description": "Dry", "quantity": 50, "price": 2,
                   "current_price": 2}),
        )
        .await;
    let first: Value = app.place(&buyer, order(1, json!([line(beans, 5, 200)]))).await.json().await.unwrap();
    let second: Value = app.place(&buyer, order(2, json!([line(beans, 3, 200)]))).await.json().await.unwrap();
    let (first_id, second_id) = (first["data"]["id"].as_i64().unwrap(), second["data"]["id"].as_i64().unwrap());

    let mut phone = app.phone(&number);
    let list = phone.go(&["3", "2580", "2580"]).await;
    assert!(
        list.text.contains(&format!("#{second_id} nouvelle")) && list.text.contains(&format!("#{first_id} nouvelle")),
        "{}",
        list.text
    );
    let detail = phone.go(&["3", "2580", "2"]).await;
    assert!(detail.text.starts_with(&format!("#{first_id} nouvelle, pour Bukavu : Haricots 5kg")), "{}", detail.text);
    assert!(
        detail.text.contains("1 Accepter\n2 Refuser"),
        "a new order is accepted or declined first: {}",
        detail.text
    );
    let accepted = phone.answer("1").await;
    assert_eq!(accepted.text, format!("La commande #{first_id} est maintenant acceptée. L'acheteur est prévenu."));
    let seen: Value = app.get(&format!("/orders/{first_id}"), Some(&buyer)).await.json().await.unwrap();
    assert!(seen["data"]["parts"][0]["accepted_at"].is_string(), "{seen}");
    assert_eq!(seen["data"]["parts"][0]["status"], "processing", "being prepared");
    assert!(seen["data"]["events"].as_array().unwrap().iter().any(|e| e["kind"] == "accepted"), "{seen}");
    let detail = phone.go(&["3", "2580", "2"]).await;
    assert!(detail.text.starts_with(&format!("#{first_id} acceptée")), "{}", detail.text);
    assert!(detail.text.contains("1 Marquer expédiée\n2 Annuler"), "{}", detail.text);
    let shipped = phone.answer("1").await;
    assert_eq!(shipped.text, format!("La commande #{first_id} est maintenant expédiée. L'acheteur est prévenu."));
    let delivered = phone.go(&["3", "2580", "2", "1"]).await;
    assert!(delivered.text.contains("livrée"), "{}", delivered.text);
    let mine: Value = app.get(&format!("/orders/{first_id}"), Some(&buyer)).await.json().await.unwrap();
    assert_eq!(mine["data"]["parts"][0]["status"], "delivered", "the buyer's app sees it: {mine}");

    let reasons = phone.go(&["3", "2580", "1", "2"]).await;
    assert!(reasons.text.starts_with("Pourquoi annuler ou refuser ?\n1 Plus de stock"), "{}", reasons.text);
    let cancelled = phone.answer("1").await;
    assert!(cancelled.text.contains("annulée"), "{}", cancelled.text);
    let theirs: Value = app.get(&format!("/orders/{second_id}"), Some(&buyer)).await.json().await.unwrap();
    assert_eq!(theirs["data"]["parts"][0]["status"], "cancelled");
    assert_eq!(theirs["data"]["parts"][0]["cancel_reason"], "Plus de stock");
    assert_eq!(product(&app, beans).await["quantity"], 45, "the cancelled part's stock is back");

    let earnings = phone.go(&["4", "2580"]).await;
    // 5 kg at 2.00 and the default shipping of 5.00, delivered; the cancelled part waits for nothing.
    assert!(earnings.text.starts_with("Ce mois : 15,00 USD. En attente de livraison : 0,00 USD."), "{}", earnings.text);
    let today = time::OffsetDateTime::now_utc().to_offset(time::macros::offset!(+2)).date();
    let sale = format!("{:02}/{:02} 15,00 #{first_id}", today.day(), u8::from(today.month()));
    assert!(earnings.text.contains(&sale), "the day as the price SMS write it: {}", earnings.text);
}

#[tokio::test]
async fn prices_come_from_delivered_sales_and_sellers_arrive_by_sms() {
    // Sales are market prices (docs/prices.md): the figures of this week across every market.
    let app = ussd_app().await;
    let (farmer, _) = farmer_with_phone(&app, "amani@example.com").await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let beans = app
        .listed(
            &farmer,
            json!({"title": "Red beans", "description": "Dry", "quantity": 90, "price": 1.4, "current_price": 1.4}),
        )
        .await;
    app.listed(
        &farmer,
        json!({"title": "Soybeans", "description": "Dry", "quantity": 90, "price": 9, "current_price": 9}),
    )
    .await;
    for (n, cents) in [(1, 140), (2, 120), (3, 100)] {
        let placed: Value = app.place(&buyer, order(n, json!([line(beans, 2, cents)]))).await.json().await.unwrap();
        app.sql(&format!("UPDATE products SET current_price_cents = {} WHERE id = {beans}", cents - 20));
        let (id, part) = (placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap());
        app.patch_part(&farmer, id, part, json!({"status": "shipped"})).await;
        app.patch_part(&farmer, id, part, json!({"status": "delivered"})).await;
    }
    let mut visitor = app.phone("+250788000009");
    let prices = visitor.go(&["2", "2"]).await;
    let week = time::OffsetDateTime::now_utc().to_offset(time::macros::offset!(+2)).date();
    let week = week - time::Duration::days(i64::from(week.weekday().number_days_from_monday()));
    let week = format!("{:02}/{:02}", week.day(), u8::from(week.month()));
    assert_eq!(
        prices.text,
        format!("Beans, all markets, week of {week}: 1.20 USD per kg (from 1.00 to 1.40, 3 prices).")
    );
    let none = visitor.go(&["2", "1"]).await;
    assert_eq!(none.text, "Maize, all markets: no prices in the last 12 weeks.");
    let sent = visitor.go(&["3", "2"]).await;
    assert_eq!(sent.text, "We sent you an SMS with sellers of Beans.");
    let texts: Vec<String> =
        app.sms_bodies().into_iter().filter(|(to, _)| to == "+250788000009").map(|(_, b)| b).collect();
    assert_eq!(texts.len(), 1);
    assert!(texts[0].starts_with("Beans on MAVUNO: Amani (Kabare) 0.80/kg"), "{}", texts[0]);
    assert!(!texts[0].contains("9.00"), "soybeans are not beans: {}", texts[0]);
}

#[tokio::test]
async fn bad_input_gets_the_same_screen_and_bad_requests_a_polite_end() {
    let app = ussd_app().await;
    let mut phone = app.phone("+243971000005");
    phone.dial().await;
    let wrong = phone.answer("9").await;
    assert!(wrong.more && wrong.text.starts_with("Choisissez de 1 à 5.\nBienvenue sur MAVUNO"), "{}", wrong.text);
    let back = phone.answer("0").await;
    assert!(back.text.starts_with("Bienvenue sur MAVUNO"), "0 on the main menu stays there");

    let (status, body) =
        app.ussd_raw("not-the-token", &[("sessionId", "x"), ("phoneNumber", "+243971000005"), ("text", "")]).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(body.contains("\"code\":\"not_found\""));
    for fields in [vec![("sessionId", "x"), ("text", "")], vec![("sessionId", "x"), ("phoneNumber", "0991234567")]] {
        let (status, body) = app.ussd_raw(TOKEN, &fields).await;
        assert_eq!(status, StatusCode::OK);
        assert!(body.starts_with("END Sorry, this request could not be read."), "{body}");
    }
    // A number's request that cannot be read is answered in its language.
    for fields in [
        vec![("sessionId", ""), ("phoneNumber", "+243971000005"), ("text", "1")],
        vec![("phoneNumber", "+243971000005")],
    ] {
        let (status, body) = app.ussd_raw(TOKEN, &fields).await;
        assert_eq!(status, StatusCode::OK);
        assert!(body.starts_with("END Désolé, cette demande est illisible."), "{body}");
    }
    let long = "1*".repeat(400);
    let (status, body) =
        app.ussd_raw(TOKEN, &[("sessionId", "x"), ("phoneNumber", "+243971000005"), ("text", &long)]).await;
    assert_eq!((status, body.starts_with("END ")), (StatusCode::OK, true), "{body}");
    let huge = "9".repeat(10_000);
    let (status, body) =
        app.ussd_raw(TOKEN, &[("sessionId", "x"), ("phoneNumber", "+243971000005"), ("text", &huge)]).await;
    assert_eq!((status, body.starts_with("END ")), (StatusCode::OK, true), "an oversized request: {body}");
}

#[tokio::test]
async fn each_number_has_a_few_requests_a_minute() {
    let app = spawn_with(|config| {
        config.gateway_token = Some(TOKEN.into());
        config.ussd_max_requests = 3;
    })
    .await;
    let mut phone = app.phone("+250788000010");
    for _ in 0..3 {
        assert!(phone.dial().await.more);
    }
    let slowed = phone.dial().await;
    assert!(!slowed.more && slowed.text.starts_with("Too many requests"), "{}", slowed.text);
    assert!(app.phone("+250788000011").dial().await.more, "another number is not slowed");
}

#[tokio::test]
async fn a_number_gets_a_few_sms_it_asks_for_an_hour_by_ussd_and_sms_together() {
    // Dialling is free to the caller and each SMS costs the platform one.
    let app = ussd_app().await;
    let (farmer, _) = farmer_with_phone(&app, "amani@example.com").await;
    app.listed(&farmer, json!({"title": "Beans", "description": "Dry", "quantity": 9, "price": 1, "current_price": 1}))
        .await;
    let number = "+250788000012";
    let mut phone = app.phone(number);
    for _ in 0..9 {
        assert_eq!(phone.go(&["3", "2"]).await.text, "We sent you an SMS with sellers of Beans.");
    }
    let fields = [("from", number), ("text", "PRICE beans"), ("id", "asked-10")];
    app.client.post(app.api(&format!("/sms/incoming/{TOKEN}"))).form(&fields).send().await.unwrap();
    let refused = phone.go(&["3", "2"]).await;
    assert!(!refused.more);
    assert_eq!(refused.text, "You have asked for many SMS this hour. Please try again later.");
    let sent = app.sms_bodies().into_iter().filter(|(to, _)| to == number).count();
    assert_eq!(sent, 10, "nine sellers and one price, then nothing");
    assert_eq!(
        app.phone("+250788000013").go(&["3", "2"]).await.text,
        "We sent you an SMS with sellers of Beans.",
        "another number is not held back"
    );
}

#[tokio::test]
async fn the_app_tries_the_menu_as_its_own_number_and_admins_as_any() {
    let app = ussd_app().await;
    let (farmer, number) = farmer_with_phone(&app, "amani@example.com").await;
    let try_menu = |token: String, body: Value| {
        let app = &app;
        async move { app.call(Method::POST, "/ussd/try", &token, Some(body)).await }
    };
    let own = try_menu(farmer.clone(), json!({"session_id": "web-1", "text": "", "phone": "+243971000099"})).await;
    assert_eq!(own.status(), StatusCode::OK);
    let screen: Value = own.json().await.unwrap();
    assert!(screen["text"].as_str().unwrap().starts_with("MAVUNO - Amani\n1 Mes produits"), "its own number: {screen}");
    assert_eq!(screen["end"], false);
    let visitor =
        app.client.post(app.api("/ussd/try")).json(&json!({"session_id": "w", "text": ""})).send().await.unwrap();
    assert_eq!(visitor.status(), StatusCode::UNAUTHORIZED);
    let no_phone = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let refused = try_menu(no_phone, json!({"session_id": "web-2", "text": ""})).await;
    assert_eq!(error_of(refused, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["phone"][0], "no_phone_number");
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let as_farmer = try_menu(admin, json!({"session_id": "web-3", "text": "", "phone": number, "lang": "en"})).await;
    let screen: Value = as_farmer.json().await.unwrap();
    assert!(screen["text"].as_str().unwrap().starts_with("MAVUNO - Amani\n1 Mes produits"), "{screen}");
}

#[tokio::test]
async fn a_joined_number_applies_to_sell_over_two_sessions_and_is_approved() {
    let app = ussd_app().await;
    let mut phone = app.phone("+243971000060");
    phone.go(&["1", "Zawadi", "Kahindo", "1", "2", "1"]).await;
    let first = phone.go(&["1"]).await;
    assert!(first.text.starts_with("1/19 Quelle surface cultivez-vous ?"), "{}", first.text);
    for answer in ["2", "2", "1", "2", "1", "1", "1"] {
        let screen = phone.answer(answer).await;
        assert!(screen.more, "{}", screen.text);
    }
    assert!(phone.answer("x").await.text.starts_with("Écrivez de 2 à 80 caractères."));
    for answer in ["Paillage et rotation", "1", "2", "Les longues pluies", "2", "Les ravageurs"] {
        phone.answer(answer).await;
    }
    // The session ends here (the person put the phone down): every answer is saved.
    let resumed = phone.go(&["1"]).await;
    assert!(resumed.text.starts_with("14/19 Perdez-vous une partie"), "{}", resumed.text);
    assert!(phone.answer("1").await.text.starts_with("15/19 Combien est perdu"));
    assert!(phone.answer("150").await.text.starts_with("Écrivez un nombre entier de 0 à 100."));
    for answer in ["20", "1", "2", "Meilleures semences"] {
        assert!(phone.answer(answer).await.more);
    }
    let confirm = phone.answer("Vendre ensemble").await;
    assert!(confirm.text.starts_with("Envoyer votre demande pour vendre sur MAVUNO ?"), "{}", confirm.text);
    let sent = phone.answer("1").await;
    assert!(sent.text.starts_with("Votre demande est envoyée."), "{}", sent.text);
    phone.repeat().await;

    let conn = app.database();
    let row: (i64, String, String, String, i64, i64, i64) = conn
        .query_row(
            "SELECT COUNT(*) OVER (), s.status, s.land_size, s.farming_techniques, s.post_harvest_losses, s.loss_percentage,
                    s.selling_challenges
             FROM surveys s JOIN users u ON u.id = s.user_id WHERE u.phone_number = '+243971000060'",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)),
        )
        .unwrap();
    assert_eq!(row, (1, "pending".into(), "1-2 hectares".into(), "Paillage et rotation".into(), 1, 20, 0));
    let waiting = phone.go(&["1"]).await;
    assert!(waiting.text.starts_with("Votre demande attend d'etre examinée."), "{}", waiting.text);

    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let id: i64 = conn.query_row("SELECT id FROM surveys", [], |r| r.get(0)).unwrap();
    // The admin's review shows the number, and that it is a basic phone's: no email to write to.
    let listed: Value = app.call(Method::GET, "/admin/surveys", &admin, None).await.json().await.unwrap();
    let applicant = &listed["data"][0]["user"];
    assert_eq!(
        (applicant["email"].clone(), applicant["phone_number"].clone(), applicant["basic_phone"].clone()),
        (Value::Null, json!("+243971000060"), json!(true))
    );
    let comment = "Notre agent passera à Kabare mardi pour voir vos champs et vous montrer l'application.";
    let review = json!({"farmer_survey_form": {"status": "approved", "admin_comment": comment, "notify": true}});
    let decided = app.call(Method::PATCH, &format!("/admin/surveys/{id}"), &admin, Some(review)).await;
    assert_eq!(decided.status(), StatusCode::OK, "{}", decided.text().await.unwrap());
    // The decision reaches the basic phone by SMS with the comment, in French, in one segment.
    let texted = app.sms_bodies().into_iter().rev().find(|(to, _)| to == "+243971000060").unwrap().1;
    assert!(
        texted.starts_with(&format!(
            "MAVUNO: Zawadi, votre demande d'agriculteur no {id} est approuvée. Notre agent passera"
        )),
        "{texted}"
    );
    assert!(mavuno::platform::gsm7::units(&texted).is_some_and(|n| n <= 160), "{texted}");
    let farmer = phone.dial().await;
    assert!(farmer.text.starts_with("MAVUNO - Zawadi\n1 Mes produits"), "approved: the farmer's menu: {}", farmer.text);
    // And in the farmer's menu: Settings, My application.
    let theirs = phone.go(&["8", "5"]).await;
    assert!(theirs.text.starts_with("Votre demande est approuvée : Notre agent passera à Kabare"), "{}", theirs.text);
}

#[tokio::test]
async fn a_learner_sees_each_course_s_progress_and_gets_the_next_lesson_by_sms() {
    let app = ussd_app().await;
    let admin = crate::courses::admin(&app).await;
    let (learner, number) = farmer_with_phone(&app, "amani@example.com").await;
    let mut phone = app.phone(&number);
    let none = phone.go(&["6"]).await;
    assert!(!none.more && none.text.starts_with("Vous ne suivez pas encore de formation."), "{}", none.text);

    let course = app.course(&admin, crate::courses::fields("Beans", "farming", "beginner")).await;
    app.call(Method::POST, &format!("/courses/{}/enrol", course.id), &learner, None).await;
    let event = json!({"event_uid": "e1", "lesson_id": course.lessons[0], "kind": "completed"});
    assert_eq!(app.progress(&learner, course.id, event).await.status(), StatusCode::OK);
    let list = phone.go(&["6"]).await;
    assert!(list.text.starts_with("Vos formations :\n1 Beans 33%"), "{}", list.text);
    let detail = phone.answer("1").await;
    assert!(detail.text.starts_with("Beans : lecons faites 1/3. Suivante : Spacing"), "{}", detail.text);
    let sent = phone.answer("1").await;
    assert_eq!(sent.text, "Nous avons envoyé la lecon \"Spacing\" par SMS. Les quiz et les images sont dans l'app.");
    phone.repeat().await;
    let texts: Vec<String> = app.sms_bodies().into_iter().filter(|(to, _)| *to == number).map(|(_, b)| b).collect();
    assert_eq!(texts, ["Spacing: Soil. Compost."], "the lesson's words, once");
}

#[tokio::test]
async fn a_forgotten_pin_is_reset_with_the_sms_code_and_a_session_in_kiswahili_changes_stock() {
    let app = ussd_app().await;
    let (token, number) = farmer_with_phone(&app, "amani@example.com").await;
    let maize = app
        .listed(
            &token,
            json!({"title": "Maize", "description": "Dry", "quantity": 50, "price": 0.5, "current_price": 0.5}),
        )
        .await;
    let mut phone = app.phone(&number);
    phone.go(&["1", "2580", "2580"]).await;
    let switched = phone.go(&["8", "1", "3"]).await;
    assert!(switched.text.starts_with("MAVUNO - Amani\n1 Bidhaa zangu"), "{}", switched.text);

    // Forgot PIN: a code by SMS, then a new PIN twice.
    let asked = phone.go(&["8", "3"]).await;
    assert!(asked.text.starts_with("Tumetuma namba ya siri kwa SMS."), "{}", asked.text);
    let code = app
        .sms_bodies()
        .into_iter()
        .filter(|(to, _)| *to == number)
        .find_map(|(_, body)| body.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 6).map(str::to_owned))
        .expect("a six-digit code by SMS");
    assert!(phone.answer("000000").await.text.starts_with("Namba hii si sahihi."));
    assert!(phone.answer(&code).await.text.starts_with("Chagua PIN ya tarakimu 4."));
    phone.answer("4826").await;
    let done = phone.answer("4826").await;
    assert_eq!(done.text, "PIN yako mpya imehifadhiwa.");
    let old = phone.go(&["1", "2580"]).await;
    assert!(old.text.starts_with("PIN si sahihi,"), "the old PIN no longer opens: {}", old.text);

    let stock = phone.go(&["1", "4826", "1", "1", "12"]).await;
    assert_eq!(stock.text, "Maize: akiba sasa ni 12 kg.");
    let product: Value = app.get(&format!("/products/{maize}"), None).await.json().await.unwrap();
    assert_eq!(product["data"]["quantity"], 12);
}
