//! `mavuno migrate-to-postgres`: a SQLite deployment with history moves to PostgreSQL and
//! its phones go on syncing where they were (docs/operations.md, PostgreSQL).

use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::{CLIENT_A, mutation, uid};
use crate::ussd::{TOKEN, farmer_with_phone};

fn draft(n: u32) -> Value {
    json!({"uid": uid(n), "status": "draft", "answers": {"land_size": "1-2 hectares"}})
}

fn count(conn: &mavuno::db::Connection, table: &str) -> i64 {
    conn.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0)).unwrap()
}

#[tokio::test]
async fn a_sqlite_deployment_moves_to_postgres_and_its_phones_go_on_syncing() {
    if !on_postgres() {
        return; // Needs the PostgreSQL that scripts/test starts for the second run.
    }
    let dir = tempfile::tempdir().unwrap();
    let target = postgres_of(&dir.path().join("target")).unwrap();
    // A SQLite deployment: the demo (orders, ledger entries, payments, market prices),
    // a listing made by USSD, and a phone's sync history.
    let app = spawn_in(dir.path(), |config| {
        config.database_url = None;
        config.gateway_token = Some(TOKEN.into());
    })
    .await;
    assert!(mavuno::demo::seed(&app.state).await.unwrap());
    let (_, number) = farmer_with_phone(&app, "mover@example.com").await;
    let mut phone = app.phone(&number);
    phone.go(&["2", "2580", "2580"]).await;
    phone.go(&["2", "2580"]).await;
    for answer in ["2", "120", "1#10", "1"] {
        phone.answer(answer).await;
    }
    let (token, _) = app.register("amani@example.com").await;
    app.push_ok(&token, CLIENT_A, vec![mutation(1, "survey.create", draft(1), None)]).await;
    app.push_ok(&token, CLIENT_A, vec![mutation(2, "survey.create", draft(2), None)]).await;
    let cursor = app.pull(&token, CLIENT_A, None, 100).await["cursor"].as_i64().unwrap();
    let source = app.database();
    let mut before = Vec::new();
    for table in ["users", "products", "orders", "earnings", "price_observations", "sync_results", "sessions"] {
        before.push((table, count(&source, table)));
    }
    let by_ussd: i64 = source
        .query_row(
            "SELECT COUNT(*) FROM products p JOIN users u ON u.id = p.farmer_id WHERE u.email = 'mover@example.com'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(by_ussd, 1, "the listing made by USSD");
    drop(source);
    drop(app); // The server is stopped.

    let moved = mavuno()
        .args(["migrate-to-postgres", "--data-dir", dir.path().to_str().unwrap()])
        .env("MAVUNO_DATABASE_URL", &target)
        .output()
        .await
        .unwrap();
    assert!(moved.status.success(), "{}", String::from_utf8_lossy(&moved.stderr));
    assert!(String::from_utf8_lossy(&moved.stdout).contains("each counted on both sides"));
    let copied = mavuno::db::Connection::open_url(&target).unwrap();
    for (table, rows) in &before {
        assert_eq!(count(&copied, table), *rows, "{table}");
    }

    // The same deployment served from PostgreSQL: the phone's cursor and history hold.
    let app = spawn_in(dir.path(), |config| config.database_url = Some(target.clone().into())).await;
    let pulled = app.pull(&token, CLIENT_A, Some(cursor), 100).await;
    assert_eq!(pulled["changes"], json!([]), "nothing again, nothing missing");
    assert!(pulled.get("snapshot").is_none(), "no new snapshot was needed");
    let replay = app.push_ok(&token, CLIENT_A, vec![mutation(2, "survey.create", draft(2), None)]).await;
    assert_eq!(replay["results"][0]["duplicate"], true, "a push the phone sends again lands once");
    app.push_ok(&token, CLIENT_A, vec![mutation(3, "survey.create", draft(3), None)]).await;
    let next = app.pull(&token, CLIENT_A, Some(cursor), 100).await;
    assert_eq!(next["changes"][0]["id"], uid(3));
    let theirs: i64 = copied
        .query_row(
            "SELECT COUNT(*) FROM surveys s JOIN users u ON u.id = s.user_id WHERE u.email = 'amani@example.com'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(theirs, 3, "each of the phone's applications once");
    // New rows take new ids after the copied ones.
    let last: i64 = copied.query_row("SELECT MAX(id) FROM users", [], |r| r.get(0)).unwrap();
    let (_, newcomer) = app.register("newcomer@example.com").await;
    assert_eq!(newcomer["id"].as_i64().unwrap(), last + 1);

    // Once is enough: a second run finds the database in use and copies nothing.
    let again = mavuno()
        .args(["migrate-to-postgres", "--data-dir", dir.path().to_str().unwrap()])
        .env("MAVUNO_DATABASE_URL", &target)
        .output()
        .await
        .unwrap();
    assert!(!again.status.success());
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(said.contains("not empty") && said.contains("nothing was copied"), "{said}");
}
