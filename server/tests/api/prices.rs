//! Market prices (docs/prices.md): observations from delivered sales, agents' sync
//! and WFP imports; weekly medians with outliers left out; ranges; admins'
//! corrections; weekly SMS alerts.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::orders::{line, order};
use crate::sync::{CLIENT_A, CLIENT_B, mutation, uid};
use crate::ussd::{TOKEN, ussd_app};

/// A day `back` days before today in South Kivu, YYYY-MM-DD.
fn day(back: i64) -> String {
    let today = (time::OffsetDateTime::now_utc() + time::Duration::hours(2)).date();
    (today - time::Duration::days(back)).to_string()
}

/// This week's Monday.
fn monday() -> String {
    let today = (time::OffsetDateTime::now_utc() + time::Duration::hours(2)).date();
    (today - time::Duration::days(i64::from(today.weekday().number_days_from_monday()))).to_string()
}

/// The id of the market `name` of the starting list.
async fn market(app: &TestApp, name: &str) -> i64 {
    let markets: Value = app.get("/prices/markets", None).await.json().await.unwrap();
    markets["data"].as_array().unwrap().iter().find(|m| m["name"] == name).unwrap()["id"].as_i64().unwrap()
}

fn record(n: u32, market: i64, price: &str, observed_on: &str) -> Value {
    json!({"uid": uid(n), "market": market, "crop": "bean", "unit": "kg", "price": price, "currency": "USD",
        "observed_on": observed_on})
}

impl TestApp {
    async fn import(&self, admin: &str, csv: &str) -> (StatusCode, Value) {
        let response = self
            .client
            .post(self.api("/admin/prices/import"))
            .bearer_auth(admin)
            .header("content-type", "text/csv")
            .body(csv.to_owned())
            .send()
            .await
            .unwrap();
        (response.status(), response.json().await.unwrap())
    }

    async fn observations(&self, admin: &str, query: &str) -> Value {
        self.get(&format!("/admin/prices?{query}"), Some(admin)).await.json().await.unwrap()
    }

    async fn board(&self, query: &str) -> Value {
        let board: Value = self.get(&format!("/prices?{query}"), None).await.json().await.unwrap();
        board["data"].clone()
    }
}

const HEADER: &str = "date,admin1,admin2,market,market_id,latitude,longitude,category,commodity,commodity_id,unit,priceflag,pricetype,currency,price,usdprice\n#date,#adm1+name,#adm2+name,#loc+market+name,#loc+market+code,#geo+lat,#geo+lon,#item+type,#item+name,#item+code,#item+unit,#item+price+flag,#item+price+type,#currency+code,#value,#value+usd\n";

fn row(date: &str, market: &str, commodity: &str, unit: &str, currency: &str, price: &str, usd: &str) -> String {
    format!(
        "{date},Sud-Kivu,Bukavu,{market},1,-2.5,28.8,cereals,{commodity},,{unit},actual,Retail,{currency},{price},{usd}\n"
    )
}

#[tokio::test]
async fn delivered_sales_are_prices_and_cancelled_ones_are_not() {
    let app = spawn_app().await;
    let (farmer, _) = app.register("amani.prices@example.com").await;
    app.sql("UPDATE users SET role = 'farmer', location = 'Kadutu, Bukavu' WHERE email = 'amani.prices@example.com'");
    let buyer = app.user_with_role("buyer.prices@example.com", Role::User).await;
    let admin = app.user_with_role("admin.prices@example.com", Role::Admin).await;
    let beans = app
        .listed(
            &farmer,
            json!({"title": "Haricots rouges", "description": "Secs", "quantity": 90, "price": 1.3,
            "current_price": 1.3, "category": "grains", "unit": "kg"}),
        )
        .await;
    let mut parts = Vec::new();
    for n in 1..=2 {
        let placed: Value = app.place(&buyer, order(n, json!([line(beans, 2, 130)]))).await.json().await.unwrap();
        parts.push((placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap()));
    }
    let (delivered, cancelled) = (parts[0], parts[1]);
    app.patch_part(&farmer, delivered.0, delivered.1, json!({"status": "shipped"})).await;
    app.patch_part(&farmer, delivered.0, delivered.1, json!({"status": "delivered"})).await;
    app.patch_part(&farmer, cancelled.0, cancelled.1, json!({"status": "cancelled", "reason": "Plus de stock"})).await;

    let seen = app.observations(&admin, "source=sale").await;
    assert_eq!(seen["total"], 1, "only the delivered line: {seen}");
    let sale = &seen["data"][0];
    assert_eq!((sale["crop"].as_str(), sale["unit"].as_str()), (Some("bean"), Some("kg")));
    assert_eq!((sale["price_cents"].as_i64(), sale["currency"].as_str()), (Some(130), Some("USD")));
    assert_eq!(sale["market"], "Kadutu", "the farmer's place names the market");
    assert_eq!(sale["territory"], "Bukavu");
    assert_eq!(sale["observed_on"], day(0).as_str());
    let board = app.board("crop=haricots").await;
    let beans_now = &board["crops"][0];
    assert_eq!(beans_now["crop"], "bean");
    assert_eq!(beans_now["week"], monday().as_str());
    assert_eq!(beans_now["median_usd_micros"], 1_300_000);
    assert_eq!(beans_now["sources"], json!({"sales": 1, "agents": 0, "imports": 0, "outliers": 0}));

    // The housekeeping's catch-up finds nothing more to add: each delivery is one price.
    let tidied = app.state.housekeeping().run_once().await.unwrap();
    assert_eq!(tidied.sales_prices, 0);
    assert_eq!(app.observations(&admin, "").await["total"], 1);
}

