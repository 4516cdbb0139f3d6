//! Forms' fields as the domain checks them, for the document: a listing's
//! (`domain::products::apply`, docs/products.md: the JSON body `{"product": {...}}` and the
//! multipart form's fields), a course's (`domain::courses`) and a post's (`domain::blogs`).
//! An edit sends any of them; a new one needs some.

use serde_json::{Value, json};
use utoipa::openapi::{RefOr, schema::Schema};

use super::{HIDDEN, SPACE, multiline_hidden};
use crate::domain::{courses as course_rules, products as rules};
use crate::model::Word;
use crate::model::course::{CourseCategory, CourseLanguage, Level};
use crate::model::product::{Category, ProductStatus, Unit};

/// The fields a new listing cannot do without.
const LISTING_REQUIRED: [&str; 5] = ["title", "description", "quantity", "price", "current_price"];

/// One of `words`.
fn one_of(words: &[&str]) -> Value {
    json!({"type": "string", "enum": words})
}

/// Yes or no as `domain::input::loose_bool` reads it: a JSON boolean, or as a form sends it
/// (true, 1, on, yes; false, 0, off, no, blank; in any case), or a number (0 is no); `null`
/// keeps it as it is.
fn flag(description: &str) -> Value {
    let words = "[Tt][Rr][Uu][Ee]|1|[Oo][Nn]|[Yy][Ee][Ss]|[Ff][Aa][Ll][Ss][Ee]|0|[Oo][Ff][Ff]|[Nn][Oo]";
    json!({
        "type": ["boolean", "number", "string", "null"],
        "pattern": format!("^[{SPACE}]*({words})?[{SPACE}]*$"),
        "description": description
    })
}

/// `choice` (one of some words), or `null` for the default (or, on an edit, as it is).
fn or_null(choice: utoipa::openapi::schema::Object) -> Value {
    let mut choice = serde_json::to_value(choice).expect("a schema");
    choice["type"] = json!([choice["type"].take(), "null"]);
    if let Some(words) = choice["enum"].as_array_mut() {
        words.push(Value::Null);
    }
    choice
}

/// At most `max` characters, none hidden; blank clears the field.
fn clearable(max: usize, hidden: &str) -> Value {
    json!({"type": "string", "maxLength": max, "pattern": format!("^[^{hidden}]*$")})
}

/// Dollars with at most two decimals, from 0 to the largest price.
fn dollars(description: &str) -> Value {
    dollars_up_to(rules::MAX_CENTS, description)
}
fn dollars_up_to(cents: i64, description: &str) -> Value {
    let most = cents / 100;
    json!({"type": "number", "minimum": 0, "maximum": most, "multipleOf": 0.01, "description": description})
}

/// A day as YYYY-MM-DD, or blank to clear it.
fn day() -> Value {
    json!({"type": "string", "format": "date", super::OR_BLANK: format!("^[{SPACE}]*$")})
}

/// An amount ordered, above 0.
fn amount() -> Value {
    json!({"type": "number", "exclusiveMinimum": 0, "maximum": rules::MAX_QUANTITY})
}

