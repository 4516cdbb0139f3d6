use jsonwebtoken::{EncodingKey, Header};
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

fn secret(app: &TestApp) -> String {
    std::fs::read_to_string(app.data_dir.join("jwt-secret")).unwrap()
}

fn sign(claims: &Value, secret: &str) -> String {
    jsonwebtoken::encode(&Header::default(), claims, &EncodingKey::from_secret(secret.as_bytes())).unwrap()
}

fn now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

#[tokio::test]
async fn me_needs_a_token() {
    let app = spawn_app().await;
    let body = error_of(app.get("/me", None).await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(body["code"], "missing_token");
    let response = app.client.get(app.api("/me")).header("authorization", "Basic abc").send().await.unwrap();
    error_of(response, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn forged_tokens_are_refused() {
    let app = spawn_app().await;
    let (token, user) = app.register("amani@example.com").await;
    let body = error_of(app.me("not.a.jwt").await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(body["code"], "invalid_token");

    // Signed with another secret.
    let claims = json!({"sub": user["id"].to_string(), "jti": "x", "iat": now(), "exp": now() + 3600});
    let body =
        error_of(app.me(&sign(&claims, "some-other-secret-of-enough-length")).await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(body["code"], "invalid_token");

    // Signed with the right secret but for a session that was never started.
    let body = error_of(app.me(&sign(&claims, &secret(&app))).await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(body["code"], "invalid_token");

    // A real session's id claimed for another user.
    let parts: Vec<&str> = token.split('.').collect();
    let payload: Value = serde_json::from_slice(&base64_decode(parts[1])).unwrap();
    let stolen = json!({"sub": "999", "jti": payload["jti"], "iat": now(), "exp": now() + 3600});
    let body = error_of(app.me(&sign(&stolen, &secret(&app))).await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(body["code"], "invalid_token");

    // "alg": "none" is never accepted.
    let unsigned = format!("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{}.", parts[1]);
    error_of(app.me(&unsigned).await, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn expired_tokens_are_refused() {
    let app = spawn_app().await;
    let (token, user) = app.register("amani@example.com").await;
    let payload: Value = serde_json::from_slice(&base64_decode(token.split('.').nth(1).unwrap())).unwrap();
    let claims =
        json!({"sub": user["id"].to_string(), "jti": payload["jti"], "iat": now() - 7200, "exp": now() - 3600});
    let body = error_of(app.me(&sign(&claims, &secret(&app))).await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(body["code"], "token_expired");
}

#[tokio::test]
async fn tokens_outlive_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let first = spawn_in(dir.path(), |_| {}).await;
    let (token, _) = first.register("amani@example.com").await;
    drop(first);
    let second = spawn_in(dir.path(), |_| {}).await;
    assert_eq!(second.me(&token).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn logout_revokes_only_that_token_at_once() {
    let app = spawn_app().await;
    let (phone, _) = app.register("amani@example.com").await;
    let laptop = app.login_token("amani@example.com", PASSWORD).await;
    let response = app.client.post(app.api("/auth/logout")).bearer_auth(&phone).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["success"], true);
    let body = error_of(app.me(&phone).await, StatusCode::UNAUTHORIZED).await;
    assert_eq!(body["code"], "invalid_token");
    assert_eq!(app.me(&laptop).await.status(), StatusCode::OK);
    // Logging out twice is a 401, not an error of ours.
    let again = app.client.post(app.api("/auth/logout")).bearer_auth(&phone).send().await.unwrap();
    error_of(again, StatusCode::UNAUTHORIZED).await;
}

/// JWT segments are unpadded base64url.
fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for byte in text.bytes() {
        let value = ALPHABET.iter().position(|b| *b == byte).unwrap() as u32;
        bits = (bits << 6) | value;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
            bits &= (1 << count) - 1;
        }
    }
    out
}
