use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::CLIENT_A;

pub fn complete() -> Value {
    json!({
        "land_size": "1-2 hectares", "work_type": "With family", "income_sources": "Farming only",
        "seed_type": "Improved/hybrid", "seed_source": "Local market", "fertilizers": "Compost/manure",
        "field_preparation": "Hand tools (hoe)", "farming_techniques": "Mulching", "planting_season": "Season A",
        "higher_season": "Season B", "higher_season_reason": "Rain", "average_yield": "1-2 tons",
        "challenges": "Pests", "selling_method": "Sell at local market",
        "improvements_production": "Seed", "improvements_selling": "Groups"
    })
}

impl TestApp {
    pub async fn call(&self, method: Method, path: &str, token: &str, body: Option<Value>) -> reqwest::Response {
        let mut request = self.client.request(method, self.api(path)).bearer_auth(token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send().await.unwrap()
    }

    /// A buyer's submitted application; returns its id.
    pub async fn submitted(&self, token: &str, status: Option<&str>) -> Value {
        let mut form = complete();
        if let Some(status) = status {
            form["status"] = json!(status);
        }
        let body: Value = self
            .call(Method::POST, "/farmer/farmer_survey_forms", token, Some(json!({"farmer_survey_form": form})))
            .await
            .json()
            .await
            .unwrap();
        body["data"]["id"].clone()
    }
}

fn decide(status: &str, comment: &str) -> Value {
    json!({"farmer_survey_form": {"status": status, "admin_comment": comment}})
}

#[tokio::test]
async fn approving_makes_the_buyer_a_farmer_and_reaches_their_phone() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("amani@example.com").await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let id = app.submitted(&buyer, None).await;
    let list: Value = app.call(Method::GET, "/admin/surveys", &admin, None).await.json().await.unwrap();
    assert_eq!(list["data"][0]["user"]["email"], "amani@example.com");

    let response = app
        .call(Method::PATCH, &format!("/admin/surveys/{id}"), &admin, Some(decide("approved", "Welcome to MAVUNO")))
        .await;
    assert_eq!(response.status(), StatusCode::OK);
    let body: Value = response.json().await.unwrap();
    assert_eq!((body["data"]["status"].as_str(), body["data"]["active"].as_bool()), (Some("approved"), Some(true)));
    assert!(body["data"]["reviewed_at"].is_string());

    let me: Value = app.me(&buyer).await.json().await.unwrap();
    assert_eq!(me["user"]["role"], "farmer");
    let pulled = app.pull(&buyer, CLIENT_A, None, 100).await;
    let record = &pulled["changes"][0]["record"];
    assert_eq!(
        (record["status"].as_str(), record["admin_comment"].as_str()),
        (Some("approved"), Some("Welcome to MAVUNO"))
    );
}

