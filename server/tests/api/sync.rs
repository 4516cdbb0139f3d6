//! The sync protocol through the real server (docs/sync.md).

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::helpers::*;

pub const CLIENT_A: &str = "aaaaaaaa-0000-4000-8000-000000000001";
pub const CLIENT_B: &str = "bbbbbbbb-0000-4000-8000-000000000002";

pub fn uid(n: u32) -> String {
    format!("00000000-0000-4000-8000-{n:012}")
}

pub fn mutation(id: u64, name: &str, args: Value, base: Option<i64>) -> Value {
    let mut m = json!({"mutation_id": id, "name": name, "args": args});
    if let Some(base) = base {
        m["base"] = json!(base);
    }
    m
}

impl TestApp {
    pub async fn push(&self, token: &str, client: &str, mutations: Vec<Value>) -> reqwest::Response {
        let body = json!({"protocol": 1, "client_id": client, "mutations": mutations});
        self.client.post(self.api("/sync/push")).bearer_auth(token).json(&body).send().await.unwrap()
    }

    pub async fn push_ok(&self, token: &str, client: &str, mutations: Vec<Value>) -> Value {
        let response = self.push(token, client, mutations).await;
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.unwrap()
    }

    pub async fn pull(&self, token: &str, client: &str, cursor: Option<i64>, limit: usize) -> Value {
        let cursor = cursor.map(|c| format!("&cursor={c}")).unwrap_or_default();
        let url = self.api(&format!("/sync/pull?client_id={client}&limit={limit}{cursor}"));
        let response = self.client.get(url).bearer_auth(token).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        response.json().await.unwrap()
    }

    pub fn survey_count(&self) -> i64 {
        self.database().query_row("SELECT COUNT(*) FROM surveys", [], |r| r.get(0)).unwrap()
    }
}

pub fn draft(n: u32) -> Value {
    json!({"uid": uid(n), "status": "draft", "answers": {"land_size": "1-2 hectares"}})
}

#[tokio::test]
async fn a_replayed_push_creates_nothing_new() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let batch = vec![mutation(1, "survey.create", draft(1), None)];
    let first = app.push_ok(&token, CLIENT_A, batch.clone()).await;
    assert_eq!(first["results"][0]["status"], "applied");
    assert_eq!(first["last_mutation_id"], 1);
    // The answer was lost; the phone sends the same batch again.
    let again = app.push_ok(&token, CLIENT_A, batch).await;
    assert_eq!(again["results"][0]["status"], "applied");
    assert_eq!(again["results"][0]["duplicate"], true);
    assert_eq!(app.survey_count(), 1);
    // A wiped phone resends it under a new client id: the uid keeps it single.
    let wiped = app.push_ok(&token, CLIENT_B, vec![mutation(1, "survey.create", draft(1), None)]).await;
    assert_eq!(wiped["results"][0]["status"], "applied");
    assert_eq!(app.survey_count(), 1);
}

#[tokio::test]
async fn a_device_keeps_its_last_500_results_and_an_older_replay_is_answered_honestly() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let missing = json!({"uid": uid(99)});
    for start in (1..=520u64).step_by(130) {
        let batch = (start..start + 130).map(|id| mutation(id, "survey.delete", missing.clone(), None)).collect();
        app.push_ok(&token, CLIENT_A, batch).await;
    }
    let kept: (i64, i64, i64) = app
        .database()
        .query_row("SELECT COUNT(*), MIN(mutation_id), MAX(mutation_id) FROM sync_results", [], |r| {
            Ok((r.get(0)?, r.get(1)?, r.get(2)?))
        })
        .unwrap();
    assert_eq!(kept, (500, 21, 520));

    // The newest replay gets its own result again; a pruned one is never a made-up "applied".
    let recent = app.push_ok(&token, CLIENT_A, vec![mutation(520, "survey.delete", missing.clone(), None)]).await;
    assert_eq!(
        (&recent["results"][0]["status"], &recent["results"][0]["code"]),
        (&json!("rejected"), &json!("survey_not_found"))
    );
    let old = app.push_ok(&token, CLIENT_A, vec![mutation(3, "survey.delete", missing, None)]).await;
    let old = &old["results"][0];
    assert_eq!(
        (&old["status"], &old["code"], &old["duplicate"]),
        (&json!("forgotten"), &json!("result_forgotten"), &json!(true))
    );
    assert_eq!(app.survey_count(), 0);
}

