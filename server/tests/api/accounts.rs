use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

const USER_KEYS: [&str; 15] = [
    "id",
    "first_name",
    "last_name",
    "full_name",
    "email",
    "phone_number",
    "country",
    "username",
    "role",
    "status",
    "location",
    "avatar_url",
    "business_profile",
    "created_at",
    "updated_at",
];

fn assert_user_shape(user: &Value) {
    let keys: Vec<&str> = user.as_object().unwrap().keys().map(String::as_str).collect();
    for key in USER_KEYS {
        assert!(keys.contains(&key), "user lacks {key}: {user}");
    }
    let text = user.to_string();
    assert!(!text.contains("password") && !text.contains("argon2"), "no password or hash leaks: {text}");
}

#[tokio::test]
async fn registering_with_the_specs_multipart_form_signs_the_person_in() {
    let app = spawn_app().await;
    let response = app.post_form("/users", user_form(&registration("Amani@Example.com"))).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["success"], true);
    assert_eq!(body["message"], "Registration successful! Welcome to MAVUNO.");
    let user = &body["data"]["user"];
    assert_user_shape(user);
    assert_eq!(user["email"], "amani@example.com");
    assert_eq!(user["full_name"], "Amani Bahati");
    assert_eq!(user["phone_number"], e164_of("amani@example.com"), "stored as E.164");
    assert_eq!(user["country"], "DRC");
    assert_eq!(user["role"], "user", "new accounts are buyers");
    assert_eq!(user["status"], "active");
    assert_eq!(user["avatar_url"], Value::Null);

    let token = body["data"]["token"].as_str().unwrap();
    let me: Value = app.me(token).await.json().await.unwrap();
    assert_eq!(me["success"], true);
    assert_eq!(me["user"]["id"], user["id"]);
    assert_user_shape(&me["user"]);
}

#[tokio::test]
async fn registering_with_json_works_too() {
    let app = spawn_app().await;
    let fields: serde_json::Map<String, Value> =
        registration("json@example.com").into_iter().map(|(k, v)| (k.to_owned(), Value::from(v))).collect();
    let response = app.client.post(app.api("/users")).json(&json!({ "user": fields })).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["data"]["user"]["email"], "json@example.com");
}

#[tokio::test]
async fn registration_errors_come_in_the_specs_order_and_words() {
    let app = spawn_app().await;
    let mut fields = vec![("password", "abc".to_owned()), ("password_confirmation", "abd".to_owned())];
    let expected = [
        "Passwords do not match",
        "Password must be at least 6 characters long",
        "First name is required",
        "Last name is required",
        "Phone number is required",
        "Country is required",
    ];
    let fixes: [&[(&str, &str)]; 6] = [
        &[("password", "abc"), ("password_confirmation", "abc")],
        &[("password", "abcdef"), ("password_confirmation", "abcdef")],
        &[("first_name", "Amani")],
        &[("last_name", "Bahati")],
        &[("phone_number", "0712345678")],
        &[("country", "KEN")],
    ];
    for (message, fix) in expected.iter().zip(fixes) {
        let body = error_of(app.post_form("/users", user_form(&fields)).await, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert_eq!(body["code"], "validation_failed");
        assert_eq!(body["message"], *message);
        let flattened: Vec<&str> = body["errors"]
            .as_object()
            .unwrap()
            .values()
            .flat_map(|list| list.as_array().unwrap().iter().map(|m| m.as_str().unwrap()))
            .collect();
        assert_eq!(flattened[0], *message, "the first error is the spec's next rule");
        assert_eq!(body["errors"].as_object().unwrap().len(), body["error_codes"].as_object().unwrap().len());
        for (name, value) in fix {
            fields.retain(|(n, _)| n != name);
            fields.push((name, (*value).to_owned()));
        }
    }
    let response = app.post_form("/users", user_form(&fields)).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["data"]["user"]["phone_number"], "+254712345678");
    assert_eq!(body["data"]["user"]["email"], Value::Null, "an email is optional");
}

