//! Farmers' products and the public catalogue.

use mavuno::model::user::Role;
use reqwest::multipart::Form;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::sync::{CLIENT_A, CLIENT_B, mutation, uid};

pub fn tomatoes() -> Value {
    json!({"title": "Tomatoes", "description": "Ripe red tomatoes from Kabare", "quantity": 50, "price": "3.00", "current_price": 2.5,
           "category": "vegetables", "unit": "kg", "certifications": ["organic"]})
}

impl TestApp {
    pub async fn list_product(&self, token: &str, product: Value) -> Value {
        let response = self.call(Method::POST, "/farmer/products", token, Some(json!({"product": product}))).await;
        assert_eq!(response.status(), StatusCode::CREATED);
        response.json::<Value>().await.unwrap()["product"].clone()
    }

    pub async fn catalogue(&self, query: &str) -> Value {
        self.get(&format!("/products?{query}"), None).await.json().await.unwrap()
    }

    pub async fn titles(&self, query: &str) -> Vec<String> {
        self.catalogue(query).await["data"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["title"].as_str().unwrap().to_owned())
            .collect()
    }
}

#[tokio::test]
async fn a_farmer_lists_edits_and_deletes_a_product_with_photos() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let form = product_form()
        .part("product[images][]", image_part(png(800, 600), "a.png", "image/png"))
        .part("product[images][]", image_part(png(400, 400), "b.png", "image/png"));
    let response =
        app.client.post(app.api("/farmer/products")).bearer_auth(&farmer).multipart(form).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let product = response.json::<Value>().await.unwrap()["product"].clone();
    assert_eq!(
        (product["price"].as_f64(), product["current_price"].as_f64(), product["currency"].as_str()),
        (Some(1.5), Some(1.2), Some("USD"))
    );
    let images = product["image_urls"].as_array().unwrap();
    assert_eq!(images.len(), 2);
    let thumbnail =
        app.client.get(format!("{}{}", app.origin, images[0]["thumbnail_url"].as_str().unwrap())).send().await.unwrap();
    assert_eq!(thumbnail.status(), StatusCode::OK);
    assert_eq!(thumbnail.headers()["content-type"], "image/jpeg");

    let id = product["id"].as_i64().unwrap();
    let path = format!("/farmer/products/{id}");
    let edited: Value = app
        .call(Method::PATCH, &path, &farmer, Some(json!({"product": {"current_price": "0.99", "status": "inactive"}})))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        (edited["product"]["current_price"].as_f64(), edited["product"]["status"].as_str()),
        (Some(0.99), Some("inactive"))
    );
    assert_eq!(edited["product"]["title"], "Avocados", "what is not sent is kept");
    assert!(app.titles("").await.is_empty(), "an inactive product is not on sale");
    let mine: Value = app.call(Method::GET, "/farmer/products", &farmer, None).await.json().await.unwrap();
    assert_eq!((mine["data"].as_array().unwrap().len(), mine["low_stock_threshold"].as_i64()), (1, Some(10)));

    assert_eq!(app.call(Method::DELETE, &path, &farmer, None).await.status(), StatusCode::OK);
    let mine: Value = app.call(Method::GET, "/farmer/products", &farmer, None).await.json().await.unwrap();
    assert!(mine["data"].as_array().unwrap().is_empty());
    error_of(app.call(Method::DELETE, &path, &farmer, None).await, StatusCode::NOT_FOUND).await;
}

#[tokio::test]
async fn only_farmers_list_and_only_on_their_own_products() {
    let app = spawn_app().await;
    let amani = app.user_with_role("amani@example.com", Role::Farmer).await;
    let other = app.user_with_role("other@example.com", Role::Farmer).await;
    let (buyer, _) = app.register("buyer@example.com").await;
    let product = app.list_product(&amani, tomatoes()).await;
    let path = format!("/farmer/products/{}", product["id"]);

    let refused = error_of(
        app.call(Method::POST, "/farmer/products", &buyer, Some(json!({"product": tomatoes()}))).await,
        StatusCode::FORBIDDEN,
    )
    .await;
    assert_eq!(refused["code"], "farmers_only");
    for token in [&other, &buyer] {
        error_of(
            app.call(Method::PATCH, &path, token, Some(json!({"product": {"price": 0}}))).await,
            StatusCode::NOT_FOUND,
        )
        .await;
        error_of(app.call(Method::DELETE, &path, token, None).await, StatusCode::NOT_FOUND).await;
    }
    let theirs: Value = app.call(Method::GET, "/farmer/products", &other, None).await.json().await.unwrap();
    assert!(theirs["data"].as_array().unwrap().is_empty());
    error_of(app.get("/farmer/products", None).await, StatusCode::UNAUTHORIZED).await;
}

