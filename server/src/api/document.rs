//! The refusals every operation shares, added to the OpenAPI document from what each
//! operation is (signed in, with a body, with path or query parameters), so that a client
//! generated from it knows every status the server can answer (issue 75): the extractors
//! that answer them are the same for every route, so they are documented in one place.

use serde_json::{Value, json};
use utoipa::openapi::schema::{Object, ObjectBuilder, Type};

use crate::model::Word;
use crate::model::course::{CourseCategory, CourseLanguage, Level};
use crate::model::product::Category;

/// A list's filter as `api::filter` reads it: nothing, `all`, or one of `values` (a
/// parameter's `schema_with` replaces its description too: it is said here).
fn filter(values: &[&str], description: &str) -> Object {
    let values = [&["", "all"], values].concat();
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values))
        .description(Some(format!("{description} Nothing or `all`: every one.")))
        .build()
}

pub fn blog_categories() -> Object {
    filter(crate::model::blog::BlogCategory::words(), "One of the categories.")
}
pub fn languages() -> Object {
    filter(CourseLanguage::words(), "en, fr or sw.")
}
pub fn course_categories() -> Object {
    filter(CourseCategory::words(), "A course's category.")
}
pub fn levels() -> Object {
    filter(Level::words(), "beginner, intermediate or advanced.")
}
pub fn course_sorts() -> Object {
    let sorts = ["newest", "title", "name", "price_asc", "price_desc", "rating", "duration"];
    filter(&sorts, "newest (default), title (or name), price_asc, price_desc, rating or duration (shortest first).")
}
pub fn product_categories() -> Object {
    filter(Category::words(), "vegetables, fruits, grains, dairy, beverages or herbs.")
}
pub fn price_bands() -> Object {
    filter(&["under_10", "10_to_50", "over_50"], "under_10, 10_to_50 or over_50 (USD, on the current price).")
}
pub fn product_sorts() -> Object {
    filter(
        &["newest", "name", "price_asc", "price_desc", "rating"],
        "newest (default), name, price_asc, price_desc or rating.",
    )
}

/// The statuses an operation can answer before its handler runs: (status, description).
fn shared_refusals(operation: &Value) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    let signed = operation["security"].as_array().is_some_and(|all| all.iter().any(|s| s.get("bearer").is_some()));
    if signed {
        out.push(("401", "missing_token, invalid_token, token_expired, account_inactive: no valid session"));
    }
    let parameters = operation["parameters"].as_array().map_or(0, Vec::len);
    if operation.get("requestBody").is_some() {
        out.push(("400", "malformed_json, invalid_body, bad_request: a body, path or query the server cannot read"));
        out.push(("413", "request_too_large: a body over the route's limit"));
        out.push(("415", "unsupported_media_type: a body of another content type"));
    } else if parameters > 0 {
        out.push(("400", "bad_request, invalid_query: a path or query the server cannot read"));
    }
    out
}

/// What a text may hold, whatever the operation: no NUL character (`invalid_text`).
const NO_NUL: &str = "^[^\\u0000]*$";

/// Adds each operation's shared refusals it does not list yet, with the error envelope, and
/// says of its free-text parameters that they hold no NUL character.
pub fn complete(doc: &mut Value) {
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for (method, operation) in item.iter_mut() {
            if !["get", "put", "post", "delete", "patch", "head"].contains(&method.as_str()) {
                continue;
            }
            let refusals = shared_refusals(operation);
            for parameter in operation.get_mut("parameters").and_then(Value::as_array_mut).into_iter().flatten() {
                let schema = &mut parameter["schema"];
                if schema["type"] == "string" && schema.get("enum").is_none() && schema.get("pattern").is_none() {
                    schema["pattern"] = json!(NO_NUL);
                }
            }
            let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) else { continue };
            for (status, description) in refusals {
                responses.entry(status).or_insert_with(|| {
                    json!({
                        "description": description,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}
                    })
                });
            }
        }
    }
}
