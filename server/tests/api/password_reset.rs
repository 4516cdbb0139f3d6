//! Forgotten passwords: a link by email that works once, for an hour, and the same
//! answer whether or not the email has an account.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

impl TestApp {
    /// The reset links emailed to `to`, newest last (read from the outbox in SQLite).
    fn reset_links(&self, to: &str) -> Vec<String> {
        let conn = self.database();
        let mut stmt = conn.prepare("SELECT body FROM email_outbox WHERE to_email = ?1 ORDER BY id").unwrap();
        let bodies = stmt.query_map([to], |r| r.get::<_, String>(0)).unwrap().map(Result::unwrap).collect::<Vec<_>>();
        bodies
            .iter()
            .filter_map(|b| b.split_whitespace().find(|w| w.contains("/reset-password?token=")).map(str::to_owned))
            .collect()
    }

    async fn forgot(&self, email: &str) -> reqwest::Response {
        self.client.post(self.api("/password/forgot")).json(&json!({ "email": email })).send().await.unwrap()
    }

    async fn reset(&self, token: &str, password: &str, confirmation: &str) -> reqwest::Response {
        let body = json!({ "token": token, "password": password, "password_confirmation": confirmation });
        self.client.post(self.api("/password/reset")).json(&body).send().await.unwrap()
    }
}

fn token_of(link: &str) -> &str {
    link.split("token=").nth(1).unwrap()
}