#[tokio::test]
async fn the_form_is_checked_in_the_specs_order_and_words() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let body = error_of(
        app.call(Method::POST, "/farmer/products", &farmer, Some(json!({"product": {}}))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    let order: Vec<&str> = body["error_codes"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(order, ["title", "description", "quantity", "price", "current_price"]);
    assert_eq!(body["message"], "Title is required");

    let mut bad = tomatoes();
    bad["price"] = json!("2.505");
    bad["quantity"] = json!(1.5);
    bad["category"] = json!("spices");
    let body = error_of(
        app.call(Method::POST, "/farmer/products", &farmer, Some(json!({"product": bad}))).await,
        StatusCode::UNPROCESSABLE_ENTITY,
    )
    .await;
    assert_eq!(
        body["error_codes"],
        json!({"quantity": ["quantity_invalid"], "price": ["price_invalid"], "category": ["invalid_option"]})
    );

    let text = Form::new()
        .text("product[title]", "x")
        .text("product[description]", "y")
        .text("product[quantity]", "1")
        .text("product[price]", "1")
        .text("product[current_price]", "1")
        .part("product[images][]", image_part(b"not an image at all".to_vec(), "a.png", "image/png"));
    let response =
        app.client.post(app.api("/farmer/products")).bearer_auth(&farmer).multipart(text).send().await.unwrap();
    error_of(response, StatusCode::UNSUPPORTED_MEDIA_TYPE).await;
    let mine: Value = app.call(Method::GET, "/farmer/products", &farmer, None).await.json().await.unwrap();
    assert!(mine["data"].as_array().unwrap().is_empty(), "nothing half-made");
}

#[tokio::test]
async fn the_catalogue_searches_filters_sorts_and_pages_products_on_sale() {
    let app = spawn_app().await;
    let amani = app.user_with_role("amani@example.com", Role::Farmer).await;
    let bahati = app.user_with_role("bahati@example.com", Role::Farmer).await;
    app.sql("UPDATE users SET first_name = 'Bahati', last_name = 'Mugisho' WHERE email = 'bahati@example.com'");
    for (title, price, category, token) in [
        ("Café arabica", "12.00", "beverages", &amani),
        ("Sweet corn", "0.80", "grains", &amani),
        ("Mangoes", "55.00", "fruits", &bahati),
        ("Green beans", "9.99", "vegetables", &bahati),
    ] {
        let mut product = tomatoes();
        product["title"] = json!(title);
        product["current_price"] = json!(price);
        product["category"] = json!(category);
        app.list_product(token, product).await;
    }
    let hidden = app.user_with_role("hidden@example.com", Role::Farmer).await;
    app.list_product(&hidden, tomatoes()).await;
    app.sql("UPDATE users SET status = 'inactive' WHERE email = 'hidden@example.com'");

    assert_eq!(app.titles("q=CAFE").await, ["Café arabica"], "case and accents ignored");
    assert_eq!(app.titles("q=mugisho&sort=name").await, ["Green beans", "Mangoes"], "by farmer name");
    assert_eq!(app.titles("category=grains").await, ["Sweet corn"]);
    assert_eq!(app.titles("price=under_10&sort=price_asc").await, ["Sweet corn", "Green beans"]);
    assert_eq!(app.titles("price=10_to_50").await, ["Café arabica"]);
    assert_eq!(app.titles("price=over_50").await, ["Mangoes"]);
    assert_eq!(
        app.titles("sort=price_desc").await,
        ["Mangoes", "Café arabica", "Green beans", "Sweet corn"],
        "the inactive farmer's tomatoes are not for sale"
    );
    let page = app.catalogue("sort=name&per_page=3&page=2").await;
    assert_eq!((page["total"].as_i64(), page["data"][0]["title"].as_str()), (Some(4), Some("Sweet corn")));
    assert_eq!(page["data"][0]["farmer"]["name"], "Test farmer");
    let bad = error_of(app.get("/products?category=spices", None).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(bad["error_codes"]["category"][0], "invalid_filter");

    let id = page["data"][0]["id"].as_i64().unwrap();
    let one: Value = app.get(&format!("/products/{id}"), None).await.json().await.unwrap();
    assert_eq!(one["data"]["title"], "Sweet corn");
    let hidden_id: i64 = app.catalogue("").await["data"].as_array().unwrap().len() as i64 + 1;
    let missing = error_of(app.get(&format!("/products/{hidden_id}"), None).await, StatusCode::NOT_FOUND).await;
    assert_eq!(missing["message"], "Product not found");
}

#[tokio::test]
async fn search_finds_parts_of_words_short_words_and_takes_any_characters_literally() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("search@example.com", Role::Farmer).await;
    let mut ids = Vec::new();
    for title in ["Tomatoes lot 12", "Tomatoes lot 120", "Beans lot 7", "Mama's \"best\" honey 100%"] {
        let mut product = tomatoes();
        product["title"] = json!(title);
        product["description"] = json!("Sorted and packed in Kalehe");
        ids.push(app.list_product(&farmer, product).await["id"].as_i64().unwrap());
    }
    let search = |q: &str| {
        let query = format!("sort=name&q={}", urlencoding(q));
        let app = &app;
        async move { app.titles(&query).await }
    };
    assert_eq!(search("MATO").await, ["Tomatoes lot 12", "Tomatoes lot 120"], "inside a word, any case");
    assert_eq!(search("lot 12").await, ["Tomatoes lot 12", "Tomatoes lot 120"], "a short word matches inside too");
    assert_eq!(search("beans 7").await, ["Beans lot 7"]);
    assert_eq!(search("\"best\"").await, ["Mama's \"best\" honey 100%"], "quotes are text");
    assert_eq!(search("100%").await, ["Mama's \"best\" honey 100%"], "% is a character, not a wildcard");
    for odd in ["%", "NEAR(tom bea)", "tom*", "beans OR honey", "-tomatoes", "\"", "^lot", "a:b"] {
        let answer = app.get(&format!("/products?q={}", urlencoding(odd)), None).await;
        assert_eq!(answer.status(), StatusCode::OK, "{odd}");
    }
    assert!(search("beans OR honey").await.is_empty(), "no search syntax: every word must be there");

    // The index follows edits and deletions.
    let path = format!("/farmer/products/{}", ids[2]);
    app.call(Method::PATCH, &path, &farmer, Some(json!({"product": {"title": "Red kidney beans lot 7"}}))).await;
    assert_eq!(search("kidney").await, ["Red kidney beans lot 7"]);
    app.call(Method::DELETE, &path, &farmer, None).await;
    assert!(search("kidney").await.is_empty());
    assert_eq!(app.catalogue("q=lot").await["total"], 2);

    // A search's pages each say how many it found, also an empty one past the end.
    let second = app.catalogue("q=lot&sort=name&per_page=1&page=2").await;
    let past = app.catalogue("q=lot&sort=name&per_page=1&page=3").await;
    assert_eq!((second["total"].as_i64(), second["data"][0]["title"].as_str()), (Some(2), Some("Tomatoes lot 120")));
    assert_eq!((past["total"].as_i64(), past["data"].as_array().map(Vec::len)), (Some(2), Some(0)));
    let none = app.catalogue("q=plantains").await;
    assert_eq!((none["total"].as_i64(), none["data"].as_array().map(Vec::len)), (Some(0), Some(0)));
}

fn urlencoding(text: &str) -> String {
    text.bytes()
        .map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") })
        .collect()
}

#[tokio::test]
async fn offline_product_changes_merge_and_wait_for_their_photos() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let photo = png(300, 200);
    let hash = sha(&photo);
    let mut fields = tomatoes();
    fields["images"] = json!([hash]);
    let create = mutation(1, "product.create", json!({"uid": uid(1), "fields": fields}), None);

    // The photo has not arrived: the change waits, nothing is recorded.
    let early = app.push_ok(&farmer, CLIENT_A, vec![create.clone()]).await;
    assert_eq!(
        (early["results"][0]["status"].as_str(), early["results"][0]["code"].as_str()),
        (Some("retry"), Some("photo_missing"))
    );
    assert_eq!(early["last_mutation_id"], 0);
    for expected in [StatusCode::CREATED, StatusCode::OK] {
        let put = app
            .client
            .put(app.api(&format!("/uploads/{hash}")))
            .bearer_auth(&farmer)
            .body(photo.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(put.status(), expected, "a photo sent twice is stored once");
    }
    let applied = app.push_ok(&farmer, CLIENT_A, vec![create]).await;
    assert_eq!(applied["results"][0]["status"], "applied");

    // Phone A edits the price offline from version v; meanwhile phone B sells 5 and harvests 20.
    let pulled = app.pull(&farmer, CLIENT_A, None, 100).await;
    let base = pulled["changes"][0]["record"]["version"].as_i64().unwrap();
    let stock = |id, delta| mutation(id, "product.adjust_stock", json!({"uid": uid(1), "delta": delta}), None);
    app.push_ok(&farmer, CLIENT_B, vec![stock(1, -5), stock(2, 20)]).await;
    let price = mutation(2, "product.update", json!({"uid": uid(1), "fields": {"current_price": "2.20"}}), Some(base));
    let merged = app.push_ok(&farmer, CLIENT_A, vec![price]).await;
    assert_eq!(merged["results"][0]["status"], "applied", "different fields: no conflict");
    let catalogue = app.catalogue("").await;
    assert_eq!(
        (catalogue["data"][0]["current_price"].as_f64(), catalogue["data"][0]["quantity"].as_i64()),
        (Some(2.2), Some(65))
    );

    let oversold = app.push_ok(&farmer, CLIENT_B, vec![stock(3, -100)]).await;
    assert_eq!(oversold["results"][0]["error_codes"]["quantity"][0], "stock_out_of_range");
}

#[tokio::test]
async fn the_catalogue_reaches_every_phone_and_leaves_it_when_off_sale() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let (buyer, _) = app.register("buyer@example.com").await;
    let product = app.list_product(&farmer, tomatoes()).await;
    let anonymous: Value = app.client.get(app.api("/sync/pull")).send().await.unwrap().json().await.unwrap();
    assert_eq!(anonymous["changes"][0]["record"]["title"], "Tomatoes");
    let cursor = app.pull(&buyer, CLIENT_B, None, 100).await["cursor"].as_i64().unwrap();

    let path = format!("/farmer/products/{}", product["id"]);
    app.call(Method::PATCH, &path, &farmer, Some(json!({"product": {"status": "inactive"}}))).await;
    let buyers = app.pull(&buyer, CLIENT_B, Some(cursor), 100).await;
    assert_eq!(
        (buyers["changes"][0]["entity"].as_str(), buyers["changes"][0]["op"].as_str()),
        (Some("product"), Some("del"))
    );
    let farmers = app.pull(&farmer, CLIENT_A, Some(cursor), 100).await;
    assert_eq!(farmers["changes"][0]["op"], "put", "the farmer still sees their inactive product");
    let snapshot = app.pull(&buyer, "dddddddd-0000-4000-8000-000000000004", None, 100).await;
    assert!(snapshot["changes"].as_array().unwrap().is_empty());
}

#[tokio::test]
async fn catalogue_pages_are_kept_until_a_product_changes() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let product = app.list_product(&farmer, tomatoes()).await;
    assert_eq!(app.catalogue("").await["data"][0]["current_price"], 2.5);
    let compressed = app.client.get(app.api("/products")).header("Accept-Encoding", "br").send().await.unwrap();
    assert_eq!(
        (compressed.headers()["content-encoding"].to_str().unwrap(), compressed.headers()["vary"].to_str().unwrap()),
        ("br", "accept-encoding")
    );

    let path = format!("/farmer/products/{}", product["id"]);
    app.call(Method::PATCH, &path, &farmer, Some(json!({"product": {"current_price": "1.99"}}))).await;
    assert_eq!(app.catalogue("").await["data"][0]["current_price"], 1.99, "a change makes the kept page stale");

    // Writes that cannot change a page (a buyer's favourite, an application draft)
    // leave the catalogue's version, and so its kept pages, alone.
    let kept = app.state.db.catalogue_version();
    let synced = *app.state.db.versions().borrow();
    let (buyer, _) = app.register("keeps.cache@example.com").await;
    let favourite = json!({"uid": product["uid"], "on": true});
    app.push_ok(&buyer, CLIENT_A, vec![mutation(1, "favourite.set", favourite, None)]).await;
    assert!(*app.state.db.versions().borrow() > synced, "the favourite is a synced write");
    assert_eq!(app.state.db.catalogue_version(), kept);
    // A farmer's new name is on their products' cards at once.
    let renamed = Form::new().text("user[first_name]", "Amina");
    assert_eq!(app.update_me(&farmer, renamed).await.status(), StatusCode::OK);
    assert!(app.state.db.catalogue_version() > kept);
    assert!(app.catalogue("").await["data"][0]["farmer"]["name"].as_str().unwrap().starts_with("Amina"));

    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let me: Value = app.me(&farmer).await.json().await.unwrap();
    app.call(
        Method::PATCH,
        &format!("/admin/users/{}", me["user"]["id"]),
        &admin,
        Some(json!({"user": {"status": "inactive"}})),
    )
    .await;
    assert_eq!(app.catalogue("").await["total"], 0, "a deactivated farmer's products leave at once");
}

