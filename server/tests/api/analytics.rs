//! The admin's analytics (docs/analytics.md): every chart's numbers checked against data
//! made here (dates moved with SQL), periods, and the CSV.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

use crate::helpers::*;
use crate::orders::{line, order};

/// RFC 3339 `days` ago (noon UTC, so a day's bucket does not depend on the hour the test runs).
fn days_ago(days: i64) -> String {
    let at = OffsetDateTime::now_utc() - Duration::days(days);
    format!("{}T12:00:00Z", at.date())
}

/// RFC 3339 `hours` after noon `days` ago.
fn hours_after(days: i64, hours: i64) -> String {
    let noon = OffsetDateTime::now_utc().date().midnight().assume_utc() + Duration::hours(12);
    mavuno::platform::clock::format(noon - Duration::days(days) + Duration::hours(hours))
}

fn month_of(days: i64) -> String {
    days_ago(days)[..7].to_owned()
}

impl TestApp {
    async fn chart(&self, token: &str, name: &str, period: &str) -> Value {
        let response = self.get(&format!("/admin/analytics/{name}?period={period}"), Some(token)).await;
        assert_eq!(response.status(), StatusCode::OK, "{name} {period}");
        response.json::<Value>().await.unwrap()["data"].clone()
    }
}

/// The series `key`'s value in `bucket`.
fn at(chart: &Value, key: &str, bucket: &str) -> i64 {
    let index = chart["buckets"]
        .as_array()
        .unwrap()
        .iter()
        .position(|b| b == bucket)
        .unwrap_or_else(|| panic!("{bucket} in {chart}"));
    let series = chart["series"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["key"] == key)
        .unwrap_or_else(|| panic!("{key} in {chart}"));
    series["values"][index].as_i64().unwrap()
}

fn figure(chart: &Value, key: &str) -> Value {
    chart["figures"].as_array().unwrap().iter().find(|f| f["key"] == key).unwrap()["value"].clone()
}

fn rows(chart: &Value) -> Vec<(String, Vec<i64>)> {
    chart["table"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let name = r["label"].as_str().or(r["key"].as_str()).unwrap().to_owned();
            (name, r["values"].as_array().unwrap().iter().map(|v| v.as_i64().unwrap()).collect())
        })
        .collect()
}

