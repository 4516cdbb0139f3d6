//! Training through the real server (docs/training.md): the catalogue, the
//! admin's course management, enrolment, progress from events sent by two
//! phones, quizzes graded here, certificates and their public check.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::{CLIENT_A, CLIENT_B, mutation};

const QUIZ: &str = r#"[
    {"prompt": "Rows across the slope?", "choices": ["No", "Yes"], "answer": 1, "explanation": "They hold the soil."},
    {"prompt": "Maize rows?", "choices": ["25 cm", "75 cm", "2 m"], "answer": 1},
    {"prompt": "Burn the stalks?", "choices": ["Yes", "No"], "answer": 1}
]"#;

pub struct Built {
    pub id: i64,
    pub uid: String,
    /// Lesson ids in course order: reading, reading, quiz.
    pub lessons: Vec<i64>,
}

impl TestApp {
    pub async fn ok(&self, method: Method, path: &str, token: &str, body: Option<Value>) -> Value {
        let response = self.call(method.clone(), path, token, body).await;
        let status = response.status();
        let text = response.text().await.unwrap();
        assert!(status.is_success(), "{method} {path}: {status} {text}");
        serde_json::from_str(&text).unwrap()
    }

    /// A published course of two modules: two readings, then a quiz of three questions.
    pub async fn course(&self, admin: &str, fields: Value) -> Built {
        let created = self.ok(Method::POST, "/admin/courses", admin, Some(fields)).await;
        let id = created["course"]["id"].as_i64().unwrap();
        let uid = created["course"]["uid"].as_str().unwrap().to_owned();
        let first = self
            .ok(Method::POST, &format!("/admin/courses/{id}/modules"), admin, Some(json!({"title": "Start"})))
            .await;
        let m1 = first["course"]["modules"][0]["id"].as_i64().unwrap();
        let second =
            self.ok(Method::POST, &format!("/admin/courses/{id}/modules"), admin, Some(json!({"title": "Then"}))).await;
        let m2 = second["course"]["modules"][1]["id"].as_i64().unwrap();
        let reading =
            |title: &str| json!({"title": title, "kind": "reading", "minutes": 5, "body": "## Soil\n- Compost"});
        self.ok(Method::POST, &format!("/admin/modules/{m1}/lessons"), admin, Some(reading("Soil"))).await;
        self.ok(Method::POST, &format!("/admin/modules/{m1}/lessons"), admin, Some(reading("Spacing"))).await;
        let quiz = json!({"title": "Quiz", "kind": "quiz", "minutes": 4, "questions": serde_json::from_str::<Value>(QUIZ).unwrap()});
        self.ok(Method::POST, &format!("/admin/modules/{m2}/lessons"), admin, Some(quiz)).await;
        let done =
            self.ok(Method::PATCH, &format!("/admin/courses/{id}"), admin, Some(json!({"published": true}))).await;
        let lessons = done["course"]["modules"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|m| m["lessons"].as_array().unwrap().iter().map(|l| l["id"].as_i64().unwrap()))
            .collect();
        Built { id, uid, lessons }
    }

    pub async fn progress(&self, token: &str, course: i64, event: Value) -> reqwest::Response {
        self.call(Method::POST, &format!("/courses/{course}/progress"), token, Some(event)).await
    }
}

pub fn fields(title: &str, category: &str, level: &str) -> Value {
    json!({"title": title, "description": "For smallholders", "category": category, "level": level, "language": "en",
        "instructor_name": "Amani Bisimwa", "outcomes": ["Plant in rows"], "requirements": ["A plot"]})
}

pub async fn admin(app: &TestApp) -> String {
    app.user_with_role("admin@example.com", Role::Admin).await
}