#[tokio::test]
async fn favourites_follow_the_person_to_their_other_phone() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let product = app.list_product(&farmer, tomatoes()).await;
    let product_uid = product["uid"].as_str().unwrap().to_owned();
    let (buyer, _) = app.register("buyer@example.com").await;
    let favourite = |id, on| mutation(id, "favourite.set", json!({"uid": product_uid.clone(), "on": on}), None);

    let set = app.push_ok(&buyer, CLIENT_A, vec![favourite(1, true), favourite(2, true)]).await;
    assert_eq!(set["results"][1]["status"], "applied", "marking twice is harmless");
    let other_phone = app.pull(&buyer, CLIENT_B, None, 100).await;
    let favourites: Vec<&Value> =
        other_phone["changes"].as_array().unwrap().iter().filter(|c| c["entity"] == "favourite").collect();
    assert_eq!(favourites.len(), 1);
    assert_eq!(favourites[0]["id"], product_uid.as_str());
    let cursor = other_phone["cursor"].as_i64();

    app.push_ok(&buyer, CLIENT_A, vec![favourite(3, false)]).await;
    let after = app.pull(&buyer, CLIENT_B, cursor, 100).await;
    assert_eq!(
        (after["changes"][0]["entity"].as_str(), after["changes"][0]["op"].as_str()),
        (Some("favourite"), Some("del"))
    );
    let farmers = app.pull(&farmer, "eeeeeeee-0000-4000-8000-000000000005", None, 100).await;
    assert!(
        farmers["changes"].as_array().unwrap().iter().all(|c| c["entity"] != "favourite"),
        "favourites are the person's own"
    );

    let unknown = app
        .push_ok(&buyer, CLIENT_A, vec![mutation(4, "favourite.set", json!({"uid": uid(99), "on": true}), None)])
        .await;
    assert_eq!(unknown["results"][0]["code"], "product_not_found");
}

