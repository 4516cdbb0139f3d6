//! SMS commands (docs/ussd.md): Africa's Talking's incoming-message callback,
//! keywords in three languages, one GSM-7 segment per answer, through the outbox.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;
use crate::ussd::{TOKEN, farmer_with_phone, ussd_app};

impl TestApp {
    /// Posts a message as Africa's Talking does; the callback's answer.
    pub async fn text_in(&self, from: &str, text: &str, id: &str) -> (StatusCode, Value) {
        let fields = [
            ("date", "2026-11-25 10:00:00"),
            ("from", from),
            ("id", id),
            ("linkId", "SampleLinkId123"),
            ("text", text),
            ("to", "21525"),
            ("networkCode", "63001"),
        ];
        let response =
            self.client.post(self.api(&format!("/sms/incoming/{TOKEN}"))).form(&fields).send().await.unwrap();
        (response.status(), response.json().await.unwrap_or(Value::Null))
    }

    /// The answers written to `number`, oldest first; each one GSM-7 segment.
    pub fn answers_to(&self, number: &str) -> Vec<String> {
        let answers: Vec<String> =
            self.sms_bodies().into_iter().filter(|(to, _)| to == number).map(|(_, body)| body).collect();
        for body in &answers {
            assert!(mavuno::platform::gsm7::units(body).is_some_and(|n| n <= 160), "one GSM-7 segment: {body}");
        }
        answers
    }
}

#[tokio::test]
async fn keywords_in_each_language_are_answered_in_the_number_s_language() {
    let app = ussd_app().await;
    let (status, body) = app.text_in("+243971000020", "PRIX mais", "m1").await;
    assert_eq!((status, body["effect"].as_str()), (StatusCode::OK, Some("answered")));
    app.text_in("+254711000021", "bei mahindi", "m2").await;
    app.text_in("+250788000022", "hello there", "m3").await;
    app.text_in("+243971000023", "", "m4").await;
    assert_eq!(
        app.answers_to("+243971000020"),
        ["Mais-grain, tous les marchés : aucun prix ces 12 dernières semaines."]
    );
    assert_eq!(app.answers_to("+254711000021"), ["Mahindi, masoko yote: hakuna bei katika wiki 12 zilizopita."]);
    let help = &app.answers_to("+250788000022")[0];
    assert!(help.starts_with("MAVUNO: PRICE maize = prices."), "{help}");
    assert!(app.answers_to("+243971000023")[0].starts_with("MAVUNO : PRIX haricot"), "help in French");

    app.text_in("+243971000020", "LANGUE sw", "m5").await;
    app.text_in("+243971000020", "AIDE", "m6").await;
    let answers = app.answers_to("+243971000020");
    assert_eq!(answers[1], "MAVUNO itakuandikia kwa Kiswahili.");
    assert!(answers[2].starts_with("MAVUNO: BEI mahindi"), "the chosen language is kept: {}", answers[2]);
    app.text_in("+243971000020", "BEI kitu", "m7").await;
    assert!(app.answers_to("+243971000020")[3].starts_with("Hatujui zao hili."));
}

#[tokio::test]
async fn a_message_posted_twice_is_answered_once_and_a_number_a_few_times_an_hour() {
    let app = ussd_app().await;
    app.text_in("+243971000030", "AIDE", "same-id").await;
    let (_, again) = app.text_in("+243971000030", "AIDE", "same-id").await;
    assert_eq!(again["effect"], "repeated");
    assert_eq!(app.answers_to("+243971000030").len(), 1);
    for n in 0..9 {
        app.text_in("+243971000030", "AIDE", &format!("id-{n}")).await;
    }
    let (_, throttled) = app.text_in("+243971000030", "AIDE", "id-10").await;
    assert_eq!(throttled["effect"], "throttled");
    assert_eq!(app.answers_to("+243971000030").len(), 10);
}

#[tokio::test]
async fn a_farmer_changes_stock_by_sms_with_the_pin() {
    let app = ussd_app().await;
    let (token, number) = farmer_with_phone(&app, "amani@example.com").await;
    let beans = app
        .listed(
            &token,
            json!({"title": "Beans", "description": "Dry", "quantity": 20, "price": 1.2, "current_price": 1.2}),
        )
        .await;
    app.text_in(&number, "STOCK 1 40 2580", "s1").await;
    assert!(
        app.answers_to(&number)[0].starts_with("Choisissez d'abord votre PIN"),
        "a PIN is chosen in the menu first"
    );
    app.phone(&number).go(&["1", "2580", "2580"]).await;
    app.text_in(&number, "STOCK 1 40 1111", "s2").await;
    app.text_in(&number, "stock 1 40 2580", "s3").await;
    app.text_in(&number, "STOCK 2 40 2580", "s4").await;
    app.text_in(&number, "STOCK un 40", "s5").await;
    let answers = app.answers_to(&number);
    assert_eq!(answers[1], "PIN incorrect, encore 4 essais. Renvoyez STOCK avec votre PIN.");
    assert_eq!(answers[2], "Beans : le stock est maintenant de 40 kg.");
    assert_eq!(answers[3], "Vous n'avez pas de produit 2. Vos produits : 1 Beans");
    assert!(answers[4].starts_with("Ecrivez STOCK, le numéro du produit") || answers[4].starts_with("Écrivez STOCK"));
    let product: Value = app.get(&format!("/products/{beans}"), None).await.json().await.unwrap();
    assert_eq!(product["data"]["quantity"], 40);

    app.text_in("+243971000031", "STOCK 1 40 2580", "s6").await;
    assert!(app.answers_to("+243971000031")[0].starts_with("Ce numéro n'a pas de compte MAVUNO."));
}

