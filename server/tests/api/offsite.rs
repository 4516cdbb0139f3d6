//! The off-site copy's health (docs/operations.md, Off-site copy): what the super
//! admin's dashboard and `/health` say with no copy, with a copy the store confirms, and
//! with one it has stopped confirming (the super admins told once an incident, by email
//! and SMS). The copy itself, with Litestream, rclone and a real store: bench/drill.mjs.

use std::path::PathBuf;
use std::time::Duration;

use mavuno::model::user::Role;
use mavuno::platform::config::OffsiteSettings;
use reqwest::Method;
use serde_json::Value;

use crate::helpers::*;

async fn health(app: &TestApp) -> Value {
    app.get("/health", None).await.json().await.unwrap()
}

async fn overview(app: &TestApp, token: &str) -> Value {
    app.call(Method::GET, "/admin/overview", token, None).await.json().await.unwrap()
}

#[tokio::test]
async fn without_an_off_site_copy_the_super_admin_is_told_this_server_is_the_only_copy() {
    let app = spawn_app().await;
    let super_admin = app.user_with_role("root@example.com", Role::SuperAdmin).await;
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    assert_eq!(health(&app).await["offsite"], "none");
    let seen = overview(&app, &super_admin).await;
    assert_eq!(seen["offsite"]["configured"], false, "{seen}");
    // Only super admins run the server: an admin's home does not carry it.
    assert!(overview(&app, &admin).await.get("offsite").is_none());
}

/// A copy whose tools cannot reach any store (`false` stands for both): never confirmed.
fn unreachable_copy(lag_alert: Duration) -> OffsiteSettings {
    OffsiteSettings {
        url: "s3://mavuno-test/node1".to_owned(),
        endpoint: Some("http://127.0.0.1:9".to_owned()),
        region: "us-east-1".to_owned(),
        access_key_id: "key".to_owned().into(),
        secret_access_key: "secret".to_owned().into(),
        litestream: PathBuf::from("false"),
        rclone: PathBuf::from("false"),
        media_every: Duration::from_millis(200),
        check_every: Duration::from_millis(200),
        lag_alert,
    }
}

#[tokio::test]
async fn a_copy_not_confirmed_for_too_long_tells_each_super_admin_once_by_email_and_sms() {
    // The copy is SQLite's (Litestream): on SQLite also when the suite runs on PostgreSQL.
    let app = spawn_with(|c| {
        c.offsite = Some(unreachable_copy(Duration::from_secs(1)));
        c.database_url = None;
    })
    .await;
    let super_admin = app.user_with_role("root@example.com", Role::SuperAdmin).await;
    app.sql("UPDATE users SET phone_number = '+243990001122' WHERE email = 'root@example.com'");
    app.user_with_role("admin@example.com", Role::Admin).await;

    let told = || {
        let conn = app.database();
        let emails: Vec<(String, String)> = conn
            .prepare("SELECT to_email, subject FROM email_outbox WHERE subject LIKE '%hors site%' ORDER BY id")
            .unwrap()
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let sms: Vec<(String, String)> =
            app.sms_bodies().into_iter().filter(|(_, body)| body.contains("copie hors site")).collect();
        (emails, sms)
    };
    let mut waited = 0;
    while told().0.is_empty() {
        assert!(waited < 100, "no alert after 10 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
    }
    let (emails, sms) = told();
    // In the super admin's language (a DRC account reads French), to super admins only.
    assert_eq!(
        emails,
        [(
            "root@example.com".to_owned(),
            "MAVUNO : la copie hors site n'est plus confirmée depuis 1 minutes".to_owned()
        )]
    );
    assert_eq!(sms.len(), 1, "{sms:?}");
    assert_eq!(sms[0].0, "+243990001122");
    assert_eq!(health(&app).await["offsite"], "lagging");
    let seen = overview(&app, &super_admin).await["offsite"].clone();
    assert_eq!(
        (seen["configured"].clone(), seen["lagging"].clone(), seen["confirmed_at"].clone()),
        (true.into(), true.into(), Value::Null)
    );

    // Still lagging a second later: the same incident, no second message.
    tokio::time::sleep(Duration::from_millis(1200)).await;
    assert_eq!(told().0.len(), 1);
    assert_eq!(told().1.len(), 1);

    // The store confirms (as the check notes it): healthy again.
    let now = mavuno::platform::clock::now();
    app.sql(&format!(
        "INSERT INTO meta (key, value) VALUES ('offsite_confirmed_at', '{now}')
         ON CONFLICT (key) DO UPDATE SET value = excluded.value"
    ));
    assert_eq!(health(&app).await["offsite"], "ok");
    let seen = overview(&app, &super_admin).await["offsite"].clone();
    assert_eq!((seen["lagging"].clone(), seen["confirmed_at"].clone()), (false.into(), now.into()));

    // Then it stops confirming again: a new incident, told again.
    let mut waited = 0;
    while told().0.len() < 2 {
        assert!(waited < 100, "no second alert after 10 s");
        tokio::time::sleep(Duration::from_millis(100)).await;
        waited += 1;
    }
    assert_eq!(told().1.len(), 2);
}

#[tokio::test]
async fn a_server_on_postgresql_refuses_the_sqlite_copy_and_says_what_to_use() {
    if !on_postgres() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let mut config = mavuno::Config::new(dir.path());
    config.database_url = postgres_of(dir.path()).map(Into::into);
    config.offsite = Some(unreachable_copy(Duration::from_secs(1)));
    let refused = mavuno::startup::Application::build(config, "127.0.0.1:0".parse().unwrap()).await.err().unwrap();
    assert!(refused.to_string().contains("on PostgreSQL use the engine's own backups"), "{refused}");
}
