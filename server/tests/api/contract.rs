//! What the API document promises, held by the server (issue 75): each test reads the
//! served document and sends what it says a client may send, or what it says is refused.

use mavuno::model::user::Role;
use reqwest::multipart::Form;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;

impl TestApp {
    async fn document(&self) -> Value {
        self.get("/openapi.json", None).await.json().await.unwrap()
    }
}

/// A listing's fields as the document gives them to a new listing.
fn listing_fields(doc: &Value) -> &Value {
    &doc["components"]["schemas"]["NewListingFields"]
}

#[tokio::test]
async fn a_listing_form_may_send_a_list_as_repeated_fields_with_or_without_brackets() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("lists@example.com", Role::Farmer).await;
    let form = product_form().text("tags", "beans").text("tags", "dry").text("certifications", "organic");
    let response =
        app.client.post(app.api("/farmer/products")).bearer_auth(&farmer).multipart(form).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::CREATED);
    let product = response.json::<Value>().await.unwrap()["product"].clone();
    assert_eq!((&product["tags"], &product["certifications"]), (&json!(["beans", "dry"]), &json!(["organic"])));

    // One value is a list of one, as a form sends a list of one.
    let id = product["id"].as_i64().unwrap();
    let form = Form::new().text("product[tags]", "red");
    let response = app
        .client
        .patch(app.api(&format!("/farmer/products/{id}")))
        .bearer_auth(&farmer)
        .multipart(form)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.json::<Value>().await.unwrap()["product"]["tags"], json!(["red"]));
}

#[tokio::test]
async fn a_listing_at_each_documented_limit_is_taken_and_one_past_it_is_refused() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("limits@example.com", Role::Farmer).await;
    let doc = app.document().await;
    let fields = &listing_fields(&doc)["properties"];
    let at = |key: &str| fields[key]["maxLength"].as_u64().unwrap() as usize;
    // At most so many tags that are not blank (the document says it in words: blank ones are left out).
    let tags = mavuno::domain::products::MAX_TAGS;
    let tag_chars = fields["tags"]["items"]["maxLength"].as_u64().unwrap() as usize;
    let most = json!({
        "title": "t".repeat(at("title")),
        "description": "d".repeat(at("description")),
        "quantity": fields["quantity"]["maximum"],
        "price": fields["price"]["maximum"],
        "current_price": 0.01,
        "harvest_date": "2026-11-30",
        "expiry_date": " ",
        "tags": vec!["g".repeat(tag_chars); tags],
        "min_order": 0.5,
    });
    let created = app.call(Method::POST, "/farmer/products", &farmer, Some(json!({"product": most}))).await;
    assert_eq!(created.status(), StatusCode::CREATED, "{most}");

    for (field, past) in [
        ("title", json!("t".repeat(at("title") + 1))),
        ("quantity", json!(fields["quantity"]["maximum"].as_i64().unwrap() + 1)),
        ("quantity", json!(fields["quantity"]["minimum"].as_i64().unwrap() - 1)),
        ("price", json!(fields["price"]["maximum"].as_f64().unwrap() + 0.01)),
        ("price", json!(0.001)),
        ("tags", json!(vec!["g".repeat(tag_chars + 1)])),
        ("tags", json!(vec!["g"; tags + 1])),
        // Found by schemathesis: a tag holding NUL was stored (on SQLite) and answered back.
        ("tags", json!(["a\u{0}b"])),
        ("tags", json!(["a\u{202E}b"])),
        ("harvest_date", json!("2026-02-30")),
        ("unit", json!("bag")),
    ] {
        let mut listing = most.clone();
        listing[field] = past.clone();
        let refused = error_of(
            app.call(Method::POST, "/farmer/products", &farmer, Some(json!({"product": listing}))).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(refused["errors"].get(field).is_some(), "{field} {past}: {refused}");
    }
    // What a new listing needs, the document requires; an edit needs none of them.
    let required: Vec<&str> =
        listing_fields(&doc)["required"].as_array().unwrap().iter().map(|f| f.as_str().unwrap()).collect();
    assert_eq!(required, ["title", "description", "quantity", "price", "current_price"]);
    assert!(doc["components"]["schemas"]["ListingFields"].get("required").is_none());
    for field in required {
        let mut listing = most.clone();
        listing.as_object_mut().unwrap().remove(field);
        let refused = error_of(
            app.call(Method::POST, "/farmer/products", &farmer, Some(json!({"product": listing}))).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        )
        .await;
        assert!(refused["errors"].get(field).is_some(), "{field}: {refused}");
    }
}

