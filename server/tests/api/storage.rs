//! The storage seam's promises on both engines (docs/decisions.md, Storage engines):
//! the two schemas agree, and a pull never skips a change whatever commits meanwhile.

use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

use mavuno::db::{Connection, Engine};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::{mutation, uid};

/// A column as both engines are compared: its type in SQLite's words and whether it
/// takes NULL.
type Columns = BTreeMap<String, (String, bool)>;

/// Every table's columns, and every unique index's (table, columns or expressions).
struct Schema {
    tables: BTreeMap<String, Columns>,
    unique: BTreeSet<(String, String)>,
}

fn sqlite_schema(conn: &Connection) -> Schema {
    let names: Vec<String> = conn
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
             AND name NOT LIKE 'products_search%' ORDER BY name",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut tables = BTreeMap::new();
    let mut unique = BTreeSet::new();
    for table in names {
        let columns: Vec<(String, String, bool, i64)> = conn
            .prepare("SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1)")
            .unwrap()
            .query_map([&table], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut keys: Vec<(i64, String)> = columns.iter().filter(|c| c.3 > 0).map(|c| (c.3, c.0.clone())).collect();
        keys.sort();
        if !keys.is_empty() {
            unique.insert((table.clone(), keys.into_iter().map(|(_, name)| name).collect::<Vec<_>>().join(",")));
        }
        tables.insert(
            table.clone(),
            columns.into_iter().map(|(name, kind, not_null, pk)| (name, (kind, !(not_null || pk > 0)))).collect(),
        );
        let indexes: Vec<(String, bool, String)> = conn
            .prepare("SELECT name, \"unique\", origin FROM pragma_index_list(?1)")
            .unwrap()
            .query_map([&table], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        for (index, is_unique, origin) in indexes {
            if !is_unique || origin == "pk" {
                continue;
            }
            // An index written out: its keys as written (`x COLLATE NOCASE` is PostgreSQL's
            // `lower(x)`); a UNIQUE constraint's: its columns.
            let written: Option<String> =
                conn.query_row("SELECT sql FROM sqlite_master WHERE name = ?1", [&index], |r| r.get(0)).unwrap();
            let parts: Vec<String> = match written {
                Some(sql) => index_keys(&sql)
                    .into_iter()
                    .map(|key| match key.strip_suffix(" COLLATE NOCASE") {
                        Some(column) => format!("lower({column})"),
                        None => key,
                    })
                    .collect(),
                None => conn
                    .prepare("SELECT name FROM pragma_index_info(?1) ORDER BY seqno")
                    .unwrap()
                    .query_map([&index], |r| r.get(0))
                    .unwrap()
                    .collect::<Result<_, _>>()
                    .unwrap(),
            };
            unique.insert((table.clone(), parts.join(",")));
        }
    }
    Schema { tables, unique }
}

/// The keys of `CREATE [UNIQUE] INDEX name ON table (a, lower(b)) [WHERE …]`.
fn index_keys(sql: &str) -> Vec<String> {
    let open = sql.find('(').unwrap();
    let (mut depth, mut keys, mut key) = (0, Vec::new(), String::new());
    for c in sql[open + 1..].chars() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => break,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                keys.push(key.trim().to_owned());
                key.clear();
                continue;
            }
            _ => {}
        }
        key.push(c);
    }
    keys.push(key.trim().to_owned());
    keys
}