#[tokio::test]
async fn a_delivery_made_before_prices_existed_is_caught_up_once_by_the_housekeeping() {
    let app = spawn_app().await;
    let (farmer, _) = app.register("old.sale@example.com").await;
    app.sql("UPDATE users SET role = 'farmer', location = 'Uvira' WHERE email = 'old.sale@example.com'");
    let buyer = app.user_with_role("old.buyer@example.com", Role::User).await;
    let admin = app.user_with_role("old.admin@example.com", Role::Admin).await;
    let maize = app
        .listed(
            &farmer,
            json!({"title": "Maize flour", "description": "Fine", "quantity": 90, "price": 0.5,
            "current_price": 0.5, "category": "grains", "unit": "kg"}),
        )
        .await;
    let placed: Value = app.place(&buyer, order(1, json!([line(maize, 4, 50)]))).await.json().await.unwrap();
    let (id, part) = (placed["data"]["id"].as_i64().unwrap(), placed["data"]["parts"][0]["id"].as_i64().unwrap());
    app.patch_part(&farmer, id, part, json!({"status": "shipped"})).await;
    app.patch_part(&farmer, id, part, json!({"status": "delivered"})).await;
    // As a database upgraded from before market prices: the delivery is there, its price is not.
    // It was delivered at half past midnight in Uvira, still yesterday in UTC.
    app.sql("DELETE FROM price_observations; DELETE FROM price_weeks; UPDATE price_state SET sales_event_mark = 0");
    app.sql(&format!("UPDATE order_events SET at = '{}T22:30:00Z' WHERE kind = 'delivered'", day(1)));
    let first = app.state.housekeeping().run_once().await.unwrap();
    assert_eq!(first.sales_prices, 1);
    let again = app.state.housekeeping().run_once().await.unwrap();
    assert_eq!(again.sales_prices, 0, "once");
    let seen = app.observations(&admin, "crop=maize").await;
    assert_eq!(seen["total"], 1);
    assert_eq!(seen["data"][0]["territory"], "Uvira");
    assert_eq!(seen["data"][0]["observed_on"], day(0).as_str(), "the day in South Kivu");
    assert_eq!(app.board("crop=maize&territory=uvira").await["crops"][0]["median_usd_micros"], 500_000);
}

#[tokio::test]
async fn an_agent_records_prices_by_sync_exactly_once_and_bad_ones_are_refused_by_field() {
    let app = spawn_app().await;
    let agent = app.user_with_role("agent.prices@example.com", Role::FieldAgent).await;
    let admin = app.user_with_role("admin.agent.prices@example.com", Role::Admin).await;
    let kadutu = market(&app, "Kadutu").await;
    let batch = vec![mutation(1, "price.record", record(1, kadutu, "1,20", &day(1)), None)];
    let first = app.push_ok(&agent, CLIENT_A, batch.clone()).await;
    assert_eq!(first["results"][0]["status"], "applied", "{first}");
    // The same push again (the answer was lost), and the same change from a second phone.
    let replay = app.push_ok(&agent, CLIENT_A, batch).await;
    assert_eq!(replay["results"][0]["duplicate"], true);
    let other_phone = app
        .push_ok(&agent, CLIENT_B, vec![mutation(1, "price.record", record(1, kadutu, "1,20", &day(1)), None)])
        .await;
    assert_eq!(other_phone["results"][0]["status"], "applied");
    let seen = app.observations(&admin, "source=agent").await;
    assert_eq!(seen["total"], 1, "exactly once: {seen}");
    assert_eq!(seen["data"][0]["price_cents"], 120);
    assert_eq!(seen["data"][0]["market"], "Kadutu");

    // Every field wrong: each refused with its code, the queue moves on.
    let bad = json!({"uid": uid(2), "market": 999_999, "crop": "bicycle", "unit": "sack", "price": "-3",
        "currency": "EUR", "observed_on": day(-5), "note": "x".repeat(300)});
    let future_only = json!({"uid": uid(3), "market": kadutu, "crop": "maize", "unit": "kg", "price": "0",
        "currency": "usd", "observed_on": "1999-12-31"});
    let pushed = app
        .push_ok(
            &agent,
            CLIENT_A,
            vec![mutation(2, "price.record", bad, None), mutation(3, "price.record", future_only, None)],
        )
        .await;
    let codes = &pushed["results"][0]["error_codes"];
    assert_eq!(pushed["results"][0]["status"], "rejected");
    for (field, code) in [
        ("market", "market_unknown"),
        ("crop", "crop_unknown"),
        ("unit", "unit_unknown"),
        ("price", "market_price_invalid"),
        ("currency", "currency_unknown"),
        ("observed_on", "date_future"),
        ("note", "note_invalid"),
    ] {
        assert_eq!(codes[field][0], code, "{field}: {codes}");
    }
    let codes = &pushed["results"][1]["error_codes"];
    assert_eq!(
        (codes["price"][0].as_str(), codes["observed_on"][0].as_str()),
        (Some("market_price_invalid"), Some("date_too_old"))
    );
    assert!(codes.get("currency").is_none(), "currencies are read in any case: {codes}");
    // A buyer cannot record prices.
    let buyer = app.user_with_role("buyer.records@example.com", Role::User).await;
    let refused = app
        .push_ok(
            &buyer,
            "cccccccc-0000-4000-8000-000000000003",
            vec![mutation(1, "price.record", record(9, kadutu, "1", &day(0)), None)],
        )
        .await;
    assert_eq!(refused["results"][0]["code"], "agents_only");
    assert_eq!(app.observations(&admin, "").await["total"], 1);
}