#[tokio::test]
async fn a_forgotten_password_is_reset_once_by_an_emailed_link() {
    let app = spawn_with(|config| config.public_url = Some("https://mavuno.example".into())).await;
    let (old_token, _) = app.register("amani.reset@example.com").await;

    // Known and unknown addresses get the same answer; only the known one gets mail.
    let known = app.forgot("Amani.Reset@Example.com ").await;
    assert_eq!(known.status(), StatusCode::ACCEPTED);
    let known = known.json::<Value>().await.unwrap();
    let unknown = app.forgot("nobody.here@example.com").await;
    assert_eq!(unknown.status(), StatusCode::ACCEPTED);
    assert_eq!(unknown.json::<Value>().await.unwrap(), known);
    assert!(app.reset_links("nobody.here@example.com").is_empty());
    let links = app.reset_links("amani.reset@example.com");
    assert_eq!(links.len(), 1);
    // The link points at the configured public address, never at a forged Host header.
    assert!(links[0].starts_with("https://mavuno.example/reset-password?token="), "{}", links[0]);
    let token = token_of(&links[0]).to_owned();
    assert!(token.len() >= 64);

    // A new password that does not pass the sign-up rules is refused; the link still works.
    let short = app.reset(&token, "abc", "abc").await;
    assert_eq!(
        error_of(short, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["password"][0],
        "password_too_short"
    );
    assert_eq!(
        app.reset("not-a-token", "new-secret-1", "new-secret-1").await.status(),
        StatusCode::UNPROCESSABLE_ENTITY
    );

    let done = app.reset(&token, "new-secret-1", "new-secret-1").await;
    assert_eq!(done.status(), StatusCode::OK);
    // Every phone signed in before is signed out; the new password works, the old does not.
    assert_eq!(app.me(&old_token).await.status(), StatusCode::UNAUTHORIZED);
    assert_eq!(app.login("amani.reset@example.com", "new-secret-1").await.status(), StatusCode::OK);
    assert_eq!(app.login("amani.reset@example.com", PASSWORD).await.status(), StatusCode::UNAUTHORIZED);
    // Used once: never again.
    let again = app.reset(&token, "another-secret", "another-secret").await;
    assert_eq!(error_of(again, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["token"][0], "reset_link_used");
    // Only the hash of the token is stored.
    let conn = app.database();
    let stored: String = conn.query_row("SELECT token_hash FROM password_resets", [], |r| r.get(0)).unwrap();
    assert_ne!(stored, token);
    assert_eq!(stored, sha(token.as_bytes()));
}

#[tokio::test]
async fn an_expired_link_is_refused_and_asking_is_throttled() {
    let app = spawn_app().await;
    app.register("baraka.reset@example.com").await;
    app.forgot("baraka.reset@example.com").await;
    let token = token_of(&app.reset_links("baraka.reset@example.com")[0]).to_owned();
    app.sql("UPDATE password_resets SET expires_at = '2020-01-01T00:00:00Z'");
    let late = app.reset(&token, "new-secret-1", "new-secret-1").await;
    assert_eq!(error_of(late, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["token"][0], "reset_link_expired");

    // At most three links an hour reach one account; the answers stay the same.
    for _ in 0..3 {
        assert_eq!(app.forgot("baraka.reset@example.com").await.status(), StatusCode::ACCEPTED);
    }
    assert_eq!(app.reset_links("baraka.reset@example.com").len(), 3);
    // Past five requests in 15 minutes for one email, the answer is 429 with a wait.
    assert_eq!(app.forgot("baraka.reset@example.com").await.status(), StatusCode::ACCEPTED);
    let throttled = app.forgot("baraka.reset@example.com").await;
    assert_eq!(throttled.status(), StatusCode::TOO_MANY_REQUESTS);
    assert!(throttled.headers().contains_key("retry-after"));
    // Malformed requests are 4xx JSON, never 500.
    let bad =
        app.client.post(app.api("/password/forgot")).json(&json!({ "email": "not an email" })).send().await.unwrap();
    assert_eq!(error_of(bad, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["email"][0], "email_invalid");
    let garbage = app
        .client
        .post(app.api("/password/reset"))
        .body("{")
        .header("content-type", "application/json")
        .send()
        .await
        .unwrap();
    assert_eq!(garbage.status(), StatusCode::BAD_REQUEST);
    let long = app.reset(&"x".repeat(10_000), "new-secret-1", "new-secret-1").await;
    assert_eq!(long.status(), StatusCode::UNPROCESSABLE_ENTITY);
}

/// The six-digit codes texted, oldest first.
fn codes(app: &TestApp) -> Vec<String> {
    app.sms_bodies()
        .iter()
        .filter_map(|(_, body)| body.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 6).map(str::to_owned))
        .collect()
}

async fn reset_by_code(app: &TestApp, phone: &str, code: &str, password: &str) -> reqwest::Response {
    let body = json!({ "phone_number": phone, "code": code, "password": password, "password_confirmation": password });
    app.client.post(app.api("/password/reset")).json(&body).send().await.unwrap()
}

#[tokio::test]
async fn a_code_by_sms_resets_the_password_once_and_wrong_codes_spend_it() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    // SMS updates off: a code the person asked for comes anyway.
    app.sql("UPDATE users SET sms_updates = 0");
    let (national, international) = (phone_of("amani@example.com"), e164_of("amani@example.com"));
    let ask = |phone: &str| app.client.post(app.api("/password/forgot")).json(&json!({ "phone_number": phone })).send();
    let answer = ask(&national).await.unwrap();
    assert_eq!(answer.status(), StatusCode::ACCEPTED);
    let words = answer.json::<Value>().await.unwrap()["message"].clone();
    let unknown = ask("+243 970 000 000").await.unwrap();
    assert_eq!(
        (unknown.status(), unknown.json::<Value>().await.unwrap()["message"].clone()),
        (StatusCode::ACCEPTED, words)
    );
    let texts = app.sms_bodies();
    assert_eq!(texts.len(), 1, "nothing texted for a number without an account");
    assert_eq!(texts[0].0, international);
    assert!(
        texts[0].1.starts_with("MAVUNO: Amani, votre code pour choisir un nouveau mot de passe est "),
        "{}",
        texts[0].1
    );
    let code = codes(&app)[0].clone();

    let wrong = reset_by_code(&app, &international, "000000", "a new passphrase 1").await;
    assert_eq!(error_of(wrong, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["code"][0], "reset_code_wrong");
    let right = reset_by_code(&app, &national, &code, "a new passphrase 1").await;
    assert_eq!(right.status(), StatusCode::OK);
    assert_eq!(app.me(&token).await.status(), StatusCode::UNAUTHORIZED, "signed out everywhere");
    app.login_token("amani@example.com", "a new passphrase 1").await;
    let again = reset_by_code(&app, &national, &code, "another passphrase 2").await;
    assert_eq!(error_of(again, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["code"][0], "reset_code_expired");

    // Five wrong codes spend the open one, even if the sixth is right; thirty sent at
    // once are counted each before any is used (in the transaction that checks it).
    ask(&national).await.unwrap();
    let fresh = codes(&app)[1].clone();
    let guesses: Vec<String> = (0..30).map(|n| format!("{:06}", 100_000 + n)).filter(|guess| *guess != fresh).collect();
    let sent = guesses.iter().map(|guess| reset_by_code(&app, &national, guess, "another passphrase 2"));
    assert!(futures_util::future::join_all(sent).await.iter().all(|r| r.status() == StatusCode::UNPROCESSABLE_ENTITY));
    let late = reset_by_code(&app, &national, &fresh, "another passphrase 2").await;
    assert_eq!(error_of(late, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["code"][0], "reset_code_expired");
    // Only hashes are kept.
    let stored: Vec<String> = app
        .database()
        .prepare("SELECT token_hash FROM password_resets WHERE kind = 'sms'")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let stored = stored.join(",");
    assert!(!stored.contains(&code) && !stored.contains(&fresh));
}
