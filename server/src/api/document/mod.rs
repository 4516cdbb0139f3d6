//! What the route table cannot say of itself, added to the OpenAPI document (issue 75):
//! every operation's refusals with their codes (`refusals`), forms' fields as the domain
//! checks them (`forms`), and the schemas of parameters and texts the extractors read the
//! same way on every route, so that a client generated from it knows what the server takes
//! and every status it can answer.

use serde_json::{Value, json};
use utoipa::openapi::schema::{Object, ObjectBuilder, Type};

use crate::model::Word;
use crate::model::course::{CourseCategory, CourseLanguage, Level};
use crate::model::product::Category;

pub mod forms;
mod refusals;

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
/// A form's choice among `words`, blank for the default (or, on an edit, to keep it).
fn blank_or(words: &[&str], description: &str) -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some([&[""], words].concat()))
        .description(Some(description))
        .build()
}
pub fn blog_category() -> Object {
    blank_or(
        crate::model::blog::BlogCategory::words(),
        "One of the categories; blank: general (or, on an edit, as it is).",
    )
}
pub fn language() -> Object {
    blank_or(CourseLanguage::words(), "en, fr or sw; blank: en (or, on an edit, as it is).")
}
/// A filter from or up to a moment: `format` (`date`: YYYY-MM-DD, `date-time`: RFC 3339),
/// or nothing (no filter).
fn moment_or_nothing(format: &str, description: &str) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    let schema = json!({"type": "string", "description": description, "format": format, OR_BLANK: "^$"});
    utoipa::openapi::RefOr::T(serde_json::from_value(schema).expect("a schema"))
}
pub fn from_day() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    moment_or_nothing("date", "From this day (YYYY-MM-DD); nothing: from the first.")
}
pub fn to_day() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    moment_or_nothing("date", "Up to this day (YYYY-MM-DD); nothing: up to the last.")
}
pub fn from_instant() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    moment_or_nothing(
        "date-time",
        "From this instant (RFC 3339; the screen sends the start of today, or 7 or 30 days ago, in the admin's time zone); nothing: from the first.",
    )
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
pub fn order_statuses() -> Object {
    filter(crate::model::order::PartStatus::words(), "The order's status, from its parts.")
}
pub fn payment_methods() -> Object {
    filter(crate::model::order::PaymentMethod::words(), "How the order is paid.")
}
pub fn payment_standings() -> Object {
    let words = [&["unpaid"], crate::model::payment::PaymentStatus::words()].concat();
    filter(&words, "Where the latest mobile-money payment stands (unpaid: none started).")
}
pub fn product_standings() -> Object {
    filter(&["on_sale", "off_sale", "hidden"], "on_sale, off_sale (for any reason) or hidden (by an admin).")
}
pub fn survey_statuses() -> Object {
    filter(
        &["pending", "approved", "active", "rejected", "re-submitted"],
        "An application's status (active: approved).",
    )
}
pub fn roles() -> Object {
    filter(crate::model::user::Role::words(), "A person's role.")
}
pub fn user_statuses() -> Object {
    filter(crate::model::user::Status::words(), "An account's status.")
}
pub fn countries() -> Object {
    filter(crate::model::user::Country::words(), "One of the six countries.")
}
pub fn price_sources() -> Object {
    filter(crate::model::price::Source::words(), "Where a price came from.")
}
pub fn blog_statuses() -> Object {
    filter(&["published", "draft"], "Published or draft posts.")
}
pub fn comment_statuses() -> Object {
    filter(&["shown", "hidden"], "Shown or hidden comments.")
}
/// What `domain::input::has_hidden_characters` finds on one line.
const HIDDEN: &str = "\\u0000-\\u001F\\u007F-\\u009F\\u202A-\\u202E\\u2066-\\u2069\\u200E\\u200F\\u061C";

/// Something besides spaces within `max` characters, none of them `hidden`.
fn worded(max: usize, hidden: &str) -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .max_length(Some(max))
        .pattern(Some(format!("^[^{hidden}]*[^\\s{hidden}][^{hidden}]*$")))
        .build()
}

/// One line of at most `MAX` characters: something besides spaces, no hidden character.
pub fn line<const MAX: usize>() -> Object {
    worded(MAX, HIDDEN)
}

/// A text of at most `MAX` characters, on several lines if need be: something besides
/// spaces, no hidden character but line breaks and tabs.
pub fn text<const MAX: usize>() -> Object {
    worded(MAX, &multiline_hidden())
}

