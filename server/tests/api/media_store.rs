//! Pictures in an S3-compatible object store (docs/operations.md, Several nodes),
//! against a real one on loopback: rclone's `serve s3`, installed from PyPI by
//! scripts/test (MAVUNO_RCLONE) like the off-site copy's drill. Stored there and not in
//! the data dir, served at the same addresses with the same cache headers, unused
//! pictures cleaned up in the store; on PostgreSQL a second
//! node with a data dir of its own serves what the first stored.

use std::time::Duration;

use mavuno::model::user::Role;
use mavuno::platform::config::MediaSettings;
use reqwest::StatusCode;

use crate::helpers::*;
use crate::store::{self, Store, rclone};

/// The store's settings for pictures, in its bucket `pictures`.
fn pictures(store: &Store) -> MediaSettings {
    MediaSettings {
        url: "s3://pictures/mavuno".into(),
        endpoint: Some(store.endpoint.clone()),
        region: "us-east-1".into(),
        access_key_id: store::KEY_ID.into(),
        secret_access_key: store::SECRET.into(),
    }
}

/// The names the store holds under the pictures' prefix.
fn names(store: &Store) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(store.dir.path().join("pictures/mavuno"))
        .map(|dir| dir.map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

async fn upload(app: &TestApp, token: &str, bytes: Vec<u8>) -> String {
    let hash = sha(&bytes);
    let response =
        app.client.put(app.api(&format!("/uploads/{hash}"))).bearer_auth(token).body(bytes).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    hash
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pictures_live_in_the_object_store_and_every_node_serves_them() {
    let Some(rclone) = rclone() else {
        eprintln!("skipped: no rclone (scripts/test installs it into .tools/)");
        return;
    };
    let store = Store::start(&rclone).await;
    let settings = pictures(&store);
    let app = spawn_with(|config| config.media = Some(settings)).await;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let hash = upload(&app, &farmer, png(1600, 1200)).await;

    // In the store, three sizes; nothing in the data dir.
    let mut sizes: Vec<String> =
        mavuno::outbound::media::PHOTO_SIZES.iter().map(|s| format!("{hash}-{s}.jpg")).collect();
    sizes.sort();
    assert_eq!(names(&store), sizes);
    assert!(std::fs::read_dir(app.state.media.dir()).unwrap().next().is_none(), "the data dir holds none");

    // Served at the same address, cached for a year.
    let get = |path: String| app.client.get(format!("{}{path}", app.origin)).send();
    let display = get(format!("/media/{hash}-1024.jpg")).await.unwrap();
    assert_eq!(display.status(), StatusCode::OK);
    assert_eq!(display.headers()["content-type"], "image/jpeg");
    assert_eq!(display.headers()["cache-control"], "public, max-age=31536000, immutable");
    let bytes = display.bytes().await.unwrap();
    assert_eq!(image::load_from_memory(&bytes).unwrap().width(), 1024);
    assert_eq!(get(format!("/media/{hash}-720.jpg")).await.unwrap().status(), StatusCode::OK);
    for missing in
        [format!("/media/{}-320.jpg", "cd".repeat(32)), "/media/..%2F..%2Fetc%2Fpasswd".into(), "/media/x.jpg".into()]
    {
        assert_eq!(get(missing.clone()).await.unwrap().status(), StatusCode::NOT_FOUND, "{missing}");
    }

    // A second node with a data dir of its own serves what the first stored.
    if on_postgres() {
        let settings = pictures(&store);
        let (b, _dir) = crate::nodes::second_node_with(&app, |config| config.media = Some(settings)).await;
        let served = b.client.get(format!("{}/media/{hash}-320.jpg", b.origin)).send().await.unwrap();
        assert_eq!(served.status(), StatusCode::OK);
        let kept = store.dir.path().join(format!("pictures/mavuno/{hash}-320.jpg"));
        assert_eq!(served.bytes().await.unwrap().to_vec(), std::fs::read(kept).unwrap());
    }

    // The upload was never used: the clean-up removes it from the store.
    assert_eq!(app.state.housekeeping().collect_unused(Duration::from_secs(3600)).await.unwrap(), 0);
    assert_eq!(app.state.housekeeping().collect_unused(Duration::ZERO).await.unwrap(), 3);
    assert!(names(&store).is_empty(), "{:?}", names(&store));
}

#[tokio::test]
async fn a_store_that_does_not_answer_is_a_503_not_a_500() {
    let Some(rclone) = rclone() else { return };
    let store = Store::start(&rclone).await;
    let settings = pictures(&store);
    let app = spawn_with(|config| config.media = Some(settings)).await;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    drop(store);
    let bytes = png(40, 30);
    let hash = sha(&bytes);
    let response =
        app.client.put(app.api(&format!("/uploads/{hash}"))).bearer_auth(&farmer).body(bytes).send().await.unwrap();
    assert_eq!(error_of(response, StatusCode::SERVICE_UNAVAILABLE).await["code"], "media_unavailable");
}
