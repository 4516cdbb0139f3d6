//! Hostile and unlucky traffic (docs/security.md): picture bombs, throttles
//! that hold under parallel attempts, stalled sockets, disk quotas, account
//! takeover with a borrowed token, and the smaller holes of issue 12.

use std::time::Duration;

use mavuno::model::user::Role;
use reqwest::StatusCode;
use reqwest::multipart::Form;
use serde_json::{Value, json};

use crate::helpers::*;

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
    let server = ServerProcess::start(&[], &[], None).await;
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

/// A sign-in as if from `address` (through a trusted proxy on 127.0.0.1).
async fn login_from(app: &TestApp, address: &str, email: &str, password: &str) -> StatusCode {
    let body = serde_json::json!({"user": {"email": email, "password": password}});
    let request = app.client.post(app.api("/users/login")).header("x-forwarded-for", address).json(&body);
    request.send().await.unwrap().status()
}

fn behind_a_proxy(config: &mut mavuno::Config) {
    config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    config.login_spacing = Duration::from_millis(300);
}

#[tokio::test]
async fn two_hundred_parallel_guesses_get_ten_tries() {
    let app = spawn_app().await;
    app.register("amani@example.com").await;
    let guesses: Vec<_> = (0..200)
        .map(|n| {
            let body = serde_json::json!({"user": {"email": "amani@example.com", "password": format!("guess{n}")}});
            tokio::spawn(app.client.post(app.api("/users/login")).json(&body).send())
        })
        .collect();
    let mut checked = 0;
    for guess in guesses {
        match guess.await.unwrap().unwrap().status() {
            StatusCode::UNAUTHORIZED => checked += 1,
            StatusCode::TOO_MANY_REQUESTS => {}
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(checked, 10, "only ten passwords were checked");
}

#[tokio::test]
async fn parallel_contact_messages_stop_at_the_limit() {
    let app = spawn_app().await;
    let sends: Vec<_> = (0..200)
        .map(|n| {
            let contact = serde_json::json!({"contact": {"name": "Amani", "email": "a@example.com",
                "subject": format!("Question {n}"), "message": "When is the next market day?"}});
            tokio::spawn(app.client.post(app.api("/contact")).json(&contact).send())
        })
        .collect();
    let mut sent = 0;
    for send in sends {
        if send.await.unwrap().unwrap().status() == StatusCode::CREATED {
            sent += 1;
        }
    }
    assert_eq!(sent, 5);
}

#[tokio::test]
async fn an_attacker_elsewhere_does_not_lock_the_owner_out() {
    let app = spawn_with(behind_a_proxy).await;
    app.register("amani@example.com").await;
    for _ in 0..10 {
        assert_eq!(login_from(&app, "41.1.1.66", "amani@example.com", "wrong").await, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(login_from(&app, "41.1.1.66", "amani@example.com", PASSWORD).await, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(login_from(&app, "41.9.9.9", "amani@example.com", PASSWORD).await, StatusCode::OK, "the owner gets in");
}

#[tokio::test]
async fn failures_on_unknown_emails_do_not_lock_out_everyone_behind_the_address() {
    let app = spawn_with(behind_a_proxy).await;
    app.register("amani@example.com").await;
    // A carrier's address: someone behind it tries many emails that do not exist.
    for n in 0..30 {
        let status = login_from(&app, "41.2.2.2", &format!("guess{n}@example.com"), "x").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(login_from(&app, "41.2.2.2", "amani@example.com", PASSWORD).await, StatusCode::OK);
}

#[tokio::test]
async fn the_owners_own_address_is_slowed_down_not_blocked() {
    let app = spawn_with(behind_a_proxy).await;
    app.register("amani@example.com").await;
    assert_eq!(login_from(&app, "41.3.3.3", "amani@example.com", PASSWORD).await, StatusCode::OK);
    // Someone else behind the same address guesses (or the owner mistypes) ten times.
    for _ in 0..12 {
        assert_eq!(login_from(&app, "41.3.3.3", "amani@example.com", "wrong").await, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(login_from(&app, "41.3.3.3", "amani@example.com", PASSWORD).await, StatusCode::OK);
}

#[tokio::test]
async fn guesses_from_many_addresses_are_paced() {
    let app = spawn_with(behind_a_proxy).await;
    app.register("amani@example.com").await;
    for n in 0..10 {
        login_from(&app, &format!("41.4.4.{n}"), "amani@example.com", "wrong").await;
    }
    // Past ten failures from anywhere, attempts from new places take turns 300 ms apart.
    let started = std::time::Instant::now();
    for n in 10..14 {
        assert_eq!(
            login_from(&app, &format!("41.4.4.{n}"), "amani@example.com", "wrong").await,
            StatusCode::UNAUTHORIZED
        );
    }
    assert!(started.elapsed() >= Duration::from_millis(900), "paced: {:?}", started.elapsed());
}

#[tokio::test]
async fn forwarded_addresses_count_only_from_trusted_proxies() {
    let app = spawn_with(|config| config.login_address_max_failures = 3).await;
    for n in 0..3 {
        // Without a trusted proxy, a client cannot choose the address it is counted against.
        assert_eq!(
            login_from(&app, &format!("10.0.0.{n}"), &format!("g{n}@example.com"), "x").await,
            StatusCode::UNAUTHORIZED
        );
    }
    assert_eq!(login_from(&app, "10.0.0.9", "g@example.com", "x").await, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn a_flood_of_sign_ups_from_one_address_is_stopped() {
    let app = spawn_app().await;
    let signups: Vec<_> = (0..100)
        .map(|n| {
            tokio::spawn(
                app.client
                    .post(app.api("/users"))
                    .multipart(user_form(&registration(&format!("flood{n}@example.com"))))
                    .send(),
            )
        })
        .collect();
    let (mut created, mut refused) = (0, 0);
    for signup in signups {
        match signup.await.unwrap().unwrap().status() {
            StatusCode::CREATED => created += 1,
            StatusCode::TOO_MANY_REQUESTS => refused += 1,
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!((created, refused), (20, 80));
}

#[tokio::test]
async fn hsts_is_sent_only_for_https_through_a_trusted_proxy() {
    let app = spawn_with(|config| config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()]).await;
    let over_https = app.client.get(app.api("/health")).header("x-forwarded-proto", "https").send().await.unwrap();
    assert_eq!(over_https.headers()["strict-transport-security"], "max-age=31536000; includeSubDomains");
    let plain = app.get("/health", None).await;
    assert!(!plain.headers().contains_key("strict-transport-security"));
    let direct = spawn_app().await;
    let spoofed = direct.client.get(direct.api("/health")).header("x-forwarded-proto", "https").send().await.unwrap();
    assert!(!spoofed.headers().contains_key("strict-transport-security"), "only a trusted proxy says https");
}

#[tokio::test]
async fn a_flood_of_stalled_sockets_leaves_health_answering() {
    use tokio::io::AsyncWriteExt;
    // 256 files (a cap of 128 connections): without one, 600 half-sent requests take
    // every file; with only a header deadline, health would wait 15 s per round of 128.
    let mut server = ServerProcess::start(&[], &[], Some(256)).await;
    let address = server.origin.trim_start_matches("http://").to_owned();
    let mut stalled = Vec::new();
    for _ in 0..600 {
        // A socket the kernel refuses or the server already cut is part of the
        // flood's weather; the server stopping is not.
        let Ok(mut socket) = tokio::net::TcpStream::connect(&address).await else {
            if let Some(how) = server.stopped() {
                panic!("the server stopped during the flood: {how}");
            }
            continue;
        };
        socket.write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: mavuno\r\n").await.ok();
        stalled.push(socket);
    }
    assert!(stalled.len() > 256, "only {} sockets opened: no flood", stalled.len());
    let client = reqwest::Client::builder().no_proxy().timeout(Duration::from_secs(10)).build().unwrap();
    for round in 0..5 {
        let health = client.get(server.api("/health")).send().await;
        let health = health.unwrap_or_else(|err| {
            panic!(
                "health answers during the flood (round {round}): {err:?}; {:?}; its last lines:\n{}",
                server.stopped(),
                server.log_tail()
            )
        });
        assert_eq!(health.status(), StatusCode::OK);
    }
    drop(stalled);
}

fn count(app: &TestApp, sql: &str) -> i64 {
    let conn = app.database();
    conn.query_row(sql, [], |row| row.get(0)).unwrap()
}

#[tokio::test]
async fn a_rejected_change_stores_a_bounded_result_whatever_it_carries() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let huge = "x".repeat(300_000);
    let mutations = vec![
        crate::sync::mutation(1, "survey.delete", serde_json::json!({"uid": huge}), None),
        crate::sync::mutation(2, &format!("{huge}.x"), serde_json::json!({}), None),
        crate::sync::mutation(3, "product.create", serde_json::json!({"uid": 5, "title": huge}), None),
    ];
    let body = app.push_ok(&token, crate::sync::CLIENT_A, mutations).await;
    for result in body["results"].as_array().unwrap() {
        assert_eq!(result["status"], "rejected", "{result}");
    }
    let stored = count(&app, "SELECT MAX(LENGTH(result)) FROM sync_results");
    assert!(stored < 2048, "a stored result holds {stored} bytes");
}

#[tokio::test]
async fn mutation_ids_beyond_what_a_phone_can_count_are_refused() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    for ids in [vec![1u64 << 63], vec![u64::MAX, 0], vec![(1 << 53) + 1]] {
        let mutations = ids
            .iter()
            .map(|id| {
                crate::sync::mutation(*id, "survey.delete", serde_json::json!({"uid": crate::sync::uid(1)}), None)
            })
            .collect();
        let body = error_of(app.push(&token, crate::sync::CLIENT_A, mutations).await, StatusCode::BAD_REQUEST).await;
        assert_eq!(body["code"], "invalid_mutation_id", "{ids:?}");
    }
    assert_eq!(count(&app, "SELECT COUNT(*) FROM sync_results"), 0);
}

#[tokio::test]
async fn buyers_do_not_upload_and_uploaders_have_quotas() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("buyer@example.com").await;
    let photo = png(40, 30);
    let put = |token: &str, bytes: &[u8]| {
        app.client.put(app.api(&format!("/uploads/{}", sha(bytes)))).bearer_auth(token).body(bytes.to_vec()).send()
    };
    let body = error_of(put(&buyer, &photo).await.unwrap(), StatusCode::FORBIDDEN).await;
    assert_eq!(body["code"], "uploads_not_allowed");

    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let farmer_id = count(&app, "SELECT id FROM users WHERE email = 'farmer@example.com'");
    // 120 photos within the hour: the hourly rate is reached.
    let uploads = |numbers: std::ops::RangeInclusive<u32>, at: &str| {
        let rows: Vec<String> = numbers.map(|i| format!("('{i:064}', {farmer_id}, 1000, '{at}')")).collect();
        format!("INSERT INTO uploads (sha256, uploaded_by, bytes, created_at) VALUES {}", rows.join(", "))
    };
    app.sql(&uploads(1..=120, &mavuno::platform::clock::now()));
    let body = error_of(put(&farmer, &photo).await.unwrap(), StatusCode::TOO_MANY_REQUESTS).await;
    assert_eq!(body["code"], "too_many_uploads");
    // Older, and 600 of them: the storage quota is full.
    app.sql(&format!(
        "UPDATE uploads SET created_at = '2020-01-01T00:00:00Z'; {}",
        uploads(121..=600, "2020-01-01T00:00:00Z")
    ));
    let body = error_of(put(&farmer, &photo).await.unwrap(), StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "upload_quota_full");
    let form = product_form().part("product[images][]", image_part(photo, "a.png", "image/png"));
    let response = app.client.post(app.api("/farmer/products")).bearer_auth(&farmer).multipart(form).send().await;
    assert_eq!(error_of(response.unwrap(), StatusCode::CONFLICT).await["code"], "upload_quota_full", "the form too");
}

#[tokio::test]
async fn pictures_nothing_uses_are_collected_after_the_grace_period() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let put = |bytes: Vec<u8>| {
        app.client.put(app.api(&format!("/uploads/{}", sha(&bytes)))).bearer_auth(&farmer).body(bytes).send()
    };
    let (stray, kept, removed) = (png(41, 30), png(42, 30), png(43, 30));
    for bytes in [&stray, &kept, &removed] {
        assert_eq!(put(bytes.clone()).await.unwrap().status(), StatusCode::CREATED);
    }
    let list = |hash: String| {
        let product = serde_json::json!({"product": {"title": "Beans", "description": "Red beans", "quantity": 5,
            "price": 2, "current_price": 2, "category": "grains", "unit": "kg", "images": [hash]}});
        app.client.post(app.api("/farmer/products")).bearer_auth(&farmer).json(&product).send()
    };
    assert_eq!(list(sha(&kept)).await.unwrap().status(), StatusCode::CREATED);
    let gone: Value = list(sha(&removed)).await.unwrap().json().await.unwrap();
    let path = format!("/farmer/products/{}", gone["product"]["id"]);
    assert_eq!(app.client.delete(app.api(&path)).bearer_auth(&farmer).send().await.unwrap().status(), StatusCode::OK);
    let form = Form::new().part("user[avatar]", image_part(png(44, 30), "a.png", "image/png"));
    let me: Value = app.update_me(&farmer, form).await.json().await.unwrap();
    let avatar = me["user"]["avatar_url"].as_str().unwrap().to_owned();

    // Within the grace period nothing goes.
    assert_eq!(app.state.housekeeping().collect_unused(Duration::from_secs(3600)).await.unwrap(), 0);
    let removed_files = app.state.housekeeping().collect_unused(Duration::ZERO).await.unwrap();
    assert_eq!(removed_files, 6, "three sizes each of the stray upload and the removed product's photo");
    let media = app.state.media.clone();
    assert!(media.sizes_of(&sha(&stray)).await.unwrap().is_empty());
    assert!(media.sizes_of(&sha(&removed)).await.unwrap().is_empty());
    assert_eq!(media.sizes_of(&sha(&kept)).await.unwrap().len(), 3);
    let avatar_file = avatar.trim_start_matches("/media/");
    assert!(media.dir().join(avatar_file).exists(), "the avatar stays");
    assert_eq!(count(&app, "SELECT COUNT(*) FROM uploads"), 1);
    let head = app.client.head(app.api(&format!("/uploads/{}", sha(&stray)))).bearer_auth(&farmer).send().await;
    assert_eq!(head.unwrap().status(), StatusCode::NOT_FOUND, "a phone would send it again");
}

#[tokio::test]
async fn a_borrowed_token_cannot_change_the_password_or_the_email() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let change = |fields: &[(&str, &str)]| {
        let fields: Vec<(&str, String)> = fields.iter().map(|(k, v)| (*k, (*v).to_owned())).collect();
        app.update_me(&token, user_form(&fields))
    };
    let new_password = [("password", "taken-over"), ("password_confirmation", "taken-over")];
    let body = error_of(change(&new_password).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"]["current_password"][0], "current_password_required");
    let body = error_of(change(&[("email", "thief@example.com")]).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"]["current_password"][0], "current_password_required");
    let wrong = [("email", "thief@example.com"), ("current_password", "guess")];
    let body = error_of(change(&wrong).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"]["current_password"][0], "current_password_wrong");
    assert_eq!(app.login("amani@example.com", PASSWORD).await.status(), StatusCode::OK, "nothing changed");
    assert_eq!(change(&[("first_name", "Amani")]).await.status(), StatusCode::OK, "other fields need nothing more");

    let right = [("email", "amani.new@example.com"), ("current_password", PASSWORD)];
    assert_eq!(change(&right).await.status(), StatusCode::OK);
    let conn = app.database();
    let (subject, body): (String, String) = conn
        .query_row("SELECT subject, body FROM email_outbox WHERE to_email = 'amani@example.com'", [], |row| {
            Ok((row.get(0)?, row.get(1)?))
        })
        .expect("the old address is told");
    assert!(subject.contains("MAVUNO"), "in the person's language: {subject}");
    assert!(body.contains("amani.new@example.com"), "{body}");
}

#[tokio::test]
async fn names_and_emails_with_hidden_characters_are_refused() {
    let app = spawn_app().await;
    // A NUL is refused before any field is read: it could not be stored (400 invalid_text).
    let mut fields = registration("hidden@example.com");
    fields.iter_mut().find(|(name, _)| *name == "first_name").unwrap().1 = "Amani\u{0}".to_owned();
    let body = error_of(app.post_form("/users", user_form(&fields)).await, StatusCode::BAD_REQUEST).await;
    assert_eq!(body["code"], "invalid_text");
    for (field, value) in [
        ("last_name", "Bahati\u{1b}[2J"),
        ("first_name", "Ama\nni"),
        ("last_name", "evil\u{202e}gpj.exe"),
        ("email", "a\u{202e}b@example.com"),
    ] {
        let mut fields = registration("hidden@example.com");
        fields.iter_mut().find(|(name, _)| *name == field).unwrap().1 = value.to_owned();
        let body = error_of(app.post_form("/users", user_form(&fields)).await, StatusCode::UNPROCESSABLE_ENTITY).await;
        let code = &body["error_codes"][field][0];
        assert!(code == "invalid_characters" || code == "email_invalid", "{field}={value:?}: {body}");
    }
    let contact = serde_json::json!({"contact": {"name": "A\u{1b}]0;owned\u{7}", "email": "a@example.com",
        "subject": "Hi", "message": "Two lines\nare fine"}});
    let response = app.client.post(app.api("/contact")).json(&contact).send().await.unwrap();
    let body = error_of(response, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"]["name"][0], "invalid_characters");
    // A NUL anywhere the API reads text: in a JSON body's text, in the address.
    let contact = serde_json::json!({"contact": {"name": "A\u{0}", "email": "a@example.com", "subject": "Hi", "message": "Hello"}});
    let response = app.client.post(app.api("/contact")).json(&contact).send().await.unwrap();
    assert_eq!(error_of(response, StatusCode::BAD_REQUEST).await["code"], "invalid_text");
    for address in ["/products?q=caf%00e", "/certificates/ab%00c"] {
        let response = app.client.get(app.api(address)).send().await.unwrap();
        assert_eq!(error_of(response, StatusCode::BAD_REQUEST).await["code"], "invalid_text", "{address}");
    }
}

#[tokio::test]
async fn the_last_super_admin_cannot_delete_their_account() {
    let app = spawn_app().await;
    let root = app.user_with_role("root@example.com", Role::SuperAdmin).await;
    let response = app.client.delete(app.api("/me/delete")).bearer_auth(&root).send().await.unwrap();
    assert_eq!(error_of(response, StatusCode::CONFLICT).await["code"], "last_super_admin");
    let second = app.user_with_role("root2@example.com", Role::SuperAdmin).await;
    let response = app.client.delete(app.api("/me/delete")).bearer_auth(&second).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK, "one of two may go");
}

#[tokio::test]
async fn a_search_of_a_thousand_words_is_refused_not_failed() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let words = vec!["maize"; 1000].join("+");
    for (path, token) in [
        (format!("/products?q={words}"), None),
        (format!("/admin/users?q={words}"), Some(admin.as_str())),
        (format!("/admin/surveys?q={words}"), Some(admin.as_str())),
        (format!("/admin/orders?q={words}"), Some(admin.as_str())),
    ] {
        let body = error_of(app.get(&path, token).await, StatusCode::UNPROCESSABLE_ENTITY).await;
        assert_eq!(body["error_codes"]["q"][0], "search_too_long", "{path}");
    }
    assert_eq!(app.get("/products?q=sweet+maize", None).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_data_dir_is_private_and_a_short_secret_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let app = spawn_app().await;
    app.register("amani@example.com").await;
    let mode = |path: std::path::PathBuf| std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(app.data_dir.clone()), 0o700);
    assert_eq!(mode(app.state.media.dir().to_owned()), 0o700);
    let database: &[&str] = if on_postgres() { &[] } else { &[mavuno::db::DB_FILE, "mavuno.db-wal"] };
    for file in database.iter().chain(&["jwt-secret"]) {
        assert_eq!(mode(app.data_dir.join(file)), 0o600, "{file}");
    }
    let dir = tempfile::tempdir().unwrap();
    let config = mavuno::Config { jwt_secret: Some("short".into()), ..mavuno::Config::new(dir.path()) };
    let refused = mavuno::state::AppState::open(config).await.err().expect("a short secret is refused");
    assert!(refused.to_string().contains("at least 32"), "{refused}");
}

#[tokio::test]
async fn the_demo_is_not_a_public_backdoor() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().to_str().unwrap();
    let refused = mavuno().args(["serve", "--addr", "0.0.0.0:0", "--data-dir", data, "--demo"]).output().await.unwrap();
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--public-demo"));

    let mut child = mavuno()
        .args(["serve", "--addr", "0.0.0.0:0", "--data-dir", data, "--demo", "--public-demo"])
        .args(["--public-url", "http://192.0.2.10:8080"])
        .env("RUST_LOG", "warn,mavuno=info")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .unwrap();
    use tokio::io::AsyncBufReadExt;
    let mut lines = tokio::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut passwords = std::collections::HashMap::new();
    let origin = loop {
        let line = lines.next_line().await.unwrap().expect("the server starts");
        if let Some(rest) = line.strip_prefix("demo account ") {
            let (email, password) = rest.split_once(" now has the password ").unwrap();
            passwords.insert(email.to_owned(), password.trim_end_matches(" (shown once)").to_owned());
        }
        if let Some(at) = line.find("listening on ") {
            break line[at + "listening on ".len()..].trim().replace("0.0.0.0", "127.0.0.1");
        }
    };
    let login = |email: &str, password: &str| {
        let body = serde_json::json!({"user": {"email": email, "password": password}});
        reqwest::Client::new().post(format!("{origin}/api/v1/users/login")).json(&body).send()
    };
    let staff = ["superadmin@mavuno.demo", "admin@mavuno.demo", "agent@mavuno.demo"];
    for email in staff {
        assert_eq!(
            login(email, mavuno::demo::DEMO_PASSWORD).await.unwrap().status(),
            StatusCode::UNAUTHORIZED,
            "{email}"
        );
        assert_eq!(login(email, &passwords[email]).await.unwrap().status(), StatusCode::OK, "{email}");
    }
    assert_eq!(passwords.len(), staff.len());
    let buyer = login("buyer@mavuno.demo", mavuno::demo::DEMO_PASSWORD).await.unwrap();
    assert_eq!(buyer.status(), StatusCode::OK, "buyers and farmers keep the published password");
}

#[tokio::test]
async fn forged_payment_callbacks_cannot_fill_the_disk() {
    let app = spawn_app().await;
    let forged = format!("{{\"payment\": \"{}\"}}", "x".repeat(60_000));
    for _ in 0..100 {
        let response = app
            .client
            .post(app.api("/payments/callbacks/simulator"))
            .header("content-type", "application/json")
            .body(forged.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
    }
    let kept = count(&app, "SELECT COALESCE(SUM(LENGTH(body)), 0) FROM payment_callbacks");
    assert!(kept <= 60 * 2048, "unverified callbacks keep {kept} bytes");
}

#[tokio::test]
async fn sessions_are_bounded_per_person() {
    let app = spawn_app().await;
    let (first, user) = app.register("amani@example.com").await;
    // As if the person had signed in many times since.
    app.sql(&format!(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {})
         INSERT INTO sessions (jti, user_id, created_at, expires_at)
         SELECT 'old-' || i, {}, '2026-01-01T00:00:00Z', '2099-01-01T00:00:00Z' FROM n",
        mavuno::auth::MAX_SESSIONS,
        user["id"]
    ));
    let last = app.login_token("amani@example.com", PASSWORD).await;
    assert_eq!(count(&app, "SELECT COUNT(*) FROM sessions"), mavuno::auth::MAX_SESSIONS);
    assert_eq!(app.me(&first).await.status(), StatusCode::UNAUTHORIZED, "the oldest session ends");
    assert_eq!(app.me(&last).await.status(), StatusCode::OK);
}

#[tokio::test]
async fn half_sent_headers_are_cut_off_but_idle_keep_alive_connections_stay() {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let server = ServerProcess::start(&[], &["--header-timeout", "1"], None).await;
    let address = server.origin.trim_start_matches("http://").to_owned();
    let mut stalled = tokio::net::TcpStream::connect(&address).await.unwrap();
    stalled.write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: mavuno\r\n").await.unwrap();
    let mut kept = tokio::net::TcpStream::connect(&address).await.unwrap();
    kept.write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: mavuno\r\n\r\n").await.unwrap();
    let mut answer = [0u8; 4096];
    assert!(kept.read(&mut answer).await.unwrap() > 0, "the complete request is answered");

    tokio::time::sleep(Duration::from_secs(3)).await;
    let mut rest = Vec::new();
    let closed = tokio::time::timeout(Duration::from_secs(5), stalled.read_to_end(&mut rest)).await;
    assert!(matches!(closed, Ok(Ok(_))), "the half-sent request's connection was closed");
    // The idle keep-alive connection takes another request after the header deadline has passed.
    kept.write_all(b"GET /api/v1/health HTTP/1.1\r\nHost: mavuno\r\n\r\n").await.unwrap();
    let read = tokio::time::timeout(Duration::from_secs(5), kept.read(&mut answer)).await.unwrap().unwrap();
    assert!(String::from_utf8_lossy(&answer[..read]).starts_with("HTTP/1.1 200"), "still open and answering");
}

#[tokio::test]
async fn a_burst_of_writes_waits_its_turn_without_a_thread_each() {
    let server = ServerProcess::start(&[], &["--demo"], None).await;
    let login = json!({"user": {"email": "farmer@mavuno.demo", "password": mavuno::demo::DEMO_PASSWORD}});
    let login: Value =
        server.client.post(server.api("/users/login")).json(&login).send().await.unwrap().json().await.unwrap();
    let token = login["user"]["token"].as_str().unwrap().to_owned();
    let sends: Vec<_> = (0..120)
        .map(|n| {
            let product = json!({"product": {
                "title": format!("Beans lot {n}"), "description": "Dry beans from Kabare, sorted by hand.",
                "quantity": 40, "price": "2.50", "current_price": "2.00", "category": "grains", "unit": "kg",
            }});
            tokio::spawn(server.client.post(server.api("/farmer/products")).bearer_auth(&token).json(&product).send())
        })
        .collect();
    for send in sends {
        assert_eq!(send.await.unwrap().unwrap().status(), StatusCode::CREATED);
    }
    // Idle blocking threads linger for seconds: one per waiting write would still be there.
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.child.id().unwrap())).unwrap();
    let threads: usize = status.lines().find_map(|l| l.strip_prefix("Threads:")).unwrap().trim().parse().unwrap();
    assert!(threads < 40, "{threads} threads after 120 writes at once");
}
