//! Field agents fill applications for the people they visit, offline, through sync.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::admin_surveys::complete;
use crate::helpers::*;
use crate::sync::{CLIENT_A, CLIENT_B, mutation, uid};

async fn id_of(app: &TestApp, token: &str) -> i64 {
    let me: Value = app.me(token).await.json().await.unwrap();
    me["user"]["id"].as_i64().unwrap()
}

fn for_person(n: u32, user_id: i64) -> Value {
    json!({"uid": uid(n), "user_id": user_id, "answers": complete()})
}

#[tokio::test]
async fn an_agent_lists_the_people_they_can_survey() {
    let app = spawn_app().await;
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    app.register("amani@example.com").await;
    app.user_with_role("farmer@example.com", Role::Farmer).await;
    app.user_with_role("admin@example.com", Role::Admin).await;
    let (gone, _) = app.register("gone@example.com").await;
    app.sql("UPDATE users SET status = 'inactive' WHERE email = 'gone@example.com'");
    drop(gone);

    let people: Value = app.call(Method::GET, "/agent/people", &agent, None).await.json().await.unwrap();
    let emails: Vec<&str> = people["data"].as_array().unwrap().iter().map(|p| p["email"].as_str().unwrap()).collect();
    assert_eq!(emails.len(), 2, "active buyers and farmers only: {emails:?}");
    assert!(emails.contains(&"amani@example.com") && emails.contains(&"farmer@example.com"));
    assert!(people["data"][0].get("password_hash").is_none());
    assert_eq!(people["data"][0]["application_waiting"], json!(false), "nothing filed yet");

    let (buyer, _) = app.register("buyer@example.com").await;
    error_of(app.call(Method::GET, "/agent/people", &buyer, None).await, StatusCode::FORBIDDEN).await;
}

#[tokio::test]
async fn an_offline_application_for_a_person_is_the_agents_and_the_persons_only() {
    let app = spawn_app().await;
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let other_agent = app.user_with_role("agent2@example.com", Role::FieldAgent).await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let (amani, _) = app.register("amani@example.com").await;
    let amani_id = id_of(&app, &amani).await;

    let pushed = app.push_ok(&agent, CLIENT_A, vec![mutation(1, "survey.create", for_person(1, amani_id), None)]).await;
    assert_eq!(pushed["results"][0]["status"], "applied", "{pushed}");
    // The answer was lost; the phone sends it again: still one application.
    app.push_ok(&agent, CLIENT_A, vec![mutation(1, "survey.create", for_person(1, amani_id), None)]).await;
    assert_eq!(app.survey_count(), 1);

    let list: Value = app.call(Method::GET, "/admin/surveys", &admin, None).await.json().await.unwrap();
    assert_eq!(list["data"][0]["user"]["email"], "amani@example.com");
    assert_eq!(list["data"][0]["created_by"]["email"], "agent@example.com");
    assert_eq!(list["data"][0]["status"], "pending");
    // Another agent's list says an application of hers waits, before anyone fills a second one.
    let people: Value = app.call(Method::GET, "/agent/people", &other_agent, None).await.json().await.unwrap();
    let waiting = |email: &str| {
        people["data"].as_array().unwrap().iter().find(|p| p["email"] == email).unwrap()["application_waiting"].clone()
    };
    assert_eq!(waiting("amani@example.com"), json!(true));

    let mine = app.pull(&agent, CLIENT_A, None, 100).await;
    assert_eq!(mine["changes"][0]["record"]["user_id"], amani_id);
    let theirs = app.pull(&amani, CLIENT_B, None, 100).await;
    assert_eq!(theirs["changes"].as_array().unwrap().len(), 1, "the applicant sees it too");
    let stranger = app.pull(&other_agent, "cccccccc-0000-4000-8000-000000000003", None, 100).await;
    assert!(stranger["changes"].as_array().unwrap().is_empty(), "another agent sees nothing");
    let rest: Value =
        app.call(Method::GET, "/farmer/farmer_survey_forms", &other_agent, None).await.json().await.unwrap();
    assert!(rest["data"].as_array().unwrap().is_empty());
    let id = list["data"][0]["id"].as_i64().unwrap();
    error_of(
        app.call(Method::DELETE, &format!("/farmer/farmer_survey_forms/{id}"), &other_agent, None).await,
        StatusCode::NOT_FOUND,
    )
    .await;

    // After a rejection, the agent fixes and resends it from the field.
    app.call(
        Method::PATCH,
        &format!("/admin/surveys/{id}"),
        &admin,
        Some(json!({"farmer_survey_form": {"status": "rejected"}})),
    )
    .await;
    let fix = json!({"uid": uid(1), "status": "re-submitted", "answers": {"challenges": "Roads"}});
    let fixed = app.push_ok(&agent, CLIENT_A, vec![mutation(2, "survey.update", fix, None)]).await;
    assert_eq!(fixed["results"][0]["status"], "applied", "{fixed}");
}

