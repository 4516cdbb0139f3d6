//! The platform's settings (docs/settings.md): everyone reads the contact details,
//! hours, shipping policy and payment methods; a super admin changes them, each change
//! recorded; the fee reaches farmers' ledgers, the payment methods checkout and payments,
//! the sender's name and default language the emails.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::orders::{line, order};

impl TestApp {
    async fn change_settings(&self, token: &str, change: Value) -> reqwest::Response {
        self.call(Method::PATCH, "/admin/settings", token, Some(change)).await
    }

    async fn public_settings(&self) -> Value {
        self.get("/settings", None).await.json::<Value>().await.unwrap()["data"].clone()
    }

    fn one_text(&self, sql: &str) -> Option<String> {
        let conn = self.database();
        conn.query_row(sql, [], |r| r.get(0)).unwrap()
    }
}

fn contact(hours_fr: &str) -> Value {
    json!({"address": {"en": "Avenue Kabare 4, Bukavu", "fr": "Avenue Kabare 4, Bukavu", "sw": "Avenue Kabare 4, Bukavu"},
           "hours": {"en": "Mon–Sat, 7 AM to 6 PM", "fr": hours_fr, "sw": "Jumatatu–Jumamosi, saa 1 asubuhi hadi saa 12 jioni"},
           "phone": "0991 234 567", "email": " Hello@Mavuno.example "})
}

