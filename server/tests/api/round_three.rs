//! Hardening, round 3 (issue 35; docs/security.md): what an independent probe found
//! and a few things found reading the code. The money paths (callbacks, the simulator
//! as a default) are tested in pawapay.rs and cli.rs.

use std::time::{Duration, Instant};

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::blogs::form;
use crate::helpers::*;

/// The quickest wrong-password sign-in of each of two accounts, tried in turn five times
/// (in turn, so that a busy moment of the machine weighs on both alike).
async fn wrong_sign_ins(app: &TestApp, first: &str, second: &str) -> (Duration, Duration) {
    let mut quickest = (Duration::MAX, Duration::MAX);
    for _ in 0..5 {
        for (email, best) in [(first, &mut quickest.0), (second, &mut quickest.1)] {
            let started = Instant::now();
            let response = app.login(email, "not-the-password").await;
            assert_eq!(response.status(), StatusCode::UNAUTHORIZED);
            *best = (*best).min(started.elapsed());
        }
    }
    quickest
}

#[tokio::test]
async fn an_account_with_no_password_takes_as_long_to_refuse_as_any_other() {
    let app = spawn_app().await;
    app.register("amani@example.com").await;
    app.register("neema@example.com").await;
    // As an agent's registration or a basic phone's joining leaves it: no password chosen.
    app.sql("UPDATE users SET password_hash = '!' WHERE email = 'neema@example.com'");
    let (with, without) = wrong_sign_ins(&app, "amani@example.com", "neema@example.com").await;
    let ratio = with.as_secs_f64().max(without.as_secs_f64()) / with.as_secs_f64().min(without.as_secs_f64());
    assert!(ratio < 2.0, "{with:?} with a password, {without:?} without: timing tells them apart");
}

#[tokio::test]
async fn every_writing_of_one_number_shares_one_reset_budget() {
    let app = spawn_with(|config| config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()]).await;
    let writings = [
        "+243991234567",
        "0991234567",
        "00243991234567",
        "+243 99 123 4567",
        "099-123-4567",
        "+243-991-234-567",
        "(+243) 991234567",
        "243991234567",
    ];
    let mut answers = Vec::new();
    for (n, typed) in writings.iter().enumerate() {
        let response = app
            .client
            .post(app.api("/password/forgot"))
            // Each from an address of its own: only the number's budget is shared.
            .header("X-Forwarded-For", format!("198.51.100.{}", n + 1))
            .json(&json!({"phone_number": typed}))
            .send()
            .await
            .unwrap();
        answers.push(response.status().as_u16());
    }
    assert_eq!(answers, [202, 202, 202, 202, 202, 429, 429, 429], "five a quarter of an hour for one number");
}

#[tokio::test]
async fn links_that_leave_the_site_in_disguise_are_removed() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let disguised = [
        "/\\evil.example/",
        "\\/evil.example/",
        "/\t/evil.example/",
        "/&#92;evil.example/",
        "&#92;/evil.example/",
        "/&#9;/evil.example/",
        "//evil.example/",
        " //evil.example/",
    ];
    let mut content = String::from("<p>Prices</p>");
    for (n, href) in disguised.iter().enumerate() {
        content.push_str(&format!("<a href=\"{href}\">away {n}</a>"));
    }
    content
        .push_str("<a href=\"/news/2\">ours</a><a href=\"/%5Cnot-a-host/\">path</a><a href=\"#top\">up</a><a href=\"mailto:info@mavuno.example\">mail</a>");
    let fields = [
        ("title", "Links"),
        ("description", "Where links go"),
        ("full_content", content.as_str()),
        ("author", "Neema"),
        ("published", "true"),
    ];
    let created = app.send_form(Method::POST, "/admin/blogs", &admin, form(&fields)).await;
    assert_eq!(created.status(), StatusCode::CREATED);
    let post: Value = created.json().await.unwrap();
    let stored = post["data"]["full_content"].as_str().unwrap().to_owned();
    let hrefs: Vec<String> =
        stored.split("href=\"").skip(1).map(|rest| rest.split('"').next().unwrap().replace("&amp;", "&")).collect();
    // A percent-encoded backslash is a path on this site, in every browser as here.
    assert_eq!(hrefs, ["/news/2", "/%5Cnot-a-host/", "#top", "mailto:info@mavuno.example"], "{stored}");
    for n in 0..disguised.len() {
        assert!(stored.contains(&format!(">away {n}</a>")), "the words stay, without the link: {stored}");
    }
}

#[tokio::test]
async fn links_we_write_use_the_public_address_whatever_the_host_header_says() {
    let app = spawn_with(|config| {
        config.public_url = Some("https://mavuno.example".into());
        config.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let fields = [
        ("title", "Beans"),
        ("description", "d"),
        ("full_content", "<p>Beans</p>"),
        ("author", "N"),
        ("published", "true"),
    ];
    assert_eq!(app.send_form(Method::POST, "/admin/blogs", &admin, form(&fields)).await.status(), StatusCode::CREATED);
    let feed = app
        .client
        .get(app.api("/blogs/feed.xml"))
        .header("Host", "evil.example")
        .header("X-Forwarded-Proto", "http")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        feed.contains("<link>https://mavuno.example/news</link>") || feed.contains("https://mavuno.example/news/"),
        "{feed}"
    );
    assert!(!feed.contains("evil.example"), "{feed}");

    // A certificate's "check it at" line.
    let learner = app.user_with_role("learner@example.com", Role::User).await;
    let course = app.course(&admin, crate::courses::fields("Beans", "farming", "beginner")).await;
    app.call(Method::POST, &format!("/courses/{}/enrol", course.id), &learner, None).await;
    let quiz = course.lessons[2];
    for (n, lesson) in course.lessons[..2].iter().enumerate() {
        let event = json!({"event_uid": format!("r{n}"), "lesson_id": lesson, "kind": "completed"});
        app.progress(&learner, course.id, event).await;
    }
    let passed = json!({"event_uid": "q", "lesson_id": quiz, "kind": "quiz", "answers": [1, 1, 1]});
    let enrolment: Value = app.progress(&learner, course.id, passed).await.json().await.unwrap();
    let code = enrolment["enrolment"]["certificate"]["code"].as_str().expect("a certificate").to_owned();
    let pdf = app
        .client
        .get(app.api(&format!("/certificates/{code}/pdf?lang=en")))
        .header("Host", "evil.example")
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let text = String::from_utf8_lossy(&pdf);
    assert!(text.contains(&format!("https://mavuno.example/certificates/{code}")), "the PDF's link");
    assert!(!text.contains("evil.example"));
}

#[tokio::test]
async fn the_configuration_s_debug_form_shows_no_secret() {
    let app = spawn_with(|config| {
        config.jwt_secret = Some("a-token-secret-of-at-least-32-characters".into());
        config.smtp_url = Some("smtp://mailer:hunter2@mail.example:587".into());
        config.gateway_token = Some("a-gateway-token-of-at-least-32-characters".into());
    })
    .await;
    let shown = format!("{:?}", app.state.config);
    for secret in ["a-token-secret-of-at-least", "hunter2", "a-gateway-token-of"] {
        assert!(!shown.contains(secret), "{secret} in {shown}");
    }
}