/// A visitor's pull, page by page, as the app does it (sending a snapshot's version back).
async fn visitor_pages(app: &TestApp, limit: usize, between: impl AsyncFn(usize)) -> Vec<(String, String)> {
    let (mut cursor, mut snapshot, mut seen) = (None::<i64>, None::<i64>, Vec::new());
    for page_number in 0.. {
        let mut query = format!("/sync/pull?limit={limit}");
        query.extend(cursor.map(|c| format!("&cursor={c}")));
        query.extend(snapshot.map(|s| format!("&snapshot={s}")));
        let page: Value = app.get(&query, None).await.json().await.unwrap();
        for change in page["changes"].as_array().unwrap().iter().filter(|c| c["entity"] == "product") {
            seen.push((
                change["op"].as_str().unwrap().to_owned(),
                change["record"]["title"].as_str().unwrap_or("").to_owned(),
            ));
        }
        if page["has_more"] == false {
            return seen;
        }
        (cursor, snapshot) = (page["cursor"].as_i64(), page["snapshot"].as_i64());
        between(page_number).await;
    }
    unreachable!()
}

#[tokio::test]
async fn a_new_phones_snapshot_carries_only_what_is_on_sale_on_every_page() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let mut ids = Vec::new();
    for n in 0..8 {
        let mut product = tomatoes();
        product["title"] = json!(format!("Lot {n}"));
        ids.push(app.list_product(&farmer, product).await["id"].clone());
    }
    for id in &ids[..4] {
        let path = format!("/farmer/products/{id}");
        assert_eq!(app.call(Method::DELETE, &path, &farmer, None).await.status(), StatusCode::OK);
    }
    // Two products a page: no page carries the four deleted before the phone came.
    let seen = visitor_pages(&app, 2, async |_| {}).await;
    let titles: Vec<&str> = seen.iter().map(|(op, title)| (op == "put").then_some(title.as_str()).unwrap()).collect();
    assert_eq!(titles, ["Lot 4", "Lot 5", "Lot 6", "Lot 7"]);

    // One deleted while the phone is between pages of its snapshot still reaches it as a deletion.
    let last = format!("/farmer/products/{}", ids[7]);
    let seen = visitor_pages(&app, 2, async |page| {
        if page == 0 {
            assert_eq!(app.call(Method::DELETE, &last, &farmer, None).await.status(), StatusCode::OK);
        }
    })
    .await;
    assert_eq!(seen.last().unwrap().0, "del", "{seen:?}");
    assert_eq!(seen.iter().filter(|(op, _)| op == "del").count(), 1, "{seen:?}");
}

