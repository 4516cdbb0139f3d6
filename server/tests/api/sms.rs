//! Text messages (docs/sms.md): written with what they announce, sent by the log
//! when no provider is configured, and through Africa's Talking against a local
//! fake of its SMS API (nothing here reaches the internet): a failure tried
//! again, a number it cannot reach given up, the provider's message id kept.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode as AxumStatus};
use axum::routing::post;
use axum::{Form, Json, Router};
use mavuno::model::user::Role;
use mavuno::platform::config::AfricasTalkingSettings;
use reqwest::Method;
use serde_json::{Value, json};

use crate::helpers::*;

const KEY: &str = "fake-at-key";
const CALLBACK: &str = "delivery-reports-secret-0123456789abcdef";

type Fields = Vec<(String, String)>;

/// The fake's answers (HTTP status, recipient status code) in turn, the last
/// repeating, and the forms it was sent.
#[derive(Clone, Default)]
struct Fake {
    answers: Arc<Mutex<Vec<(u16, i64)>>>,
    received: Arc<Mutex<Vec<Fields>>>,
}

/// A row of the SMS outbox.
#[derive(Debug)]
struct Text {
    to: String,
    body: String,
    status: String,
    delivery: Option<String>,
    provider_id: Option<String>,
    attempts: i64,
}

async fn messaging(
    State(fake): State<Fake>,
    headers: HeaderMap,
    Form(form): Form<Fields>,
) -> (AxumStatus, Json<Value>) {
    if headers.get("apikey").and_then(|v| v.to_str().ok()) != Some(KEY) {
        return (AxumStatus::UNAUTHORIZED, Json(json!("The supplied authentication is invalid")));
    }
    let number = form.iter().find(|(k, _)| k == "to").map(|(_, v)| v.clone()).unwrap_or_default();
    fake.received.lock().unwrap().push(form);
    let (http, code) = {
        let mut answers = fake.answers.lock().unwrap();
        if answers.len() > 1 { answers.remove(0) } else { answers[0] }
    };
    let status = match code {
        101 => "Success",
        403 => "InvalidPhoneNumber",
        _ => "InternalServerError",
    };
    let recipient = json!({"statusCode": code, "number": number, "status": status, "cost": "USD 0.0200",
                           "messageId": "ATXid_1f2e3d"});
    let body = json!({"SMSMessageData": {"Message": "Sent to 1/1", "Recipients": [recipient]}});
    (AxumStatus::from_u16(http).unwrap(), Json(body))
}

async fn fake_africas_talking(answers: Vec<(u16, i64)>) -> (String, Fake) {
    let fake = Fake { answers: Arc::new(Mutex::new(answers)), ..Fake::default() };
    let app = Router::new().route("/version1/messaging", post(messaging)).with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    (url, fake)
}