#[tokio::test]
async fn a_gap_in_the_sequence_is_refused_before_anything_is_applied() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let response = app.push(&token, CLIENT_A, vec![mutation(3, "survey.create", draft(1), None)]).await;
    let body = error_of(response, StatusCode::CONFLICT).await;
    assert_eq!(body["code"], "mutation_gap");
    let unordered = app
        .push(
            &token,
            CLIENT_A,
            vec![mutation(1, "survey.create", draft(1), None), mutation(3, "survey.create", draft(2), None)],
        )
        .await;
    error_of(unordered, StatusCode::BAD_REQUEST).await;
    assert_eq!(app.survey_count(), 0);
}

#[tokio::test]
async fn a_rejected_mutation_advances_the_sequence_and_says_why() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let incomplete = json!({"uid": uid(1), "answers": {"land_size": "1-2 hectares"}});
    let body = app
        .push_ok(
            &token,
            CLIENT_A,
            vec![
                mutation(1, "survey.create", incomplete, None),
                mutation(2, "survey.create", draft(2), None),
                mutation(3, "bogus.thing", json!({}), None),
            ],
        )
        .await;
    let results = body["results"].as_array().unwrap();
    assert_eq!(results[0]["status"], "rejected");
    assert_eq!(results[0]["code"], "validation_failed");
    assert_eq!(results[0]["error_codes"]["work_type"][0], "required");
    assert_eq!(results[0]["id"], uid(1));
    assert_eq!(results[1]["status"], "applied");
    assert_eq!(
        (results[2]["status"].as_str(), results[2]["code"].as_str()),
        (Some("rejected"), Some("unknown_mutation"))
    );
    assert_eq!(body["last_mutation_id"], 3);
}

#[tokio::test]
async fn edits_of_different_fields_both_survive_and_the_same_field_reports_merged() {
    let app = spawn_app().await;
    let (phone, _) = app.register("amani@example.com").await;
    let laptop = app.login_token("amani@example.com", PASSWORD).await;
    app.push_ok(&phone, CLIENT_A, vec![mutation(1, "survey.create", draft(1), None)]).await;
    let pulled = app.pull(&laptop, CLIENT_B, None, 100).await;
    let base = pulled["changes"][0]["record"]["version"].as_i64().unwrap();

    // Both devices edit offline on top of the same version.
    let on_phone = json!({"uid": uid(1), "answers": {"work_type": "Alone", "cooperative_name": "Umoja"}});
    let on_laptop = json!({"uid": uid(1), "answers": {"seed_type": "Mixed", "cooperative_name": "Tuungane"}});
    let a = app.push_ok(&phone, CLIENT_A, vec![mutation(2, "survey.update", on_phone, Some(base))]).await;
    assert_eq!(a["results"][0]["status"], "applied");
    let b = app.push_ok(&laptop, CLIENT_B, vec![mutation(1, "survey.update", on_laptop, Some(base))]).await;
    assert_eq!(b["results"][0]["status"], "merged");
    assert_eq!(b["results"][0]["conflicts"], json!(["cooperative_name"]));

    let record = &app.pull(&phone, CLIENT_A, None, 100).await["changes"][0]["record"];
    assert_eq!(record["work_type"], "Alone", "the phone's field survives");
    assert_eq!(record["seed_type"], "Mixed", "the laptop's field survives");
    assert_eq!(record["cooperative_name"], "Tuungane", "the later arrival wins the shared short field");
    assert_eq!(record["land_size"], "1-2 hectares");
}

#[tokio::test]
async fn the_same_value_set_twice_is_no_conflict_and_an_edit_without_base_overwrites() {
    let app = spawn_app().await;
    let (phone, _) = app.register("amani@example.com").await;
    let laptop = app.login_token("amani@example.com", PASSWORD).await;
    app.push_ok(&phone, CLIENT_A, vec![mutation(1, "survey.create", draft(1), None)]).await;
    let base = app.pull(&laptop, CLIENT_B, None, 100).await["changes"][0]["record"]["version"].as_i64().unwrap();

    // Both devices give the same answer offline, the laptop with its whole form.
    let on_phone = json!({"uid": uid(1), "answers": {"challenges": "Pests"}});
    let on_laptop = json!({"uid": uid(1), "answers": {"challenges": "Pests", "land_size": "1-2 hectares"}});
    let a = app.push_ok(&phone, CLIENT_A, vec![mutation(2, "survey.update", on_phone, Some(base))]).await;
    assert_eq!(a["results"][0]["status"], "applied");
    let b = app.push_ok(&laptop, CLIENT_B, vec![mutation(1, "survey.update", on_laptop, Some(base))]).await;
    assert_eq!(
        (&b["results"][0]["status"], &b["results"][0]["conflicts"]),
        (&json!("applied"), &Value::Null),
        "no conflicts"
    );

    // Without a base, an edit is a deliberate overwrite: it wins and reports nothing.
    let overwrite = json!({"uid": uid(1), "answers": {"challenges": "Drought"}});
    let c = app.push_ok(&laptop, CLIENT_B, vec![mutation(2, "survey.update", overwrite, None)]).await;
    assert_eq!(
        (&c["results"][0]["status"], &c["results"][0]["conflicts"]),
        (&json!("applied"), &Value::Null),
        "no conflicts"
    );
    let record = &app.pull(&phone, CLIENT_A, None, 100).await["changes"][0]["record"];
    assert_eq!(record["challenges"], "Drought");
}

