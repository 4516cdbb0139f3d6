//! The off-site copy's health (docs/operations.md, Off-site copy): what the super
//! admin's dashboard and `/health` say with no copy; against a real store on loopback
//! (rclone's `serve s3`, Litestream), with the right key (pending, then ok once the store
//! holds the newest transaction), a wrong key, a missing bucket and no store at all; and
//! with a copy not confirmed for too long (the super admins told once an incident, by
//! email and SMS). The copy under load, killed and restored: bench/drill.mjs.

use std::path::PathBuf;
use std::time::Duration;

use mavuno::model::user::Role;
use mavuno::platform::config::OffsiteSettings;
use reqwest::Method;
use serde_json::Value;

use crate::helpers::*;
use crate::store::{self, Store, litestream, rclone};

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

/// A copy to `store`'s bucket `copies` with these keys, its look every 200 ms.
fn copy_to(endpoint: &str, bucket: &str, secret: &str, litestream: PathBuf, rclone: PathBuf) -> OffsiteSettings {
    OffsiteSettings {
        url: format!("s3://{bucket}/node1"),
        endpoint: Some(endpoint.to_owned()),
        region: "us-east-1".to_owned(),
        access_key_id: store::KEY_ID.to_owned().into(),
        secret_access_key: secret.to_owned().into(),
        litestream,
        rclone,
        media_every: Duration::from_millis(500),
        check_every: Duration::from_millis(200),
        lag_alert: Duration::from_secs(600),
    }
}

/// `/health` until it says something other than `pending`, for at most 30 s.
async fn settled(app: &TestApp) -> Value {
    for _ in 0..300 {
        let seen = health(app).await;
        if seen["offsite"] != "pending" {
            return seen;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("still pending after 30 s");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_says_ok_only_once_the_store_holds_the_newest_change_and_why_it_refuses_us() {
    let (Some(rclone), Some(litestream)) = (rclone(), litestream()) else {
        eprintln!("skipped: no rclone or Litestream (scripts/test installs them into .tools/)");
        return;
    };
    let store = Store::start(&rclone).await;
    // The copy is SQLite's (Litestream): on SQLite also when the suite runs on PostgreSQL.
    let app_with = |bucket: &'static str, secret: &'static str, endpoint: String| {
        let (litestream, rclone) = (litestream.clone(), rclone.clone());
        spawn_with(move |c| {
            c.offsite = Some(copy_to(&endpoint, bucket, secret, litestream, rclone));
            c.database_url = None;
        })
    };

    // The right key: not confirmed before the store holds anything, then ok.
    let app = app_with("copies", store::SECRET, store.endpoint.clone()).await;
    assert_eq!(health(&app).await["offsite"], "pending");
    let super_admin = app.user_with_role("root@example.com", Role::SuperAdmin).await;
    let seen = settled(&app).await;
    assert_eq!(seen["offsite"], "ok", "{seen}");
    assert!(seen.get("offsite_failure").is_none(), "{seen}");
    let copy = overview(&app, &super_admin).await["offsite"].clone();
    assert_eq!((&copy["state"], &copy["failure"]), (&"ok".into(), &Value::Null), "{copy}");
    assert!(copy["confirmed_at"].is_string(), "{copy}");
    assert!(store.dir.path().join("copies/node1/db").is_dir(), "the store holds the database's copy");

    // A wrong secret: the store refuses it, and says so at the first look.
    let app = app_with("copies", "not-the-secret", store.endpoint.clone()).await;
    let seen = settled(&app).await;
    assert_eq!((&seen["offsite"], &seen["offsite_failure"]), (&"failing".into(), &"denied".into()), "{seen}");
    let super_admin = app.user_with_role("root@example.com", Role::SuperAdmin).await;
    let copy = overview(&app, &super_admin).await["offsite"].clone();
    assert_eq!((&copy["state"], &copy["failure"]), (&"failing".into(), &"denied".into()), "{copy}");

    // A bucket the store does not have.
    let app = app_with("no-such-bucket", store::SECRET, store.endpoint.clone()).await;
    let seen = settled(&app).await;
    assert_eq!((&seen["offsite"], &seen["offsite_failure"]), (&"failing".into(), &"bucket_missing".into()), "{seen}");

    // No store at that address: Litestream would try for minutes; the look gives up.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let app = app_with("copies", store::SECRET, format!("http://127.0.0.1:{closed}")).await;
    let seen = settled(&app).await;
    assert_eq!((&seen["offsite"], &seen["offsite_failure"]), (&"failing".into(), &"unreachable".into()), "{seen}");
}

#[tokio::test]
async fn a_copy_not_confirmed_for_too_long_tells_each_super_admin_once_by_email_and_sms() {
    // The copy is SQLite's (Litestream): on SQLite also when the suite runs on PostgreSQL.
    // The people exist before the copy starts: on a busy machine, making them takes
    // longer than the threshold, and an alert told before the number was set sent no SMS.
    let dir = tempfile::tempdir().unwrap();
    let app = spawn_in(dir.path(), |c| c.database_url = None).await;
    let super_admin = app.user_with_role("root@example.com", Role::SuperAdmin).await;
    app.sql("UPDATE users SET phone_number = '+243990001122' WHERE email = 'root@example.com'");
    app.user_with_role("admin@example.com", Role::Admin).await;
    drop(app);
    let app = spawn_in(dir.path(), |c| {
        c.offsite = Some(unreachable_copy(Duration::from_secs(1)));
        c.database_url = None;
    })
    .await;

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
        assert!(waited < 100, "no alert after 10 s: {:?}", told());
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
    // Its tools fail (`false`): the store is failing, for a reason the log alone has.
    let seen = health(&app).await;
    assert_eq!((&seen["offsite"], &seen["offsite_failure"]), (&"failing".into(), &"other".into()), "{seen}");
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
    let seen = overview(&app, &super_admin).await["offsite"].clone();
    assert_eq!((seen["lagging"].clone(), seen["confirmed_at"].clone()), (false.into(), now.into()));
    assert_eq!(seen["state"], "failing", "the next look failed again: never ok while the store refuses us");

    // Then it stops confirming again: a new incident, told again.
    let mut waited = 0;
    while told().0.len() < 2 {
        assert!(waited < 100, "no second alert after 10 s: {:?}", told());
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
