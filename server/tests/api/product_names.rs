//! A product's name in other languages, given by its farmer (docs/products.md):
//! carried with the product, searched, cleared by a blank, bounded.

use mavuno::model::user::Role;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::helpers::*;
use crate::products::tomatoes;

#[tokio::test]
async fn a_farmer_names_a_product_in_other_languages_and_buyers_find_it_by_them() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let mut honey = tomatoes();
    honey["title"] = json!("Grevillea honey");
    honey["title_fr"] = json!("Miel de grévillea");
    honey["title_sw"] = json!("Asali ya mgrevilia");
    let product = app.list_product(&farmer, honey).await;
    assert_eq!(
        (product["title_en"].clone(), product["title_fr"].clone(), product["title_sw"].clone()),
        (Value::Null, json!("Miel de grévillea"), json!("Asali ya mgrevilia"))
    );
    for query in ["q=mgrevilia", "q=miel+de+grevillea", "q=Grevillea"] {
        assert_eq!(app.titles(query).await, ["Grevillea honey"], "{query}");
    }
    // The farmer renames themself: the product's search text is made again, with every name.
    app.sql("UPDATE users SET last_name = 'Mushi' WHERE email = 'amani@example.com'");
    let admin = app.user_with_role("admin@example.com", Role::Admin).await;
    let id = product["farmer"]["id"].as_i64().unwrap();
    let status = json!({"user": {"status": "inactive"}});
    app.call(Method::PATCH, &format!("/admin/users/{id}"), &admin, Some(status)).await;
    let status = json!({"user": {"status": "active"}});
    app.call(Method::PATCH, &format!("/admin/users/{id}"), &admin, Some(status)).await;
    assert_eq!(app.titles("q=mgrevilia").await, ["Grevillea honey"]);

    // A blank name clears it; a long one is refused.
    let path = format!("/farmer/products/{}", product["id"]);
    let cleared = app.call(Method::PATCH, &path, &farmer, Some(json!({"product": {"title_sw": " "}}))).await;
    assert_eq!(cleared.status(), StatusCode::OK);
    assert!(app.titles("q=mgrevilia").await.is_empty());
    let long = json!({"product": {"title_fr": "m".repeat(121)}});
    let body =
        error_of(app.call(Method::PATCH, &path, &farmer, Some(long)).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"], json!({"title_fr": ["too_long"]}));
}

#[tokio::test]
async fn a_name_is_not_found_inside_another_produce_name() {
    let app = spawn_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    for title in ["Arabica coffee beans", "Green beans", "Soybeans", "Viande de boeuf", "Oeufs frais"] {
        let mut listing = tomatoes();
        listing["title"] = json!(title);
        listing["description"] = json!("From Kabare");
        app.list_product(&farmer, listing).await;
    }
    // "haricot" looks for "bean" too, but not inside "coffee beans" or "soybeans".
    assert_eq!(app.titles("q=haricot").await, ["Green beans"]);
    assert_eq!(app.titles("q=kahawa").await, ["Arabica coffee beans"]);
    assert_eq!(app.titles("q=arabica+coffee+beans").await, ["Arabica coffee beans"], "its own name");
    assert_eq!(app.titles("q=soya").await, ["Soybeans"]);
    assert_eq!(app.titles("q=mayai").await, ["Oeufs frais"]);
}

#[tokio::test]
async fn a_description_in_other_languages_is_carried_searched_cleared_and_bounded() {
    let (app, _web) = crate::first_screen::spawn_with_the_app().await;
    let farmer = app.user_with_role("amani@example.com", Role::Farmer).await;
    let mut beans = tomatoes();
    beans["title"] = json!("Red beans");
    beans["description"] = json!("Dried in the sun in Kabare.");
    beans["description_fr"] = json!("Séchés au soleil à Kabare, triés à la main.");
    beans["description_sw"] = json!("Yamekaushwa juani Kabare.");
    let product = app.list_product(&farmer, beans).await;
    assert_eq!(
        (product["description_en"].clone(), product["description_fr"].clone(), product["description_sw"].clone()),
        (Value::Null, json!("Séchés au soleil à Kabare, triés à la main."), json!("Yamekaushwa juani Kabare."))
    );
    // Found by words of any of its descriptions, accents folded.
    for query in ["q=tries+a+la+main", "q=yamekaushwa", "q=dried+sun"] {
        assert_eq!(app.titles(query).await, ["Red beans"], "{query}");
    }

    // A French reader's first screen of the product shows the French description.
    let path = format!("/product/{}", product["id"]);
    let french = crate::first_screen::page(&app, &path, "fr").await;
    assert!(french.contains("Séchés au soleil à Kabare, triés à la main."), "{french}");
    assert!(crate::first_screen::page(&app, &path, "en").await.contains("Dried in the sun in Kabare."));
    let listed = crate::first_screen::page(&app, "/marketplace", "sw").await;
    assert!(listed.contains("Yamekaushwa juani Kabare."), "the marketplace's card");

    // A blank clears it; too long or with hidden characters is refused, field by field.
    let path = format!("/farmer/products/{}", product["id"]);
    let cleared = app.call(Method::PATCH, &path, &farmer, Some(json!({"product": {"description_sw": "  "}}))).await;
    assert_eq!(cleared.status(), StatusCode::OK);
    assert!(app.titles("q=yamekaushwa").await.is_empty());
    let bad = json!({"product": {"description_fr": "m".repeat(4001), "description_en": "Dried\u{202e} beans"}});
    let body =
        error_of(app.call(Method::PATCH, &path, &farmer, Some(bad)).await, StatusCode::UNPROCESSABLE_ENTITY).await;
    assert_eq!(body["error_codes"], json!({"description_fr": ["too_long"], "description_en": ["invalid_characters"]}));
}