/// What `domain::input::has_hidden_characters` finds in a text of several lines (line
/// breaks and tabs are not hidden there).
fn multiline_hidden() -> String {
    HIDDEN.replace("\\u0000-\\u001F", "\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F")
}

/// `line` and `text` as JSON, for a schema written as JSON.
fn line_of(max: usize) -> Value {
    serde_json::to_value(worded(max, HIDDEN)).expect("a schema")
}
fn text_of(max: usize) -> Value {
    serde_json::to_value(worded(max, &multiline_hidden())).expect("a schema")
}

/// As `line`, or `null` (or left out): the value it has is kept.
pub fn some_line<const MAX: usize>() -> Object {
    let mut schema = line::<MAX>();
    schema.schema_type = utoipa::openapi::schema::SchemaType::from_iter([Type::String, Type::Null]);
    schema
}

/// One of `words`, or `null` (or left out): the value it has is kept.
fn some_of(words: &[&str], description: &str) -> Object {
    let mut values: Vec<Value> = words.iter().map(|w| json!(w)).collect();
    values.push(Value::Null);
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([Type::String, Type::Null]))
        .enum_values(Some(values))
        .description(Some(description))
        .build()
}
/// A person's new role or status, as `api::admin::change_user` reads them (nothing or
/// `all`: unchanged).
pub fn new_role() -> Object {
    let words = [&["", "all"], crate::model::user::Role::words()].concat();
    some_of(&words, "The new role (super admins only); nothing: unchanged.")
}
pub fn new_user_status() -> Object {
    let words = [&["", "all"], crate::model::user::Status::words()].concat();
    some_of(&words, "The new status; nothing: unchanged.")
}
pub fn member_role() -> Object {
    some_of(crate::model::cooperative::MemberRole::words(), "member or manager (admins only name managers).")
}
pub fn member_status() -> Object {
    some_of(&["active", "removed"], "active (accept, or add a farmer) or removed.")
}
/// An admin's decision on an application (`domain::surveys::status::Decision`).
pub fn decisions() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(["approved", "active", "rejected"]))
        .description(Some("approved (or the spec client's active) or rejected."))
        .build()
}

pub fn product_sorts() -> Object {
    filter(
        &["newest", "name", "price_asc", "price_desc", "rating"],
        "newest (default), name, price_asc, price_desc or rating.",
    )
}

/// What Rust's `char::is_whitespace` (trim, split_whitespace) takes for a space: a regex's
/// `\s` differs between tools (Python's takes the separators U+001C-U+001F too).
const SPACE: &str = "\\t\\n\\u000B\\u000C\\r \\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";

/// A path item's keys that are operations (the others: `parameters`, `summary`, …).
const OPERATIONS: [&str; 6] = ["get", "put", "post", "delete", "patch", "head"];

/// What a text may hold, whatever the operation: no NUL character (`invalid_text`).
const NO_NUL: &str = "^[^\\u0000]*$";

/// Adds each operation's refusals (`refusals`), and says of its free-text parameters that
/// they hold no NUL character.
pub fn complete(doc: &mut Value) {
    or_blank(doc);
    // (Not the error envelope's: a refusal's message may quote what was sent.)
    for (name, schema) in doc.pointer_mut("/components/schemas").and_then(Value::as_object_mut).into_iter().flatten() {
        if name != "ErrorBody" {
            no_nul_in_texts(schema);
        }
    }
    let schemas = doc.pointer("/components/schemas").cloned().unwrap_or_default();
    let Some(paths) = doc.get_mut("paths").and_then(Value::as_object_mut) else { return };
    for item in paths.values_mut() {
        let Some(item) = item.as_object_mut() else { continue };
        for (method, operation) in item.iter_mut() {
            if !OPERATIONS.contains(&method.as_str()) {
                continue;
            }
            for parameter in operation.get_mut("parameters").and_then(Value::as_array_mut).into_iter().flatten() {
                if parameter["name"] == "q" && parameter["in"] == "query" {
                    // Every list's search, read by `api::search`: a few words.
                    let words = super::MAX_SEARCH_WORDS - 1;
                    parameter["schema"]["maxLength"] = json!(super::MAX_SEARCH_CHARS);
                    parameter["schema"]["pattern"] = json!(format!(
                        "^[{SPACE}]*([^{SPACE}\\u0000]+[{SPACE}]+){{0,{words}}}[^{SPACE}\\u0000]*[{SPACE}]*$"
                    ));
                }
                let schema = &mut parameter["schema"];
                if schema["type"] == "string" && schema.get("enum").is_none() && schema.get("pattern").is_none() {
                    schema["pattern"] = json!(NO_NUL);
                }
            }
            if let Some(form) = operation.pointer_mut("/requestBody/content/multipart~1form-data") {
                form["schema"] = form_fields(form.get_mut("schema").map(Value::take), &schemas);
            }
            let Some(responses) = operation.get_mut("responses").and_then(Value::as_object_mut) else { continue };
            // A body of bytes (`Vec<u8>`, a PDF) is one binary string, not an array of numbers.
            for response in responses.values_mut() {
                for (media, content) in response.get_mut("content").and_then(Value::as_object_mut).into_iter().flatten()
                {
                    if content["schema"]["type"] == "array" && content["schema"]["items"]["type"] == "integer" {
                        content["schema"] = json!({"type": "string", "contentMediaType": media});
                    }
                }
            }
        }
    }
    refusals::add(doc);
}