#[tokio::test]
async fn an_edit_arriving_after_approval_is_refused_and_loses_nothing() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    app.push_ok(&token, CLIENT_A, vec![mutation(1, "survey.create", draft(1), None)]).await;
    app.sql(&format!("UPDATE surveys SET status = 'approved', active = 1 WHERE uid = '{}'", uid(1)));
    let edit = json!({"uid": uid(1), "answers": {"challenges": "Late rains"}});
    let body = app.push_ok(&token, CLIENT_A, vec![mutation(2, "survey.update", edit, Some(1))]).await;
    assert_eq!(body["results"][0]["status"], "rejected");
    assert_eq!(body["results"][0]["code"], "survey_locked");
    let record = &app.pull(&token, CLIENT_A, None, 100).await["changes"][0]["record"];
    assert_eq!(record["status"], "approved");
    assert_eq!(record["land_size"], "1-2 hectares");
    assert_eq!(record["challenges"], Value::Null);
}

#[tokio::test]
async fn pull_comes_in_pages_and_reports_deletions() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let creates = (1..=5).map(|n| mutation(u64::from(n), "survey.create", draft(n), None)).collect();
    app.push_ok(&token, CLIENT_A, creates).await;

    let mut seen = Vec::new();
    let mut cursor = None;
    loop {
        let page = app.pull(&token, CLIENT_A, cursor, 2).await;
        assert!(page["changes"].as_array().unwrap().len() <= 2);
        seen.extend(page["changes"].as_array().unwrap().iter().map(|c| c["id"].as_str().unwrap().to_owned()));
        cursor = page["cursor"].as_i64();
        assert_eq!(page["last_mutation_id"], 5);
        if page["has_more"] == false {
            break;
        }
    }
    assert_eq!(seen, (1..=5).map(uid).collect::<Vec<_>>());

    app.push_ok(&token, CLIENT_A, vec![mutation(6, "survey.delete", json!({"uid": uid(3)}), None)]).await;
    let after = app.pull(&token, CLIENT_A, cursor, 100).await;
    assert_eq!(after["changes"], json!([{"entity": "survey", "id": uid(3), "op": "del"}]));
    let snapshot = app.pull(&token, CLIENT_A, None, 100).await;
    assert_eq!(snapshot["changes"].as_array().unwrap().len(), 4, "a first snapshot has no tombstones");
}