impl TestApp {
    fn texts(&self) -> Vec<Text> {
        let conn = self.database();
        let mut stmt = conn
            .prepare("SELECT to_number, body, status, delivery, provider_id, attempts FROM sms_outbox ORDER BY id")
            .unwrap();
        stmt.query_map([], |r| {
            let (to, body, status) = (r.get(0)?, r.get(1)?, r.get(2)?);
            Ok(Text { to, body, status, delivery: r.get(3)?, provider_id: r.get(4)?, attempts: r.get(5)? })
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    /// Waits until the outbox's statuses are `statuses`.
    async fn texts_become(&self, statuses: &[&str]) -> Vec<Text> {
        for _ in 0..100 {
            let texts = self.texts();
            if texts.iter().map(|t| t.status.as_str()).collect::<Vec<_>>() == statuses {
                return texts;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the SMS outbox stayed {:?}", self.texts());
    }

    /// An application by `buyer`, approved or rejected with notice by an admin.
    async fn decided(&self, buyer: &str, status: &str) -> i64 {
        let admin = self.user_with_role(&format!("admin.{status}@example.com"), Role::Admin).await;
        let id = self.submitted(buyer, None).await;
        let body = json!({"farmer_survey_form": {"status": status, "admin_comment": "", "notify": true}});
        let response = self.call(Method::PATCH, &format!("/admin/surveys/{id}"), &admin, Some(body)).await;
        assert!(response.status().is_success());
        id.as_i64().unwrap()
    }
}

/// Whatever path queues an SMS, its commit wakes the sender: the message leaves at once,
/// not at the sender's next look (30 s on).
#[tokio::test]
async fn an_sms_queued_by_any_write_leaves_at_once_not_at_the_next_look() {
    let app = spawn_app().await;
    // The sender has looked at the empty outbox at start; its next look is 30 s away.
    tokio::time::sleep(Duration::from_millis(300)).await;
    app.state
        .db
        .write(|tx| Ok(mavuno::db::sms::enqueue(tx, "+243990001234", "Hello", &mavuno::platform::clock::now())?))
        .await
        .unwrap();
    app.texts_become(&["sent"]).await;

    // A manager accepting a member: the welcome leaves at once too.
    let c = crate::cooperatives::Coop::new().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let farmer = c.app.user_with_role("second.member@example.com", Role::Farmer).await;
    c.app.sql("UPDATE users SET phone_number = '+243990000177' WHERE email = 'second.member@example.com'");
    let me: Value = c.app.get("/me", Some(&farmer)).await.json().await.unwrap();
    let farmer_id = me["user"]["id"].as_i64().unwrap();
    c.app.call(Method::POST, &format!("/cooperatives/{}/join", c.id), &farmer, None).await;
    let accepted = c
        .app
        .call(
            Method::PUT,
            &format!("/cooperatives/{}/members/{farmer_id}", c.id),
            &c.manager,
            Some(json!({"status": "active"})),
        )
        .await;
    assert_eq!(accepted.status(), reqwest::StatusCode::OK);
    for _ in 0..100 {
        let welcome = c.app.texts().into_iter().find(|t| t.to == "+243990000177");
        if welcome.as_ref().is_some_and(|t| t.status == "sent") {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the welcome was not sent within 5 s: {:?}", c.app.texts());
}

#[tokio::test]
async fn a_decision_is_texted_in_the_applicants_language_and_logged_without_a_provider() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("amani@example.com").await;
    let id = app.decided(&buyer, "approved").await;
    let texts = app.texts_become(&["sent"]).await;
    assert_eq!(
        (texts[0].to.as_str(), texts[0].delivery.as_deref()),
        (e164_of("amani@example.com").as_str(), Some("logged"))
    );
    assert_eq!(
        texts[0].body,
        format!(
            "MAVUNO: Amani, votre demande d'agriculteur no {id} est approuvée. Publiez vos produits dans l'app ou le menu téléphone MAVUNO."
        ),
        "in French for Congo, naming no code while none is set"
    );
}

/// Africa's Talking's sandbox at `url`, with no sender name and no delivery reports.
fn sandbox(url: String) -> AfricasTalkingSettings {
    AfricasTalkingSettings { url, username: "sandbox".into(), api_key: KEY.into(), from: None, callback_token: None }
}

/// Two nodes on one PostgreSQL database, both sending: each message queued once
/// reaches the provider once (each sender claims what it sends).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_nodes_send_each_queued_sms_once() {
    if !on_postgres() {
        return;
    }
    let (url, fake) = fake_africas_talking(vec![(201, 101)]).await;
    let settings = sandbox(url);
    let (first, second) = (settings.clone(), settings);
    let a = spawn_with(|config| config.africas_talking = Some(first)).await;
    let (b, _dir) = crate::nodes::second_node_with(&a, |config| config.africas_talking = Some(second)).await;
    let conn = a.database();
    for n in 0..60 {
        mavuno::db::sms::enqueue(&conn, &format!("+24399100{n:04}"), &format!("Message {n}"), "2026-01-01T00:00:00Z")
            .unwrap();
    }
    a.state.db.outbox().wake();
    b.state.db.outbox().wake();
    let texts = a.texts_become(&["sent"; 60]).await;
    assert!(texts.iter().all(|t| t.attempts == 1), "each sent at the first attempt");
    let mut bodies: Vec<String> = fake
        .received
        .lock()
        .unwrap()
        .iter()
        .filter_map(|form| form.iter().find(|(k, _)| k == "message").map(|(_, v)| v.clone()))
        .collect();
    assert_eq!(bodies.len(), 60, "the provider was asked 60 times, not more");
    bodies.sort();
    bodies.dedup();
    assert_eq!(bodies.len(), 60);
}

/// A node that claimed messages and stopped before sending them (killed mid-batch):
/// once its claim runs out, the other node's sender sends them, once.
#[tokio::test]
async fn messages_claimed_by_a_node_that_stopped_are_sent_by_another_once_the_claim_runs_out() {
    let (url, fake) = fake_africas_talking(vec![(201, 101)]).await;
    let settings = sandbox(url);
    let app = spawn_with(|config| config.africas_talking = Some(settings)).await;
    let conn = app.database();
    for n in 0..3 {
        mavuno::db::sms::enqueue(&conn, &format!("+24399200{n:04}"), &format!("Claimed {n}"), "2026-01-01T00:00:00Z")
            .unwrap();
    }
    // The stopped node's claim: due again in two seconds.
    let until = mavuno::platform::clock::format(time::OffsetDateTime::now_utc() + Duration::from_secs(2));
    let claimed = mavuno::db::sms::claim_due(&conn, &mavuno::platform::clock::now(), &until, 20).unwrap();
    assert_eq!(claimed.len(), 3);
    app.state.db.outbox().wake();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(fake.received.lock().unwrap().is_empty(), "claimed by another: left alone");
    tokio::time::sleep(Duration::from_secs(2)).await;
    app.state.db.outbox().wake();
    app.texts_become(&["sent"; 3]).await;
    assert_eq!(fake.received.lock().unwrap().len(), 3, "each sent once");
}

#[tokio::test]
async fn africas_talking_gets_the_message_a_failure_is_tried_again_and_a_bad_number_given_up() {
    let (url, fake) = fake_africas_talking(vec![(500, 500), (201, 101)]).await;
    let settings = AfricasTalkingSettings {
        url,
        username: "sandbox".into(),
        api_key: KEY.into(),
        from: Some("MAVUNO".into()),
        callback_token: Some(CALLBACK.into()),
    };
    let app = spawn_with(|config| config.africas_talking = Some(settings)).await;
    let (buyer, _) = app.register("amani@example.com").await;
    app.decided(&buyer, "rejected").await;

    // The first attempt fails: it waits a minute (brought forward here), then goes.
    let failed = app.texts_become(&["queued"]).await;
    for _ in 0..100 {
        if app.texts()[0].attempts == 1 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(app.texts()[0].attempts, 1, "one attempt made: {failed:?}");
    app.sql("UPDATE sms_outbox SET next_try_at = '2000-01-01T00:00:00Z' WHERE status = 'queued'");
    app.state.db.outbox().wake();
    let sent = &app.texts_become(&["sent"]).await[0];
    assert_eq!(
        (sent.delivery.as_deref(), sent.provider_id.as_deref(), sent.attempts),
        (Some("africastalking"), Some("ATXid_1f2e3d"), 2)
    );
    let form = fake.received.lock().unwrap().last().unwrap().clone();
    let field = |name: &str| form.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    assert_eq!(field("username").as_deref(), Some("sandbox"));
    assert_eq!(field("to"), Some(e164_of("amani@example.com")));
    assert_eq!(field("from").as_deref(), Some("MAVUNO"));
    assert!(field("message").unwrap().contains("n'est pas approuvée"));

    // Its delivery report reaches our secret address only; then the message is delivered.
    let report = |token: &str, status: &str| {
        let form = [("id", "ATXid_1f2e3d"), ("status", status), ("phoneNumber", "+243991234567"), ("retryCount", "0")];
        app.client.post(app.api(&format!("/sms/delivery/{token}"))).form(&form).send()
    };
    assert_eq!(report("guess", "Success").await.unwrap().status(), reqwest::StatusCode::NOT_FOUND);
    let junk = app.client.post(app.api(&format!("/sms/delivery/{CALLBACK}"))).body("{}").send().await.unwrap();
    assert_eq!(error_of(junk, reqwest::StatusCode::BAD_REQUEST).await["code"], "invalid_body");
    assert_eq!(app.texts()[0].status, "sent", "nothing changed");
    assert_eq!(report(CALLBACK, "Buffered").await.unwrap().status(), reqwest::StatusCode::OK);
    assert_eq!(app.texts()[0].status, "sent", "on its way");
    report(CALLBACK, "Success").await.unwrap();
    assert_eq!(app.texts()[0].status, "delivered");

    // A number Africa's Talking cannot reach is not tried again.
    *fake.answers.lock().unwrap() = vec![(201, 403)];
    let (other, _) = app.register("baraka@example.com").await;
    app.decided(&other, "approved").await;
    let texts = app.texts_become(&["delivered", "failed"]).await;
    assert_eq!(texts[1].attempts, 1);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(fake.received.lock().unwrap().len(), 3, "two attempts for the first, one for the second");
}

#[tokio::test]
async fn a_person_who_turned_sms_updates_off_gets_none_and_the_email_still() {
    let app = spawn_app().await;
    let (buyer, user) = app.register("amani@example.com").await;
    assert_eq!(user["sms_updates"], true, "on for a new account");
    let form = reqwest::multipart::Form::new().text("user[sms_updates]", "false");
    let response = app.client.patch(app.api("/me/update")).bearer_auth(&buyer).multipart(form).send().await.unwrap();
    assert_eq!(response.json::<Value>().await.unwrap()["user"]["sms_updates"], false);
    let bad = reqwest::multipart::Form::new().text("user[sms_updates]", "maybe");
    let response = app.client.patch(app.api("/me/update")).bearer_auth(&buyer).multipart(bad).send().await.unwrap();
    assert_eq!(
        error_of(response, reqwest::StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["sms_updates"][0],
        "invalid_boolean"
    );

    app.decided(&buyer, "approved").await;
    let emails: i64 = app.database().query_row("SELECT COUNT(*) FROM email_outbox", [], |r| r.get(0)).unwrap();
    assert_eq!((emails, app.sms_bodies().len()), (1, 0));
}