#[tokio::test]
async fn the_catalogue_searches_filters_and_sorts_published_courses() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let beans = app.course(&admin, fields("Better beans", "farming", "beginner")).await;
    let mut market = fields("Vendre au marché", "marketing", "intermediate");
    market["instructor_name"] = json!("Claudine Mapendo");
    let market = app.course(&admin, market).await;
    // A longer course: one more lesson makes it the longest.
    let outline = app.ok(Method::GET, &format!("/admin/courses/{}", market.id), &admin, None).await;
    let module = outline["course"]["modules"][0]["id"].as_i64().unwrap();
    let extra = json!({"title": "More", "kind": "reading", "minutes": 30, "body": "Text"});
    app.ok(Method::POST, &format!("/admin/modules/{module}/lessons"), &admin, Some(extra)).await;
    // Unpublished: not in the catalogue.
    app.ok(Method::POST, "/admin/courses", &admin, Some(fields("Draft course", "finance", "advanced"))).await;

    let list = |query: &'static str| {
        let app = &app;
        async move {
            let body: Value = app.get(&format!("/courses?{query}"), None).await.json().await.unwrap();
            body["data"].as_array().unwrap().iter().map(|c| c["id"].as_i64().unwrap()).collect::<Vec<_>>()
        }
    };
    assert_eq!(list("").await, vec![market.id, beans.id], "newest first, drafts left out");
    assert_eq!(list("q=MARCHE").await, vec![market.id], "accents and case ignored");
    assert_eq!(list("q=mapendo").await, vec![market.id], "the instructor is searched");
    assert_eq!(list("category=farming").await, vec![beans.id]);
    assert_eq!(list("level=intermediate").await, vec![market.id]);
    assert_eq!(list("sort=duration").await, vec![beans.id, market.id], "shortest first");
    assert_eq!(list("sort=title").await, vec![beans.id, market.id]);
    let course: Value = app.get(&format!("/courses/{}", market.id), None).await.json().await.unwrap();
    assert_eq!((course["data"]["lessons"].as_i64(), course["data"]["minutes"].as_i64()), (Some(4), Some(44)));
    assert!(course["data"]["download_bytes"].as_i64().unwrap() > 0);
    let bad = error_of(app.get("/courses?level=expert", None).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(bad["error_codes"]["level"][0], "invalid_filter");
    error_of(app.get("/courses/999", None).await, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn admins_write_courses_with_checked_fields_and_keep_their_order() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let refused = app.call(Method::POST, "/admin/courses", &buyer, Some(fields("X", "farming", "beginner"))).await;
    assert_eq!(error_of(refused, StatusCode::FORBIDDEN).await["code"], "forbidden");

    let invalid = json!({"title": "", "category": "cooking", "level": "beginner", "language": "de",
        "description": "x", "instructor_name": "A\u{202E}B"});
    let invalid = error_of(
        app.call(Method::POST, "/admin/courses", &admin, Some(invalid)).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    for (field, code) in [
        ("title", "required"),
        ("category", "invalid_option"),
        ("language", "invalid_option"),
        ("instructor_name", "invalid_characters"),
    ] {
        assert_eq!(invalid["error_codes"][field][0], code, "{field}: {invalid}");
    }
    let empty = app.ok(Method::POST, "/admin/courses", &admin, Some(fields("Empty", "farming", "beginner"))).await;
    let empty_id = empty["course"]["id"].as_i64().unwrap();
    let publish =
        app.call(Method::PATCH, &format!("/admin/courses/{empty_id}"), &admin, Some(json!({"published": true}))).await;
    assert_eq!(
        error_of(publish, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["published"][0],
        "course_empty"
    );

    let course = app.course(&admin, fields("Beans", "farming", "beginner")).await;
    let bad_quiz = json!({"title": "Q", "kind": "quiz", "minutes": 3, "questions": [{"prompt": "?", "choices": ["a"], "answer": 3}]});
    let detail = app.ok(Method::GET, &format!("/admin/courses/{}", course.id), &admin, None).await;
    let (m1, m2) = (
        detail["course"]["modules"][0]["id"].as_i64().unwrap(),
        detail["course"]["modules"][1]["id"].as_i64().unwrap(),
    );
    let refused = app.call(Method::POST, &format!("/admin/modules/{m1}/lessons"), &admin, Some(bad_quiz)).await;
    assert_eq!(
        error_of(refused, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["questions"][0],
        "invalid_option"
    );
    let missing =
        json!({"title": "P", "kind": "reading", "minutes": 3, "body": format!("![A picture]({})", "b".repeat(64))});
    let refused = app.call(Method::POST, &format!("/admin/modules/{m1}/lessons"), &admin, Some(missing)).await;
    assert_eq!(error_of(refused, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["body"][0], "photo_missing");

    // The quiz first, then the readings in reverse, all in the second module; the first module before it.
    let [soil, spacing, quiz] = course.lessons[..] else { panic!() };
    let order = json!({"modules": [{"id": m2, "lessons": [quiz, spacing, soil]}, {"id": m1, "lessons": []}]});
    let reordered = app.ok(Method::PUT, &format!("/admin/courses/{}/order", course.id), &admin, Some(order)).await;
    let titles: Vec<&str> = reordered["course"]["modules"][0]["lessons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, ["Quiz", "Spacing", "Soil"]);
    assert_eq!(reordered["course"]["modules"][1]["title"], "Start");
    let partial = json!({"modules": [{"id": m2, "lessons": [quiz]}]});
    let refused = app.call(Method::PUT, &format!("/admin/courses/{}/order", course.id), &admin, Some(partial)).await;
    assert_eq!(error_of(refused, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["order"][0], "invalid_order");

    // Deleting: the course leaves the catalogue and phones are told.
    let before: Value = app.get("/sync/pull", None).await.json().await.unwrap();
    let cursor = before["cursor"].as_i64().unwrap();
    app.ok(Method::DELETE, &format!("/admin/courses/{}", course.id), &admin, None).await;
    error_of(app.get(&format!("/courses/{}", course.id), None).await, StatusCode::NOT_FOUND).await;
    let after: Value = app.get(&format!("/sync/pull?cursor={cursor}"), None).await.json().await.unwrap();
    let change = after["changes"].as_array().unwrap().iter().find(|c| c["entity"] == "course").unwrap().clone();
    assert_eq!((change["id"].as_str(), change["op"].as_str()), (Some(course.uid.as_str()), Some("del")));
}

#[tokio::test]
async fn paid_lessons_are_for_learners_and_free_ones_for_everyone() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    let free = app.course(&admin, fields("Free", "farming", "beginner")).await;
    let mut paid = fields("Paid", "finance", "beginner");
    paid["price"] = json!(29.99);
    let paid = app.course(&admin, paid).await;

    let content: Value = app.get(&format!("/courses/{}/content", free.id), None).await.json().await.unwrap();
    assert_eq!(content["lessons"].as_array().unwrap().len(), 3);
    assert_eq!(content["lessons"][2]["questions"][0]["answer"], 1);
    assert_eq!(
        error_of(app.get(&format!("/courses/{}/content", paid.id), Some(&buyer)).await, StatusCode::FORBIDDEN).await["code"],
        "not_enrolled"
    );
    let visitor = app.get(&format!("/courses/{}/content", paid.id), None).await;
    assert_eq!(
        error_of(visitor, StatusCode::UNAUTHORIZED).await["code"],
        "missing_token",
        "a visitor is sent to sign in"
    );
    let enrol = app.call(Method::POST, &format!("/courses/{}/enrol", paid.id), &buyer, None).await;
    assert_eq!(error_of(enrol, StatusCode::CONFLICT).await["code"], "payment_required");
    let admin_reads = app.get(&format!("/courses/{}/content", paid.id), Some(&admin)).await;
    assert_eq!(admin_reads.status(), StatusCode::OK);
}

#[tokio::test]
async fn enrolling_twice_or_from_two_phones_is_one_enrolment() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let learner = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let course = app.course(&admin, fields("Beans", "farming", "beginner")).await;

    let first = app.call(Method::POST, &format!("/courses/{}/enrol", course.id), &learner, None).await;
    assert_eq!(first.status(), StatusCode::CREATED);
    let again = app.call(Method::POST, &format!("/courses/{}/enrol", course.id), &learner, None).await;
    assert_eq!(again.status(), StatusCode::OK);
    for client in [CLIENT_A, CLIENT_B] {
        let results = app
            .push_ok(&learner, client, vec![mutation(1, "enrolment.create", json!({"uid": course.uid}), None)])
            .await;
        assert_eq!(results["results"][0]["status"], "applied", "{results}");
    }
    let course_now: Value = app.get(&format!("/courses/{}", course.id), None).await.json().await.unwrap();
    assert_eq!(course_now["data"]["enrolled"], 1);
}

fn event(uid: &str, lesson: i64, kind: &str, answers: Option<Value>) -> Value {
    let mut args = json!({"event_uid": uid, "lesson_id": lesson, "kind": kind});
    if let Some(answers) = answers {
        args["answers"] = answers;
    }
    args
}

#[tokio::test]
async fn progress_from_two_phones_merges_and_quizzes_are_graded_here() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let learner = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let course = app.course(&admin, fields("Beans", "farming", "beginner")).await;
    let [soil, spacing, quiz] = course.lessons[..] else { panic!() };
    let not_yet = app.progress(&learner, course.id, event("e0", soil, "completed", None)).await;
    assert_eq!(error_of(not_yet, StatusCode::FORBIDDEN).await["code"], "not_enrolled");

    let with = |n: u64, args: Value| {
        let mut args = args;
        args["uid"] = json!(course.uid);
        mutation(n, "enrolment.progress", args, None)
    };
    // Phone A: enrols offline, reads the first lesson, fails the quiz (a forged "passed" is not a thing it can send).
    let a = app
        .push_ok(
            &learner,
            CLIENT_A,
            vec![
                mutation(1, "enrolment.create", json!({"uid": course.uid}), None),
                with(2, event("a1", soil, "viewed", None)),
                with(3, event("a2", soil, "completed", None)),
                with(4, event("a3", quiz, "quiz", Some(json!([0, 0, 0])))),
            ],
        )
        .await;
    assert!(a["results"].as_array().unwrap().iter().all(|r| r["status"] == "applied"), "{a}");
    // Phone B: the second reading and a passing attempt; then phone A's events arrive again (a replay).
    app.push_ok(
        &learner,
        CLIENT_B,
        vec![
            with(1, event("b1", spacing, "completed", None)),
            with(2, event("b2", quiz, "quiz", Some(json!([1, 1, 0])))),
        ],
    )
    .await;
    let wrong_shape = app.push_ok(&learner, CLIENT_B, vec![with(3, event("b3", quiz, "quiz", Some(json!([1]))))]).await;
    assert_eq!(wrong_shape["results"][0]["code"], "validation_failed");
    let replay = app.progress(&learner, course.id, event("a3", quiz, "quiz", Some(json!([0, 0, 0])))).await;
    let replay: Value = replay.json().await.unwrap();
    let progress = &replay["enrolment"]["progress"];
    assert_eq!(progress["completed"], json!([soil, spacing]), "{replay}");
    assert_eq!(progress["quizzes"][quiz.to_string()]["best"], 66);
    assert_eq!(progress["quizzes"][quiz.to_string()]["attempts"], 2, "the replayed attempt counts once");
    assert_eq!(progress["percent"], 66);
    assert!(replay["enrolment"]["certificate"].is_null(), "66% is below the pass mark");

    // Both phones pull the same progress.
    for client in [CLIENT_A, CLIENT_B] {
        let pulled = app.pull(&learner, client, None, 500).await;
        let enrolment =
            pulled["changes"].as_array().unwrap().iter().find(|c| c["entity"] == "enrolment").unwrap().clone();
        assert_eq!(enrolment["id"], json!(course.uid));
        assert_eq!(enrolment["record"]["progress"]["completed"], json!([soil, spacing]));
    }

    // Passing the quiz completes the course: a certificate, checkable by anyone.
    let passed = app.progress(&learner, course.id, event("b4", quiz, "quiz", Some(json!([1, 1, 1])))).await;
    let passed: Value = passed.json().await.unwrap();
    assert_eq!(passed["enrolment"]["progress"]["percent"], 100);
    assert!(passed["enrolment"]["completed_at"].is_string());
    let code = passed["enrolment"]["certificate"]["code"].as_str().unwrap().to_owned();
    assert_eq!(code.len(), 14);
    let again = app.progress(&learner, course.id, event("b5", quiz, "quiz", Some(json!([1, 1, 1])))).await;
    let again: Value = again.json().await.unwrap();
    assert_eq!(again["enrolment"]["certificate"]["code"], json!(code), "one certificate per enrolment");

    let check: Value =
        app.get(&format!("/certificates/{}", code.to_lowercase().replace('-', "")), None).await.json().await.unwrap();
    assert_eq!(check["certificate"]["learner_name"], "Test farmer");
    assert_eq!(check["certificate"]["course_title"], "Beans");
    assert_eq!(check["course_id"], course.id);
    error_of(app.get("/certificates/AAAA-BBBB-CCCC", None).await, StatusCode::NOT_FOUND).await;

    let pdf = app.get(&format!("/certificates/{code}/pdf?lang=fr"), None).await;
    assert_eq!(pdf.headers()["content-type"], "application/pdf");
    let bytes = pdf.bytes().await.unwrap();
    assert!(bytes.starts_with(b"%PDF-"));
    // Lines in plain ASCII are literal strings in the PDF, others hex.
    let has = |needle: &[u8]| bytes.windows(needle.len()).any(|w| w == needle);
    let hex = |text: &[u8]| text.iter().map(|b| format!("{b:02X}")).collect::<String>().into_bytes();
    assert!(has(b"(Test farmer)"));
    assert!(has(&hex(code.as_bytes())));
    assert!(has(&hex(b"Certificat de r")), "in French");
}

#[tokio::test]
async fn a_lesson_picture_is_kept_once_and_counted_in_the_download() {
    let app = spawn_app().await;
    let admin = admin(&app).await;
    let picture = png(800, 600);
    let hash = sha(&picture);
    let put =
        app.client.put(app.api(&format!("/uploads/{hash}"))).bearer_auth(&admin).body(picture).send().await.unwrap();
    assert!(put.status().is_success());
    let course = app.course(&admin, fields("Beans", "farming", "beginner")).await;
    let before: Value = app.get(&format!("/courses/{}", course.id), None).await.json().await.unwrap();
    let body = format!("## Rows\n![Rows across the slope]({hash})\nText\n![The same rows]({hash})");
    let lesson = json!({"title": "Soil", "kind": "reading", "minutes": 5, "body": body});
    app.ok(Method::PUT, &format!("/admin/lessons/{}", course.lessons[0]), &admin, Some(lesson.clone())).await;
    app.ok(Method::PUT, &format!("/admin/lessons/{}", course.lessons[1]), &admin, Some(lesson)).await;
    let content: Value = app.get(&format!("/courses/{}/content", course.id), None).await.json().await.unwrap();
    let pictures = content["pictures"].as_array().unwrap();
    assert_eq!(pictures.len(), 1, "one picture, shown in two lessons: {pictures:?}");
    assert!(pictures[0]["url"].as_str().unwrap().contains(&hash));
    let after: Value = app.get(&format!("/courses/{}", course.id), None).await.json().await.unwrap();
    assert_eq!(after["data"]["download_bytes"].as_u64(), content["bytes"].as_u64());
    assert!(after["data"]["download_bytes"].as_i64() > before["data"]["download_bytes"].as_i64());
    // The hourly clean-up keeps what a lesson shows.
    let used = app.state.db.read(|conn| Ok(mavuno::db::uploads::referenced(conn)?)).await.unwrap();
    assert!(used.contains(&hash));
}

#[tokio::test]
async fn demo_courses_load_once_also_into_an_older_demo_database() {
    let app = spawn_app().await;
    // A demo database from before courses: the accounts and products only.
    assert!(mavuno::demo::seed(&app.state).await.unwrap());
    assert!(mavuno::demo::courses::seed(&app.state).await.unwrap());
    assert!(!mavuno::demo::courses::seed(&app.state).await.unwrap(), "once");
    let courses: Value = app.get("/courses?sort=title", None).await.json().await.unwrap();
    assert_eq!(courses["total"], 6);
    let languages: Vec<&str> =
        courses["data"].as_array().unwrap().iter().map(|c| c["language"].as_str().unwrap()).collect();
    for language in ["en", "fr", "sw"] {
        assert_eq!(languages.iter().filter(|l| **l == language).count(), 2, "two courses in {language}");
    }
    for course in courses["data"].as_array().unwrap() {
        assert_eq!(course["lessons"], 6, "{}", course["title"]);
        assert!(course["image_url"].is_string() && course["download_bytes"].as_i64().unwrap() > 0);
    }
    let farmer = app.login_token("farmer@mavuno.demo", mavuno::demo::DEMO_PASSWORD).await;
    let pulled = app.pull(&farmer, CLIENT_A, None, 500).await;
    let enrolment = pulled["changes"].as_array().unwrap().iter().find(|c| c["entity"] == "enrolment").unwrap().clone();
    assert_eq!(enrolment["record"]["progress"]["completed"].as_array().unwrap().len(), 1);
}
