//! `/api/v1/metrics` (docs/operations.md, Metrics): served only to the metrics token (none
//! configured: nothing opens it), in
//! a format `promtool check metrics` accepts; its counters move with what the server does;
//! no label takes a value a request sent (an id, a path, a token), however many come.

use std::collections::{BTreeMap, BTreeSet};

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::helpers::*;
use crate::sync::{CLIENT_A, draft, mutation};

pub const TOKEN: &str = "metrics-test-token-0123456789abcdef0123";

/// A server with the metrics token and the USSD gateway's.
pub async fn observed_app() -> TestApp {
    spawn_with(|config| {
        config.metrics_token = Some(TOKEN.to_owned().into());
        config.gateway_token = Some(crate::ussd::TOKEN.into());
    })
    .await
}

/// One sample: its name, labels and value.
pub type Sample = (String, BTreeMap<String, String>, f64);

/// The samples of Prometheus' text format (each line `name{labels} value`).
pub fn samples(text: &str) -> Vec<Sample> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.is_empty())
        .map(|line| {
            let (series, value) = line.rsplit_once(' ').unwrap();
            let (name, labels) = match series.split_once('{') {
                Some((name, labels)) => (name, labels.trim_end_matches('}')),
                None => (series, ""),
            };
            let labels = labels
                .split("\",")
                .filter(|pair| !pair.is_empty())
                .map(|pair| {
                    let (key, value) = pair.split_once('=').unwrap();
                    (key.to_owned(), value.trim_matches('"').to_owned())
                })
                .collect();
            (name.to_owned(), labels, value.parse().unwrap())
        })
        .collect()
}

/// The value of the sample `name` with these labels (0 when there is none).
pub fn value(samples: &[Sample], name: &str, labels: &[(&str, &str)]) -> f64 {
    samples
        .iter()
        .filter(|(n, l, _)| n == name && labels.iter().all(|(k, v)| l.get(*k).map(String::as_str) == Some(*v)))
        .map(|(_, _, v)| v)
        .sum()
}

impl TestApp {
    pub async fn metrics(&self) -> String {
        let response = self.client.get(self.api("/metrics")).bearer_auth(TOKEN).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let kind = response.headers()["content-type"].to_str().unwrap().to_owned();
        assert_eq!(kind, "text/plain; version=0.0.4; charset=utf-8");
        response.text().await.unwrap()
    }
}

/// promtool, which scripts/test installs (Debian's `prometheus`).
pub fn promtool() -> std::process::Command {
    let found = std::process::Command::new("promtool").arg("--version").output();
    assert!(found.is_ok_and(|o| o.status.success()), "promtool is missing: scripts/test installs Debian's prometheus");
    std::process::Command::new("promtool")
}

/// `promtool check metrics` on `text`: no error, no lint problem.
pub fn promtool_accepts(text: &str) {
    use std::io::Write;
    let mut check = promtool()
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    check.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    let out = check.wait_with_output().unwrap();
    let said = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && said.trim().is_empty(), "promtool check metrics: {said}");
}

#[tokio::test]
async fn metrics_are_served_only_to_their_token_in_a_format_promtool_accepts() {
    let plain = spawn_app().await;
    let off = plain.client.get(plain.api("/metrics")).bearer_auth(TOKEN).send().await.unwrap();
    let off = error_of(off, StatusCode::UNAUTHORIZED).await;
    assert_eq!(off["message"], "No metrics token is configured on this server", "no token configured: no metrics");

    let app = observed_app().await;
    let visitor = app.client.get(app.api("/metrics")).send().await.unwrap();
    assert_eq!(error_of(visitor, StatusCode::UNAUTHORIZED).await["code"], "invalid_token");
    let admin = app.user_with_role("admin@example.com", mavuno::model::user::Role::SuperAdmin).await;
    let signed_in = app.client.get(app.api("/metrics")).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(error_of(signed_in, StatusCode::UNAUTHORIZED).await["code"], "invalid_token", "no account opens it");
    let text = app.metrics().await;
    promtool_accepts(&text);
    assert!(!text.contains(TOKEN) && !text.contains(&admin), "no secret in the metrics");
}

