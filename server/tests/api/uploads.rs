use mavuno::model::user::Role;
use reqwest::StatusCode;
use serde_json::Value;

use crate::helpers::*;

#[tokio::test]
async fn a_photo_is_stored_once_under_its_hash() {
    let app = spawn_app().await;
    let token = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let photo = png(1600, 1200);
    let hash = sha(&photo);
    let url = app.api(&format!("/uploads/{hash}"));

    let head = app.client.head(&url).bearer_auth(&token).send().await.unwrap();
    assert_eq!(head.status(), StatusCode::NOT_FOUND, "not sent yet");

    let first = app
        .client
        .put(&url)
        .bearer_auth(&token)
        .header("content-type", "image/png")
        .body(photo.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(first.status(), StatusCode::CREATED);
    let body: Value = first.json().await.unwrap();
    assert_eq!(body["upload"]["sha256"], hash);
    assert_eq!(body["upload"]["bytes"], photo.len());
    for (key, width) in [("thumbnail_url", 320), ("display_url", 1024)] {
        let image =
            app.client.get(format!("{}{}", app.origin, body["upload"][key].as_str().unwrap())).send().await.unwrap();
        assert_eq!(image.status(), StatusCode::OK);
        let decoded = image::load_from_memory(&image.bytes().await.unwrap()).unwrap();
        assert_eq!(decoded.width(), width);
    }
    assert!(app.data_dir.join(format!("media/{hash}-720.jpg")).exists(), "a phone's size is made at once");

    // A retry after a lost answer changes nothing.
    let again = app.client.put(&url).bearer_auth(&token).body(photo.clone()).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::OK);
    let again: Value = again.json().await.unwrap();
    assert_eq!(again["upload"], body["upload"]);
    let head = app.client.head(&url).bearer_auth(&token).send().await.unwrap();
    assert_eq!(head.status(), StatusCode::OK);
    let count: i64 = app.database().query_row("SELECT COUNT(*) FROM uploads", [], |r| r.get(0)).unwrap();
    assert_eq!(count, 1);
}

#[tokio::test]
async fn damaged_foreign_or_oversized_bodies_are_refused() {
    let app = spawn_app().await;
    let token = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let photo = png(100, 100);
    let put = |hash: String, body: Vec<u8>| {
        app.client.put(app.api(&format!("/uploads/{hash}"))).bearer_auth(&token).body(body).send()
    };

    let mut damaged = photo.clone();
    damaged[60] ^= 0xff;
    let body = error_of(put(sha(&photo), damaged).await.unwrap(), StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"]["sha256"][0], "hash_mismatch");

    let text = b"<script>alert(1)</script>".to_vec();
    let body = error_of(put(sha(&text), text).await.unwrap(), StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
    assert_eq!(body["message"], "Please select a valid image file");

    let mut big = photo.clone();
    big.resize(5 * 1024 * 1024 + 1, 0);
    let body = error_of(put(sha(&big), big).await.unwrap(), StatusCode::PAYLOAD_TOO_LARGE).await;
    assert_eq!(body["message"], "Image size should be less than 5MB");

    let body = error_of(put("NOT-A-HASH".to_owned(), photo.clone()).await.unwrap(), StatusCode::BAD_REQUEST).await;
    assert_eq!(body["code"], "invalid_hash");

    let anonymous =
        app.client.put(app.api(&format!("/uploads/{}", sha(&photo)))).body(photo.clone()).send().await.unwrap();
    error_of(anonymous, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn a_photo_stored_before_the_phone_size_existed_gets_it_when_first_asked() {
    let app = spawn_app().await;
    let token = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let photo = png(1600, 1200);
    let hash = sha(&photo);
    let sent = app.client.put(app.api(&format!("/uploads/{hash}"))).bearer_auth(&token).body(photo).send().await;
    assert_eq!(sent.unwrap().status(), StatusCode::CREATED);
    // As an older server left it: 320 and 1024 px only.
    let medium = app.data_dir.join(format!("media/{hash}-720.jpg"));
    std::fs::remove_file(&medium).unwrap();

    let image = app.client.get(format!("{}/media/{hash}-720.jpg", app.origin)).send().await.unwrap();
    assert_eq!(image.status(), StatusCode::OK);
    assert!(image.headers()["cache-control"].to_str().unwrap().contains("immutable"));
    assert!(image.headers().get("last-modified").is_none(), "named by its content: never revalidated");
    let decoded = image::load_from_memory(&image.bytes().await.unwrap()).unwrap();
    assert_eq!((decoded.width(), decoded.height()), (720, 540));
    assert!(medium.exists(), "made once, then served as a file");

    // Nothing else is made: unknown pictures, other sizes, other names.
    for path in [
        format!("/media/{}-720.jpg", "cd".repeat(32)),
        format!("/media/{hash}-500.jpg"),
        format!("/media/{hash}-2048.jpg"),
        format!("/media/{hash}-720.png"),
    ] {
        let answer = app.client.get(format!("{}{path}", app.origin)).send().await.unwrap();
        assert_eq!(answer.status(), StatusCode::NOT_FOUND, "{path}");
    }
    let files = std::fs::read_dir(app.data_dir.join("media")).unwrap().count();
    assert_eq!(files, 3, "320, 720 and 1024 px of the one photo");
}
