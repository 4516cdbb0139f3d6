use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::Value;

use crate::helpers::*;

#[tokio::test]
async fn only_admins_and_super_admins_reach_admin_endpoints() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("buyer@example.com").await;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let super_admin = app.user_with_role("super@example.com", Role::SuperAdmin).await;

    for token in [&buyer, &farmer, &agent] {
        let body = error_of(app.get("/admin/users", Some(token)).await, StatusCode::FORBIDDEN).await;
        assert_eq!(body["code"], "forbidden");
    }
    error_of(app.get("/admin/users", None).await, StatusCode::UNAUTHORIZED).await;

    for token in [&admin, &super_admin] {
        let response = app.get("/admin/users", Some(token)).await;
        assert_eq!(response.status(), StatusCode::OK);
        let users: Vec<Value> = response.json().await.unwrap();
        assert_eq!(users.len(), 5);
        let roles: Vec<&str> = users.iter().map(|u| u["role"].as_str().unwrap()).collect();
        assert_eq!(roles, ["user", "farmer", "field_agent", "admin", "super_admin"]);
        assert!(!serde_json::to_string(&users).unwrap().contains("argon2"));
    }
}

#[tokio::test]
async fn erased_accounts_leave_the_admin_list() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let (buyer, _) = app.register("buyer@example.com").await;
    app.client.delete(app.api("/me/delete")).bearer_auth(&buyer).send().await.unwrap();
    let users: Vec<Value> = app.get("/admin/users", Some(&admin)).await.json().await.unwrap();
    assert_eq!(users.len(), 1);
}

fn change(role: Option<&str>, status: Option<&str>) -> Value {
    serde_json::json!({"user": {"role": role, "status": status}})
}

async fn id_of(app: &TestApp, token: &str) -> i64 {
    let me: Value = app.me(token).await.json().await.unwrap();
    me["user"]["id"].as_i64().unwrap()
}

#[tokio::test]
async fn a_super_admin_changes_roles_and_statuses_and_each_change_is_recorded() {
    let app = spawn_app().await;
    let super_admin = app.user_with_role("super@example.com", Role::SuperAdmin).await;
    let (buyer, _) = app.register("buyer@example.com").await;
    let id = id_of(&app, &buyer).await;
    let path = format!("/admin/users/{id}");

    let answer = app.call(Method::PATCH, &path, &super_admin, Some(change(Some("field_agent"), None))).await;
    assert_eq!(answer.status(), StatusCode::OK);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["data"]["role"], "field_agent");
    let answer: Value =
        app.call(Method::PATCH, &path, &super_admin, Some(change(None, Some("inactive")))).await.json().await.unwrap();
    assert_eq!(answer["data"]["status"], "inactive");

    // A deactivated person is signed out on their next request.
    assert_eq!(error_of(app.me(&buyer).await, StatusCode::UNAUTHORIZED).await["code"], "account_inactive");

    let details: Value = app.call(Method::GET, &path, &super_admin, None).await.json().await.unwrap();
    let changes = details["changes"].as_array().unwrap();
    assert_eq!(changes.len(), 2, "{details}");
    assert_eq!(
        (changes[0]["field"].as_str(), changes[0]["from"].as_str(), changes[0]["to"].as_str()),
        (Some("status"), Some("active"), Some("inactive"))
    );
    assert_eq!(
        (changes[1]["field"].as_str(), changes[1]["from"].as_str(), changes[1]["to"].as_str()),
        (Some("role"), Some("user"), Some("field_agent"))
    );
    assert_eq!(changes[1]["by"]["name"], "Test super_admin");
    assert!(changes[0]["at"].as_str().unwrap().ends_with('Z'));
    assert_eq!(details["can_change"], serde_json::json!({"role": true, "status": true}));

    // Sending the same values again records nothing.
    app.call(Method::PATCH, &path, &super_admin, Some(change(Some("field_agent"), Some("inactive")))).await;
    let details: Value = app.call(Method::GET, &path, &super_admin, None).await.json().await.unwrap();
    assert_eq!(details["changes"].as_array().unwrap().len(), 2);
}