#[tokio::test]
async fn nobody_pulls_or_pushes_as_someone_else() {
    let app = spawn_app().await;
    let (amani, _) = app.register("amani@example.com").await;
    let (grace, _) = app.register("grace@example.com").await;
    app.push_ok(&amani, CLIENT_A, vec![mutation(1, "survey.create", draft(1), None)]).await;
    let theirs = app.pull(&grace, CLIENT_B, None, 100).await;
    assert_eq!(theirs["changes"], json!([]));
    // Grace cannot use Amani's device id, nor touch her application by uid.
    let body = error_of(
        app.push(&grace, CLIENT_A, vec![mutation(2, "survey.delete", json!({"uid": uid(1)}), None)]).await,
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(body["code"], "client_taken");
    let body = app.push_ok(&grace, CLIENT_B, vec![mutation(1, "survey.delete", json!({"uid": uid(1)}), None)]).await;
    assert_eq!(body["results"][0]["code"], "survey_not_found");
    assert_eq!(app.survey_count(), 1);
}

#[tokio::test]
async fn old_apps_and_malformed_requests_are_told_so() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let old = json!({"protocol": 0, "client_id": CLIENT_A, "mutations": []});
    let response = app.client.post(app.api("/sync/push")).bearer_auth(&token).json(&old).send().await.unwrap();
    assert_eq!(error_of(response, StatusCode::BAD_REQUEST).await["code"], "protocol_unsupported");
    let bad_id = json!({"protocol": 1, "client_id": "phone", "mutations": []});
    let response = app.client.post(app.api("/sync/push")).bearer_auth(&token).json(&bad_id).send().await.unwrap();
    assert_eq!(error_of(response, StatusCode::BAD_REQUEST).await["code"], "invalid_client_id");
    let response = app.client.get(app.api("/sync/pull?cursor=abc")).bearer_auth(&token).send().await.unwrap();
    assert_eq!(error_of(response, StatusCode::BAD_REQUEST).await["code"], "invalid_query");
    let body = app.push_ok(&token, CLIENT_A, vec![mutation(1, "survey.create", json!({"answers": 5}), None)]).await;
    assert_eq!(body["results"][0]["code"], "invalid_args");
    // Without a token a pull is the public catalogue only; a bad token is still refused.
    let anonymous: Value = app.client.get(app.api("/sync/pull")).send().await.unwrap().json().await.unwrap();
    assert!(anonymous["changes"].as_array().unwrap().iter().all(|c| c["entity"] == "product"), "{anonymous}");
    error_of(
        app.client.get(app.api("/sync/pull")).bearer_auth("not-a-token").send().await.unwrap(),
        StatusCode::UNAUTHORIZED,
    )
    .await;
}

/// An open app listens with `GET /sync/wait`: it is answered as soon as something
/// changes (then it pulls), and a whole pull moves the cursor past changes the
/// viewer may not see, so those do not wake it again and again.
#[tokio::test]
async fn an_open_app_hears_of_a_change_within_moments() {
    let app = spawn_app().await;
    let (token, _) = app.register("listener@example.com").await;
    let (other, _) = app.register("someone.else@example.com").await;
    let cursor = app.pull(&token, CLIENT_A, None, 100).await["cursor"].as_i64().unwrap();
    let wait = |cursor: i64| app.client.get(app.api(&format!("/sync/wait?cursor={cursor}"))).send();

    // Another person's draft: the listener is told something changed, pulls, sees
    // nothing of it, and its cursor moves past it.
    let started = std::time::Instant::now();
    let (answer, _) = tokio::join!(wait(cursor), async {
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        app.push_ok(&other, CLIENT_B, vec![mutation(1, "survey.create", draft(1), None)]).await;
    });
    let version = answer.unwrap().json::<Value>().await.unwrap()["version"].as_i64().unwrap();
    assert!(version > cursor);
    assert!(started.elapsed() < std::time::Duration::from_secs(5), "answered when the change was made");
    let page = app.pull(&token, CLIENT_A, Some(cursor), 100).await;
    assert_eq!(page["changes"], json!([]));
    assert_eq!(page["cursor"].as_i64().unwrap(), version);
    // Nothing new: the wait holds (here for at least a second).
    let held = tokio::time::timeout(std::time::Duration::from_secs(1), wait(version)).await;
    assert!(held.is_err(), "no answer while nothing changes");

    // Behind already, or ahead of a server restored from a backup: answered at once.
    // Malformed: a 400, not a hang.
    let behind = wait(cursor).await.unwrap().json::<Value>().await.unwrap();
    assert_eq!(behind["version"].as_i64().unwrap(), version);
    let ahead = tokio::time::timeout(std::time::Duration::from_secs(2), wait(version + 50)).await;
    assert_eq!(ahead.expect("answered at once").unwrap().json::<Value>().await.unwrap()["version"], version);
    let bad = app.client.get(app.api("/sync/wait?cursor=soon")).send().await.unwrap();
    assert_eq!(error_of(bad, StatusCode::BAD_REQUEST).await["code"], "invalid_query");
}

pub type Listening = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A phone listening as the app does: a WebSocket on `/sync/listen`.
pub async fn listen(app: &TestApp, cursor: i64) -> Listening {
    let url = app.api(&format!("/sync/listen?cursor={cursor}")).replacen("http", "ws", 1);
    tokio_tungstenite::connect_async(url).await.expect("a WebSocket").0
}

/// The next version the socket tells, if one comes within `within`.
pub async fn told(socket: &mut Listening, within: std::time::Duration) -> Option<i64> {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let deadline = tokio::time::Instant::now() + within;
    loop {
        match tokio::time::timeout_at(deadline, socket.next()).await.ok()?? {
            Ok(Message::Text(text)) => return serde_json::from_str::<Value>(&text).unwrap()["version"].as_i64(),
            Ok(Message::Ping(_) | Message::Pong(_)) => {}
            other => panic!("the socket ended: {other:?}"),
        }
    }
}