#[tokio::test]
async fn a_super_admin_changes_the_settings_and_every_change_is_recorded() {
    let app = spawn_app().await;
    let admin = app.user_with_role("settings.admin@example.com", Role::Admin).await;
    let boss = app.user_with_role("settings.boss@example.com", Role::SuperAdmin).await;

    // Before anyone sets them: the catalogues' address and hours, every operator offered.
    let defaults = app.public_settings().await;
    assert_eq!(defaults["contact"]["hours"]["fr"], "Du lundi au vendredi, de 8 h à 17 h (GMT+2)");
    assert_eq!(defaults["contact"]["phone"], "");
    assert_eq!(defaults["payments"]["DRC"]["operators"], json!(["VODACOM_MPESA_COD", "AIRTEL_COD", "ORANGE_COD"]));
    assert!(defaults.get("platform_fee_bp").is_none(), "the fee is not public");

    // An admin reads but may not change.
    let read: Value = app.get("/admin/settings", Some(&admin)).await.json().await.unwrap();
    assert_eq!((read["can_change"].as_bool(), read["changes"].as_array().map(Vec::len)), (Some(false), Some(0)));
    let refused = app.change_settings(&admin, json!({"platform_fee_bp": 500})).await;
    assert_eq!(error_of(refused, StatusCode::FORBIDDEN).await["code"], "super_admin_only");

    // Every wrong field is named at once, and nothing is written.
    let mut bad = contact("");
    bad["phone"] = json!("12");
    bad["email"] = json!("nobody");
    let wrong = app
        .change_settings(
            &boss,
            json!({"contact": bad, "platform_fee_bp": 3001, "email_sender_name": "Evil <x@y>", "email_language": "de",
                   "ussd_code": "384#",
                   "payments": {"XXX": {"cash_on_delivery": true, "operators": []},
                                "KEN": {"cash_on_delivery": true, "operators": ["MTN_MOMO_UGA"]}},
                   "shipping_policy": {"en": "x".repeat(4001), "fr": "", "sw": "ok\u{202E}"}}),
        )
        .await;
    let codes = error_of(wrong, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"].clone();
    for (field, code) in [
        ("contact.hours.fr", "translation_required"),
        ("contact.phone", "phone_number_invalid"),
        ("contact.email", "email_invalid"),
        ("platform_fee_bp", "fee_invalid"),
        ("email_sender_name", "invalid_characters"),
        ("email_language", "invalid_option"),
        ("ussd_code", "ussd_code_invalid"),
        ("payments.XXX", "country_invalid"),
        ("payments.KEN", "operator_invalid"),
        ("shipping_policy.en", "too_long"),
        ("shipping_policy.sw", "invalid_characters"),
    ] {
        assert_eq!(codes[field][0], code, "{field}: {codes}");
    }
    let mut long = contact("Lun–ven");
    long["email"] = json!(format!("{}@example.com", "a".repeat(250)));
    let refused = app.change_settings(&boss, json!({"contact": long})).await;
    assert_eq!(
        error_of(refused, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["contact.email"][0],
        "too_long"
    );
    assert_eq!(app.public_settings().await, defaults);

    // A good change: written tidy, readable by anyone, recorded with who and when.
    let changed = app
        .change_settings(
            &boss,
            json!({"contact": contact("Du lundi au samedi, de 7 h à 18 h"), "platform_fee_bp": 250,
                   "payments": {"KEN": {"cash_on_delivery": false, "operators": ["MPESA_KEN"]},
                                "DRC": {"cash_on_delivery": true, "operators": ["ORANGE_COD", "AIRTEL_COD"]}},
                   "email_sender_name": "MAVUNO Bukavu", "email_language": "fr"}),
        )
        .await;
    assert_eq!(changed.status(), StatusCode::OK);
    let public = app.public_settings().await;
    assert_eq!(public["contact"]["hours"]["fr"], "Du lundi au samedi, de 7 h à 18 h");
    assert_eq!(
        (public["contact"]["phone"].as_str(), public["contact"]["email"].as_str()),
        (Some("+243991234567"), Some("Hello@Mavuno.example"))
    );
    assert_eq!(public["payments"]["DRC"]["operators"], json!(["AIRTEL_COD", "ORANGE_COD"]), "in the operators' order");
    assert_eq!(public["payments"]["KEN"]["cash_on_delivery"], false);
    assert_eq!(public["payments"]["UGA"], defaults["payments"]["UGA"], "countries not named keep theirs");
    let read: Value = app.get("/admin/settings", Some(&admin)).await.json().await.unwrap();
    assert_eq!(read["data"]["platform_fee_bp"], 250);
    let keys: Vec<&str> = read["changes"].as_array().unwrap().iter().map(|c| c["key"].as_str().unwrap()).collect();
    assert_eq!(keys.len(), 5, "{keys:?}");
    for key in ["contact", "platform_fee_bp", "payments", "email_sender_name", "email_language"] {
        assert!(keys.contains(&key), "{key} recorded");
    }
    let fee = read["changes"].as_array().unwrap().iter().find(|c| c["key"] == "platform_fee_bp").unwrap();
    assert_eq!((fee["old_value"].clone(), fee["new_value"].clone()), (Value::Null, json!(250)));
    assert_eq!(fee["changed_by"]["name"], "Test super_admin");
    assert!(fee["changed_at"].as_str().unwrap().ends_with('Z'));

    // The same values again change nothing and record nothing; a new fee records old and new.
    app.change_settings(&boss, json!({"platform_fee_bp": 250, "email_language": "fr"})).await;
    let again = app.change_settings(&boss, json!({"platform_fee_bp": 300})).await.json::<Value>().await.unwrap();
    assert_eq!(again["changes"].as_array().unwrap().len(), 6);
    assert_eq!(
        (again["changes"][0]["old_value"].clone(), again["changes"][0]["new_value"].clone()),
        (json!(250), json!(300))
    );
    // Older pages of the history.
    let newest = again["changes"][0]["id"].as_i64().unwrap();
    let older: Value = app.get(&format!("/admin/settings?before={newest}"), Some(&admin)).await.json().await.unwrap();
    assert_eq!(older["changes"].as_array().unwrap().len(), 5);
}

#[tokio::test]
async fn the_fee_the_methods_the_sender_and_the_language_are_used() {
    let app = spawn_app().await;
    let boss = app.user_with_role("boss@example.com", Role::SuperAdmin).await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let tomatoes = app
        .listed(&farmer, json!({"title": "Tomatoes", "description": "Ripe", "quantity": 50, "price": 2.5, "current_price": 2.5, "shipping_cost": 5}))
        .await;

    // An order placed before the fee keeps none; one placed after carries 2.5 %.
    let before = app.place(&buyer, order(1, json!([line(tomatoes, 2, 250)]))).await.json::<Value>().await.unwrap();
    let changed = app
        .change_settings(
            &boss,
            json!({"platform_fee_bp": 250, "email_sender_name": "MAVUNO Kivu", "email_language": "sw",
                   "payments": {"DRC": {"cash_on_delivery": false, "operators": ["AIRTEL_COD"]}}}),
        )
        .await;
    assert_eq!(changed.status(), StatusCode::OK);

    // Cash on delivery is no longer offered in the DRC; mobile money is, with Airtel only.
    let refused = app.place(&buyer, order(2, json!([line(tomatoes, 4, 250)]))).await;
    let codes = error_of(refused, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"].clone();
    assert_eq!(codes["payment_method"][0], "payment_method_unavailable");
    let mut mobile = order(2, json!([line(tomatoes, 4, 250)]));
    mobile["payment_method"] = json!("mobile_money");
    let after = app.place(&buyer, mobile).await;
    assert_eq!(after.status(), StatusCode::CREATED);
    let after = after.json::<Value>().await.unwrap();
    assert_eq!(
        (before["data"]["platform_fee_bp"].as_i64(), after["data"]["platform_fee_bp"].as_i64()),
        (Some(0), Some(250))
    );
    let offered: Value = app.get("/payments/operators?country=DRC", None).await.json().await.unwrap();
    assert_eq!(offered["data"], json!([{"id": "AIRTEL_COD", "name": "Airtel Money", "prefixes": ["97", "98", "99"]}]));
    let id = after["data"]["id"].as_i64().unwrap();
    let pay = |operator: &str| json!({"operator": operator, "phone": "+243990000001"});
    let vodacom =
        app.call(Method::POST, &format!("/orders/{id}/payments"), &buyer, Some(pay("VODACOM_MPESA_COD"))).await;
    assert_eq!(
        error_of(vodacom, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["operator"][0],
        "operator_invalid"
    );
    let airtel = app.call(Method::POST, &format!("/orders/{id}/payments"), &buyer, Some(pay("AIRTEL_COD"))).await;
    assert!(airtel.status().is_success(), "{}", airtel.status());

    // Both delivered: the ledger takes 2.5 % of the later one (15.00 → 0.38), none of the earlier.
    for placed in [&before, &after] {
        let (order_id, part) =
            (placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap());
        for status in ["shipped", "delivered"] {
            assert_eq!(
                app.patch_part(&farmer, order_id, part, json!({"status": status})).await.status(),
                StatusCode::OK
            );
        }
    }
    let earned: Value = app.call(Method::GET, "/farmer/earnings", &farmer, None).await.json().await.unwrap();
    let mut kinds: Vec<(String, i64)> = earned["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["kind"].as_str().unwrap().to_owned(), e["amount_cents"].as_i64().unwrap()))
        .collect();
    kinds.sort();
    assert_eq!(kinds, [("fee".to_owned(), -38), ("sale".to_owned(), 1000), ("sale".to_owned(), 1500)]);
    assert_eq!(earned["earned_cents"], 1000 + 1500 - 38);

    // Emails written now carry the sender's name; people of Rwanda read the default language.
    app.sql("UPDATE users SET country = 'RWA' WHERE email = 'buyer@example.com'");
    app.place(&buyer, {
        let mut o = order(3, json!([line(tomatoes, 2, 250)]));
        o["payment_method"] = json!("mobile_money");
        o
    })
    .await;
    let newest = "SELECT from_name FROM email_outbox WHERE to_email = 'buyer@example.com' ORDER BY id DESC LIMIT 1";
    assert_eq!(app.one_text(newest).as_deref(), Some("MAVUNO Kivu"));
    let oldest = "SELECT from_name FROM email_outbox WHERE to_email = 'buyer@example.com' ORDER BY id LIMIT 1";
    assert_eq!(app.one_text(oldest), None, "written before the name was set");
    let subject = "SELECT subject FROM email_outbox WHERE to_email = 'buyer@example.com' ORDER BY id DESC LIMIT 1";
    assert!(app.one_text(subject).unwrap().contains("Oda"), "{:?}", app.one_text(subject));
}