#[tokio::test]
async fn an_admin_changes_statuses_of_non_admins_but_no_roles() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let other_admin = app.user_with_role("admin2@example.com", Role::Admin).await;
    let (buyer, _) = app.register("buyer@example.com").await;
    let buyer_path = format!("/admin/users/{}", id_of(&app, &buyer).await);
    let admin_path = format!("/admin/users/{}", id_of(&app, &other_admin).await);

    let refused = error_of(
        app.call(Method::PATCH, &buyer_path, &admin, Some(change(Some("admin"), None))).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(refused["code"], "role_change_forbidden");
    let refused = error_of(
        app.call(Method::PATCH, &admin_path, &admin, Some(change(None, Some("inactive")))).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(refused["code"], "status_change_forbidden");

    let answer: Value =
        app.call(Method::PATCH, &buyer_path, &admin, Some(change(None, Some("inactive")))).await.json().await.unwrap();
    assert_eq!((answer["data"]["status"].as_str(), answer["data"]["role"].as_str()), (Some("inactive"), Some("user")));
    assert_eq!(answer["can_change"], serde_json::json!({"role": false, "status": true}));
    let details: Value = app.call(Method::GET, &admin_path, &admin, None).await.json().await.unwrap();
    assert_eq!(details["can_change"], serde_json::json!({"role": false, "status": false}));

    let unknown = error_of(
        app.call(Method::PATCH, &buyer_path, &admin, Some(change(None, Some("banned")))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(unknown["error_codes"]["status"][0], "invalid_filter");
    error_of(
        app.call(Method::PATCH, "/admin/users/999999", &admin, Some(change(None, Some("inactive")))).await,
        StatusCode::NOT_FOUND,
    )
    .await;
}

#[tokio::test]
async fn the_last_active_super_admin_stays() {
    let app = spawn_app().await;
    let first = app.user_with_role("super@example.com", Role::SuperAdmin).await;
    let first_path = format!("/admin/users/{}", id_of(&app, &first).await);
    for body in [change(Some("admin"), None), change(None, Some("inactive")), change(Some("farmer"), Some("pending"))] {
        let refused =
            error_of(app.call(Method::PATCH, &first_path, &first, Some(body)).await, StatusCode::CONFLICT).await;
        assert_eq!(refused["code"], "last_super_admin");
    }
    // With a second super admin, either may step down, but not both.
    let second = app.user_with_role("super2@example.com", Role::SuperAdmin).await;
    let second_path = format!("/admin/users/{}", id_of(&app, &second).await);
    assert_eq!(
        app.call(Method::PATCH, &first_path, &second, Some(change(Some("admin"), None))).await.status(),
        StatusCode::OK
    );
    let refused = error_of(
        app.call(Method::PATCH, &second_path, &second, Some(change(None, Some("inactive")))).await,
        StatusCode::CONFLICT,
    )
    .await;
    assert_eq!(refused["code"], "last_super_admin");
}

#[tokio::test]
async fn the_people_list_filters_counts_and_exports() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    app.user_with_role("farmer@example.com", Role::Farmer).await;
    app.register("amani@example.com").await;
    app.sql("UPDATE users SET first_name = '=HYPERLINK(\"http://x\")', last_name = 'Kahindo, Jr', location = 'Line one\nLine two' WHERE email = 'amani@example.com'");

    let found: Vec<Value> = app.call(Method::GET, "/admin/users?q=kahindo", &admin, None).await.json().await.unwrap();
    assert_eq!(found.len(), 1);
    // A number as it is written at home, with or without spaces, or internationally.
    app.sql("UPDATE users SET phone_number = '+243990000009' WHERE email = 'amani@example.com'");
    for typed in ["0990000009", "099%20000%200009", "%2B243%20990%20000%20009", "990000009"] {
        let found: Vec<Value> =
            app.call(Method::GET, &format!("/admin/users?q={typed}"), &admin, None).await.json().await.unwrap();
        assert_eq!(
            found.iter().map(|u| u["email"].as_str()).collect::<Vec<_>>(),
            [Some("amani@example.com")],
            "{typed}"
        );
    }
    let farmers: Vec<Value> = app
        .call(Method::GET, "/admin/users?role=farmer&status=active&country=DRC", &admin, None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(farmers.iter().map(|u| u["email"].as_str().unwrap()).collect::<Vec<_>>(), ["farmer@example.com"]);
    let nobody: Vec<Value> = app.call(Method::GET, "/admin/users?q=%25", &admin, None).await.json().await.unwrap();
    assert!(nobody.is_empty(), "% is taken literally");
    let bad =
        error_of(app.call(Method::GET, "/admin/users?role=king", &admin, None).await, StatusCode::UNPROCESSABLE_ENTITY)
            .await;
    assert_eq!(bad["error_codes"]["role"][0], "invalid_filter");

    let stats: Value = app.call(Method::GET, "/admin/users/stats", &admin, None).await.json().await.unwrap();
    assert_eq!(
        (stats["total"].as_i64(), stats["by_role"]["farmer"].as_i64(), stats["by_role"]["super_admin"].as_i64()),
        (Some(3), Some(1), Some(0))
    );

    let export = app.call(Method::GET, "/admin/users/export?role=user&lang=fr", &admin, None).await;
    assert_eq!(export.status(), StatusCode::OK);
    assert_eq!(export.headers()["content-type"], "text/csv; charset=utf-8");
    let disposition = export.headers()["content-disposition"].to_str().unwrap().to_owned();
    assert!(
        disposition.starts_with("attachment; filename=\"users_20") && disposition.ends_with(".csv\""),
        "{disposition}"
    );
    let text = export.text().await.unwrap();
    let lines: Vec<&str> = text.trim_start_matches('\u{feff}').split("\r\n").collect();
    assert!(lines[0].starts_with("ID,Prénom,Nom,E-mail"), "{}", lines[0]);
    assert!(lines[1].contains("\"'=HYPERLINK(\"\"http://x\"\")\",\"Kahindo, Jr\",amani@example.com"), "{}", lines[1]);
    assert!(lines[1].contains(",Acheteur,Actif,\"Line one\nLine two\","), "{}", lines[1]);

    let empty = error_of(
        app.call(Method::GET, "/admin/users/export?q=nobody-at-all", &admin, None).await,
        StatusCode::NOT_FOUND,
    )
    .await;
    assert_eq!((empty["code"].as_str(), empty["message"].as_str()), (Some("no_users"), Some("No users to export")));
}

#[tokio::test]
async fn people_management_is_for_admins_only() {
    let app = spawn_app().await;
    let (buyer, _) = app.register("buyer@example.com").await;
    let farmer = app.user_with_role("farmer@example.com", Role::Farmer).await;
    let agent = app.user_with_role("agent@example.com", Role::FieldAgent).await;
    let id = id_of(&app, &buyer).await;
    for token in [&buyer, &farmer, &agent] {
        for (method, path) in [
            (Method::GET, "/admin/users/stats".to_owned()),
            (Method::GET, "/admin/users/export".to_owned()),
            (Method::GET, format!("/admin/users/{id}")),
        ] {
            error_of(app.call(method, &path, token, None).await, StatusCode::FORBIDDEN).await;
        }
        error_of(
            app.call(Method::PATCH, &format!("/admin/users/{id}"), token, Some(change(None, Some("inactive")))).await,
            StatusCode::FORBIDDEN,
        )
        .await;
    }
}