#[tokio::test]
async fn an_import_takes_good_rows_refuses_bad_ones_by_line_and_adds_nothing_twice() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin.import@example.com", Role::Admin).await;
    let (d, future) = (day(3), day(-9));
    let csv = [
        HEADER.to_owned(),
        row(&d, "Kadutu", "Beans (dry)", "KG", "USD", "1.20", "1.20"),
        row(&d, "Nyawera", "Maize (white)", "50 KG", "USD", "22.50", ""),
        row(&d, "Atlantis", "Beans (dry)", "KG", "USD", "1.20", ""),
        row(&d, "Kadutu", "Fuel (diesel)", "L", "USD", "1.90", ""),
        row(&d, "Kadutu", "Beans (dry)", "KG", "USD", "-1", ""),
        row(&future, "Kadutu", "Beans (dry)", "KG", "EUR", "1.20", ""),
        row("2026-13-45", "Kadutu", "Beans (dry)", "KG", "USD", "1.20", ""),
        format!("{d},Sud-Kivu,Bukavu,Kadutu,1,-2.5,28.8,pulses,Beans (dry),,KG,actual,Wholesale,USD,1.00,1.00\n"),
    ]
    .concat();
    let (status, report) = app.import(&admin, &csv).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    let report = &report["data"];
    assert_eq!((report["imported"].as_i64(), report["refused"].as_i64()), (Some(2), Some(6)), "{report}");
    let refused: Vec<(i64, Vec<String>)> = report["refusals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let reasons = r["reasons"].as_array().unwrap().iter().map(|x| x.as_str().unwrap().to_owned()).collect();
            (r["line"].as_i64().unwrap(), reasons)
        })
        .collect();
    let lines: Vec<i64> = refused.iter().map(|(line, _)| *line).collect();
    assert_eq!(lines, [5, 6, 7, 8, 9, 10], "the header and HXL rows are lines 1 and 2");
    assert_eq!(refused[0].1, ["market: market_unknown"]);
    assert_eq!(refused[1].1, ["crop: crop_unknown", "unit: unit_unknown"]);
    assert_eq!(refused[2].1, ["price: market_price_invalid"]);
    assert_eq!(refused[3].1, ["currency: currency_unknown", "observed_on: date_future"]);
    assert_eq!(refused[4].1, ["observed_on: date_invalid"]);
    assert_eq!(refused[5].1, ["pricetype: retail_only"]);
    // The bag is 50 kg of maize: 0.45 a kilogram.
    let maize = app.observations(&admin, "crop=maize").await;
    assert_eq!(maize["data"][0]["unit"], "bag_50kg");
    assert_eq!(app.board("crop=maize").await["crops"][0]["median_usd_micros"], 450_000);

    let (_, again) = app.import(&admin, &csv).await;
    assert_eq!((again["data"]["imported"].as_i64(), again["data"]["already"].as_i64()), (Some(0), Some(2)));
    assert_eq!(app.observations(&admin, "").await["total"], 2);

    // A file that is not the layout, or empty, or not text, is refused whole.
    let (status, wrong) = app.import(&admin, "name,price\nbeans,1\n").await;
    assert_eq!((status, wrong["code"].as_str()), (StatusCode::BAD_REQUEST, Some("import_columns")));
    assert_eq!(app.import(&admin, "").await.1["code"], "import_empty");
    let binary = app
        .client
        .post(app.api("/admin/prices/import"))
        .bearer_auth(&admin)
        .body(vec![0xff, 0xfe, 0x00, 0x41])
        .send()
        .await
        .unwrap();
    assert_eq!(error_of(binary, StatusCode::BAD_REQUEST).await["code"], "invalid_body");
}

#[tokio::test]
async fn a_file_of_the_largest_size_is_read_a_row_at_a_time_and_its_rows_counted_after_the_tag_row() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin.import@example.com", Role::Admin).await;
    // One line of commas as large as a file may be (16 MB): refused by its line, never held whole.
    let commas = format!("{HEADER}{}", ",".repeat(16 * 1024 * 1024 - HEADER.len() - 1));
    let (status, refused) = app.import(&admin, &commas).await;
    assert_eq!((status, refused["code"].as_str()), (StatusCode::BAD_REQUEST, Some("import_line_too_long")));
    assert!(refused["message"].as_str().unwrap().starts_with("Line 3 "), "{refused}");
    // WFP's own layout: a header, its tag row, then exactly the most rows a file may hold.
    let wholesale = row(&day(3), "Kadutu", "Beans (dry)", "KG", "USD", "1.20", "1.20").replace("Retail", "Wholesale");
    let most = format!("{HEADER}{}", wholesale.repeat(100_000));
    let (status, report) = app.import(&admin, &most).await;
    assert_eq!(status, StatusCode::OK, "{report}");
    assert_eq!(report["data"]["refused"], 100_000, "every row read (and refused: wholesale)");
    let (status, over) = app.import(&admin, &format!("{most}{wholesale}")).await;
    assert_eq!((status, over["code"].as_str()), (StatusCode::BAD_REQUEST, Some("import_too_long")));
}