#[tokio::test]
async fn every_product_of_the_vocabulary_is_found_from_each_language() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let file: Value = serde_json::from_str(include_str!("../../../pwa/src/lib/entities/produce-words.json")).unwrap();
    let groups = file["groups"].as_array().unwrap();
    // One listing a product, named in English only, in a title of the farmer's words.
    for group in groups {
        let mut product = tomatoes();
        product["title"] = json!(format!("Fresh {} from Kabare", group[0].as_str().unwrap()));
        product["description"] = json!("Grown and sorted by our cooperative.");
        app.list_product(&farmer, product).await;
    }
    for group in groups {
        let english = format!("Fresh {} from Kabare", group[0].as_str().unwrap());
        for name in group.as_array().unwrap() {
            let name = name.as_str().unwrap().trim_start_matches('=');
            let query = format!("q={}&per_page=50", name.replace(' ', "+"));
            assert!(app.titles(&query).await.contains(&english), "{name:?} finds {english:?}");
        }
    }
    // Accents and capitals as people type them; a word outside the vocabulary as before.
    assert!(app.titles("q=Caf%C3%A9").await.contains(&"Fresh coffee from Kabare".to_owned()));
    assert!(app.titles("q=Ma%C3%AFs").await.contains(&"Fresh maize from Kabare".to_owned()));
    assert_eq!(app.titles("q=Kabare&per_page=100").await.len(), groups.len());
}

#[tokio::test]
async fn a_product_is_found_by_its_categorys_name_in_each_language() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    app.list_product(&farmer, tomatoes()).await;
    for query in ["vegetables", "L%C3%A9gumes", "mboga", "mboga+kabare"] {
        assert_eq!(app.titles(&format!("q={query}")).await, ["Tomatoes"], "{query}");
    }
    assert!(app.titles("q=boissons").await.is_empty(), "another category's word finds nothing");
    // A farmer's new name rewrites their products' searched text: the category stays in it.
    app.sql("UPDATE users SET first_name = 'Neema' WHERE email = 'amani@example.com'");
    let id: i64 =
        app.database().query_row("SELECT id FROM users WHERE email = 'amani@example.com'", [], |r| r.get(0)).unwrap();
    app.state.db.write(move |tx| Ok(mavuno::db::product_search::touch_farmer(tx, id)?)).await.unwrap();
    assert_eq!(app.titles("q=neema+mboga").await, ["Tomatoes"]);
}