/// The app listens over a WebSocket: it is told each new version as it happens
/// (on the same socket, with no new request), and at once when its cursor is behind.
#[tokio::test]
async fn a_phone_listening_over_a_websocket_is_told_of_each_change() {
    let second = std::time::Duration::from_secs(1);
    let app = spawn_app().await;
    let (token, _) = app.register("socket.listener@example.com").await;
    let (other, _) = app.register("socket.other@example.com").await;
    let cursor = app.pull(&token, CLIENT_A, None, 100).await["cursor"].as_i64().unwrap();
    let mut socket = listen(&app, cursor).await;
    assert_eq!(told(&mut socket, second).await, None, "nothing is told while nothing changes");

    app.push_ok(&other, CLIENT_B, vec![mutation(1, "survey.create", draft(1), None)]).await;
    let first = told(&mut socket, 5 * second).await.expect("told of the change");
    assert!(first > cursor);
    app.push_ok(&other, CLIENT_B, vec![mutation(2, "survey.create", draft(2), None)]).await;
    let next = told(&mut socket, 5 * second).await.expect("told of the next change on the same socket");
    assert!(next > first);

    // Behind, or ahead of a server restored from a backup: told at once.
    assert_eq!(told(&mut listen(&app, cursor).await, 2 * second).await, Some(next));
    assert_eq!(told(&mut listen(&app, next + 50).await, 2 * second).await, Some(next));
    // Not a WebSocket, or a malformed cursor: a 400 in JSON.
    let plain = app.client.get(app.api("/sync/listen?cursor=1")).send().await.unwrap();
    assert_eq!(plain.headers()["upgrade"], "websocket");
    assert_eq!(error_of(plain, StatusCode::UPGRADE_REQUIRED).await["code"], "websocket_required");
    let bad = app.client.get(app.api("/sync/listen?cursor=soon")).send().await.unwrap();
    assert_eq!(error_of(bad, StatusCode::BAD_REQUEST).await["code"], "invalid_query");
}

/// With nothing new, the server still speaks every 25 s (the version unchanged), so
/// an app can tell a socket that died without a word from a quiet one.
#[tokio::test]
async fn a_quiet_listening_socket_hears_a_heartbeat() {
    use futures_util::SinkExt;
    let app = spawn_app().await;
    let now = app.client.get(app.api("/sync/wait?cursor=-1")).send().await.unwrap();
    let cursor = now.json::<Value>().await.unwrap()["version"].as_i64().unwrap();
    let mut socket = listen(&app, cursor).await;
    assert_eq!(told(&mut socket, std::time::Duration::from_secs(20)).await, None);
    assert_eq!(told(&mut socket, std::time::Duration::from_secs(10)).await, Some(cursor), "the heartbeat");
    socket.send(tokio_tungstenite::tungstenite::Message::Text("1".into())).await.expect("still open");
}

/// Phones send a listening socket nothing but short answers: anything large closes it.
#[tokio::test]
async fn a_listening_socket_that_is_sent_a_large_message_is_closed() {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let app = spawn_app().await;
    let mut socket = listen(&app, 0).await;
    socket.send(Message::Text("x".repeat(10_000).into())).await.ok();
    let ended = tokio::time::timeout(std::time::Duration::from_secs(5), async {
        while let Some(Ok(Message::Text(_) | Message::Ping(_) | Message::Pong(_))) = socket.next().await {}
    })
    .await;
    assert!(ended.is_ok(), "the server closed the socket");
    assert_eq!(app.client.get(app.api("/health")).send().await.unwrap().status(), StatusCode::OK);
}

/// A listening socket leaves hyper once upgraded but keeps its connection's slot, so
/// sockets cannot outnumber the cap (and the file limit behind it); a slot comes back
/// when a phone leaves.
#[tokio::test]
async fn listening_sockets_count_against_the_connection_cap() {
    let app = spawn_with(|config| config.max_connections = 2).await;
    let first = listen(&app, 0).await;
    let _second = listen(&app, 0).await;
    let client = reqwest::Client::builder().no_proxy().build().unwrap();
    let health = || client.get(app.api("/health")).send();
    assert!(
        tokio::time::timeout(std::time::Duration::from_secs(1), health()).await.is_err(),
        "a third connection waits for a slot"
    );
    drop(first);
    let answered = tokio::time::timeout(std::time::Duration::from_secs(5), health()).await;
    assert_eq!(answered.expect("served once a phone left").unwrap().status(), StatusCode::OK);
}