#[tokio::test]
async fn counters_move_with_pushes_pulls_basic_phones_throttles_and_callbacks() {
    let app = observed_app().await;
    let (buyer, _) = app.register("amani@example.com").await;
    let before = samples(&app.metrics().await);
    // A push: one change applied, one refused.
    let batch = vec![mutation(1, "survey.create", draft(1), None), mutation(2, "no.such_change", json!({}), None)];
    app.push_ok(&buyer, CLIENT_A, batch).await;
    // A pull, and one whose cursor is past anything the server has.
    app.pull(&buyer, CLIENT_A, None, 100).await;
    let ahead = app.client.get(app.api(&format!("/sync/pull?client_id={CLIENT_A}&cursor=999999"))).bearer_auth(&buyer);
    assert_eq!(ahead.send().await.unwrap().status(), StatusCode::CONFLICT);
    // A basic phone: a USSD session of two screens, an SMS command.
    let mut phone = app.phone("+243971000009");
    phone.go(&["5"]).await;
    app.text_in("+243971000009", "HELP", "metrics-1").await;
    // Sign-ins refused until the throttle says wait.
    let mut throttled = false;
    for _ in 0..12 {
        let response = app.login("amani@example.com", "wrong-password").await;
        throttled |= response.status() == StatusCode::TOO_MANY_REQUESTS;
    }
    assert!(throttled, "the sign-in throttle answered 429");
    // A payment provider's callback with no valid signature.
    let callback = app.call(Method::POST, "/payments/callbacks/simulator", "", Some(json!({"uid": "x"}))).await;
    assert!(callback.status().is_client_error());

    let after = samples(&app.metrics().await);
    let moved = |name: &str, labels: &[(&str, &str)]| value(&after, name, labels) - value(&before, name, labels);
    assert_eq!(moved("mavuno_sync_pushes_total", &[]), 1.0);
    assert_eq!(moved("mavuno_sync_mutations_total", &[("result", "applied")]), 1.0);
    assert_eq!(moved("mavuno_sync_mutations_total", &[("result", "rejected"), ("reason", "unknown_mutation")]), 1.0);
    assert_eq!(moved("mavuno_sync_pulls_total", &[("answer", "page")]), 1.0);
    assert_eq!(moved("mavuno_sync_pulls_total", &[("answer", "snapshot_required")]), 1.0);
    assert_eq!(moved("mavuno_ussd_sessions_total", &[]), 1.0);
    assert_eq!(moved("mavuno_ussd_answers_total", &[]), 2.0);
    assert_eq!(moved("mavuno_ussd_answer_duration_seconds_count", &[]), 2.0);
    assert_eq!(moved("mavuno_sms_incoming_total", &[("command", "help")]), 1.0);
    assert!(moved("mavuno_throttled_total", &[("reason", "too_many_attempts")]) >= 1.0);
    assert_eq!(moved("mavuno_payment_callbacks_refused_total", &[]), 1.0);
    let pushes = [("method", "POST"), ("route", "/api/v1/sync/push"), ("status", "2xx")];
    assert_eq!(moved("mavuno_http_requests_total", &pushes), 1.0);
    assert!(moved("mavuno_db_transactions_total", &[("outcome", "commit")]) >= 3.0);
    assert!(moved("mavuno_db_reads_total", &[("target", "primary")]) >= 3.0);
    assert!(value(&after, "mavuno_outbox_sent_total", &[("outbox", "sms")]) >= 1.0, "the SMS answer went out");
    assert_eq!(value(&after, "mavuno_offsite_state", &[("state", "none")]), 1.0, "no off-site copy configured");
    // The leases this node holds (on SQLite, one server, it holds every one).
    let held = |samples: &[Sample]| value(samples, "mavuno_leases_held", &[("lease", "housekeeping")]);
    assert_eq!(held(&after), if on_postgres() { 0.0 } else { 1.0 }, "the hourly round has not run yet");
    assert!(app.state.db.lease("housekeeping", std::time::Duration::from_secs(60)).await.unwrap());
    assert_eq!(held(&samples(&app.metrics().await)), 1.0, "taken");
}

#[tokio::test]
async fn no_label_takes_a_value_a_request_sent() {
    let app = observed_app().await;
    let mut random = Rng(76);
    let mut sent = BTreeSet::new();
    let methods = [Method::GET, Method::POST, Method::DELETE, Method::from_bytes(b"BREW").unwrap()];
    app.metrics().await; // its own series, from the second scrape on
    let mut series = Vec::new();
    // Twice the same kinds of request, each time with new ids, paths, tokens and words.
    for _ in 0..2 {
        for kind in 0..6 {
            for method in &methods {
                let marker = format!("zq{}", random.next() % 1_000_000_007);
                sent.insert(marker.clone());
                let path = match kind {
                    0 => format!("/api/v1/products/{}", random.next() % 1_000_000_007),
                    1 => format!("/api/v1/{marker}/{}", random.next()),
                    2 => format!("/api/v1/blogs/{marker}"),
                    3 => format!("/{marker}.js"),
                    4 => format!("/api/v1/ussd/{marker}"),
                    _ => format!("/api/v1/products?q={marker}&page={}", random.below(9)),
                };
                let request = app.client.request(method.clone(), format!("{}{path}", app.origin)).bearer_auth(&marker);
                request.header("x-request-id", &marker).send().await.unwrap();
            }
        }
        let text = app.metrics().await;
        for marker in &sent {
            assert!(!text.contains(marker.as_str()), "a request's words in the metrics: {marker}");
        }
        let found: BTreeSet<(String, BTreeMap<String, String>)> =
            samples(&text).into_iter().map(|(name, labels, _)| (name, labels)).collect();
        series.push(found);
    }
    assert_eq!(series[0], series[1], "the same requests with other words made no new series");
}