#[tokio::test]
async fn the_sample_series_imports_whole() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin.sample@example.com", Role::Admin).await;
    let (status, report) = app.import(&admin, mavuno::demo::prices::SAMPLE).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(report["data"]["refused"], 0, "{report}");
    assert_eq!(report["data"]["imported"], 444);
}

#[tokio::test]
async fn medians_leave_outliers_out_mix_only_converted_units_and_read_francs_at_the_day_s_rate() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin.median@example.com", Role::Admin).await;
    let set = app
        .call(Method::PUT, "/admin/exchange-rates/CDF", &admin, Some(json!({"francs_per_usd": 2800, "as_of": day(20)})))
        .await;
    assert_eq!(set.status(), StatusCode::OK);
    let d = monday();
    let mut csv = HEADER.to_owned();
    for (market, price) in [("Kadutu", "1.10"), ("Kadutu", "1.15"), ("Nyawera", "1.25"), ("Nyawera", "1.30")] {
        csv += &row(&d, market, "Beans (dry)", "KG", "USD", price, "");
    }
    csv += &row(&d, "Kadutu", "Beans (dry)", "KG", "USD", "12.00", "");
    csv += &row(&d, "Nyawera", "Beans (dry)", "KG", "CDF", "3360", "");
    csv += &row(&d, "Kadutu", "Beans (dry)", "50 KG", "USD", "60.00", "");
    csv += &row(&d, "Kadutu", "Tomatoes", "Basin", "USD", "9.00", "");
    let (_, report) = app.import(&admin, &csv).await;
    assert_eq!(report["data"]["imported"], 8, "{report}");

    let board = app.board("").await;
    let beans: Vec<&Value> = board["crops"].as_array().unwrap().iter().filter(|c| c["crop"] == "bean").collect();
    assert_eq!(beans.len(), 1, "the bag converts to kilograms: one median");
    let beans = beans[0];
    // 1.10 1.15 1.20(bag) 1.20(francs: 3360 / 2800) 1.25 1.30; 12.00 is out.
    assert_eq!(beans["observations"], 6, "{beans}");
    assert_eq!(beans["sources"]["outliers"], 1);
    assert_eq!(beans["median_usd_micros"], 1_200_000);
    assert_eq!(
        (beans["low_usd_micros"].as_i64(), beans["high_usd_micros"].as_i64()),
        (Some(1_100_000), Some(1_300_000))
    );
    assert_eq!(beans["series"].as_array().unwrap().len(), 12);
    assert_eq!(beans["series"][11], 1_200_000, "this week is the last of the line");
    let markets: Vec<&str> = beans["markets"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(markets, ["Kadutu", "Nyawera"]);
    let tomatoes = board["crops"].as_array().unwrap().iter().find(|c| c["crop"] == "tomato").unwrap();
    assert_eq!(tomatoes["unit"], "basin", "no conversion: a median of its own unit");
    assert_eq!(board["francs_per_usd"], 2800);
    let outlier = app.observations(&admin, "crop=bean").await;
    let flagged: Vec<&Value> = outlier["data"].as_array().unwrap().iter().filter(|o| o["outlier"] == true).collect();
    assert_eq!(flagged.len(), 1);
    assert_eq!(flagged[0]["price_cents"], 1200);

    // By market and territory.
    let kadutu = market(&app, "Kadutu").await;
    let at_kadutu = app.board(&format!("crop=bean&market={kadutu}")).await;
    assert_eq!(at_kadutu["crops"][0]["observations"], 3);
    assert_eq!(at_kadutu["crops"][0]["markets"], json!([]));
    let bukavu = app.board("territory=BUKAVU&crop=bean").await;
    assert_eq!(bukavu["crops"][0]["observations"], 6);
    // A territory or market not on the list is not found; a crop that is none is refused.
    let unknown = app.get("/prices?territory=Atlantis", None).await;
    assert_eq!(error_of(unknown, StatusCode::NOT_FOUND).await["code"], "market_not_found");
    let unknown = app.get("/prices?market=9223372036854775807&crop=bean", None).await;
    assert_eq!(error_of(unknown, StatusCode::NOT_FOUND).await["code"], "market_not_found");
    let unknown = app.get("/prices?crop=granite", None).await;
    assert_eq!(error_of(unknown, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["crop"][0], "invalid_filter");

    // The range under a product: at least 5 prices, from the territory the place names.
    let range: Value =
        app.get("/prices/range?name=Haricots%20rouges&unit=kg&place=Bukavu", None).await.json().await.unwrap();
    let range = &range["data"];
    assert_eq!(
        (range["low_usd_micros"].as_i64(), range["high_usd_micros"].as_i64()),
        (Some(1_100_000), Some(1_300_000))
    );
    assert_eq!((range["days"].as_i64(), range["territory"].as_str()), (Some(30), Some("Bukavu")));
    let few: Value = app.get("/prices/range?name=tomato&unit=basin", None).await.json().await.unwrap();
    assert_eq!(few["data"], Value::Null, "one price is not a range");
    let nothing: Value = app.get("/prices/range?name=bicycle&unit=kg", None).await.json().await.unwrap();
    assert_eq!(nothing["data"], Value::Null);
}

#[tokio::test]
async fn prices_older_than_400_days_are_not_shown_on_product_pages() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin.old@example.com", Role::Admin).await;
    let mut csv = HEADER.to_owned();
    for price in ["1.10", "1.20", "1.30", "1.25", "1.15"] {
        csv += &row(&day(401), "Kadutu", "Beans (dry)", "KG", "USD", price, "");
    }
    app.import(&admin, &csv).await;
    let range: Value = app.get("/prices/range?name=beans&unit=kg", None).await.json().await.unwrap();
    assert_eq!(range["data"], Value::Null);
    let mut csv = HEADER.to_owned();
    for price in ["1.10", "1.20", "1.30", "1.25", "1.15"] {
        csv += &row(&day(200), "Kadutu", "Beans (dry)", "KG", "USD", price, "");
    }
    app.import(&admin, &csv).await;
    let range: Value = app.get("/prices/range?name=beans&unit=kg", None).await.json().await.unwrap();
    assert_eq!(range["data"]["days"], 400, "{range}");
}

