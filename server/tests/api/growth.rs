//! Writes that cost the same however much is stored (issue 81): every query a write runs,
//! the wake-up query after it included, reads the growing tables by an index. Counted,
//! not timed: SQLite's pages read by the writer, PostgreSQL's rows read by whole-table
//! scans of the growing tables.

use std::time::Duration;

use mavuno::model::user::Role;

use crate::helpers::*;
use crate::sync::{CLIENT_A, draft, mutation};

/// The tables that grow with use, whose whole reading a write must never need.
const GROWING: [&str; 5] = ["surveys", "orders", "notifications", "favourites", "enrolments"];

/// How many applications are stored before the second look.
const STORED: usize = 20_000;

/// The columns of `table` on either engine, `id` left out.
fn columns(app: &TestApp, table: &str) -> Vec<String> {
    let sql = if on_postgres() {
        format!(
            "SELECT column_name FROM information_schema.columns WHERE table_name = '{table}' ORDER BY ordinal_position"
        )
    } else {
        format!("SELECT name FROM pragma_table_info('{table}')")
    };
    let conn = app.database();
    let mut statement = conn.prepare(&sql).unwrap();
    let names: Vec<String> = statement.query_map([], |r| r.get(0)).unwrap().collect::<Result<_, _>>().unwrap();
    names.into_iter().filter(|name| name != "id").collect()
}

/// `count` more rows of `table`, each a copy of the row `id` with its own `uid`.
fn copies(app: &TestApp, table: &str, id: i64, count: usize) {
    let columns = columns(app, table);
    let chosen: Vec<String> =
        columns.iter().map(|c| if c == "uid" { format!("'seed-{table}-' || n.i") } else { format!("t.{c}") }).collect();
    app.sql(&format!(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {count})
         INSERT INTO {table} ({}) SELECT {} FROM {table} t, n WHERE t.id = {id}",
        columns.join(", "),
        chosen.join(", ")
    ));
}

/// A reading of what the writer has read: on SQLite the pages since the last reading,
/// on PostgreSQL the rows whole-table scans of the growing tables have read so far (once
/// its statistics are written, about a second after a backend goes idle).
async fn reading(app: &TestApp) -> i64 {
    if let Some(pages) = app.state.db.write(|tx| Ok(tx.pages_read())).await.unwrap() {
        return pages;
    }
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let tables: Vec<String> = GROWING.iter().map(|t| format!("'{t}'")).collect();
    let sql = format!(
        "SELECT COALESCE(SUM(seq_tup_read), 0)::BIGINT FROM pg_stat_user_tables WHERE relname IN ({})",
        tables.join(", ")
    );
    app.database().query_row(&sql, [], |r| r.get(0)).unwrap()
}

/// What pushing one new application costs, by `reading`.
async fn push_cost(app: &TestApp, token: &str, n: u32) -> i64 {
    let before = reading(app).await;
    let pushed = app.push_ok(token, CLIENT_A, vec![mutation(u64::from(n), "survey.create", draft(n + 10), None)]).await;
    assert_eq!(pushed["results"][0]["status"], "applied", "{pushed}");
    let after = reading(app).await;
    if on_postgres() { after - before } else { after }
}

#[tokio::test]
async fn a_push_costs_the_same_at_twenty_thousand_applications_as_on_an_empty_database() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("growing@example.com", Role::Farmer).await;
    let other = app.user_with_role("others@example.com", Role::Farmer).await;
    app.push_ok(&other, crate::sync::CLIENT_B, vec![mutation(1, "survey.create", draft(1), None)]).await;
    app.push_ok(&farmer, CLIENT_A, vec![mutation(1, "survey.create", draft(2), None)]).await;
    let empty = push_cost(&app, &farmer, 2).await;

    // Other people's applications, changed long ago (each has the first one's version).
    let first: i64 = app.database().query_row("SELECT MIN(id) FROM surveys", [], |r| r.get(0)).unwrap();
    // No ANALYZE: PostgreSQL has no statistics of the copied rows yet, as after a bulk
    // load; the wake-up query reads by version all the same (it read 40,008 rows here
    // when it relied on them).
    copies(&app, "surveys", first, STORED);
    let stored = push_cost(&app, &farmer, 3).await;

    if on_postgres() {
        assert!(
            stored < 1_000,
            "a push read {stored} rows by whole-table scans at {STORED} applications ({empty} empty)"
        );
    } else {
        assert!(stored <= 2 * empty + 64, "a push read {empty} pages on an empty database, {stored} at {STORED}");
    }
}
