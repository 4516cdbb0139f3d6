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
pub fn price_crops() -> Object {
    let keys: Vec<&str> = crate::domain::prices::CROPS.iter().map(|crop| crop.key).collect();
    filter(&keys, "A crop's key; its name in English, French or Kiswahili (haricots, mahindi) is read as well.")
}
/// A crop's key (a price alert's), or its name in any language.
pub fn crop_keys() -> Object {
    let keys: Vec<&str> = crate::domain::prices::CROPS.iter().map(|crop| crop.key).collect();
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(keys))
        .description(Some("A crop's key; its name in English, French or Kiswahili is read as well."))
        .build()
}
/// What an owner may ask of their application (`domain::surveys::status::owner_transition`).
pub fn owner_statuses() -> Object {
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some([json!(""), json!("draft"), json!("pending"), json!("re-submitted"), json!("rejected"), Value::Null]))
        .description(Some("`draft` to save, `pending` to submit (the default for a new one), `re-submitted` after a rejection (a rejected one may be edited as it is); nothing: as it is. Where it may not go from its status: 422 `invalid_transition`."))
        .build()
}
/// Where one farmer's part of an order may be moved (`domain::orders`).
pub fn part_statuses() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(["accepted", "shipped", "delivered", "cancelled"]))
        .description(Some(
            "accepted, shipped, delivered or cancelled (a cancellation by the farmer or an admin says why).",
        ))
        .build()
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
            // A form field's name is a header's parameter: it holds no control character.
            if let Some(form) = operation.pointer_mut("/requestBody/content/multipart~1form-data/schema") {
                *form = json!({"allOf": [form.take()], "propertyNames": {"pattern": "^[^\\u0000-\\u001F\\u007F\"]*$"}});
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

/// Something besides spaces, and no NUL character (the server refuses one: `invalid_text`).
const NON_BLANK: &str = "^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$";

/// An object (`base`) that must also be one of `choices`, for a choice the derive cannot say.
fn either(base: Value, choices: [Value; 2]) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    use utoipa::openapi::schema::{AllOfBuilder, AnyOfBuilder, Object};
    let object = |value: Value| serde_json::from_value::<Object>(value).expect("a schema");
    let [first, second] = choices;
    let choice = AnyOfBuilder::new().item(object(first)).item(object(second));
    utoipa::openapi::RefOr::T(AllOfBuilder::new().item(object(base)).item(choice).into())
}

/// Sign-in's `user`: an email, or (with no email) a phone number, and the password — a
/// choice the derive cannot say, so written here as `api::accounts::login` reads it.
pub fn credentials() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    either(
        json!({
            "type": "object",
            "description": "An email, or instead (no `email`) a phone number: international, or national in one of the six countries; and the password.",
            "properties": {
                "email": {"type": ["string", "null"]},
                "phone_number": {"type": ["string", "null"], "description": "Sent instead of `email` to sign in by phone number."},
                "password": {"type": "string", "minLength": 1, "pattern": "^[^\\u0000]*$"}
            },
            "required": ["password"]
        }),
        [
            json!({"type": "object", "required": ["email"], "properties": {"email": {"type": "string", "pattern": NON_BLANK}}}),
            json!({"type": "object", "required": ["phone_number"], "properties": {"email": {"type": "null"}, "phone_number": {"type": "string", "pattern": NON_BLANK}}}),
        ],
    )
}

/// A forgotten password's request: a phone number (a code comes by SMS), or else an
/// email (a link comes), as `api::accounts::reset::forgot` reads it.
pub fn forgot_request() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    either(
        json!({
            "type": "object",
            "description": "An email (a link comes) or a phone number (a code comes by SMS; the number is used when both are given).",
            "properties": {
                "email": {"type": ["string", "null"]},
                "phone_number": {"type": ["string", "null"], "description": "International (`+243…`) or national."}
            }
        }),
        [
            json!({"type": "object", "required": ["phone_number"], "properties": {"phone_number": {"type": "string", "maxLength": 30, "pattern": NON_BLANK}}}),
            json!({"type": "object", "required": ["email"], "properties": {"email": {"type": "string", "maxLength": 254, "pattern": crate::domain::person::EMAIL_PATTERN}}}),
        ],
    )
}