fn listing_fields(creating: bool) -> Value {
    let (name, description) = (rules::MAX_TITLE_CHARS, rules::MAX_DESCRIPTION_CHARS);
    let multiline = multiline_hidden();
    let mut schema = json!({
        "type": "object",
        "description": "A listing's fields; on an edit, only those to change. Prices are US dollars.",
        "properties": {
            "title": super::line_of(name),
            "title_en": clearable(name, HIDDEN),
            "title_fr": clearable(name, HIDDEN),
            "title_sw": clearable(name, HIDDEN),
            "description": super::text_of(description),
            "description_en": clearable(description, &multiline),
            "description_fr": clearable(description, &multiline),
            "description_sw": clearable(description, &multiline),
            "category": one_of(Category::words()),
            "unit": one_of(Unit::words()),
            "status": one_of(ProductStatus::words()),
            "quantity": {"type": "integer", "minimum": 1, "maximum": rules::MAX_QUANTITY},
            "price": dollars("The usual price."),
            "current_price": dollars("The price today."),
            "harvest_date": day(),
            "expiry_date": day(),
            "certifications": {"type": "array", "items": one_of(&rules::CERTIFICATIONS)},
            "tags": {
                "type": "array",
                "description": format!("At most {} tags that are not blank (blank ones are left out).", rules::MAX_TAGS),
                "items": clearable(rules::MAX_TAG_CHARS, HIDDEN)
            },
            "shipping_available": flag("Whether it can be delivered."),
            "shipping_cost": dollars("What a delivery costs."),
            "shipping_days": {
                "type": "string",
                "description": format!("How long a delivery takes (\"2-3 days\"); a longer text than {} characters is not kept.", rules::MAX_SHIPPING_DAYS_CHARS)
            },
            "min_order": amount(),
            "max_order": amount(),
            "images": {
                "type": "array",
                "maxItems": rules::MAX_IMAGES,
                "description": "The SHA-256 of photos sent to `PUT /uploads/{sha256}`; a multipart form may send the files themselves as `product[images][]`.",
                "items": {"type": "string", "pattern": "^[0-9a-f]{64}$"}
            }
        }
    });
    if creating {
        schema["required"] = json!(LISTING_REQUIRED);
    }
    schema
}

/// Every field of `schema` may also be `null`: the server reads it as left out (kept on an
/// edit, missing on a new one). A multipart form's fields drop it again (`form_fields`).
fn nullable(mut schema: Value) -> Value {
    for field in schema["properties"].as_object_mut().into_iter().flat_map(|p| p.values_mut()) {
        if let Some(kind) = field.get("type").filter(|t| t.is_string()).cloned() {
            field["type"] = json!([kind, "null"]);
        }
        if let Some(words) = field.get_mut("enum").and_then(Value::as_array_mut) {
            words.push(Value::Null);
        }
    }
    schema
}

/// Types to name in `#[utoipa::path]` and request bodies, each documented by a schema
/// built here.
macro_rules! form_schemas {
    ($($(#[$doc:meta])* $name:ident => $schema:expr;)*) => {$(
        $(#[$doc])*
        pub struct $name;
        impl utoipa::PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                RefOr::T(serde_json::from_value($schema).expect("a form's schema"))
            }
        }
        impl utoipa::ToSchema for $name {}
    )*};
}

form_schemas! {
    /// A listing's fields as the server checks them; an edit sends any of them.
    ListingFields => nullable(listing_fields(false));
    /// As `ListingFields`, with the ones a new listing needs required.
    NewListingFields => nullable(listing_fields(true));
    /// A course's fields as `domain::courses` checks them.
    CourseForm => nullable(course_fields(false));
    /// As `CourseForm`, with the ones a new course needs required.
    NewCourseForm => nullable(course_fields(true));
    /// A post's edit.
    PostFields => post_fields(false);
    /// A new post.
    NewPostFields => post_fields(true);
}

/// The fields a new course cannot do without.
const COURSE_REQUIRED: [&str; 6] = ["title", "description", "instructor_name", "category", "level", "language"];