#[tokio::test]
async fn a_gzipped_push_is_taken_and_one_that_inflates_past_the_limit_is_refused() {
    use std::io::Write;
    let gzip = |bytes: &[u8]| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    };
    let app = spawn_app().await;
    let (token, _) = app.register("gzip.push@example.com").await;
    let send = |body: Vec<u8>, encoding: &'static str| {
        app.client
            .post(app.api("/sync/push"))
            .bearer_auth(&token)
            .header("content-type", "application/json")
            .header("content-encoding", encoding)
            .body(body)
            .send()
    };
    let push = |mutations: Vec<Value>| {
        serde_json::to_vec(&json!({"protocol": 1, "client_id": CLIENT_A, "mutations": mutations})).unwrap()
    };
    let plain = push((1..=20).map(|n| mutation(n, "survey.create", draft(n as u32), None)).collect());
    let packed = gzip(&plain);
    assert!(packed.len() * 4 < plain.len(), "{} bytes gzipped from {}", packed.len(), plain.len());
    let answer: Value = send(packed, "gzip").await.unwrap().json().await.unwrap();
    assert_eq!(answer["last_mutation_id"], 20);
    assert_eq!(app.survey_count(), 20);

    // 2 MB of spaces inside valid JSON gzip to a few KB: refused for what they inflate to.
    let mut bomb = push(vec![mutation(21, "survey.create", draft(21), None)]);
    bomb.splice(1..1, std::iter::repeat_n(b' ', 2 * 1024 * 1024));
    let refused = send(gzip(&bomb), "gzip").await.unwrap();
    assert_eq!(refused.status(), StatusCode::PAYLOAD_TOO_LARGE);
    assert!(refused.json::<Value>().await.unwrap()["code"].is_string(), "a JSON error");
    // Not gzip at all, or an encoding we do not take: a 4xx, never a 500.
    for (body, encoding) in [(b"not gzip".to_vec(), "gzip"), (push(vec![]), "br")] {
        let answer = send(body, encoding).await.unwrap();
        assert!(answer.status().is_client_error(), "{encoding}: {}", answer.status());
    }
    assert_eq!(app.survey_count(), 20);
}

#[tokio::test]
async fn the_hourly_round_removes_emails_past_their_month_and_keeps_the_rest() {
    let app = spawn_app().await;
    let old =
        mavuno::platform::clock::before_now(mavuno::housekeeping::EMAILS_KEPT + std::time::Duration::from_secs(60));
    let recent = mavuno::platform::clock::before_now(std::time::Duration::from_secs(3600));
    for (to, created, sent) in
        [("a@example.com", &old, "'x'"), ("b@example.com", &old, "NULL"), ("c@example.com", &recent, "NULL")]
    {
        app.sql(&format!(
            "INSERT INTO email_outbox (to_email, subject, body, created_at, next_try_at, sent_at)
             VALUES ('{to}', 'Hello', 'Body', '{created}', '9999-01-01T00:00:00Z', {sent})"
        ));
    }
    // (Retries not due: the mailer leaves them alone meanwhile.)
    let tidied = app.state.housekeeping().run_once().await.unwrap();
    assert_eq!((tidied.emails, tidied.unsent_emails), (2, 1));
    let left: Vec<String> = app
        .database()
        .prepare("SELECT to_email FROM email_outbox")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(left, ["c@example.com"]);
}

#[tokio::test]
async fn a_phone_away_longer_than_deletions_are_kept_is_told_to_take_a_new_snapshot() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    app.push_ok(&token, CLIENT_A, vec![mutation(1, "survey.create", draft(1), None)]).await;
    let away_since = app.pull(&token, CLIENT_A, None, 100).await["cursor"].as_i64().unwrap();
    let delete = json!({"uid": uid(1)});
    app.push_ok(&token, CLIENT_A, vec![mutation(2, "survey.delete", delete, None)]).await;
    let caught_up = app.pull(&token, CLIENT_A, Some(away_since), 100).await["cursor"].as_i64().unwrap();

    // Within the window nothing is removed; past it the tombstone goes.
    assert_eq!(app.state.housekeeping().run_once().await.unwrap().tombstones, 0);
    let long_ago =
        mavuno::platform::clock::before_now(mavuno::housekeeping::TOMBSTONES_KEPT + std::time::Duration::from_secs(60));
    app.sql(&format!("UPDATE surveys SET deleted_at = '{long_ago}'"));
    assert_eq!(app.state.housekeeping().run_once().await.unwrap().tombstones, 1);
    assert_eq!(app.survey_count(), 0);

    // The phone that was away could have missed that deletion: it must start again.
    let url = app.api(&format!("/sync/pull?client_id={CLIENT_A}&cursor={away_since}"));
    let stale = app.client.get(url).bearer_auth(&token).send().await.unwrap();
    assert_eq!(error_of(stale, StatusCode::CONFLICT).await["code"], "snapshot_required");
    // One that had seen it goes on; a new snapshot works.
    assert_eq!(app.pull(&token, CLIENT_A, Some(caught_up), 100).await["changes"], json!([]));
    assert_eq!(app.pull(&token, CLIENT_A, None, 100).await["changes"], json!([]));
}