#[tokio::test]
async fn only_pending_or_resubmitted_applications_are_decided() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("amani@example.com").await;
    let admin = app.user_with_role("super@example.com", Role::SuperAdmin).await;
    let id = app.submitted(&buyer, None).await;
    let path = format!("/admin/surveys/{id}");
    let rejected: Value =
        app.call(Method::PATCH, &path, &admin, Some(decide("rejected", "Add your yield"))).await.json().await.unwrap();
    assert_eq!(
        (rejected["data"]["status"].as_str(), rejected["data"]["active"].as_bool()),
        (Some("rejected"), Some(false))
    );
    let body =
        error_of(app.call(Method::PATCH, &path, &admin, Some(decide("approved", ""))).await, StatusCode::CONFLICT)
            .await;
    assert_eq!(body["code"], "not_reviewable");

    // The owner resubmits; the spec client's "active" approves it.
    app.call(
        Method::PATCH,
        &format!("/farmer/farmer_survey_forms/{id}"),
        &buyer,
        Some(json!({"farmer_survey_form": {"status": "re-submitted"}})),
    )
    .await;
    let approved: Value =
        app.call(Method::PATCH, &path, &admin, Some(decide("active", ""))).await.json().await.unwrap();
    assert_eq!(approved["data"]["status"], "approved");
    assert_eq!(approved["data"]["admin_comment"], Value::Null, "a blank comment is no comment");

    let draft = app.submitted(&buyer, Some("draft")).await;
    error_of(
        app.call(Method::PATCH, &format!("/admin/surveys/{draft}"), &admin, Some(decide("approved", ""))).await,
        StatusCode::CONFLICT,
    )
    .await;
    let body = error_of(
        app.call(Method::PATCH, &path, &admin, Some(decide("pending", ""))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(body["error_codes"]["status"][0], "invalid_transition");
    error_of(
        app.call(Method::PATCH, "/admin/surveys/999", &admin, Some(decide("approved", ""))).await,
        StatusCode::NOT_FOUND,
    )
    .await;
}

#[tokio::test]
async fn a_bulk_decision_reports_each_application() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("amani@example.com").await;
    let (other, _) = app.register("baraka@example.com").await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let (a, b, draft) = (
        app.submitted(&buyer, None).await,
        app.submitted(&other, None).await,
        app.submitted(&buyer, Some("draft")).await,
    );
    let body: Value = app
        .call(
            Method::POST,
            "/admin/surveys/bulk",
            &admin,
            Some(json!({"ids": [a, b, draft], "status": "rejected", "admin_comment": "Incomplete"})),
        )
        .await
        .json()
        .await
        .unwrap();
    let results = body["results"].as_array().unwrap();
    assert_eq!(results.iter().map(|r| r["success"].as_bool().unwrap()).collect::<Vec<_>>(), [true, true, false]);
    assert_eq!(results[2]["code"], "not_reviewable");
    assert!(results[2]["message"].as_str().unwrap().contains("draft"));
    let body = error_of(
        app.call(Method::POST, "/admin/surveys/bulk", &admin, Some(json!({"ids": [], "status": "approved"}))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(body["error_codes"]["ids"][0], "nothing_selected");
}

#[tokio::test]
async fn an_admin_creates_an_application_for_a_person() {
    let app = spawn_app().await;
    let (buyer, user) = app.register("amani@example.com").await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let body = error_of(
        app.call(Method::POST, "/admin/surveys", &admin, Some(json!({"farmer_survey_form": complete()}))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(body["message"], "Please select a user");
    let mut form = complete();
    form["user_id"] = user["id"].clone();
    let response = app.call(Method::POST, "/admin/surveys", &admin, Some(json!({"farmer_survey_form": form}))).await;
    assert_eq!(response.status(), StatusCode::CREATED);
    let created: Value = response.json().await.unwrap();
    assert_eq!(created["data"]["user"]["email"], "amani@example.com");
    assert_eq!(created["data"]["created_by"]["email"], "admin@example.com");
    let mine: Value = app.call(Method::GET, "/farmer/farmer_survey_forms", &buyer, None).await.json().await.unwrap();
    assert_eq!(mine["data"].as_array().unwrap().len(), 1, "the applicant sees it as theirs");
}

#[tokio::test]
async fn buyers_farmers_and_agents_cannot_review() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("amani@example.com").await;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let id = app.submitted(&buyer, None).await;
    for token in [&buyer, &farmer, &agent] {
        error_of(app.call(Method::GET, "/admin/surveys", token, None).await, StatusCode::FORBIDDEN).await;
        error_of(
            app.call(Method::PATCH, &format!("/admin/surveys/{id}"), token, Some(decide("approved", ""))).await,
            StatusCode::FORBIDDEN,
        )
        .await;
        error_of(
            app.call(Method::POST, "/admin/surveys/bulk", token, Some(json!({"ids": [id], "status": "approved"})))
                .await,
            StatusCode::FORBIDDEN,
        )
        .await;
    }
}

#[tokio::test]
async fn the_admin_list_filters_pages_and_counts() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    // One application waits per person: three applicants.
    for email in ["amani@example.com", "baraka@example.com", "chance@example.com"] {
        let (applicant, _) = app.register(email).await;
        app.submitted(&applicant, None).await;
    }
    let (grace, _) = app.register("grace@example.com").await;
    let rejected = app.submitted(&grace, None).await;
    app.submitted(&grace, Some("draft")).await;
    app.call(Method::PATCH, &format!("/admin/surveys/{rejected}"), &admin, Some(decide("rejected", ""))).await;
    app.sql("UPDATE surveys SET cooperative_name = 'Umoja 50%', created_at = '2020-01-01T00:00:00Z' WHERE id = (SELECT MIN(id) FROM surveys)");

    let all: Value = app.call(Method::GET, "/admin/surveys?per_page=2", &admin, None).await.json().await.unwrap();
    assert_eq!(
        (all["total"].as_i64(), all["data"].as_array().unwrap().len(), all["per_page"].as_i64()),
        (Some(4), 2, Some(2)),
        "drafts are not listed"
    );
    assert_eq!(all["stats"], json!({"total": 4, "pending": 3, "approved": 0, "rejected": 1, "re-submitted": 0}));
    let second: Value =
        app.call(Method::GET, "/admin/surveys?per_page=2&page=2", &admin, None).await.json().await.unwrap();
    assert_eq!(second["data"][1]["cooperative_name"], "Umoja 50%", "oldest last");

    let count = |query: &'static str| {
        let app = &app;
        let admin = admin.clone();
        async move {
            app.call(Method::GET, &format!("/admin/surveys?{query}"), &admin, None).await.json::<Value>().await.unwrap()
                ["total"]
                .as_i64()
                .unwrap()
        }
    };
    assert_eq!(count("q=GRACE").await, 1, "case-insensitive email search");
    assert_eq!(count("q=umoja%2050%25").await, 1);
    assert_eq!(count("q=with%20family").await, 4, "work type");
    assert_eq!(count("status=rejected").await, 1);
    assert_eq!(count("status=active").await, 0);
    assert_eq!(count("from=2025-01-01T00:00:00.000Z").await, 3);
    assert_eq!(count("from=2025-01-01T02:00:00%2B02:00&status=pending").await, 2);
    let bad = error_of(
        app.call(Method::GET, "/admin/surveys?from=yesterday", &admin, None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(bad["error_codes"]["from"][0], "invalid_filter");
    error_of(
        app.call(Method::GET, "/admin/surveys?status=draft", &admin, None).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
}

#[tokio::test]
async fn the_export_has_every_field_in_the_admins_language_and_neutralises_formulas() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let (buyer, _) = app.register("amani@example.com").await;
    let mut form = complete();
    form["cooperative_name"] = json!("=cmd|'/C calc'!A0");
    form["challenges"] = json!("Pests, \"rain\"\nand roads");
    // What a spreadsheet set to French (it splits at `;`) would run from inside a cell.
    form["farming_techniques"] = json!("Mulching;=cmd|' /C calc'!A0;ok");
    form["post_harvest_losses"] = json!(true);
    form["loss_percentage"] = json!(20);
    app.call(Method::POST, "/farmer/farmer_survey_forms", &buyer, Some(json!({"farmer_survey_form": form}))).await;

    let export = app.call(Method::GET, "/admin/surveys/export?lang=sw", &admin, None).await;
    assert_eq!(export.status(), StatusCode::OK);
    assert!(export.headers()["content-disposition"].to_str().unwrap().contains("filename=\"applications_20"));
    let text = export.text().await.unwrap();
    let mut rows = text.trim_start_matches('\u{feff}').split("\r\n");
    let header = rows.next().unwrap();
    assert_eq!(header.split(',').count(), 8 + 23, "{header}");
    let sw: Value = serde_json::from_str(include_str!("../../../pwa/src/locales/sw.json")).unwrap();
    assert!(header.contains(sw["survey"]["fields"]["land_size"].as_str().unwrap()), "{header}");
    let row = rows.next().unwrap();
    assert!(row.contains("\"'=cmd|'/C calc'!A0\""), "{row}");
    assert!(row.contains("\"Pests, \"\"rain\"\"\nand roads\""), "{row}");
    assert!(row.contains("\"Mulching;'=cmd|' /C calc'!A0;ok\""), "{row}");
    for piece in row.split([',', ';', '\t', '\n']) {
        assert!(!piece.trim_start_matches(['"', ' ']).starts_with(['=', '+', '@']), "{piece:?} in {row}");
    }
    assert!(
        row.contains(sw["options"]["land_size"]["1_2_hectares"].as_str().unwrap()),
        "choices are translated: {row}"
    );
    assert!(row.contains(&format!(",{},20,", sw["survey"]["yes"].as_str().unwrap())), "{row}");
    assert!(row.contains(sw["survey"]["status"]["pending"].as_str().unwrap()));

    let none = error_of(
        app.call(Method::GET, "/admin/surveys/export?status=approved", &admin, None).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!(none["code"], "no_applications");
}

/// A one-connection-at-a-time SMTP server that hands each message's DATA to the test.
async fn fake_smtp() -> (String, tokio::sync::mpsc::UnboundedReceiver<String>) {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let url = format!("smtp://{}", listener.local_addr().unwrap());
    let (sender, receiver) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        while let Ok((stream, _)) = listener.accept().await {
            let (read, mut write) = stream.into_split();
            let mut lines = BufReader::new(read).lines();
            write.write_all(b"220 fake ESMTP\r\n").await.unwrap();
            let mut data: Option<String> = None;
            while let Ok(Some(line)) = lines.next_line().await {
                if let Some(message) = data.as_mut() {
                    if line == "." {
                        sender.send(data.take().unwrap()).unwrap();
                        write.write_all(b"250 queued\r\n").await.unwrap();
                    } else {
                        message.push_str(&line);
                        message.push('\n');
                    }
                    continue;
                }
                let reply: &[u8] = match line.get(..4).unwrap_or("").to_ascii_uppercase().as_str() {
                    "EHLO" => b"250-fake\r\n250 8BITMIME\r\n",
                    "DATA" => {
                        data = Some(String::new());
                        b"354 go on\r\n"
                    }
                    "QUIT" => b"221 bye\r\n",
                    _ => b"250 ok\r\n",
                };
                write.write_all(reply).await.unwrap();
            }
        }
    });
    (url, receiver)
}

#[tokio::test]
async fn a_notified_decision_is_emailed_in_the_applicants_language() {
    let (url, mut inbox) = fake_smtp().await;
    let app = spawn_with(|config| config.smtp_url = Some(url.into())).await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let (buyer, _) = app.register("amani@example.com").await;
    app.sql("UPDATE users SET country = 'DRC' WHERE email = 'amani@example.com'");
    let quiet = app.submitted(&buyer, None).await;
    app.call(Method::PATCH, &format!("/admin/surveys/{quiet}"), &admin, Some(decide("rejected", ""))).await;
    let loud = app.submitted(&buyer, None).await;
    let mut body = decide("approved", "Karibu!");
    body["farmer_survey_form"]["notify"] = json!(true);
    app.call(Method::PATCH, &format!("/admin/surveys/{loud}"), &admin, Some(body)).await;

    let raw = tokio::time::timeout(std::time::Duration::from_secs(10), inbox.recv())
        .await
        .expect("an email arrives")
        .unwrap();
    assert!(
        raw.contains("To: amani@example.com") && raw.contains("Content-Transfer-Encoding: quoted-printable"),
        "{raw}"
    );
    let message = quoted_printable(&raw);
    assert!(message.contains(&format!("n° {loud} a été approuvée")), "{message}");
    assert!(message.contains("Karibu!"), "the comment is in the message: {message}");
    let fr: Value = serde_json::from_str(include_str!("../../../pwa/src/locales/fr.json")).unwrap();
    let expected = fr["email"]["signature"].as_str().unwrap();
    assert!(message.contains(expected), "written in French for Congo: {message}");
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    assert!(inbox.try_recv().is_err(), "the decision without notify sends nothing");
}

/// Enough of RFC 2045 quoted-printable for the test to read a message body.
fn quoted_printable(raw: &str) -> String {
    let joined = raw.replace("=\n", "");
    let mut bytes = Vec::new();
    let mut rest = joined.as_bytes();
    while let Some((&first, tail)) = rest.split_first() {
        match (first, tail.get(..2).and_then(|hex| u8::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok())) {
            (b'=', Some(byte)) => {
                bytes.push(byte);
                rest = &tail[2..];
            }
            _ => {
                bytes.push(first);
                rest = tail;
            }
        }
    }
    String::from_utf8(bytes).unwrap()
}

#[tokio::test]
async fn without_smtp_a_notification_is_logged_and_marked_so() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let (buyer, _) = app.register("amani@example.com").await;
    let (other, _) = app.register("baraka@example.com").await;
    let (a, b) = (app.submitted(&buyer, None).await, app.submitted(&other, None).await);
    let answer = app
        .call(
            Method::POST,
            "/admin/surveys/bulk",
            &admin,
            Some(json!({"ids": [a, b], "status": "rejected", "notify": true})),
        )
        .await;
    assert_eq!(answer.status(), StatusCode::OK);
    let mut logged = 0;
    for _ in 0..50 {
        let conn = app.database();
        logged = conn.query_row("SELECT COUNT(*) FROM email_outbox WHERE delivery = 'logged' AND sent_at IS NOT NULL AND to_email IN ('amani@example.com', 'baraka@example.com')", [], |r| r.get::<_, i64>(0)).unwrap();
        if logged == 2 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    assert_eq!(logged, 2);
}

#[tokio::test]
async fn one_application_per_person_waits_for_a_decision() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let (buyer, _) = app.register("amani@example.com").await;
    let first = app.submitted(&buyer, None).await;
    // A second one is refused while the first waits; a draft may wait beside it.
    let again = app
        .call(Method::POST, "/farmer/farmer_survey_forms", &buyer, Some(json!({"farmer_survey_form": complete()})))
        .await;
    assert_eq!(error_of(again, StatusCode::CONFLICT).await["code"], "application_waiting");
    let draft = app.submitted(&buyer, Some("draft")).await;
    let submit = json!({"farmer_survey_form": {"status": "pending"}});
    let sent =
        app.call(Method::PATCH, &format!("/farmer/farmer_survey_forms/{draft}"), &buyer, Some(submit.clone())).await;
    assert_eq!(error_of(sent, StatusCode::CONFLICT).await["code"], "application_waiting");
    // A field agent filling one for the same person is told so too.
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let person = app.get("/me", Some(&buyer)).await.json::<Value>().await.unwrap()["user"]["id"].clone();
    let args = json!({"uid": crate::sync::uid(90), "user_id": person, "status": "pending", "answers": complete()});
    let filled =
        app.push_ok(&agent, crate::sync::CLIENT_A, vec![crate::sync::mutation(1, "survey.create", args, None)]).await;
    assert_eq!(filled["results"][0]["code"], "application_waiting", "{filled}");
    // Once decided, the next may be sent.
    app.call(Method::PATCH, &format!("/admin/surveys/{first}"), &admin, Some(decide("rejected", ""))).await;
    let sent = app.call(Method::PATCH, &format!("/farmer/farmer_survey_forms/{draft}"), &buyer, Some(submit)).await;
    assert_eq!(sent.status(), StatusCode::OK);
}