/// A multipart form's fields, from the JSON body's schema (`fields`, often a reference):
/// a field is sent or left out, never `null` (a form cannot say it: a tool would send the
/// word "null"), a list may be one text, and a field's name, a header's parameter, holds no
/// control character.
fn form_fields(fields: Option<Value>, schemas: &Value) -> Value {
    let names = json!({"pattern": "^[^\\u0000-\\u001F\\u007F\"]*$"});
    let Some(mut fields) = fields else {
        return json!({"type": "object", "propertyNames": names, "additionalProperties": {"pattern": NO_NUL}});
    };
    if let Some(name) = fields["$ref"].as_str().and_then(|r| r.strip_prefix("#/components/schemas/")) {
        fields = schemas[name].clone();
    }
    for field in fields.get_mut("properties").and_then(Value::as_object_mut).into_iter().flat_map(|p| p.values_mut()) {
        if let Some(kinds) = field.get_mut("type").and_then(Value::as_array_mut) {
            kinds.retain(|kind| kind != "null");
        }
        if let Some(words) = field.get_mut("enum").and_then(Value::as_array_mut) {
            words.retain(|word| !word.is_null());
        }
        if let Some(field) = field.as_object_mut().filter(|f| f.get("default") == Some(&Value::Null)) {
            field.remove("default");
        }
        // A list is its field repeated, and a list of one is one field: a form cannot tell
        // it from a text.
        if field["type"] == "array" {
            field["type"] = json!(["array", "string"]);
        }
        let choices = field.get("oneOf").and_then(Value::as_array).cloned().unwrap_or_default();
        if let [one, other] = choices.as_slice() {
            let not_null = if one["type"] == "null" { other } else { one };
            *field = not_null.clone();
        }
    }
    fields["propertyNames"] = names;
    // The server reads every field's text, also one it then leaves out: none holds a NUL.
    if fields.get("additionalProperties") != Some(&Value::Bool(false)) {
        fields["additionalProperties"] = json!({"pattern": NO_NUL});
    }
    fields
}

/// A text of a `format` that may also be blank (`pattern`), marked so: utoipa's schema types
/// keep no `anyOf` beside a `type`, but keep `x-` keys.
const OR_BLANK: &str = "x-or-blank";

/// Each schema under `value` marked `OR_BLANK` becomes `anyOf` its format or its blank.
fn or_blank(value: &mut Value) {
    match value {
        Value::Object(schema) => {
            if let Some(blank) = schema.remove(OR_BLANK) {
                let format = schema.remove("format");
                schema.insert("anyOf".to_owned(), json!([{"format": format}, {"pattern": blank}]));
            }
            schema.values_mut().for_each(or_blank);
        }
        Value::Array(items) => items.iter_mut().for_each(or_blank),
        _ => {}
    }
}

/// Every free text of the schemas under `value` (one with no pattern, choice or format of
/// its own) holds no NUL character: the server reads none (`platform::strict_json`).
fn no_nul_in_texts(value: &mut Value) {
    match value {
        Value::Object(schema) => {
            let text = match &schema.get("type") {
                Some(Value::String(kind)) => kind == "string",
                Some(Value::Array(kinds)) => kinds.iter().any(|k| k == "string"),
                _ => false,
            };
            if text && !["pattern", "enum", "format", "const"].iter().any(|k| schema.contains_key(*k)) {
                schema.insert("pattern".to_owned(), json!(NO_NUL));
            }
            schema.values_mut().for_each(no_nul_in_texts);
        }
        Value::Array(items) => items.iter_mut().for_each(no_nul_in_texts),
        _ => {}
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