#[tokio::test]
async fn an_admin_corrects_and_removes_a_price_and_both_are_kept() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin.correct@example.com", Role::Admin).await;
    let agent = app.user_with_role("agent.correct@example.com", Role::FieldAgent).await;
    let kadutu = market(&app, "Kadutu").await;
    app.push_ok(&agent, CLIENT_A, vec![mutation(1, "price.record", record(1, kadutu, "12.00", &day(0)), None)]).await;
    let id = app.observations(&admin, "").await["data"][0]["id"].as_i64().unwrap();
    assert_eq!(app.board("crop=bean").await["crops"][0]["median_usd_micros"], 12_000_000);

    let typo = json!({"market_id": kadutu, "crop": "bean", "unit": "kg", "price": "0", "currency": "USD",
        "observed_on": day(0)});
    let refused = app.call(Method::PATCH, &format!("/admin/prices/{id}"), &admin, Some(typo)).await;
    assert_eq!(
        error_of(refused, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["price"][0],
        "market_price_invalid"
    );
    let fixed = json!({"market_id": kadutu, "crop": "bean", "unit": "kg", "price": "1.20", "currency": "USD",
        "observed_on": day(0), "note": "A typo: 12.00 for 1.20"});
    let corrected = app.call(Method::PATCH, &format!("/admin/prices/{id}"), &admin, Some(fixed)).await;
    assert_eq!(corrected.status(), StatusCode::OK);
    let corrected: Value = corrected.json().await.unwrap();
    assert_eq!(corrected["data"]["price_cents"], 120);
    assert_eq!(corrected["changes"][0]["action"], "correct");
    assert!(corrected["changes"][0]["before"].as_str().unwrap().contains("\"price_cents\":1200"));
    assert_eq!(app.board("crop=bean").await["crops"][0]["median_usd_micros"], 1_200_000, "the figures follow");
    // A correction names only what changes: the rest keeps its value.
    let noted = app.call(Method::PATCH, &format!("/admin/prices/{id}"), &admin, Some(json!({"note": "Checked"}))).await;
    let noted: Value = noted.json().await.unwrap();
    assert_eq!(
        (&noted["data"]["price_cents"], &noted["data"]["currency"], &noted["data"]["crop"], &noted["data"]["note"]),
        (&json!(120), &json!("USD"), &json!("bean"), &json!("Checked")),
        "{noted}"
    );
    let market: Value = app
        .call(Method::PATCH, &format!("/admin/markets/{kadutu}"), &admin, Some(json!({"territory": "Bukavu"})))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!((&market["data"]["name"], &market["data"]["territory"]), (&json!("Kadutu"), &json!("Bukavu")));

    let removed = app.call(Method::DELETE, &format!("/admin/prices/{id}"), &admin, None).await;
    assert_eq!(removed.status(), StatusCode::OK);
    assert_eq!(app.observations(&admin, "").await["total"], 0);
    assert_eq!(app.board("crop=bean").await["crops"], json!([]));
    let kept: Value = app.get(&format!("/admin/prices/{id}"), Some(&admin)).await.json().await.unwrap();
    let actions: Vec<&str> =
        kept["changes"].as_array().unwrap().iter().map(|c| c["action"].as_str().unwrap()).collect();
    assert_eq!(actions, ["correct", "correct", "remove"]);
    let again = app.call(Method::DELETE, &format!("/admin/prices/{id}"), &admin, None).await;
    assert_eq!(error_of(again, StatusCode::NOT_FOUND).await["code"], "price_not_found");
}

#[tokio::test]
async fn the_export_is_formula_safe_and_in_the_admin_s_language() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin.export@example.com", Role::Admin).await;
    let agent = app.user_with_role("agent.export@example.com", Role::FieldAgent).await;
    let kadutu = market(&app, "Kadutu").await;
    let mut price = record(1, kadutu, "1.20", &day(0));
    price["note"] = json!("=HYPERLINK(\"http://evil\")");
    let mut split = record(2, kadutu, "1.30", &day(1));
    split["note"] = json!("Kadutu;=1+2");
    app.push_ok(
        &agent,
        CLIENT_A,
        vec![mutation(1, "price.record", price, None), mutation(2, "price.record", split, None)],
    )
    .await;
    let csv = app.get("/admin/prices/export?lang=fr", Some(&admin)).await.text().await.unwrap();
    let lines: Vec<&str> = csv.trim_start_matches('\u{feff}').lines().collect();
    assert!(lines[0].starts_with("Jour,Produit,Marché"), "{}", lines[0]);
    assert!(lines[1].contains("Haricots,Kadutu,Bukavu,kg,1.20,USD"), "{}", lines[1]);
    assert!(lines[1].contains("\"'=HYPERLINK"), "a formula is neutralised: {}", lines[1]);
    assert!(
        lines[2].ends_with(",\"Kadutu;'=1+2\""),
        "one cell, its piece after ; neutralised (French spreadsheets split there): {}",
        lines[2]
    );
    let none = app.get("/admin/prices/export?crop=maize", Some(&admin)).await;
    assert_eq!(error_of(none, StatusCode::NOT_FOUND).await["code"], "no_prices");
}

