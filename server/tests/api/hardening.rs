//! Hostile and unlucky traffic (docs/security.md): picture bombs, throttles
//! that hold under parallel attempts, stalled sockets, disk quotas, account
//! takeover with a borrowed token, and the smaller holes of issue 12.

use std::time::Duration;

use mavuno::model::user::Role;
use reqwest::StatusCode;
use reqwest::multipart::Form;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::helpers::*;

fn sha(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// A phone photo as a camera writes it: noisy, so it stays megabytes as a JPEG.
fn camera_jpeg(width: u32, height: u32) -> Vec<u8> {
    let mut seed = 0x2545_f491_u32;
    let img = image::RgbImage::from_fn(width, height, |x, y| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        image::Rgb([(x % 256) as u8, (y % 256) as u8, (seed & 0xff) as u8])
    });
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 95).encode_image(&img).unwrap();
    out
}

fn product_form() -> Form {
    Form::new()
        .text("product[title]", "Avocados")
        .text("product[description]", "Creamy Hass avocados")
        .text("product[quantity]", "30")
        .text("product[price]", "1.50")
        .text("product[current_price]", "1.20")
        .text("product[category]", "fruits")
        .text("product[unit]", "piece")
}

#[tokio::test]
async fn a_picture_bomb_is_refused_on_every_path_that_takes_pictures() {
    let app = spawn_app().await;
    let bomb = png_bomb(12_000, 12_000);
    assert!(bomb.len() < 1024 * 1024, "a bomb is small: {} bytes", bomb.len());
    let refused = |response: reqwest::Response| async move {
        let body = error_of(response, StatusCode::PAYLOAD_TOO_LARGE).await;
        assert_eq!(body["code"], "image_too_many_pixels");
    };

    let signup = user_form(&registration("bomb@example.com"))
        .part("user[avatar]", image_part(bomb.clone(), "a.png", "image/png"));
    refused(app.post_form("/users", signup).await).await;
    assert_eq!(app.login("bomb@example.com", PASSWORD).await.status(), StatusCode::UNAUTHORIZED, "nothing half-made");

    let (token, _) = app.register("avatar@example.com").await;
    let form = Form::new().part("user[avatar]", image_part(bomb.clone(), "a.png", "image/png"));
    refused(app.update_me(&token, form).await).await;

    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let upload = app.client.put(app.api(&format!("/uploads/{}", sha(&bomb)))).bearer_auth(&farmer).body(bomb.clone());
    refused(upload.send().await.unwrap()).await;

    let form = product_form().part("product[images][]", image_part(bomb, "a.png", "image/png"));
    refused(app.client.post(app.api("/farmer/products")).bearer_auth(&farmer).multipart(form).send().await.unwrap())
        .await;
    assert!(std::fs::read_dir(app.state.media.dir()).unwrap().next().is_none(), "nothing stored");
}

#[tokio::test]
async fn twenty_bombs_at_once_leave_the_servers_memory_bounded_and_it_keeps_serving() {
    let server = ServerProcess::start(&[], |_| {}).await;
    let bomb = png_bomb(12_000, 12_000);
    let health = server.client.get(server.api("/health")).send().await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
    let baseline = server.rss_mib();
    let sends: Vec<_> = (0..20)
        .map(|i| {
            let form = user_form(&registration(&format!("bomb{i}@example.com")))
                .part("user[avatar]", image_part(bomb.clone(), "a.png", "image/png"));
            tokio::spawn(server.client.post(server.api("/users")).multipart(form).send())
        })
        .collect();
    let (answers, peak) = tokio::join!(
        async {
            let mut answers = Vec::new();
            for send in sends {
                answers.push(send.await.unwrap());
            }
            answers
        },
        async {
            let mut peak = 0;
            for _ in 0..40 {
                peak = peak.max(server.rss_mib());
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            peak
        }
    );
    for answer in answers {
        assert_eq!(answer.unwrap().status(), StatusCode::PAYLOAD_TOO_LARGE);
    }
    let peak = peak.max(server.rss_mib());
    assert!(peak < baseline + 100, "memory grew from {baseline} MiB to {peak} MiB");
    let health = server.client.get(server.api("/health")).send().await.unwrap();
    assert_eq!(health.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_specs_product_form_takes_real_photos() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let photo = camera_jpeg(1600, 1200);
    assert!(photo.len() > 1024 * 1024, "a camera photo weighs megabytes: {}", photo.len());
    let form = product_form()
        .part("product[images][]", image_part(photo.clone(), "a.jpg", "image/jpeg"))
        .part("product[images][]", image_part(camera_jpeg(1200, 1600), "b.jpg", "image/jpeg"));
    let response =
        app.client.post(app.api("/farmer/products")).bearer_auth(&farmer).multipart(form).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["product"]["image_urls"].as_array().unwrap().len(), 2);
}