fn course_fields(creating: bool) -> Value {
    let multiline = multiline_hidden();
    let list =
        |items: usize, chars: usize| json!({"type": "array", "maxItems": items, "items": clearable(chars, HIDDEN)});
    let picture = json!({
        "type": "string",
        "pattern": format!("^([0-9a-f]{{64}}|[{SPACE}]*)$"),
        "description": "A picture's SHA-256, sent to `PUT /uploads/{sha256}` first (422 `photo_missing`); blank removes it."
    });
    let mut schema = json!({
        "type": "object",
        "description": "A course's fields; on an edit, only those to change. No other field is read (400 `invalid_body`).",
        "additionalProperties": false,
        "properties": {
            "title": super::line_of(course_rules::MAX_TITLE_CHARS),
            "description": super::text_of(course_rules::MAX_DESCRIPTION_CHARS),
            "category": one_of(CourseCategory::words()),
            "level": one_of(Level::words()),
            "language": one_of(CourseLanguage::words()),
            "instructor_name": super::line_of(course_rules::MAX_NAME_CHARS),
            "instructor_title": clearable(course_rules::MAX_NAME_CHARS, HIDDEN),
            "instructor_bio": clearable(course_rules::MAX_BIO_CHARS, &multiline),
            "instructor_photo": picture.clone(),
            "cover_image": picture,
            "price": dollars_up_to(course_rules::MAX_PRICE_CENTS, "US dollars; 0 is free."),
            "certificate": {"type": "boolean"},
            "tags": list(course_rules::MAX_TAGS, course_rules::MAX_TAG_CHARS),
            "outcomes": list(course_rules::MAX_LIST_ITEMS, course_rules::MAX_ITEM_CHARS),
            "requirements": list(course_rules::MAX_LIST_ITEMS, course_rules::MAX_ITEM_CHARS),
            "published": {"type": "boolean"}
        }
    });
    if creating {
        schema["required"] = json!(COURSE_REQUIRED);
    }
    schema
}

/// The fields a new post cannot do without.
const POST_REQUIRED: [&str; 4] = ["title", "description", "full_content", "author"];

fn post_fields(creating: bool) -> Value {
    use crate::domain::blogs as post_rules;
    // On an edit, `null` (or nothing) keeps a field as it is.
    let keepable = |mut field: Value| {
        if !creating {
            field["type"] = json!([field["type"].take(), "null"]);
        }
        field
    };
    let mut schema = json!({
        "type": "object",
        "description": "A post's fields; on an edit, only those to change. Its content must also hold words once cleaned of what a post may not hold, and name only pictures sent to `/uploads` (422 `required`, `photo_missing`).",
        "properties": {
            "title": keepable(super::line_of(post_rules::MAX_TITLE_CHARS)),
            "description": keepable(super::text_of(post_rules::MAX_DESCRIPTION_CHARS)),
            "full_content": keepable(json!({
                "type": "string",
                "minLength": 1,
                "description": format!("The post's HTML, at most {} bytes: headings, paragraphs, lists, quotes, links and pictures from `/media`.", post_rules::MAX_CONTENT_BYTES)
            })),
            "author": keepable(super::line_of(post_rules::MAX_AUTHOR_CHARS)),
            "category": or_null(super::blog_category()),
            "read_time": keepable(clearable(post_rules::MAX_READ_TIME_CHARS, HIDDEN)),
            "language": or_null(super::language()),
            "published": flag("Published (readers see it) or a draft."),
            "image": {"type": "string", "format": "binary", "description": "The picture (multipart only)."}
        }
    });
    schema["properties"]["read_time"]["description"] =
        json!("Blank: counted from the words, in each reader's language.");
    if creating {
        schema["required"] = json!(POST_REQUIRED);
    } else {
        schema["properties"]["remove_image"] = flag("Yes to take the post's picture away.");
    }
    schema
}

#[cfg(test)]
mod tests {
    use utoipa::PartialSchema;

    /// The document names every field the server reads, and only those.
    #[test]
    fn the_documented_fields_are_the_ones_read() {
        let read = serde_json::to_value(sync_protocol::ListingInput::schema()).unwrap();
        let documented = super::listing_fields(true);
        let names = |schema: &serde_json::Value| {
            let mut names: Vec<String> = schema["properties"].as_object().unwrap().keys().cloned().collect();
            names.sort();
            names
        };
        assert_eq!(names(&documented), names(&read));
        for field in super::LISTING_REQUIRED {
            assert!(documented["properties"].get(field).is_some(), "{field}");
        }
        let read = serde_json::to_value(crate::domain::courses::CourseInput::schema()).unwrap();
        let documented = super::course_fields(true);
        assert_eq!(names(&documented), names(&read));
        for field in super::COURSE_REQUIRED {
            assert!(documented["properties"].get(field).is_some(), "{field}");
        }
    }
}