#[tokio::test]
async fn registration_checks_email_and_country_formats() {
    let app = spawn_app().await;
    let mut fields = registration("not-an-email");
    fields.retain(|(n, _)| *n != "country");
    fields.push(("country", "FRA".to_owned()));
    let body = error_of(app.post_form("/users", user_form(&fields)).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"], json!({"email": ["email_invalid"], "country": ["country_invalid"]}));
}

#[tokio::test]
async fn an_email_can_only_be_registered_once_whatever_its_case() {
    let app = spawn_app().await;
    app.register("grace@example.com").await;
    let body = error_of(
        app.post_form("/users", user_form(&registration("GRACE@example.COM"))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(body["error_codes"]["email"][0], "email_taken");
    let users: i64 = app.database().query_row("SELECT COUNT(*) FROM users", [], |r| r.get(0)).unwrap();
    assert_eq!(users, 1);
}

#[tokio::test]
async fn an_avatar_is_reencoded_and_served_with_long_caching() {
    let app = spawn_app().await;
    let form = user_form(&registration("avatar@example.com"))
        .part("user[avatar]", image_part(png(900, 600), "me.png", "image/png"));
    let response = app.post_form("/users", form).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    let url = body["data"]["user"]["avatar_url"].as_str().expect("avatar_url").to_owned();
    assert!(url.starts_with("/media/") && url.ends_with(".jpg"), "{url}");

    let image = app.client.get(format!("{}{url}", app.origin)).send().await.unwrap();
    assert_eq!(image.status(), StatusCode::OK);
    assert_eq!(image.headers()["content-type"], "image/jpeg");
    assert!(image.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    let decoded = image::load_from_memory(&image.bytes().await.unwrap()).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (320, 213), "resized on the server");
}

#[tokio::test]
async fn an_empty_file_part_means_no_avatar() {
    let app = spawn_app().await;
    let form = user_form(&registration("nofile@example.com"))
        .part("user[avatar]", image_part(vec![], "", "application/octet-stream"));
    let response = app.post_form("/users", form).await;
    assert_eq!(response.status(), StatusCode::CREATED);
}

#[tokio::test]
async fn an_avatar_must_really_be_an_image() {
    let app = spawn_app().await;
    let disguised = b"<html><script>alert(1)</script></html>".to_vec();
    let form =
        user_form(&registration("fake@example.com")).part("user[avatar]", image_part(disguised, "me.png", "image/png"));
    let body = error_of(app.post_form("/users", form).await, StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
    assert_eq!(body["message"], "Please select a valid image file");
    let me = app.login("fake@example.com", PASSWORD).await;
    assert_eq!(me.status(), StatusCode::UNAUTHORIZED, "no account was made");
}

#[tokio::test]
async fn an_avatar_over_5_mb_is_refused() {
    let app = spawn_app().await;
    let mut big = png(10, 10);
    big.resize(5 * 1024 * 1024 + 1, 0);
    let form = user_form(&registration("big@example.com")).part("user[avatar]", image_part(big, "me.png", "image/png"));
    let body = error_of(app.post_form("/users", form).await, StatusCode::PAYLOAD_TOO_LARGE).await;
    assert_eq!(body["message"], "Image size should be less than 5MB");

    let mut huge = png(10, 10);
    huge.resize(12 * 1024 * 1024, 0);
    let form =
        user_form(&registration("huge@example.com")).part("user[avatar]", image_part(huge, "me.png", "image/png"));
    error_of(app.post_form("/users", form).await, StatusCode::PAYLOAD_TOO_LARGE).await;
}

#[tokio::test]
async fn sign_in_answers_alike_for_unknown_email_and_wrong_password() {
    let app = spawn_app().await;
    app.register("amani@example.com").await;
    let wrong_password = error_of(app.login("amani@example.com", "wrong-one").await, StatusCode::UNAUTHORIZED).await;
    let unknown = error_of(app.login("nobody@example.com", PASSWORD).await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(wrong_password, unknown);
    assert_eq!(unknown["message"], "Invalid email or password");

    let response = app.login(" AMANI@example.com ", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["success"], true);
    assert_user_shape(&body["user"]);
    assert!(body["user"]["token"].as_str().is_some_and(|t| t.split('.').count() == 3), "a JWT");
}

#[tokio::test]
async fn sign_in_needs_both_fields() {
    let app = spawn_app().await;
    let response = app.client.post(app.api("/users/login")).json(&json!({"user": {}})).send().await.unwrap();
    let body = error_of(response, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"], json!({"email": ["email_required"], "password": ["password_required"]}));
}

#[tokio::test]
async fn an_inactive_account_cannot_sign_in_and_its_sessions_stop() {
    let app = spawn_app().await;
    let (token, user) = app.register("amani@example.com").await;
    app.sql(&format!("UPDATE users SET status = 'inactive' WHERE id = {}", user["id"]));
    let body = error_of(app.login("amani@example.com", PASSWORD).await, StatusCode::FORBIDDEN).await;
    assert_eq!(body["code"], "account_inactive");
    let body = error_of(app.me(&token).await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(body["code"], "account_inactive");
    // A wrong password still says only "invalid", so status does not leak.
    let body = error_of(app.login("amani@example.com", "wrong-one").await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(body["code"], "invalid_credentials");
}

#[tokio::test]
async fn failed_sign_ins_are_throttled_then_allowed_again() {
    let app = spawn_with(|config| {
        config.login_max_failures = 3;
        config.login_window = std::time::Duration::from_secs(2);
    })
    .await;
    app.register("amani@example.com").await;
    for _ in 0..3 {
        error_of(app.login("amani@example.com", "wrong-one").await, StatusCode::UNAUTHORIZED).await;
    }
    let response = app.login("amani@example.com", PASSWORD).await;
    assert!(response.headers().contains_key("retry-after"));
    let body = error_of(response, StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(body["code"], "too_many_attempts");

    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    let response = app.login("amani@example.com", PASSWORD).await;
    assert_eq!(response.status(), StatusCode::OK, "the owner gets back in after the window");
    for _ in 0..5 {
        assert_eq!(
            app.login("amani@example.com", PASSWORD).await.status(),
            StatusCode::OK,
            "successes are not throttled"
        );
    }
}

#[tokio::test]
async fn failed_sign_ins_are_throttled_per_address_across_accounts() {
    let app = spawn_with(|config| config.login_address_max_failures = 3).await;
    for n in 0..3 {
        error_of(app.login(&format!("guess{n}@example.com"), "x").await, StatusCode::UNAUTHORIZED).await;
    }
    error_of(app.login("another@example.com", "x").await, StatusCode::TOO_MANY_REQUESTS).await;
}

#[tokio::test]
async fn a_profile_edit_changes_only_what_was_filled_in() {
    let app = spawn_app().await;
    let (token, before) = app.register("amani@example.com").await;
    let form = user_form(&[
        ("first_name", "Amani Grace".to_owned()),
        ("last_name", String::new()),
        ("country", "KEN".to_owned()),
        ("phone_number", "0712 345 678".to_owned()),
        ("current_password", PASSWORD.to_owned()),
        ("location", "Kabare, South Kivu".to_owned()),
        ("username", "amani_b".to_owned()),
        ("password", String::new()),
        ("password_confirmation", String::new()),
        ("role", "super_admin".to_owned()),
        ("status", "pending".to_owned()),
        ("id", "999".to_owned()),
    ]);
    let response = app.update_me(&token, form).await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["success"], true);
    assert_eq!(body["message"], "User details updated successfully");
    let user = &body["user"];
    assert_user_shape(user);
    assert_eq!(user["first_name"], "Amani Grace");
    assert_eq!(user["last_name"], "Bahati", "blank keeps the old value");
    assert_eq!(user["full_name"], "Amani Grace Bahati");
    assert_eq!(user["country"], "KEN");
    assert_eq!(user["phone_number"], "+254712345678");
    assert_eq!(user["location"], "Kabare, South Kivu");
    assert_eq!(user["username"], "amani_b");
    assert_eq!((&user["role"], &user["status"], &user["id"]), (&before["role"], &before["status"], &before["id"]));
    assert_eq!(app.login("amani@example.com", PASSWORD).await.status(), StatusCode::OK, "blank password kept");
}

#[tokio::test]
async fn a_new_password_needs_a_match_and_six_characters_and_ends_other_sessions() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let other_device = app.login_token("amani@example.com", PASSWORD).await;

    let mismatch = user_form(&[("password", "newpass1".to_owned()), ("password_confirmation", "newpass2".to_owned())]);
    let body = error_of(app.update_me(&token, mismatch).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["message"], "Passwords do not match");
    let short = user_form(&[("password", "abc".to_owned()), ("password_confirmation", "abc".to_owned())]);
    let body = error_of(app.update_me(&token, short).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["message"], "Password must be at least 6 characters long");

    let good = user_form(&[
        ("current_password", PASSWORD.to_owned()),
        ("password", "newpass1".to_owned()),
        ("password_confirmation", "newpass1".to_owned()),
    ]);
    assert_eq!(app.update_me(&token, good).await.status(), StatusCode::OK);
    assert_eq!(app.login("amani@example.com", PASSWORD).await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(app.login("amani@example.com", "newpass1").await.status(), StatusCode::OK);
    assert_eq!(app.me(&token).await.status(), StatusCode::OK, "this device stays signed in");
    assert_eq!(app.me(&other_device).await.status(), StatusCode::UNAUTHORIZED, "other devices are signed out");
}

#[tokio::test]
async fn a_profile_edit_cannot_take_someone_elses_email_or_username() {
    let app = spawn_app().await;
    let (first, _) = app.register("first@example.com").await;
    let (second, _) = app.register("second@example.com").await;
    assert_eq!(app.update_me(&first, user_form(&[("username", "Shamba".to_owned())])).await.status(), StatusCode::OK);
    let body = error_of(
        app.update_me(
            &second,
            user_form(&[
                ("email", "FIRST@example.com".to_owned()),
                ("username", "shamba".to_owned()),
                ("current_password", PASSWORD.to_owned()),
            ]),
        )
        .await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(body["error_codes"], json!({"email": ["email_taken"], "username": ["username_taken"]}));
    let body = error_of(
        app.update_me(&second, user_form(&[("email", "bad-address".to_owned())])).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(body["error_codes"]["email"][0], "email_invalid");
    // Taking back one's own email in another case is fine.
    let response = app.update_me(&second, user_form(&[("email", "Second@Example.com".to_owned())])).await;
    assert_eq!(response.status(), StatusCode::OK);
}

#[tokio::test]
async fn a_profile_edit_can_replace_the_avatar() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let form = user_form(&[]).part("user[avatar]", image_part(png(100, 100), "new.png", "image/png"));
    let body: Value = app.update_me(&token, form).await.json().await.unwrap();
    let url = body["user"]["avatar_url"].as_str().expect("avatar url");
    assert_eq!(app.client.get(format!("{}{url}", app.origin)).send().await.unwrap().status(), StatusCode::OK);
    // An edit without a file keeps it.
    let body: Value = app.update_me(&token, user_form(&[("first_name", "A".to_owned())])).await.json().await.unwrap();
    assert_eq!(body["user"]["avatar_url"], url);
}

#[tokio::test]
async fn deleting_an_account_erases_it_and_ends_its_sessions() {
    let app = spawn_app().await;
    let (token, user) = app.register("amani@example.com").await;
    let other_device = app.login_token("amani@example.com", PASSWORD).await;
    let response = app.client.delete(app.api("/me/delete")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["success"], true);

    assert_eq!(app.me(&token).await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(app.me(&other_device).await.status(), StatusCode::UNAUTHORIZED);
    let body = error_of(app.login("amani@example.com", PASSWORD).await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(body["code"], "invalid_credentials");

    // Personal data is gone; the row stays as an anonymous placeholder.
    let conn = app.database();
    let (email, first, phone, deleted): (Option<String>, String, Option<String>, Option<String>) = conn
        .query_row(
            "SELECT email, first_name, phone_number, deleted_at FROM users WHERE id = ?1",
            [user["id"].as_i64().unwrap()],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
        )
        .unwrap();
    assert!(email.is_none() && first.is_empty() && phone.is_none() && deleted.is_some());
    // The email is free for a new account.
    app.register("amani@example.com").await;
}

/// A password hashed with the old settings (argon2's default, 19 MiB) still signs in,
/// and is hashed again with today's (7 MiB) once it has: the next sign-in takes less
/// memory. A wrong password changes nothing.
#[tokio::test]
async fn a_password_of_the_old_settings_signs_in_and_is_rehashed() {
    use argon2::PasswordHasher;
    let app = spawn_app().await;
    let (_, user) = app.register("old.hash@example.com").await;
    let salt = argon2::password_hash::SaltString::encode_b64(b"sixteen byte slt").unwrap();
    let old = argon2::Argon2::default().hash_password(PASSWORD.as_bytes(), &salt).unwrap().to_string();
    let db = app.database();
    db.execute("UPDATE users SET password_hash = ?1 WHERE id = ?2", mavuno::db::params![old, user["id"].as_i64()])
        .unwrap();
    let stored = || -> String {
        db.query_row("SELECT password_hash FROM users WHERE id = ?1", [user["id"].as_i64()], |row| row.get(0)).unwrap()
    };

    assert_eq!(app.login("old.hash@example.com", "wrong-password").await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(stored(), old);
    assert_eq!(app.login("old.hash@example.com", PASSWORD).await.status(), StatusCode::OK);
    let mut rehashed = stored();
    for _ in 0..50 {
        if rehashed != old {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        rehashed = stored();
    }
    assert!(rehashed.starts_with("$argon2id$v=19$m=7168,t=5,p=1$"), "{rehashed}");
    assert_eq!(app.login("old.hash@example.com", PASSWORD).await.status(), StatusCode::OK);
}