#[tokio::test]
async fn sellers_near_a_place_come_first() {
    let app = ussd_app().await;
    let (amani, amani_number) = farmer_with_phone(&app, "amani@example.com").await;
    let (esther, esther_number) = farmer_with_phone(&app, "esther@example.com").await;
    app.sql(
        "UPDATE users SET first_name = 'Esther', location = 'Uvira, South Kivu' WHERE email = 'esther@example.com'",
    );
    app.listed(
        &amani,
        json!({"title": "Haricots rouges", "description": "Secs", "quantity": 9, "price": 1.3, "current_price": 1.3}),
    )
    .await;
    app.listed(
        &esther,
        json!({"title": "Beans", "description": "Dry", "quantity": 9, "price": 1.1, "current_price": 1.1}),
    )
    .await;
    app.text_in("+243971000040", "VENDEURS haricots uvira", "v1").await;
    app.text_in("+243971000040", "VENDEURS haricots", "v2").await;
    app.text_in("+243971000040", "VENDEURS chocolat", "v3").await;
    let answers = app.answers_to("+243971000040");
    assert_eq!(answers[0], "Haricots sur MAVUNO : Esther (Uvira) 1,10/kg; Amani (Kabare) 1,30/kg");
    assert!(answers[1].starts_with("Haricots sur MAVUNO : Esther"), "newest first: {}", answers[1]);
    assert!(answers[2].starts_with("Nous ne connaissons pas ce produit."), "{}", answers[2]);
    assert!(!answers[0].contains("+243"), "no number without the farmer's leave");

    // Amani lets buyers call him (the USSD menu's settings); Esther does not.
    let shared = app.phone(&amani_number).go(&["8", "2"]).await;
    assert!(shared.text.starts_with("Les acheteurs qui demandent par SMS"), "{}", shared.text);
    app.text_in("+243971000040", "VENDEURS haricots uvira", "v4").await;
    let now = app.answers_to("+243971000040")[3].clone();
    assert!(now.ends_with(&format!("Amani (Kabare) 1,30/kg {amani_number}")), "{now}");
    assert!(now.contains("Esther (Uvira) 1,10/kg;"), "{now}");

    // Three sellers who all give their numbers fit one segment, their places shortened.
    let (baraka, baraka_number) = farmer_with_phone(&app, "baraka@example.com").await;
    app.sql("UPDATE users SET first_name = 'Baraka', location = 'Kavumu village, Kabare, South Kivu' WHERE email = 'baraka@example.com'");
    app.listed(
        &baraka,
        json!({"title": "Beans", "description": "Dry", "quantity": 9, "price": 1.2, "current_price": 1.2}),
    )
    .await;
    for number in [&baraka_number, &esther_number] {
        app.phone(number).go(&["8", "2"]).await;
    }
    app.text_in("+243971000040", "VENDEURS haricots", "v5").await;
    let three = app.answers_to("+243971000040")[4].clone();
    for seller in [
        format!("Baraka (Kavumu village) 1,20/kg {baraka_number}"),
        format!("Esther (Uvira) 1,10/kg {esther_number}"),
        format!("Amani (Kabare) 1,30/kg {amani_number}"),
    ] {
        assert!(three.contains(&seller), "{seller} in {three}");
    }
}

#[tokio::test]
async fn only_the_gateway_posts_messages() {
    let app = ussd_app().await;
    let wrong = app
        .client
        .post(app.api("/sms/incoming/wrong-token"))
        .form(&[("from", "+243971000050"), ("text", "AIDE")])
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(wrong, StatusCode::NOT_FOUND).await["code"], "not_found");
    let malformed =
        app.client.post(app.api(&format!("/sms/incoming/{TOKEN}"))).form(&[("text", "AIDE")]).send().await.unwrap();
    assert_eq!(error_of(malformed, StatusCode::BAD_REQUEST).await["code"], "invalid_body");
    let national = app
        .client
        .post(app.api(&format!("/sms/incoming/{TOKEN}")))
        .form(&[("from", "0991234567"), ("text", "AIDE")])
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(national, StatusCode::BAD_REQUEST).await["code"], "invalid_body");
    assert!(app.sms_bodies().is_empty(), "nothing answered");
}
