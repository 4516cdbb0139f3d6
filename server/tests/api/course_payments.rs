//! Paying for a course through the simulator (docs/payments.md,
//! docs/training.md): the enrolment comes with a successful payment and
//! reaches the learner's phones; a refused one enrols nobody; an admin
//! refunds within 30 days, which closes the lessons, and the learner may
//! pay again.

use std::time::Duration;

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::courses::{Built, admin, fields};
use crate::helpers::*;
use crate::sync::CLIENT_A;

struct School {
    app: TestApp,
    admin: String,
    learner: String,
    course: Built,
}

async fn school() -> School {
    let app = spawn_with(|c| c.simulator_delay = Duration::from_millis(50)).await;
    let admin = admin(&app).await;
    let learner = app.user_with_role("learner@example.com", Role::Farmer).await;
    let mut paid = fields("Coffee certification", "certification", "intermediate");
    paid["price"] = json!(29.99);
    let course = app.course(&admin, paid).await;
    School { app, admin, learner, course }
}

impl School {
    async fn pay(&self, phone: &str) -> reqwest::Response {
        let body = json!({"operator": "AIRTEL_COD", "phone": phone});
        self.app.call(Method::POST, &format!("/courses/{}/payments", self.course.id), &self.learner, Some(body)).await
    }

