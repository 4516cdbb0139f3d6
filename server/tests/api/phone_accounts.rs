//! Accounts with a phone number and no email (docs/accounts.md): sign-up, sign-in
//! by any written form of the number, uniqueness, and what they are sent.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

fn phone_only(phone: &str, country: &str) -> Vec<(&'static str, String)> {
    let mut fields = registration("unused@example.com");
    fields.retain(|(name, _)| !["email", "phone_number", "country"].contains(name));
    fields.push(("phone_number", phone.to_owned()));
    fields.push(("country", country.to_owned()));
    fields
}

impl TestApp {
    async fn login_by_phone(&self, phone: &str, password: &str) -> reqwest::Response {
        let body = json!({"user": {"phone_number": phone, "password": password}});
        self.client.post(self.api("/users/login")).json(&body).send().await.unwrap()
    }
}

#[tokio::test]
async fn a_person_signs_up_with_a_phone_number_alone_and_signs_in_with_it() {
    let app = spawn_app().await;
    let response = app.post_form("/users", user_form(&phone_only("0991 000 111", "DRC"))).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let user = response.json::<Value>().await.unwrap()["data"]["user"].clone();
    assert_eq!((user["email"].clone(), user["phone_number"].clone()), (Value::Null, json!("+243991000111")));

    for typed in ["0991 000 111", "+243 991 000 111", "00243991000111", "991000111"] {
        let response = app.login_by_phone(typed, PASSWORD).await;
        assert_eq!(response.status(), StatusCode::OK, "{typed}");
        assert_eq!(response.json::<Value>().await.unwrap()["user"]["id"], user["id"]);
    }
    let wrong = error_of(app.login_by_phone("0991000111", "not the password").await, StatusCode::UNAUTHORIZED).await;
    let unknown = error_of(app.login_by_phone("0991000222", PASSWORD).await, StatusCode::UNAUTHORIZED).await;
    assert_eq!((wrong["code"].clone(), unknown["code"].clone()), (json!("invalid_credentials"), wrong["code"].clone()));
    let blank = error_of(app.login_by_phone(" ", "").await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(
        blank["error_codes"],
        json!({"phone_number": ["phone_number_required"], "password": ["password_required"]})
    );
    // The spec's email sign-in is unchanged for accounts that have one.
    app.register("amani@example.com").await;
    assert_eq!(app.login("amani@example.com", PASSWORD).await.status(), StatusCode::OK);
    assert_eq!(app.login_by_phone(&phone_of("amani@example.com"), PASSWORD).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_national_number_that_names_accounts_in_two_countries_signs_in_by_password() {
    let app = spawn_app().await;
    app.post_form("/users", user_form(&phone_only("0781 000 111", "RWA"))).await;
    let mut other = phone_only("0781 000 111", "UGA");
    other.retain(|(name, _)| !name.starts_with("password"));
    other.extend([("password", "uganda-pass".to_owned()), ("password_confirmation", "uganda-pass".to_owned())]);
    assert_eq!(app.post_form("/users", user_form(&other)).await.status(), StatusCode::CREATED);
    let rwanda = app.login_by_phone("0781000111", PASSWORD).await.json::<Value>().await.unwrap();
    let uganda = app.login_by_phone("0781000111", "uganda-pass").await.json::<Value>().await.unwrap();
    assert_eq!(
        (rwanda["user"]["phone_number"].clone(), uganda["user"]["phone_number"].clone()),
        (json!("+250781000111"), json!("+256781000111"))
    );
}

#[tokio::test]
async fn a_phone_number_is_unique_like_an_email_and_must_be_readable() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    // The same number written another way, with a taken email too: both are said at once.
    let mut again = registration("amani@example.com");
    again.retain(|(name, _)| *name != "phone_number");
    again.push(("phone_number", e164_of("amani@example.com")));
    let body = error_of(app.post_form("/users", user_form(&again)).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"], json!({"email": ["email_taken"], "phone_number": ["phone_taken"]}));
    let unreadable = app.post_form("/users", user_form(&phone_only("12345", "DRC"))).await;
    let body = error_of(unreadable, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"], json!({"phone_number": ["phone_number_invalid"]}));

    // A profile cannot take another account's number, and changing one's own needs the password.
    let (_, baraka) = app.register("baraka@example.com").await;
    let taken = [("phone_number", phone_of("baraka@example.com")), ("current_password", PASSWORD.to_owned())];
    let body = error_of(app.update_me(&token, user_form(&taken)).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"], json!({"phone_number": ["phone_taken"]}));
    let unchecked = [("phone_number", "0991 000 333".to_owned())];
    let body = error_of(app.update_me(&token, user_form(&unchecked)).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"], json!({"current_password": ["current_password_required"]}));
    let free = [("phone_number", "0991 000 333".to_owned()), ("current_password", PASSWORD.to_owned())];
    assert_eq!(app.update_me(&token, user_form(&free)).await.status(), StatusCode::OK);
    assert_eq!(app.login_by_phone("0991000333", PASSWORD).await.status(), StatusCode::OK);
    // An erased account's number is free again.
    let baraka_token = app.login_token("baraka@example.com", PASSWORD).await;
    let erased = app.client.delete(app.api("/me/delete")).bearer_auth(&baraka_token).send().await.unwrap();
    assert!(erased.status().is_success(), "{}", baraka["id"]);
    let reuse = [("phone_number", phone_of("baraka@example.com")), ("current_password", PASSWORD.to_owned())];
    assert_eq!(app.update_me(&token, user_form(&reuse)).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_phone_only_account_gets_texts_and_no_email() {
    let app = spawn_app().await;
    let response = app.post_form("/users", user_form(&phone_only("0991 000 444", "DRC"))).await;
    let token = response.json::<Value>().await.unwrap()["data"]["token"].as_str().unwrap().to_owned();
    let admin = app.user_with_role("admin@example.com", mavuno::model::user::Role::Admin).await;
    let id = app.submitted(&token, None).await.as_i64().unwrap();
    let decision = json!({"farmer_survey_form": {"status": "approved", "admin_comment": "", "notify": true}});
    let answer = app.call(reqwest::Method::PATCH, &format!("/admin/surveys/{id}"), &admin, Some(decision)).await;
    assert!(answer.status().is_success());
    let texts = app.sms_bodies();
    assert_eq!(texts.len(), 1);
    assert_eq!(texts[0].0, "+243991000444");
    let conn = app.database();
    let emails: i64 = conn.query_row("SELECT COUNT(*) FROM email_outbox", [], |r| r.get(0)).unwrap();
    assert_eq!(emails, 0, "nothing is written to an address the person does not have");
    // The reset code is how such a person sets a password they forgot.
    let ask = json!({"phone_number": "0991000444"});
    let asked = app.client.post(app.api("/password/forgot")).json(&ask).send().await.unwrap();
    assert_eq!(asked.status(), StatusCode::ACCEPTED);
    assert_eq!(app.sms_bodies().len(), 2);
}