#[tokio::test]
async fn only_agents_and_admins_apply_for_others_and_only_for_active_buyers_or_farmers() {
    let app = spawn_app().await;
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let (buyer, _) = app.register("buyer@example.com").await;
    let (amani, _) = app.register("amani@example.com").await;
    let amani_id = id_of(&app, &amani).await;
    let admin_id = id_of(&app, &admin).await;

    let refused =
        app.push_ok(&buyer, CLIENT_A, vec![mutation(1, "survey.create", for_person(1, amani_id), None)]).await;
    assert_eq!(
        (refused["results"][0]["status"].as_str(), refused["results"][0]["code"].as_str()),
        (Some("rejected"), Some("forbidden"))
    );
    let refused =
        app.push_ok(&agent, CLIENT_B, vec![mutation(1, "survey.create", for_person(2, admin_id), None)]).await;
    assert_eq!(refused["results"][0]["error_codes"]["user_id"][0], "user_required");
    app.sql("UPDATE users SET status = 'inactive' WHERE email = 'amani@example.com'");
    let refused =
        app.push_ok(&agent, CLIENT_B, vec![mutation(2, "survey.create", for_person(3, amani_id), None)]).await;
    assert_eq!(refused["results"][0]["error_codes"]["user_id"][0], "user_required");
    assert_eq!(app.survey_count(), 0);
}

#[tokio::test]
async fn an_agent_finishes_an_application_a_person_began_on_a_basic_phone() {
    let app = crate::ussd::ussd_app().await;
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let number = "+243971000051";
    // Joined by USSD, two questions answered, then the session ended.
    app.phone(number).go(&["1", "Neema", "Bahati", "1", "2", "1"]).await;
    let apply = app.phone(number).go(&["1", "1", "2"]).await;
    assert!(apply.text.starts_with("3/19 "), "{}", apply.text);

    let people: Value = app.call(Method::GET, "/agent/people", &agent, None).await.json().await.unwrap();
    let neema = people["data"].as_array().unwrap().iter().find(|p| p["phone_number"] == number).unwrap().clone();
    assert_eq!((neema["own_draft"].clone(), neema["application_waiting"].clone()), (json!(true), json!(false)));
    let id = neema["id"].as_i64().unwrap();

    let (buyer, _) = app.register("buyer@example.com").await;
    let refused = app.call(Method::POST, &format!("/agent/people/{id}/application"), &buyer, None).await;
    error_of(refused, StatusCode::FORBIDDEN).await;
    let taken = app.call(Method::POST, &format!("/agent/people/{id}/application"), &agent, None).await;
    assert_eq!(taken.status(), StatusCode::OK);
    let draft = taken.json::<Value>().await.unwrap()["uid"].as_str().unwrap().to_owned();
    // The agent's phone has it at its next pull, with what was answered by phone.
    let pulled = app.pull(&agent, CLIENT_A, None, 100).await;
    let record =
        pulled["changes"].as_array().unwrap().iter().find(|c| c["id"] == draft.as_str()).unwrap()["record"].clone();
    assert_eq!((record["land_size"].as_str(), record["status"].as_str()), (Some("Less than 1 hectare"), Some("draft")));
    // The agent fills the rest with them and sends it; the person's menu says it waits.
    let rest = json!({"uid": draft, "status": "pending", "answers": complete()});
    let sent = app.push_ok(&agent, CLIENT_A, vec![mutation(1, "survey.update", rest, None)]).await;
    assert_eq!(sent["results"][0]["status"], "applied", "{sent}");
    let status = app.phone(number).go(&["1"]).await;
    assert!(status.text.starts_with("Votre demande attend d'etre examinée."), "{}", status.text);
    let people: Value = app.call(Method::GET, "/agent/people", &agent, None).await.json().await.unwrap();
    let neema = people["data"].as_array().unwrap().iter().find(|p| p["phone_number"] == number).unwrap().clone();
    assert_eq!((neema["own_draft"].clone(), neema["application_waiting"].clone()), (json!(false), json!(true)));
    let again = app.call(Method::POST, &format!("/agent/people/{id}/application"), &agent, None).await;
    assert_eq!(error_of(again, StatusCode::NOT_FOUND).await["code"], "no_draft");
}
