//! A field agent registers a person from the phone, offline, and files their
//! application in the same push; the person later sets a password with an SMS code.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::admin_surveys::complete;
use crate::helpers::*;
use crate::sync::{CLIENT_A, CLIENT_B, mutation, uid};

fn person(n: u32, phone: &str) -> Value {
    json!({"uid": uid(n), "first_name": "Furaha", "last_name": "Mapendo", "phone_number": phone,
           "country": "DRC", "location": "Kavumu"})
}

fn application(n: u32, person: u32) -> Value {
    json!({"uid": uid(n), "person_uid": uid(person), "status": "pending", "answers": complete()})
}

fn count(app: &TestApp, sql: &str) -> i64 {
    app.database().query_row(sql, [], |r| r.get(0)).unwrap()
}

#[tokio::test]
async fn an_agent_registers_a_person_offline_and_files_their_application_once() {
    let app = spawn_app().await;
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let batch = vec![
        mutation(1, "person.register", person(1, "0997 000 111"), None),
        mutation(2, "survey.create", application(2, 1), None),
    ];
    let pushed = app.push_ok(&agent, CLIENT_A, batch.clone()).await;
    let statuses: Vec<&str> =
        pushed["results"].as_array().unwrap().iter().map(|r| r["status"].as_str().unwrap()).collect();
    assert_eq!(statuses, ["applied", "applied"], "{pushed}");
    // The answer was lost and the phone sends both again; later a reinstalled app
    // sends the registration under a new mutation id: still one person, one application.
    app.push_ok(&agent, CLIENT_A, batch).await;
    let resent =
        app.push_ok(&agent, CLIENT_B, vec![mutation(1, "person.register", person(1, "0997000111"), None)]).await;
    assert_eq!(resent["results"][0]["status"], "applied");
    assert_eq!(count(&app, "SELECT COUNT(*) FROM users WHERE phone_number = '+243997000111'"), 1);
    assert_eq!(app.survey_count(), 1);

    let people: Value = app.call(Method::GET, "/agent/people", &agent, None).await.json().await.unwrap();
    let card = people["data"].as_array().unwrap().iter().find(|p| p["uid"] == uid(1)).unwrap().clone();
    assert_eq!(
        (card["email"].clone(), card["phone_number"].clone(), card["location"].clone(), card["role"].clone()),
        (Value::Null, json!("+243997000111"), json!("Kavumu"), json!("user"))
    );
    let list: Value = app.call(Method::GET, "/admin/surveys", &admin, None).await.json().await.unwrap();
    assert_eq!(list["data"][0]["user"]["first_name"], "Furaha");
    assert_eq!(list["data"][0]["created_by"]["email"], "agent@example.com");
    assert_eq!(list["data"][0]["status"], "pending");

    // The person is told by SMS how to sign in, and has no password until they choose one.
    let texts = app.sms_bodies();
    assert_eq!(texts.len(), 1);
    assert_eq!(texts[0].0, "+243997000111");
    assert!(texts[0].1.contains("Mot de passe oublié ?"), "{}", texts[0].1);
    let login = |password: &'static str| {
        let body = json!({"user": {"phone_number": "0997000111", "password": password}});
        app.client.post(app.api("/users/login")).json(&body).send()
    };
    error_of(login("!").await.unwrap(), StatusCode::UNAUTHORIZED).await;
    let asked = app.client.post(app.api("/password/forgot")).json(&json!({"phone_number": "0997000111"})).send();
    assert_eq!(asked.await.unwrap().status(), StatusCode::ACCEPTED);
    let code = app.sms_bodies()[1].1.split(|c: char| !c.is_ascii_digit()).find(|w| w.len() == 6).unwrap().to_owned();
    let reset = json!({"phone_number": "0997000111", "code": code, "password": "kavumu-2026",
                       "password_confirmation": "kavumu-2026"});
    let answer = app.client.post(app.api("/password/reset")).json(&reset).send().await.unwrap();
    assert_eq!(answer.status(), StatusCode::OK);
    let signed_in: Value = login("kavumu-2026").await.unwrap().json().await.unwrap();
    assert_eq!(signed_in["user"]["id"], card["id"]);
    // Their own application is on their phone at the first pull.
    let token = signed_in["user"]["token"].as_str().unwrap();
    let page = app.pull(token, CLIENT_A, None, 100).await;
    let surveys: Vec<&Value> = page["changes"].as_array().unwrap().iter().filter(|c| c["entity"] == "survey").collect();
    assert_eq!((surveys.len(), surveys[0]["id"].clone()), (1, json!(uid(2))));
}

#[tokio::test]
async fn a_registration_is_refused_in_words_when_it_cannot_be_made() {
    let app = spawn_app().await;
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let (buyer, _) = app.register("amani@example.com").await;
    // Only agents and admins register people.
    let pushed =
        app.push_ok(&buyer, CLIENT_B, vec![mutation(1, "person.register", person(1, "0997000222"), None)]).await;
    assert_eq!(
        (pushed["results"][0]["status"].clone(), pushed["results"][0]["code"].clone()),
        (json!("rejected"), json!("forbidden"))
    );

    // A number that already has an account, and the application filed for that registration.
    let taken = person(2, &phone_of("amani@example.com"));
    let batch =
        vec![mutation(1, "person.register", taken, None), mutation(2, "survey.create", application(3, 2), None)];
    let pushed = app.push_ok(&agent, CLIENT_A, batch).await;
    assert_eq!(pushed["results"][0]["error_codes"], json!({"phone_number": ["phone_taken"]}));
    assert_eq!(pushed["results"][1]["error_codes"], json!({"person_uid": ["person_not_registered"]}));
    let blank = json!({"uid": uid(4), "first_name": " ", "last_name": "", "phone_number": "12", "country": "DRC"});
    let pushed = app.push_ok(&agent, CLIENT_A, vec![mutation(3, "person.register", blank, None)]).await;
    assert_eq!(
        pushed["results"][0]["error_codes"],
        json!({"first_name": ["first_name_required"], "last_name": ["last_name_required"],
               "phone_number": ["phone_number_invalid"]})
    );
    assert_eq!(count(&app, "SELECT COUNT(*) FROM users"), 2);
    // Another agent cannot take over a registration's id.
    let other = app.user_with_role("agent2@example.com", Role::FieldAgent).await;
    app.push_ok(&agent, CLIENT_A, vec![mutation(4, "person.register", person(5, "0997000555"), None)]).await;
    let client_c = "cccccccc-0000-4000-8000-000000000003";
    let pushed =
        app.push_ok(&other, client_c, vec![mutation(1, "person.register", person(5, "0997000666"), None)]).await;
    assert_eq!(pushed["results"][0]["code"], "uid_taken");
}