    /// Waits (at most 5 s) until the learner's latest payment for the course is `status`.
    async fn until(&self, status: &str) -> Value {
        for _ in 0..100 {
            let all =
                self.app.ok(Method::GET, &format!("/courses/{}/payments", self.course.id), &self.learner, None).await;
            let latest = all["data"].as_array().unwrap().last().cloned().unwrap_or_default();
            if latest["status"] == status {
                return latest;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("the course payment never became {status}");
    }

    async fn lessons(&self) -> StatusCode {
        self.app.get(&format!("/courses/{}/content", self.course.id), Some(&self.learner)).await.status()
    }

    /// The enrolment as the learner's phone pulls it.
    async fn synced_enrolment(&self) -> Option<Value> {
        let pulled = self.app.pull(&self.learner, CLIENT_A, None, 500).await;
        pulled["changes"].as_array().unwrap().iter().find(|c| c["entity"] == "enrolment").map(|c| c["record"].clone())
    }

    async fn refund(&self, payment: &str, token: &str) -> reqwest::Response {
        self.app.call(Method::POST, &format!("/admin/payments/{payment}/refund"), token, None).await
    }

    async fn purchases(&self) -> Value {
        self.app.ok(Method::GET, &format!("/admin/courses/{}/purchases", self.course.id), &self.admin, None).await
    }
}

#[tokio::test]
async fn a_paid_course_enrols_its_learner_when_the_payment_succeeds() {
    let s = school().await;
    // Refused on the phone: nobody is enrolled.
    assert_eq!(s.pay("+243970000002").await.status(), StatusCode::CREATED);
    assert_eq!(s.until("failed").await["failure_reason"], "insufficient_funds");
    assert_eq!(s.lessons().await, StatusCode::FORBIDDEN);
    assert!(s.synced_enrolment().await.is_none());

    let started = s.pay("+243 970 000 001").await;
    assert_eq!(started.status(), StatusCode::CREATED);
    let payment: Value = started.json().await.unwrap();
    assert_eq!(
        (payment["data"]["amount_cents"].as_i64(), payment["data"]["currency"].as_str()),
        (Some(2999), Some("USD"))
    );
    assert_eq!(payment["data"]["course_id"], s.course.id);
    let again = s.pay("+243970000001").await;
    assert_eq!(again.status(), StatusCode::OK, "a payment under way is answered again");
    assert_eq!(again.json::<Value>().await.unwrap()["data"]["id"], payment["data"]["id"]);

    s.until("succeeded").await;
    assert_eq!(s.lessons().await, StatusCode::OK);
    let enrolment = s.synced_enrolment().await.expect("the enrolment reaches the phone");
    assert_eq!(enrolment["status"], "active");
    let course: Value = s.app.get(&format!("/courses/{}", s.course.id), None).await.json().await.unwrap();
    assert_eq!(course["data"]["enrolled"], 1);
    assert_eq!(error_of(s.pay("+243970000001").await, StatusCode::CONFLICT).await["code"], "already_enrolled");

    // A free course is not paid for; an operator nobody offers is refused, and a number of
    // another country than the operator's (a Congolese number with Rwanda's MTN).
    let free = s.app.course(&s.admin, fields("Beans", "farming", "beginner")).await;
    let body = json!({"operator": "AIRTEL_COD", "phone": "+243970000001"});
    let free_pay = s.app.call(Method::POST, &format!("/courses/{}/payments", free.id), &s.learner, Some(body)).await;
    assert_eq!(error_of(free_pay, StatusCode::CONFLICT).await["code"], "course_free");
    let other = s.app.user_with_role("other@example.com", Role::User).await;
    let body = json!({"operator": "NOT_AN_OPERATOR", "phone": "+254700000001"});
    let wrong = s.app.call(Method::POST, &format!("/courses/{}/payments", s.course.id), &other, Some(body)).await;
    assert_eq!(
        error_of(wrong, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["operator"][0],
        "operator_invalid"
    );
    let body = json!({"operator": "MTN_MOMO_RWA", "phone": "+243970000002"});
    let wrong = s.app.call(Method::POST, &format!("/courses/{}/payments", s.course.id), &other, Some(body)).await;
    assert_eq!(
        error_of(wrong, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["phone"][0],
        "phone_other_country"
    );
}

#[tokio::test]
async fn a_course_is_paid_from_a_number_of_another_country_with_that_country_s_operator() {
    let s = school().await;
    // The learner's account is Rwandan; they pay from a Congolese number with Airtel DRC.
    s.app.sql("UPDATE users SET country = 'RWA' WHERE email = 'learner@example.com'");
    let body = json!({"operator": "AIRTEL_COD", "phone": "+243970000001"});
    let paid = s.app.call(Method::POST, &format!("/courses/{}/payments", s.course.id), &s.learner, Some(body)).await;
    assert!(paid.status().is_success(), "{}", paid.text().await.unwrap());
    assert_eq!(s.until("succeeded").await["phone"], "243970000001");
}

#[tokio::test]
async fn an_admin_refunds_within_30_days_and_the_lessons_close() {
    let s = school().await;
    s.pay("+243970000001").await;
    let paid = s.until("succeeded").await;
    let payment = paid["id"].as_str().unwrap();

    let listed = s.purchases().await;
    assert_eq!(listed["total"], 1);
    let purchase = &listed["data"][0];
    assert_eq!(
        (purchase["payment_id"].as_str(), purchase["amount_cents"].as_i64(), purchase["refund"].is_null()),
        (Some(payment), Some(2999), true)
    );
    assert!(purchase["refundable_until"].as_str().unwrap() > purchase["paid_at"].as_str().unwrap());

    assert_eq!(s.refund(payment, &s.learner).await.status(), StatusCode::FORBIDDEN);
    let refunded = s.refund(payment, &s.admin).await;
    assert_eq!(refunded.status(), StatusCode::CREATED);
    let refund: Value = refunded.json().await.unwrap();
    assert_eq!(
        (refund["data"]["status"].as_str(), refund["data"]["amount_cents"].as_i64()),
        (Some("succeeded"), Some(2999))
    );
    assert_eq!(s.lessons().await, StatusCode::FORBIDDEN, "a refunded learner's lessons close");
    assert_eq!(s.synced_enrolment().await.unwrap()["status"], "refunded");
    let lesson = s.course.lessons[0];
    let event = json!({"event_uid": "e1", "lesson_id": lesson, "kind": "viewed"});
    assert_eq!(
        error_of(s.app.progress(&s.learner, s.course.id, event).await, StatusCode::FORBIDDEN).await["code"],
        "not_enrolled"
    );
    assert_eq!(error_of(s.refund(payment, &s.admin).await, StatusCode::CONFLICT).await["code"], "already_refunded");
    assert_eq!(s.purchases().await["data"][0]["refund"]["status"], "succeeded");
    let course: Value = s.app.get(&format!("/courses/{}", s.course.id), None).await.json().await.unwrap();
    assert_eq!(course["data"]["enrolled"], 0);

    // The learner changes their mind and pays again: enrolled again.
    assert_eq!(s.pay("+243970000001").await.status(), StatusCode::CREATED);
    let second = s.until("succeeded").await;
    assert_eq!(s.lessons().await, StatusCode::OK);
    assert_eq!(s.synced_enrolment().await.unwrap()["status"], "active");

    // Past 30 days, no refund; a payment that did not go through, or an unknown one, neither.
    s.app.sql(&format!(
        "UPDATE payment_events SET at = '2020-01-01T00:00:00Z'
         WHERE payment_id = (SELECT id FROM payments WHERE uid = '{}')",
        second["id"].as_str().unwrap()
    ));
    let late = s.refund(second["id"].as_str().unwrap(), &s.admin).await;
    assert_eq!(error_of(late, StatusCode::CONFLICT).await["code"], "refund_window_over");
    assert_eq!(s.synced_enrolment().await.unwrap()["status"], "active");
    let other = s.app.user_with_role("other@example.com", Role::User).await;
    let body = json!({"operator": "AIRTEL_COD", "phone": "+243970000002"});
    let path = format!("/courses/{}/payments", s.course.id);
    let failed = s.app.ok(Method::POST, &path, &other, Some(body)).await["data"]["id"].as_str().unwrap().to_owned();
    for _ in 0..100 {
        let all = s.app.ok(Method::GET, &path, &other, None).await;
        if all["data"][0]["status"] == "failed" {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert_eq!(error_of(s.refund(&failed, &s.admin).await, StatusCode::CONFLICT).await["code"], "not_refundable");
    assert_eq!(error_of(s.refund("nope", &s.admin).await, StatusCode::NOT_FOUND).await["code"], "payment_not_found");
}