#[tokio::test]
async fn forms_the_document_says_need_a_body_or_no_other_field_are_refused_so() {
    let app = spawn_app().await;
    let admin = app.user_with_role("forms.admin@example.com", Role::Admin).await;
    let doc = app.document().await;

    // A post needs its body: the document says so, the server answers 415 without one.
    assert_eq!(doc["paths"]["/admin/blogs"]["post"]["requestBody"]["required"], true);
    let response = app.client.post(app.api("/admin/blogs")).bearer_auth(&admin).send().await.unwrap();
    assert_eq!(error_of(response, StatusCode::UNSUPPORTED_MEDIA_TYPE).await["code"], "unsupported_media_type");

    // A course reads no field it does not know.
    assert_eq!(doc["components"]["schemas"]["CourseForm"]["additionalProperties"], false);
    let course = json!({"title": "Drying beans", "colour": "red"});
    let refused =
        error_of(app.call(Method::POST, "/admin/courses", &admin, Some(course)).await, StatusCode::BAD_REQUEST).await;
    assert_eq!(refused["code"], "invalid_body");

    // Hiding a listing needs a reason: required in the document, 422 without one.
    let required = &doc["components"]["schemas"]["HideRequest"]["required"];
    assert_eq!(required, &json!(["reason"]));
    let farmer = app.user_with_role("forms.farmer@example.com", Role::Farmer).await;
    let product = app.list_product(&farmer, crate::products::tomatoes()).await;
    let path = format!("/admin/products/{}/hide", product["id"]);
    let refused =
        error_of(app.call(Method::POST, &path, &admin, Some(json!({}))).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(refused["error_codes"]["reason"], json!(["hide_reason_required"]));
}

#[tokio::test]
async fn a_date_filter_left_empty_is_no_filter_as_the_document_says() {
    let app = spawn_app().await;
    let admin = app.user_with_role("dates@example.com", Role::Admin).await;
    let doc = app.document().await;
    for (path, name) in [("/admin/prices", "to"), ("/admin/prices", "from"), ("/admin/orders", "from")] {
        let parameters = doc["paths"][path]["get"]["parameters"].as_array().unwrap();
        let schema = &parameters.iter().find(|p| p["name"] == name).unwrap()["schema"];
        let empty = schema["anyOf"].as_array().unwrap().iter().any(|choice| choice["pattern"] == "^$");
        assert!(empty, "{path} {name}: {schema}");
        let answer = app.get(&format!("{path}?{name}="), Some(admin.as_str())).await;
        assert_eq!(answer.status(), StatusCode::OK, "{path}?{name}=");
        let refused = error_of(
            app.get(&format!("{path}?{name}=someday"), Some(admin.as_str())).await,
            StatusCode::UNPROCESSABLE_ENTITY,
        );
        assert_eq!(refused.await["error_codes"][name], json!(["invalid_filter"]), "{path}");
    }
}

/// Found by schemathesis: `PATCH /me/update` took a form whose unnamed extra field held
/// NUL. Every multipart form reads each field's text, also one it leaves out, as the
/// document says (`additionalProperties` holds no NUL).
#[tokio::test]
async fn a_forms_extra_field_holding_nul_is_refused_on_every_multipart_form() {
    let app = spawn_app().await;
    let admin = app.user_with_role("extra.admin@example.com", Role::Admin).await;
    let farmer = app.user_with_role("extra.farmer@example.com", Role::Farmer).await;
    let doc = app.document().await;
    for (method, path, token) in [
        (Method::PATCH, "/me/update", &farmer),
        (Method::POST, "/farmer/products", &farmer),
        (Method::POST, "/admin/blogs", &admin),
    ] {
        let form = &doc["paths"][path][method.as_str().to_lowercase()]["requestBody"]["content"]["multipart/form-data"];
        assert_eq!(form["schema"]["additionalProperties"]["pattern"], "^[^\\u0000]*$", "{method} {path}");
        let sent = Form::new().text("first_name", "Amani").text("", "a\0b");
        let response =
            app.client.request(method.clone(), app.api(path)).bearer_auth(token).multipart(sent).send().await.unwrap();
        assert_eq!(error_of(response, StatusCode::BAD_REQUEST).await["code"], "invalid_text", "{method} {path}");
    }
    // The account was not changed.
    let me: Value = app.me(&farmer).await.json().await.unwrap();
    assert_ne!(me["user"]["first_name"], "Amani");
}

/// A listing that names a photo by a hash not yet sent to `/uploads` is refused with 409
/// `photo_missing`, on a new listing and on an edit, and nothing is stored (through REST;
/// a sync push answers `retry` with the same code: tests/api/products.rs).
#[tokio::test]
async fn a_listing_naming_a_photo_not_yet_sent_is_refused_and_nothing_is_stored() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("photos@example.com", Role::Farmer).await;
    let unsent = sha(b"a photo still on the phone");
    let mut listing = crate::products::tomatoes();
    listing["images"] = json!([unsent]);
    let refused = app.call(Method::POST, "/farmer/products", &farmer, Some(json!({"product": listing.clone()}))).await;
    assert_eq!(error_of(refused, StatusCode::CONFLICT).await["code"], "photo_missing");
    let listed: i64 = app.database().query_row("SELECT COUNT(*) FROM products", [], |r| r.get(0)).unwrap();
    assert_eq!(listed, 0);

    let product = app.list_product(&farmer, crate::products::tomatoes()).await;
    let path = format!("/farmer/products/{}", product["id"]);
    let edit = json!({"product": {"images": [unsent]}});
    let refused = app.call(Method::PATCH, &path, &farmer, Some(edit)).await;
    assert_eq!(error_of(refused, StatusCode::CONFLICT).await["code"], "photo_missing");
    let kept: Value = app.get(&format!("/products/{}", product["id"]), None).await.json().await.unwrap();
    assert_eq!(kept["data"]["images"], product["images"], "{kept}");
}