#[tokio::test]
async fn every_chart_counts_what_happened_in_its_period() {
    let app = spawn_app().await;
    let admin = app.user_with_role("analytics.admin@example.com", Role::Admin).await;
    let amani = app.user_with_role("amani@example.com", Role::Farmer).await;
    let esther = app.user_with_role("esther@example.com", Role::Farmer).await;
    let buyer = app.user_with_role("buyer@example.com", Role::User).await;
    app.sql(&format!(
        "UPDATE users SET country = 'KEN', location = 'Nakuru', created_at = '{}' WHERE email = 'esther@example.com';
         UPDATE users SET location = ' bukavu ' WHERE email = 'amani@example.com';",
        days_ago(70)
    ));

    // Sign-ups: Esther 70 days ago, the three others today.
    let this_month = month_of(0);
    let signups = app.chart(&admin, "signups", "12m").await;
    assert_eq!((signups["grain"].as_str(), signups["buckets"].as_array().unwrap().len()), (Some("month"), 12));
    assert_eq!(at(&signups, "farmer", &this_month), 1);
    assert_eq!(at(&signups, "farmer", &month_of(70)), 1);
    assert_eq!((at(&signups, "user", &this_month), at(&signups, "admin", &this_month)), (1, 1));
    assert!(
        signups["series"].as_array().unwrap().iter().all(|s| s["key"] != "field_agent"),
        "roles nobody signed up as are left out"
    );
    assert_eq!(rows(&signups), [("DRC".to_owned(), vec![3]), ("KEN".to_owned(), vec![1])]);
    let recent = app.chart(&admin, "signups", "30d").await;
    assert_eq!((recent["grain"].as_str(), recent["buckets"].as_array().unwrap().len()), (Some("day"), 30));
    assert_eq!(figure(&recent, "signups"), json!(3.0), "Esther signed up before the period");
    assert_eq!(at(&recent, "farmer", &days_ago(0)[..10]), 1);

    // Applications: three decided in 12, 24 and 48 hours, one waiting, a draft not counted.
    let users: Vec<i64> = (2..=4).collect();
    let mut inserts = String::new();
    for (n, (status, sent, hours)) in
        [("approved", 10, 12), ("rejected", 9, 24), ("approved", 8, 48), ("pending", 3, 0), ("draft", 2, 0)]
            .iter()
            .enumerate()
    {
        let reviewed = if *hours > 0 { format!("'{}'", hours_after(*sent, *hours)) } else { "NULL".to_owned() };
        inserts.push_str(&format!(
            "INSERT INTO surveys (uid, user_id, created_by, status, reviewed_at, version, created_at, updated_at)
             VALUES ('{n}-survey', {u}, {u}, '{status}', {reviewed}, 1, '{at}', '{at}');",
            u = users[n % 3],
            at = days_ago(*sent)
        ));
    }
    app.sql(&inserts);
    let applications = app.chart(&admin, "applications", "90d").await;
    assert_eq!(applications["grain"], "week");
    assert_eq!(
        rows(&applications),
        [("pending".to_owned(), vec![1]), ("approved".to_owned(), vec![2]), ("rejected".to_owned(), vec![1])]
    );
    assert_eq!((figure(&applications, "applications"), figure(&applications, "decided")), (json!(4.0), json!(3.0)));
    assert_eq!(figure(&applications, "median_decision_hours"), json!(24.0));
    assert_eq!(figure(&applications, "average_decision_hours"), json!(28.0));

    // Listings: two vegetables (one hidden), one fruit.
    let product = |title: &str, category: &str, quantity: i64, price: f64, shipping: f64| {
        json!({"title": title, "description": "Fresh", "category": category, "quantity": quantity, "price": price,
               "current_price": price, "shipping_cost": shipping})
    };
    let tomatoes = app.listed(&amani, product("Tomatoes", "vegetables", 50, 2.5, 5.0)).await;
    let cabbages = app.listed(&amani, product("Cabbages", "vegetables", 5, 1.0, 0.0)).await;
    app.sql(&format!("UPDATE products SET hidden_at = '{}' WHERE id = {cabbages}", days_ago(0)));
    let avocados = app.listed(&esther, product("Avocados", "fruits", 30, 0.8, 3.0)).await;
    let listings = app.chart(&admin, "listings", "all").await;
    assert_eq!(rows(&listings), [("vegetables".to_owned(), vec![2, 1]), ("fruits".to_owned(), vec![1, 1])]);
    assert_eq!((figure(&listings, "listings"), figure(&listings, "on_sale")), (json!(3.0), json!(2.0)));
    assert!(listings["buckets"].as_array().unwrap().is_empty(), "no time series");

    // Orders: one of both farmers; Esther cancels her part, so only Amani's 15.00 counts.
    let placed = app.place(&buyer, order(1, json!([line(tomatoes, 4, 250), line(avocados, 2, 80)]))).await;
    assert_eq!(placed.status(), StatusCode::CREATED);
    let placed: Value = placed.json().await.unwrap();
    let id = placed["data"]["id"].as_i64().unwrap();
    let esther_part = placed["data"]["parts"].as_array().unwrap().iter().find(|p| p["subtotal_cents"] == 160).unwrap()
        ["id"]
        .as_i64()
        .unwrap();
    let cancel = json!({"status": "cancelled", "reason": "Hail"});
    assert_eq!(app.patch_part(&esther, id, esther_part, cancel).await.status(), StatusCode::OK);
    let orders = app.chart(&admin, "orders", "12m").await;
    assert_eq!((at(&orders, "orders", &this_month), at(&orders, "revenue_cents", &this_month)), (1, 1500));
    assert_eq!(figure(&orders, "revenue_cents"), json!(1500.0));
    let products = app.chart(&admin, "top_products", "30d").await;
    assert_eq!(
        rows(&products),
        [("Tomatoes".to_owned(), vec![4, 1000])],
        "line totals; the cancelled part is left out"
    );
    let farmers = app.chart(&admin, "top_farmers", "30d").await;
    assert_eq!(rows(&farmers), [("Test farmer".to_owned(), vec![1, 1500])]);

    // Courses: two enrolments, one completed.
    app.sql(&format!(
        "INSERT INTO courses (id, uid, title, description, category, level, language, instructor_name, search_text,
                              version, created_at, updated_at)
            VALUES (1, 'c1', 'Composting', 'd', 'farming', 'beginner', 'en', 'I', 's', 1, '{now}', '{now}');
         INSERT INTO enrolments (course_id, user_id, status, price_cents, completed_at, version, created_at, updated_at)
            VALUES (1, 2, 'active', 0, '{now}', 1, '{now}', '{now}'), (1, 4, 'active', 0, NULL, 1, '{now}', '{now}');",
        now = days_ago(0)
    ));
    let courses = app.chart(&admin, "courses", "12m").await;
    assert_eq!((at(&courses, "enrolments", &this_month), at(&courses, "completions", &this_month)), (2, 1));
    assert_eq!(rows(&courses), [("Composting".to_owned(), vec![2, 1])]);

    // The goals: farmers connected, people trained, countries and places (written differently, counted once).
    let goals = app.chart(&admin, "goals", "all").await;
    assert_eq!((figure(&goals, "farmers"), figure(&goals, "trained")), (json!(2.0), json!(1.0)));
    assert_eq!((figure(&goals, "countries"), figure(&goals, "places")), (json!(2.0), json!(2.0)));
    assert_eq!(figure(&goals, "women_youth"), Value::Null, "not recorded, and said so");
    assert_eq!(goals["figures"][0]["target"], 10_000);

    // The CSV: the same numbers, in French.
    let csv = app.call(Method::GET, "/admin/analytics/orders/export?period=12m&lang=fr", &admin, None).await;
    assert_eq!(csv.status(), StatusCode::OK);
    let text = csv.text().await.unwrap();
    assert!(text.contains("Mois,Commandes,Chiffre d'affaires (US$)"), "{text}");
    assert!(text.contains(&format!("{this_month},1,15.00")), "{text}");
    let goals_csv = app
        .call(Method::GET, "/admin/analytics/goals/export?period=all&lang=fr", &admin, None)
        .await
        .text()
        .await
        .unwrap();
    assert!(goals_csv.contains("Femmes et jeunes touchés,Non enregistré"), "{goals_csv}");

    // Wrong names are refused in words.
    let unknown = app.get("/admin/analytics/weather", Some(&admin)).await;
    assert_eq!(error_of(unknown, StatusCode::NOT_FOUND).await["code"], "chart_not_found");
    let period = app.get("/admin/analytics/orders?period=7y", Some(&admin)).await;
    assert_eq!(error_of(period, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["period"][0], "invalid_filter");
}