fn postgres_schema(conn: &Connection) -> Schema {
    let rows: Vec<(String, String, String, String)> = conn
        .prepare(
            "SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
             WHERE table_schema = 'public' AND table_name <> 'schema_migrations' ORDER BY table_name, ordinal_position",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut tables: BTreeMap<String, Columns> = BTreeMap::new();
    for (table, column, kind, nullable) in rows {
        let kind = match kind.as_str() {
            "bigint" => "INTEGER",
            "text" => "TEXT",
            "double precision" => "REAL",
            "bytea" => "BLOB",
            other => panic!("{table}.{column}: a type SQLite has no word for: {other}"),
        };
        tables.entry(table).or_default().insert(column, (kind.to_owned(), nullable == "YES"));
    }
    // Unique indexes and constraints: their keys, columns or expressions.
    let indexes: Vec<(String, String)> = conn
        .prepare(
            "SELECT t.relname, string_agg(pg_get_indexdef(i.indexrelid, CAST(k.ord AS integer), true), ',' ORDER BY k.ord)
             FROM pg_index i JOIN pg_class t ON t.oid = i.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace
             CROSS JOIN LATERAL generate_series(1, i.indnkeyatts) AS k(ord)
             WHERE n.nspname = 'public' AND i.indisunique AND t.relname <> 'schema_migrations'
             GROUP BY i.indexrelid, t.relname",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    Schema { tables, unique: indexes.into_iter().collect() }
}

#[tokio::test]
async fn both_engines_have_the_same_schema_and_migrations_in_step() {
    if !on_postgres() {
        return; // Compared where PostgreSQL is: scripts/test runs this suite again on it.
    }
    let dir = tempfile::tempdir().unwrap();
    let sqlite = mavuno::db::Db::open(dir.path()).unwrap();
    drop(sqlite);
    let sqlite = sqlite_schema(&Connection::open(&dir.path().join(mavuno::db::DB_FILE)).unwrap());
    let url = postgres_of(&dir.path().join("pg")).unwrap();
    drop(mavuno::db::Db::open_postgres(&url, None, 2, None).unwrap());
    let mut postgres = postgres_schema(&Connection::open_url(&url).unwrap());

    // SQLite keeps sessions' order of arrival in its hidden rowid; PostgreSQL in a column of that name.
    assert_eq!(postgres.tables.get_mut("sessions").unwrap().remove("rowid"), Some(("INTEGER".to_owned(), false)));
    let names = |schema: &Schema| schema.tables.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&sqlite), names(&postgres), "the same tables");
    for (table, columns) in &sqlite.tables {
        assert_eq!(columns, &postgres.tables[table], "{table}: the same columns, types and nullability");
    }
    let only_sqlite: Vec<_> = sqlite.unique.difference(&postgres.unique).collect();
    let only_postgres: Vec<_> = postgres.unique.difference(&sqlite.unique).collect();
    assert!(only_sqlite.is_empty() && only_postgres.is_empty(), "unique rules: {only_sqlite:?} / {only_postgres:?}");

    // From 0040 on each migration is written for both engines, under the same name.
    let after_baseline = |engine| -> Vec<&str> {
        mavuno::db::migration_names(engine).into_iter().filter(|name| *name > "0039_~").collect()
    };
    assert_eq!(after_baseline(Engine::Sqlite), after_baseline(Engine::Postgres));
    assert_eq!(mavuno::db::migration_names(Engine::Postgres)[0], "0039_schema");
    assert!(mavuno::db::migration_names(Engine::Sqlite).contains(&"0039_product_descriptions"));
}