#[tokio::test]
async fn markets_are_kept_by_admins_and_a_rename_follows_into_the_figures() {
    let app = spawn_app().await;
    let admin = app.user_with_role("admin.markets@example.com", Role::Admin).await;
    let made =
        app.call(Method::POST, "/admin/markets", &admin, Some(json!({"name": "Mugogo", "territory": "Walungu"}))).await;
    assert_eq!(made.status(), StatusCode::OK);
    let id = made.json::<Value>().await.unwrap()["data"]["id"].as_i64().unwrap();
    let twice =
        app.call(Method::POST, "/admin/markets", &admin, Some(json!({"name": "mugogo", "territory": "X"}))).await;
    assert_eq!(error_of(twice, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["name"][0], "market_taken");
    let empty = app.call(Method::POST, "/admin/markets", &admin, Some(json!({"name": " ", "territory": ""}))).await;
    let codes = error_of(empty, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"].clone();
    assert_eq!((codes["name"][0].as_str(), codes["territory"][0].as_str()), (Some("required"), Some("required")));

    let mut csv = HEADER.to_owned();
    csv += &row(&day(0), "Mugogo", "Beans (dry)", "KG", "USD", "1.00", "");
    app.import(&admin, &csv).await;
    assert_eq!(app.board("territory=walungu").await["crops"][0]["observations"], 1);
    let moved = app
        .call(
            Method::PATCH,
            &format!("/admin/markets/{id}"),
            &admin,
            Some(json!({"name": "Mugogo", "territory": "Kabare"})),
        )
        .await;
    assert_eq!(moved.status(), StatusCode::OK);
    assert_eq!(app.board("territory=kabare").await["crops"][0]["observations"], 1, "the figures follow the territory");
    assert_eq!(app.board("territory=walungu&crop=bean").await["crops"], json!([]));
    app.call(Method::DELETE, &format!("/admin/markets/{id}"), &admin, None).await;
    let markets: Value = app.get("/prices/markets", None).await.json().await.unwrap();
    assert!(!markets["data"].as_array().unwrap().iter().any(|m| m["name"] == "Mugogo"));
    assert_eq!(app.observations(&admin, "").await["total"], 1, "what was recorded there stays");
}

/// A Monday at 08:00 in Bukavu (06:00 UTC).
fn monday_morning() -> time::OffsetDateTime {
    let monday = time::Date::parse(&monday(), &time::macros::format_description!("[year]-[month]-[day]")).unwrap();
    monday.with_hms(6, 0, 0).unwrap().assume_utc()
}

#[tokio::test]
async fn alerts_are_followed_by_sms_sent_each_monday_in_one_segment_and_stopped() {
    let app = ussd_app().await;
    let admin = app.user_with_role("admin.alerts@example.com", Role::Admin).await;
    let mut csv = HEADER.to_owned();
    let last_week = (time::Date::parse(&monday(), &time::macros::format_description!("[year]-[month]-[day]")).unwrap()
        - time::Duration::weeks(1))
    .to_string();
    for (date, price) in [(monday(), "1.32"), (last_week.clone(), "1.20")] {
        csv += &row(&date, "Kadutu", "Beans (dry)", "KG", "USD", price, "");
        csv += &row(&date, "Kadutu", "Maize (white)", "KG", "USD", "0.45", "");
        csv += &row(&date, "Kadutu", "Cassava (flour)", "KG", "USD", "0.60", "");
        csv += &row(&date, "Kadutu", "Rice (imported)", "KG", "USD", "1.40", "");
        csv += &row(&date, "Kadutu", "Groundnuts (shelled)", "KG", "USD", "1.80", "");
    }
    // Sorghum's newest prices are three weeks old: not news on Monday.
    csv += &row(&day(21), "Kadutu", "Sorghum", "KG", "USD", "0.55", "");
    app.import(&admin, &csv).await;
    let sms = |to: &str, text: &str, id: &str| {
        let fields = [("from", to.to_owned()), ("text", text.to_owned()), ("id", id.to_owned())];
        app.client.post(app.api(&format!("/sms/incoming/{TOKEN}"))).form(&fields).send()
    };
    let (fr, sw, en) = ("+243971000031", "+254711000032", "+250788000033");
    sms(fr, "ABONNER HARICOTS KADUTU", "a1").await.unwrap();
    sms(fr, "ABONNER MAIS", "a2").await.unwrap();
    sms(sw, "FUATA maharage", "a3").await.unwrap();
    sms(sw, "FUATA mtama", "a3b").await.unwrap();
    for (n, crop) in ["beans", "maize", "cassava", "rice", "groundnuts"].iter().enumerate() {
        sms(en, &format!("SUBSCRIBE {crop}"), &format!("e{n}")).await.unwrap();
    }
    sms(en, "SUBSCRIBE potatoes", "e9").await.unwrap();
    sms(fr, "ABONNER HARICOTS ATLANTIDE", "a4").await.unwrap();
    let answers = |to: &str| -> Vec<String> {
        app.sms_bodies().into_iter().filter(|(number, _)| number == to).map(|(_, body)| body).collect()
    };
    assert!(
        answers(fr)[0].starts_with("Chaque lundi vous recevrez les prix de Haricots (Kadutu) par SMS"),
        "{:?}",
        answers(fr)
    );
    assert!(answers(fr)[2].starts_with("Nous ne connaissons pas ce marché. Marchés : "), "{:?}", answers(fr));
    assert!(answers(sw)[0].starts_with("Kila Jumatatu utapokea bei za Maharage"), "{:?}", answers(sw));
    assert!(answers(en)[5].starts_with("You already follow 5 crops"), "{:?}", answers(en));

    // Not before Monday morning; then once a week, one segment each, in each number's language.
    let sunday = monday_morning() - time::Duration::hours(8);
    assert_eq!(app.state.housekeeping().run_at(sunday).await.unwrap().price_alerts, 0);
    let sent = app.state.housekeeping().run_at(monday_morning()).await.unwrap();
    assert_eq!(sent.price_alerts, 3);
    let weekly = |to: &str| answers(to).into_iter().find(|b| b.contains("MAVUNO") && b.contains("STOP")).unwrap();
    let french = weekly(fr);
    assert_eq!(
        french,
        "Prix du marché MAVUNO : Mais-grain 0,45$/kg =, Haricots Kadutu 1,32$/kg +10%. STOP pour arreter"
    );
    let swahili = weekly(sw);
    assert_eq!(swahili, "Bei za soko MAVUNO: Maharage 1.32$/kg +10%. STOP kusitisha");
    let english = weekly(en);
    assert!(english.starts_with("MAVUNO market prices: Maize 0.45$/kg =, Beans 1.32$/kg +10%, Cassava"), "{english}");
    for text in [&french, &swahili, &english] {
        assert!(mavuno::platform::gsm7::units(text).is_some_and(|n| n <= 160), "one segment: {text}");
    }
    let later = app.state.housekeeping().run_at(monday_morning() + time::Duration::hours(5)).await.unwrap();
    assert_eq!(later.price_alerts, 0, "once a week");

    sms(fr, "STOP", "a5").await.unwrap();
    assert!(answers(fr).last().unwrap().starts_with("MAVUNO : SMS des prix arr"), "{:?}", answers(fr));
    let next_monday = monday_morning() + time::Duration::weeks(1);
    let sent = app.state.housekeeping().run_at(next_monday).await.unwrap();
    assert_eq!(sent.price_alerts, 2, "the French number stopped");
}

#[tokio::test]
async fn prices_by_sms_are_given_at_the_market_or_territory_named() {
    let app = ussd_app().await;
    let admin = app.user_with_role("admin.sms-prices@example.com", Role::Admin).await;
    let mut csv = HEADER.to_owned();
    for (market, price) in [("Kadutu", "1.32"), ("Kavumu", "1.10"), ("Uvira", "1.50")] {
        csv += &row(&monday(), market, "Beans (dry)", "KG", "USD", price, "");
    }
    app.import(&admin, &csv).await;
    let sms = |to: &str, text: &str, id: &str| {
        let fields = [("from", to.to_owned()), ("text", text.to_owned()), ("id", id.to_owned())];
        app.client.post(app.api(&format!("/sms/incoming/{TOKEN}"))).form(&fields).send()
    };
    let (fr, en) = ("+243971000041", "+250788000042");
    sms(fr, "PRIX haricots Kadutu", "p1").await.unwrap();
    sms(en, "PRICE beans", "p2").await.unwrap();
    // Kabare is a territory (Kavumu's market); Beach Muhanzi a market of two words with no beans.
    sms(en, "price beans kabare", "p3").await.unwrap();
    sms(en, "PRICE beans beach muhanzi", "p4").await.unwrap();
    sms(en, "PRICE beans atlantis", "p5").await.unwrap();
    let answers = |to: &str| -> Vec<String> {
        app.sms_bodies().into_iter().filter(|(number, _)| number == to).map(|(_, body)| body).collect()
    };
    let week = format!("{}/{}", &monday()[8..10], &monday()[5..7]);
    assert_eq!(
        answers(fr),
        [format!("Haricots, Kadutu, semaine du {week} : 1,32 USD par kg, sur 1 seul prix : une indication.")],
        "one price is said to be one"
    );
    let english = answers(en);
    assert_eq!(
        english[0],
        format!("Beans, all markets, week of {week}: 1.32 USD per kg (from 1.10 to 1.50, 3 prices)."),
        "no place: every market, and it says so"
    );
    assert_eq!(
        english[1],
        format!("Beans, Kabare, week of {week}: 1.10 USD per kg, from only 1 price: a rough guide.")
    );
    assert_eq!(english[2], "Beans, Beach Muhanzi: no prices in the last 12 weeks.");
    assert!(english[3].starts_with("We do not know this market. Markets: "), "{english:?}");
    assert!(english[3].contains("Kadutu"), "{english:?}");

    // With a rate in use, the median in Congolese francs too, as the board shows it.
    let rate = json!({"francs_per_usd": 2850, "as_of": day(0)});
    let saved = app.client.put(app.api("/admin/exchange-rates/CDF")).bearer_auth(&admin).json(&rate).send().await;
    assert_eq!(saved.unwrap().status(), StatusCode::OK);
    sms(fr, "PRIX haricots kadutu", "p6").await.unwrap();
    sms(en, "PRICE beans", "p7").await.unwrap();
    assert!(answers(fr)[1].starts_with(&format!("Haricots, Kadutu, semaine du {week} : 1,32 USD (3 762 FC) par kg")));
    assert_eq!(
        answers(en)[4],
        format!("Beans, all markets, week of {week}: 1.32 USD (CDF 3,762) per kg (from 1.10 to 1.50, 3 prices).")
    );
    // As people write it, with a word between the crop and the place.
    sms(fr, "Prix haricots à Kadutu", "p8").await.unwrap();
    sms(en, "price beans in Kabare", "p9").await.unwrap();
    assert!(answers(fr)[2].starts_with("Haricots, Kadutu, semaine du"), "{:?}", answers(fr));
    assert!(answers(en)[5].starts_with("Beans, Kabare, week of"), "{:?}", answers(en));

    // WFP names markets by their town: a market and a territory called Bukavu. The name
    // alone is the territory (Kadutu's and the market's prices: two); "market" says the market.
    let made =
        app.call(Method::POST, "/admin/markets", &admin, Some(json!({"name": "Bukavu", "territory": "Bukavu"}))).await;
    assert_eq!(made.status(), StatusCode::OK);
    app.import(&admin, &format!("{HEADER}{}", row(&monday(), "Bukavu", "Beans (dry)", "KG", "USD", "2.00", ""))).await;
    sms(fr, "PRIX haricots Bukavu", "p10").await.unwrap();
    sms(fr, "PRIX haricots au marché de Bukavu", "p11").await.unwrap();
    assert!(
        answers(fr)[3].contains("sur 2 prix seulement (1,32 et 2,00) : une indication."),
        "the territory: {:?}",
        answers(fr)
    );
    assert!(answers(fr)[4].contains("2,00 USD (5 700 FC) par kg, sur 1 seul prix"), "the market: {:?}", answers(fr));
    // A farmer in Kabare asking with no place hears Kabare's prices, named.
    let (_, farmer) = crate::ussd::farmer_with_phone(&app, "amani.kabare@example.com").await;
    sms(&farmer, "PRICE beans", "p12").await.unwrap();
    assert!(answers(&farmer)[0].starts_with("Haricots, Kabare, semaine du"), "{:?}", answers(&farmer));
}

#[tokio::test]
async fn a_signed_in_person_follows_crops_from_the_app_on_their_number() {
    let app = spawn_app().await;
    let (token, _) = app.register("follow@example.com").await;
    let followed =
        app.call(Method::PUT, "/me/price-alerts", &token, Some(json!({"crop": "haricots", "market_id": null}))).await;
    assert_eq!(followed.status(), StatusCode::OK);
    let followed: Value = followed.json().await.unwrap();
    assert_eq!(followed["data"], json!([{"crop": "bean", "market": null}]));
    assert_eq!(followed["phone"], e164_of("follow@example.com").as_str());
    let unknown = app.call(Method::PUT, "/me/price-alerts", &token, Some(json!({"crop": "bicycle"}))).await;
    assert_eq!(error_of(unknown, StatusCode::UNPROCESSABLE_ENTITY).await["error_codes"]["crop"][0], "crop_unknown");
    let stopped = app.call(Method::DELETE, "/me/price-alerts", &token, Some(json!({"crop": "bean"}))).await;
    assert_eq!(stopped.json::<Value>().await.unwrap()["data"], json!([]));
    let admin = app.user_with_role("nophone@example.com", Role::Admin).await;
    let no_phone = app.get("/me/price-alerts", Some(&admin)).await;
    assert_eq!(error_of(no_phone, StatusCode::CONFLICT).await["code"], "phone_required");
}

#[tokio::test]
async fn a_basic_phone_follows_a_crop_from_the_menu_and_a_farmer_sees_the_range_while_pricing() {
    let app = ussd_app().await;
    let admin = app.user_with_role("admin.ussd.prices@example.com", Role::Admin).await;
    let mut csv = HEADER.to_owned();
    for price in ["1.10", "1.20", "1.30", "1.25", "1.15"] {
        csv += &row(&day(2), "Kavumu", "Beans (dry)", "KG", "USD", price, "");
    }
    app.import(&admin, &csv).await;

    let mut visitor = app.phone("+250788000041");
    let followed = visitor.go(&["4", "2"]).await;
    assert_eq!(followed.text, "Each Monday you will get the prices of Beans by SMS. Send STOP to end.");
    let sent = app.state.housekeeping().run_at(monday_morning()).await.unwrap();
    assert_eq!(sent.price_alerts, 1);

    let (_, number) = crate::ussd::farmer_with_phone(&app, "amani.range@example.com").await;
    let mut farmer = app.phone(&number);
    farmer.go(&["2", "2580", "2580"]).await;
    let price = farmer.go(&["2", "2580", "2", "40"]).await;
    // The farmer is in Kabare: Kavumu's territory has the five prices.
    assert!(
        price.text.starts_with("Prix en USD pour 1 kg ? Les acheteurs ont payé 1,10 à 1,30."),
        "who paid, said: {}",
        price.text
    );
}