#[tokio::test]
async fn a_snapshot_under_way_goes_on_when_deletions_older_than_it_are_removed() {
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let drafts = (1..=3).map(|n| mutation(u64::from(n), "survey.create", draft(n), None)).collect();
    app.push_ok(&token, CLIENT_A, drafts).await;
    app.push_ok(&token, CLIENT_A, vec![mutation(4, "survey.delete", json!({"uid": uid(1)}), None)]).await;
    let first = app.pull(&token, CLIENT_B, None, 1).await;
    let (cursor, snapshot) = (first["cursor"].as_i64().unwrap(), first["snapshot"].as_i64().unwrap());

    // The deletion is removed while the new phone is between pages: the horizon passes
    // its cursor, not its snapshot, which never carried that deletion.
    let long_ago =
        mavuno::platform::clock::before_now(mavuno::housekeeping::TOMBSTONES_KEPT + std::time::Duration::from_secs(60));
    app.sql(&format!("UPDATE surveys SET deleted_at = '{long_ago}' WHERE deleted_at IS NOT NULL"));
    assert_eq!(app.state.housekeeping().run_once().await.unwrap().tombstones, 1);
    let next =
        app.get(&format!("/sync/pull?client_id={CLIENT_B}&cursor={cursor}&snapshot={snapshot}"), Some(&token)).await;
    assert_eq!(next.status(), StatusCode::OK, "the snapshot goes on");
    let next: Value = next.json().await.unwrap();
    assert_eq!(first["changes"].as_array().unwrap().len() + next["changes"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn after_a_restore_from_backup_the_phone_sends_again_what_the_server_lost_and_it_lands_once() {
    let live = tempfile::tempdir().unwrap();
    let app = spawn_in(live.path(), |_| {}).await;
    let (token, _) = app.register("amani@example.com").await;
    app.push_ok(&token, CLIENT_A, vec![mutation(1, "survey.create", draft(1), None)]).await;
    let backup = tempfile::tempdir().unwrap();
    backup_database(live.path(), backup.path());
    // After last night's backup: one more change, answered and pulled by the phone.
    app.push_ok(&token, CLIENT_A, vec![mutation(2, "survey.create", draft(2), None)]).await;
    let cursor = app.pull(&token, CLIENT_A, None, 100).await["cursor"].as_i64().unwrap();

    let restored = tempfile::tempdir().unwrap();
    restore_database(backup.path(), restored.path());
    std::fs::copy(live.path().join("jwt-secret"), restored.path().join("jwt-secret")).unwrap();
    let app = spawn_in(restored.path(), |_| {}).await;

    // The phone's next change skips what the server lost: a gap, nothing applied.
    let next = app.push(&token, CLIENT_A, vec![mutation(3, "survey.create", draft(3), None)]).await;
    assert_eq!(error_of(next, StatusCode::CONFLICT).await["code"], "mutation_gap");
    // Meanwhile others write: the restored server gives out new versions, never
    // the lost history's numbers again.
    let (other, _) = app.register("baraka@example.com").await;
    let others = (1..=3).map(|n| mutation(n, "survey.create", draft(10 + n as u32), None)).collect();
    app.push_ok(&other, CLIENT_B, others).await;
    // The phone's copy has seen a history this server no longer has: it starts a new
    // snapshot, which says the server has its changes up to 1.
    let url = app.api(&format!("/sync/pull?client_id={CLIENT_A}&cursor={cursor}"));
    let stale = app.client.get(url).bearer_auth(&token).send().await.unwrap();
    assert_eq!(error_of(stale, StatusCode::CONFLICT).await["code"], "snapshot_required");
    assert_eq!(app.pull(&token, CLIENT_A, None, 100).await["last_mutation_id"], 1);
    // It numbers what the server lacks on from there and sends it: each lands once.
    let again = vec![mutation(2, "survey.create", draft(2), None), mutation(3, "survey.create", draft(3), None)];
    let body = app.push_ok(&token, CLIENT_A, again.clone()).await;
    assert_eq!(body["last_mutation_id"], 3);
    app.push_ok(&token, CLIENT_A, again).await;
    assert_eq!(app.survey_count(), 3 + 3, "the phone's three and the other person's three");
}

/// A change sent again after a restore (docs/sync.md, Push) carries what the phone was
/// told the first time; when the answer now is the other way the person is told in their
/// language, and the farmers of an order lost this way by SMS. The same answer tells nobody.
#[tokio::test]
async fn a_change_sent_again_after_a_restore_that_ends_the_other_way_is_told() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", mavuno::model::user::Role::Farmer).await;
    app.sql("UPDATE users SET phone_number = '+243990000321' WHERE email = 'amani@example.com'");
    let beans = app
        .listed(&farmer, json!({"title": "Beans", "description": "Dry", "quantity": 5, "price": 2, "current_price": 2}))
        .await;
    let (first, _) = app.register("first@example.com").await;
    let (late, _) = app.register("late@example.com").await;
    let (refused_before, _) = app.register("refused@example.com").await;
    let resent = |id: u64, n: u32, quantity: i64, told: &str| {
        let mut change = mutation(
            id,
            "order.place",
            crate::orders::order(n, json!([crate::orders::line(beans, quantity, 200)])),
            None,
        );
        change["told"] = json!(told);
        change["client_time"] = json!("2026-11-30T12:02:00Z");
        change
    };
    let notifications = |email: &str| -> Vec<(String, Value)> {
        let conn = app.database();
        let mut stmt = conn
            .prepare(&format!(
                "SELECT kind, params FROM notifications n JOIN users u ON u.id = n.user_id WHERE u.email = '{email}' ORDER BY n.id"
            ))
            .unwrap();
        stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
            .unwrap()
            .map(|row| {
                let (kind, params) = row.unwrap();
                (kind, serde_json::from_str(&params).unwrap())
            })
            .collect()
    };

    // Placed before and placed again: nobody is told anything new.
    let again = app.push_ok(&first, "aaaaaaaa-0000-4000-8000-000000000001", vec![resent(1, 1, 4, "applied")]).await;
    assert_eq!(again["results"][0]["status"], "applied");
    assert!(notifications("first@example.com").iter().all(|(kind, _)| !kind.starts_with("restored")));
    // Told placed before; now the stock went to the order that came back first.
    let lost = app.push_ok(&late, "aaaaaaaa-0000-4000-8000-000000000002", vec![resent(1, 2, 3, "applied")]).await;
    assert_eq!(lost["results"][0]["status"], "rejected", "{lost}");
    let told = notifications("late@example.com");
    assert_eq!(told, [("restored_order_lost".to_owned(), json!({"time": "14:02"}))], "South Kivu's hour");
    let texts: Vec<String> =
        app.sms_bodies().into_iter().filter(|(to, _)| to == "+243990000321").map(|(_, body)| body).collect();
    assert!(
        texts.iter().any(|body| body.contains("la commande de 14:02 de") && body.contains("Ne la préparez pas")),
        "the farmer (DRC: French) is told not to prepare it: {texts:?}"
    );
    // Refused before (out of stock then); placed now: told, with its number.
    let restocked = app
        .call(
            reqwest::Method::PATCH,
            &format!("/farmer/products/{beans}"),
            &farmer,
            Some(json!({"product": {"quantity": 10}})),
        )
        .await;
    assert_eq!(restocked.status(), StatusCode::OK);
    let placed =
        app.push_ok(&refused_before, "aaaaaaaa-0000-4000-8000-000000000003", vec![resent(1, 3, 2, "rejected")]).await;
    assert_eq!(placed["results"][0]["status"], "applied", "{placed}");
    let told = notifications("refused@example.com");
    let restored: Vec<&(String, Value)> = told.iter().filter(|(kind, _)| kind.starts_with("restored")).collect();
    assert_eq!(restored.len(), 1, "{told:?}");
    assert_eq!(restored[0].0, "restored_order_placed");
    assert!(restored[0].1["number"].as_str().is_some_and(|n| n.parse::<i64>().is_ok()), "{told:?}");
}