/// A draft application for the pull to carry.
fn draft(n: u32) -> Value {
    json!({"uid": uid(n), "status": "draft", "answers": {"land_size": "1-2 hectares"}})
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_pull_in_a_loop_gets_every_change_once_while_writers_commit_out_of_order() {
    let dir = tempfile::tempdir().unwrap();
    let first = spawn_in(dir.path(), |_| {}).await;
    // PostgreSQL: a second server on the same database (SQLite is one server by design).
    let second = if on_postgres() { Some(spawn_in(dir.path(), |_| {}).await) } else { None };
    let servers = [&first, second.as_ref().unwrap_or(&first)];
    let (token, user) = first.register("amani@example.com").await;
    let user_id = user["id"].as_i64().unwrap();

    // Four phones push ten drafts each, through either server, all at once.
    let mut writers = Vec::new();
    for phone in 0..4u32 {
        let (origin, client, token) = (servers[phone as usize % 2].origin.clone(), first.client.clone(), token.clone());
        writers.push(tokio::spawn(async move {
            let client_id = format!("dddddddd-0000-4000-8000-00000000000{phone}");
            for n in 0..10u32 {
                let body = json!({"protocol": 1, "client_id": client_id,
                    "mutations": [mutation(u64::from(n) + 1, "survey.create", draft(phone * 100 + n), None)]});
                let pushed = client.post(format!("{origin}/api/v1/sync/push")).bearer_auth(&token).json(&body);
                assert!(pushed.send().await.unwrap().status().is_success());
            }
        }));
    }
    // A reader pulls through the other server in a loop, from a first snapshot on.
    let reader = {
        let (origin, client, token) = (servers[1].origin.clone(), first.client.clone(), token.clone());
        tokio::spawn(async move {
            let client_id = "eeeeeeee-0000-4000-8000-000000000001";
            let url = |cursor: Option<i64>| {
                let cursor = cursor.map(|c| format!("&cursor={c}")).unwrap_or_default();
                format!("{origin}/api/v1/sync/pull?client_id={client_id}&limit=7{cursor}")
            };
            let mut cursor = None;
            let mut seen: BTreeMap<String, usize> = BTreeMap::new();
            let started = Instant::now();
            while seen.len() < 41 && started.elapsed() < Duration::from_secs(60) {
                let page: Value =
                    client.get(url(cursor)).bearer_auth(&token).send().await.unwrap().json().await.unwrap();
                for change in page["changes"].as_array().unwrap() {
                    *seen.entry(change["id"].as_str().unwrap().to_owned()).or_default() += 1;
                }
                cursor = page["cursor"].as_i64();
                if !page["has_more"].as_bool().unwrap() {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
            }
            seen
        })
    };
    // Meanwhile a slow writer takes a version, holds its transaction open for two
    // seconds while the phones' writes go on, then commits.
    let slow = first.database();
    let tx = slow.begin().unwrap();
    let version: i64 = tx
        .query_row("UPDATE sync_state SET version = version + 1 WHERE id = 1 RETURNING version", [], |r| r.get(0))
        .unwrap();
    tx.execute(
        "INSERT INTO surveys (uid, user_id, created_by, status, version, created_at, updated_at)
         VALUES (?1, ?2, ?2, 'draft', ?3, ?4, ?4)",
        mavuno::db::params![uid(999), user_id, version, mavuno::platform::clock::now()],
    )
    .unwrap();
    tokio::time::sleep(Duration::from_secs(2)).await;
    tx.commit().unwrap();

    for writer in writers {
        writer.await.unwrap();
    }
    let seen = reader.await.unwrap();
    let expected: BTreeSet<String> =
        (0..4).flat_map(|p| (0..10).map(move |n| uid(p * 100 + n))).chain([uid(999)]).collect();
    assert_eq!(seen.keys().cloned().collect::<BTreeSet<_>>(), expected, "every change reached the reader");
    assert!(seen.values().all(|&times| times == 1), "each once: {seen:?}");
}

#[tokio::test]
async fn when_the_database_connections_are_lost_requests_get_503_then_work_and_a_retried_push_lands_once() {
    if !on_postgres() {
        return; // SQLite is a file: nothing to lose but the disk.
    }
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    app.push_ok(&token, "ffffffff-0000-4000-8000-000000000001", vec![mutation(1, "survey.create", draft(1), None)])
        .await;
    // PostgreSQL restarts: every connection the server holds is cut.
    let url = postgres_of(&app.data_dir).unwrap();
    let name = url.rsplit('/').next().unwrap().to_owned();
    let admin = Connection::open_url(&std::env::var("MAVUNO_TEST_DATABASE_URL").unwrap()).unwrap();
    let cut: i64 = admin
        .query_row(
            "SELECT COUNT(*) FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = ?1) AS t",
            [&name],
            |r| r.get(0),
        )
        .unwrap();
    assert!(cut > 0);
    // The phone's next push: refused with the JSON error while connections are found
    // dead, then applied; sent again as a phone does after a lost answer, applied once.
    let batch = vec![mutation(2, "survey.create", draft(2), None)];
    let mut refusals = 0;
    let answer = loop {
        let response = app.push(&token, "ffffffff-0000-4000-8000-000000000001", batch.clone()).await;
        if response.status().is_success() {
            break response.json::<Value>().await.unwrap();
        }
        let body = error_of(response, reqwest::StatusCode::SERVICE_UNAVAILABLE).await;
        assert_eq!(body["code"], "server_busy");
        refusals += 1;
        assert!(refusals < 20, "the server comes back by itself");
    };
    assert_eq!(answer["results"][0]["status"], "applied");
    let again = app.push_ok(&token, "ffffffff-0000-4000-8000-000000000001", batch).await;
    assert_eq!(again["results"][0]["duplicate"], true);
    assert_eq!(app.survey_count(), 2, "each once");
    // Reads come back too.
    for _ in 0..20 {
        if app.client.get(app.api("/products")).send().await.unwrap().status().is_success() {
            return;
        }
    }
    panic!("reads never came back");
}

#[tokio::test]
async fn postgresql_takes_a_new_listing_into_the_search_index_at_once() {
    if !on_postgres() {
        return;
    }
    // With GIN's pending list, every search read through the listings added since the
    // last vacuum: a tenth of the speed after 10,000 of them (migration 0047).
    let dir = tempfile::tempdir().unwrap();
    let url = postgres_of(dir.path()).unwrap();
    drop(mavuno::db::Db::open_postgres(&url, None, 2, None).unwrap());
    let options: Option<String> = Connection::open_url(&url)
        .unwrap()
        .query_row("SELECT array_to_string(reloptions, ',') FROM pg_class WHERE relname = 'products_search'", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(options.as_deref(), Some("fastupdate=off"));
}

#[tokio::test]
async fn searches_across_the_three_languages_find_the_same_products_on_both_engines() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", mavuno::model::user::Role::Farmer).await;
    for (title, category) in [
        ("Arabica coffee beans", "beverages"),
        ("Green beans", "vegetables"),
        ("Tomatoes", "vegetables"),
        ("Maize flour", "grains"),
        ("Cassava leaves", "vegetables"),
        ("Avocados", "fruits"),
    ] {
        let mut listing = crate::products::tomatoes();
        listing["title"] = json!(title);
        listing["category"] = json!(category);
        listing["description"] = json!("From Kabare");
        app.list_product(&farmer, listing).await;
    }
    let sorted = |mut titles: Vec<String>| {
        titles.sort();
        titles
    };
    for (query, expected) in [
        ("q=caf%C3%A9", vec!["Arabica coffee beans"]),
        ("q=kahawa", vec!["Arabica coffee beans"]),
        ("q=haricot", vec!["Green beans"]),
        ("q=nyanya", vec!["Tomatoes"]),
        ("q=ma%C3%AFs", vec!["Maize flour"]),
        ("q=mboga", vec!["Cassava leaves", "Green beans", "Tomatoes"]),
        ("q=l%C3%A9gumes", vec!["Cassava leaves", "Green beans", "Tomatoes"]),
        ("q=parachichi", vec!["Avocados"]),
        ("q=zz", vec![]),
    ] {
        assert_eq!(sorted(app.titles(query).await), expected, "{query}");
    }
    // Sorted by name, case aside, and by price: the same order on both.
    assert_eq!(
        app.titles("sort=name").await,
        ["Arabica coffee beans", "Avocados", "Cassava leaves", "Green beans", "Maize flour", "Tomatoes"]
    );
}

#[tokio::test]
async fn postgresql_over_tls_checks_the_certificate_and_encrypts() {
    let (Ok(tls_admin), Ok(ca)) =
        (std::env::var("MAVUNO_TEST_DATABASE_TLS_URL"), std::env::var("MAVUNO_TEST_DATABASE_CA"))
    else {
        return; // scripts/with-postgres gives a cluster with TLS on a loopback port.
    };
    let dir = tempfile::tempdir().unwrap();
    let name = postgres_of(dir.path()).unwrap().rsplit('/').next().unwrap().to_owned();
    let url = tls_admin.replace("/postgres?", &format!("/{name}?"));
    // With the authority that signed the database's certificate: connected, encrypted.
    let app = spawn_in(dir.path(), |config| {
        config.database_url = Some(url.clone().into());
        config.database_ca = Some(ca.clone().into());
    })
    .await;
    let encrypted: bool = app
        .state
        .db
        .read(|conn| Ok(conn.query_row("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", [], |r| r.get(0))?))
        .await
        .unwrap();
    assert!(encrypted, "the connection is TLS");
    app.register("amani@example.com").await;
    // A certificate Mozilla's roots do not sign, and no authority given: refused, and said so.
    let refused = mavuno::db::Db::open_postgres(&url, None, 2, None).err().expect("an unknown issuer is refused");
    assert!(refused.to_string().contains("certificate"), "{refused}");
}

#[tokio::test]
async fn a_text_holding_nul_is_refused_in_words_on_both_engines() {
    // PostgreSQL cannot store NUL in text; SQLite could, so the seam refuses it on both
    // (a form's own checks refuse it first where they read the text).
    let app = spawn_app().await;
    let (token, _) = app.register("amani@example.com").await;
    let like = json!({"uid": "ab\u{0}cd", "on": true});
    let answer = app
        .push_ok(&token, "ffffffff-0000-4000-8000-000000000009", vec![mutation(1, "comment.like", like, None)])
        .await;
    assert_eq!(
        (answer["results"][0]["status"].as_str(), answer["results"][0]["code"].as_str()),
        (Some("rejected"), Some("invalid_text")),
        "{answer}"
    );
    let response = app.client.get(app.api("/products?search=caf%00e")).send().await.unwrap();
    assert!(
        response.status() == reqwest::StatusCode::OK || response.status().is_client_error(),
        "{}",
        response.status()
    );
}
