use mavuno::domain::user::Role;
use reqwest::StatusCode;
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
