//! Farmers' products (SPEC sections 3 and 5; issue 6): one model for the
//! farmer's form and the marketplace, validation in the spec's order, the
//! owner's rights, per-field merge of offline edits, and stock as a counter.

use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::surveys::{Loose, loose_bool};
use super::{conflicts, stamp};
use crate::clock;
use crate::db::products::{self as rows, ProductRow};
use crate::db::surveys::FieldVersions;
use crate::db::users::UserRow;
use crate::db::{sync, uploads};
use crate::domain::user::Role;
use crate::error::{ApiResult, AppError, FieldErrors};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    Vegetables,
    Fruits,
    Grains,
    Dairy,
    Beverages,
    /// Shown as "Herbs & Spices".
    Herbs,
}
string_enum!(Category {
    Vegetables => "vegetables",
    Fruits => "fruits",
    Grains => "grains",
    Dairy => "dairy",
    Beverages => "beverages",
    Herbs => "herbs",
});

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Unit {
    Kg,
    Piece,
}
string_enum!(Unit { Kg => "kg", Piece => "piece" });

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ProductStatus {
    Active,
    Inactive,
}
string_enum!(ProductStatus { Active => "active", Inactive => "inactive" });

pub const CERTIFICATIONS: [&str; 3] = ["organic", "fair-trade", "rainforest-alliance"];
/// A product with this many units or fewer is "low stock" on the farmer's screen.
pub const LOW_STOCK: i64 = 10;
pub const MAX_IMAGES: usize = 6;
const MAX_TITLE_CHARS: usize = 120;
const MAX_DESCRIPTION_CHARS: usize = 4000;
const MAX_TAGS: usize = 10;
const MAX_TAG_CHARS: usize = 30;
/// 1,000,000 USD: beyond any harvest, and far from integer limits.
const MAX_CENTS: i64 = 100_000_000;
const MAX_QUANTITY: i64 = 10_000_000;

/// What a farmer says about a product. Money is in US cents.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Listing {
    pub title: String,
    pub description: String,
    pub category: Category,
    pub unit: Unit,
    pub quantity: i64,
    pub price: i64,
    pub current_price: i64,
    pub status: ProductStatus,
    pub harvest_date: Option<String>,
    pub expiry_date: Option<String>,
    pub certifications: Vec<String>,
    pub tags: Vec<String>,
    pub shipping_available: bool,
    pub shipping_cost: i64,
    pub shipping_days: Option<String>,
    pub min_order: f64,
    pub max_order: Option<f64>,
    /// Photo hashes in the media store, the first one shown first.
    pub images: Vec<String>,
}

impl Default for Listing {
    fn default() -> Self {
        Listing {
            title: String::new(),
            description: String::new(),
            category: Category::Vegetables,
            unit: Unit::Kg,
            quantity: 0,
            price: 0,
            current_price: 0,
            status: ProductStatus::Active,
            harvest_date: None,
            expiry_date: None,
            certifications: Vec::new(),
            tags: Vec::new(),
            shipping_available: true,
            shipping_cost: 500,
            shipping_days: None,
            min_order: 1.0,
            max_order: None,
            images: Vec::new(),
        }
    }
}

/// What a client sends: any subset of the fields (absent ones keep their
/// value). Prices are USD with at most two decimals, as numbers or text.
#[derive(Debug, Default, Clone, Serialize, Deserialize, ToSchema)]
#[serde(default)]
pub struct ListingInput {
    pub title: Option<String>,
    pub description: Option<String>,
    pub category: Option<String>,
    pub unit: Option<String>,
    #[schema(value_type = Option<i64>)]
    pub quantity: Option<Loose>,
    #[schema(value_type = Option<f64>)]
    pub price: Option<Loose>,
    #[schema(value_type = Option<f64>)]
    pub current_price: Option<Loose>,
    pub status: Option<String>,
    pub harvest_date: Option<String>,
    pub expiry_date: Option<String>,
    pub certifications: Option<Vec<String>>,
    pub tags: Option<Vec<String>>,
    #[schema(value_type = Option<bool>)]
    pub shipping_available: Option<Loose>,
    #[schema(value_type = Option<f64>)]
    pub shipping_cost: Option<Loose>,
    pub shipping_days: Option<String>,
    #[schema(value_type = Option<f64>)]
    pub min_order: Option<Loose>,
    #[schema(value_type = Option<f64>)]
    pub max_order: Option<Loose>,
    /// Hashes of photos already sent to `PUT /uploads/{sha256}`.
    pub images: Option<Vec<String>>,
}

impl ListingInput {
    /// The fields this input sets, named as in `Listing`.
    pub fn given_fields(&self) -> Vec<String> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(map)) => {
                map.into_iter().filter(|(_, v)| !v.is_null()).map(|(k, _)| k).collect()
            }
            _ => Vec::new(),
        }
    }
}

/// Reads a price: a number or text of dollars with at most two decimals, at least 0.
pub fn parse_cents(value: &Loose) -> Option<i64> {
    let text = match value {
        Loose::Number(n) => format!("{n}"),
        Loose::Text(t) => t.trim().to_owned(),
        Loose::Bool(_) => return None,
    };
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    if whole.is_empty() && fraction.is_empty()
        || fraction.len() > 2
        || !whole.chars().all(|c| c.is_ascii_digit())
        || !fraction.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let dollars: i64 = if whole.is_empty() { 0 } else { whole.parse().ok()? };
    let cents: i64 = format!("{fraction:0<2}").parse().ok()?;
    dollars.checked_mul(100)?.checked_add(cents).filter(|c| *c <= MAX_CENTS)
}

fn parse_whole(value: &Loose) -> Option<i64> {
    match value {
        Loose::Number(n) if n.fract() == 0.0 && n.abs() <= MAX_QUANTITY as f64 => Some(*n as i64),
        Loose::Text(t) => t.trim().parse::<i64>().ok().filter(|n| n.abs() <= MAX_QUANTITY),
        _ => None,
    }
}

fn parse_amount(value: &Loose) -> Option<f64> {
    match value {
        Loose::Number(n) => Some(*n),
        Loose::Text(t) => t.trim().parse::<f64>().ok(),
        Loose::Bool(_) => None,
    }
    .filter(|n| n.is_finite() && *n > 0.0 && *n <= MAX_QUANTITY as f64)
}

fn is_date(text: &str) -> bool {
    time::Date::parse(text, &time::macros::format_description!("[year]-[month]-[day]")).is_ok()
}

fn blank_to_none(text: &str) -> Option<String> {
    Some(text.trim().to_owned()).filter(|t| !t.is_empty())
}

/// Whether this is a create (every required field must be there) or an edit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Create,
    Edit,
}

/// The listing after `input`, checked in SPEC section 5's order (title,
/// description, quantity, price, current price), then the marketplace fields.
pub fn apply(base: &Listing, input: &ListingInput, mode: Mode) -> Result<Listing, FieldErrors> {
    let mut errors = FieldErrors::default();
    let mut next = base.clone();
    let creating = mode == Mode::Create;

    for (field, given, slot, max, message) in [
        ("title", &input.title, &mut next.title, MAX_TITLE_CHARS, "Title is required"),
        ("description", &input.description, &mut next.description, MAX_DESCRIPTION_CHARS, "Description is required"),
    ] {
        match given.as_deref().map(str::trim) {
            Some("") => errors.add(field, "required", message),
            None if creating => errors.add(field, "required", message),
            Some(text) if text.chars().count() > max => {
                errors.add(field, "too_long", format!("The {field} is too long"))
            }
            Some(text) => *slot = text.to_owned(),
            None => {}
        }
    }
    match &input.quantity {
        None if creating => errors.add("quantity", "quantity_invalid", "Quantity must be a whole number of at least 1"),
        None => {}
        Some(value) => match parse_whole(value) {
            Some(n) if n >= 1 => next.quantity = n,
            _ => errors.add("quantity", "quantity_invalid", "Quantity must be a whole number of at least 1"),
        },
    }
    for (field, given, slot) in
        [("price", &input.price, &mut next.price), ("current_price", &input.current_price, &mut next.current_price)]
    {
        match given {
            None if creating => {
                errors.add(field, "price_invalid", "Enter a price of at least 0 with at most two decimals")
            }
            None => {}
            Some(value) => match parse_cents(value) {
                Some(cents) => *slot = cents,
                None => errors.add(field, "price_invalid", "Enter a price of at least 0 with at most two decimals"),
            },
        }
    }
    if let Some(text) = &input.category {
        match Category::parse(text.trim()) {
            Some(category) => next.category = category,
            None => errors.add("category", "invalid_option", "Please choose one of the categories"),
        }
    }
    if let Some(text) = &input.unit {
        match Unit::parse(text.trim()) {
            Some(unit) => next.unit = unit,
            None => errors.add("unit", "invalid_option", "The unit is kg or piece"),
        }
    }
    if let Some(text) = &input.status {
        match ProductStatus::parse(text.trim()) {
            Some(status) => next.status = status,
            None => errors.add("status", "invalid_option", "The status is active or inactive"),
        }
    }
    for (field, given, slot) in [
        ("harvest_date", &input.harvest_date, &mut next.harvest_date),
        ("expiry_date", &input.expiry_date, &mut next.expiry_date),
    ] {
        if let Some(text) = given {
            match blank_to_none(text) {
                Some(date) if !is_date(&date) => errors.add(field, "date_invalid", "Enter a date as YYYY-MM-DD"),
                other => *slot = other,
            }
        }
    }
    if let (Some(harvest), Some(expiry)) = (&next.harvest_date, &next.expiry_date) {
        if is_date(harvest) && is_date(expiry) && expiry < harvest {
            errors.add("expiry_date", "expiry_before_harvest", "The expiry date cannot be before the harvest date");
        }
    }
    if let Some(list) = &input.certifications {
        let mut chosen: Vec<String> = Vec::new();
        for item in list.iter().map(|c| c.trim().to_ascii_lowercase()) {
            if !CERTIFICATIONS.contains(&item.as_str()) {
                errors.add("certifications", "invalid_option", "Unknown certification");
                break;
            }
            if !chosen.contains(&item) {
                chosen.push(item);
            }
        }
        next.certifications = chosen;
    }
    if let Some(list) = &input.tags {
        let tags: Vec<String> = list.iter().filter_map(|t| blank_to_none(t)).collect();
        if tags.len() > MAX_TAGS || tags.iter().any(|t| t.chars().count() > MAX_TAG_CHARS) {
            errors.add("tags", "too_long", "At most 10 tags of 30 characters");
        }
        next.tags = tags;
    }
    if let Some(value) = &input.shipping_available {
        match loose_bool(value) {
            Some(b) => next.shipping_available = b,
            None => errors.add("shipping_available", "invalid_boolean", "Please answer yes or no"),
        }
    }
    if let Some(value) = &input.shipping_cost {
        match parse_cents(value) {
            Some(cents) => next.shipping_cost = cents,
            None => {
                errors.add("shipping_cost", "price_invalid", "Enter a price of at least 0 with at most two decimals")
            }
        }
    }
    if let Some(text) = &input.shipping_days {
        next.shipping_days = blank_to_none(text).filter(|d| d.chars().count() <= 20);
    }
    if let Some(value) = &input.min_order {
        match parse_amount(value) {
            Some(n) => next.min_order = n,
            None => errors.add("min_order", "amount_invalid", "Enter an amount above 0"),
        }
    }
    if let Some(value) = &input.max_order {
        let blank = matches!(value, Loose::Text(t) if t.trim().is_empty());
        match parse_amount(value) {
            _ if blank => next.max_order = None,
            Some(n) => next.max_order = Some(n),
            None => errors.add("max_order", "amount_invalid", "Enter an amount above 0"),
        }
    }
    if next.max_order.is_some_and(|max| max < next.min_order) {
        errors.add("max_order", "max_below_min", "The maximum order cannot be below the minimum order");
    }
    if let Some(images) = &input.images {
        if images.len() > MAX_IMAGES {
            errors.add("images", "too_many_images", "At most 6 photos");
        } else if images.iter().any(|h| !crate::media::is_hash(h)) {
            errors.add("images", "invalid_hash", "A photo reference is not a SHA-256");
        }
        next.images = images.iter().map(|h| h.to_ascii_lowercase()).collect();
    }
    if errors.is_empty() { Ok(next) } else { Err(errors) }
}

/// Fields whose value differs, by name.
fn changed_fields(old: &Listing, new: &Listing) -> Vec<String> {
    let (Ok(serde_json::Value::Object(old)), Ok(serde_json::Value::Object(new))) =
        (serde_json::to_value(old), serde_json::to_value(new))
    else {
        return Vec::new();
    };
    new.into_iter().filter(|(k, v)| old.get(k) != Some(v)).map(|(k, _)| k).collect()
}

fn not_found() -> AppError {
    AppError::not_found("product_not_found", "Product not found")
}

/// Only farmers list products.
pub fn check_farmer(actor: &UserRow) -> ApiResult<()> {
    if actor.role == Role::Farmer {
        Ok(())
    } else {
        Err(AppError::forbidden("farmers_only", "Only farmers can list products"))
    }
}

/// Every photo a listing names must have arrived (`PUT /uploads/{sha256}`).
fn missing_photos(conn: &Connection, listing: &Listing, before: &[String]) -> ApiResult<Vec<String>> {
    let mut missing = Vec::new();
    for hash in listing.images.iter().filter(|h| !before.contains(h)) {
        if uploads::find(conn, hash)?.is_none() {
            missing.push(hash.clone());
        }
    }
    Ok(missing)
}

pub fn photo_missing(hashes: &[String]) -> AppError {
    AppError::conflict("photo_missing", format!("These photos have not arrived yet: {}", hashes.join(", ")))
}

/// Which product: by its id (REST) or its uid (sync).
#[derive(Debug, Clone, Copy)]
pub enum ProductRef<'a> {
    Id(i64),
    Uid(&'a str),
}

/// A farmer's product, or "not found" for anyone else's.
fn owned(conn: &Connection, actor: &UserRow, target: ProductRef<'_>) -> ApiResult<ProductRow> {
    let found = match target {
        ProductRef::Id(id) => rows::find(conn, id)?,
        ProductRef::Uid(uid) => rows::find_by_uid(conn, &uid.to_lowercase())?,
    };
    found.filter(|p| p.farmer_id == actor.id && p.deleted_at.is_none()).ok_or_else(not_found)
}

/// Lists a product. A `uid` already used by the same farmer answers the
/// existing product, so a retried request never makes a second.
pub fn create(
    conn: &Connection,
    farmer: &UserRow,
    uid: Option<String>,
    input: &ListingInput,
) -> ApiResult<(ProductRow, bool)> {
    check_farmer(farmer)?;
    let uid = uid.unwrap_or_else(|| uuid::Uuid::new_v4().to_string()).to_lowercase();
    if !super::is_uuid(&uid) {
        return Err(AppError::invalid("uid", "invalid_uid", "The product id must be a UUID"));
    }
    if let Some(existing) = rows::find_by_uid(conn, &uid)? {
        return if existing.farmer_id == farmer.id && existing.deleted_at.is_none() {
            Ok((existing, false))
        } else {
            Err(AppError::conflict("uid_taken", "This product id is already in use"))
        };
    }
    let listing = apply(&Listing::default(), input, Mode::Create).map_err(AppError::Validation)?;
    let missing = missing_photos(conn, &listing, &[])?;
    if !missing.is_empty() {
        return Err(photo_missing(&missing));
    }
    let version = sync::next_version(conn)?;
    let mut versions = FieldVersions::new();
    let changed = changed_fields(&Listing::default(), &listing);
    stamp(&mut versions, &changed.iter().map(String::as_str).collect::<Vec<_>>(), version);
    let id = rows::insert(conn, &uid, farmer.id, &listing, &versions, version, &clock::now())?;
    Ok((rows::find(conn, id)?.ok_or_else(not_found)?, true))
}

/// Edits a product. `base` is the version an offline edit started from: the
/// fields it changes that someone else changed after `base` come back as
/// conflicts (the edit wins them); fields it does not touch keep the other change.
pub fn update(
    conn: &Connection,
    farmer: &UserRow,
    target: ProductRef<'_>,
    input: &ListingInput,
    base: Option<i64>,
) -> ApiResult<(ProductRow, Vec<String>)> {
    let product = owned(conn, farmer, target)?;
    let listing = apply(&product.listing, input, Mode::Edit).map_err(AppError::Validation)?;
    let missing = missing_photos(conn, &listing, &product.listing.images)?;
    if !missing.is_empty() {
        return Err(photo_missing(&missing));
    }
    let touched = input.given_fields();
    let conflicts = conflicts(&product.field_versions, &touched.iter().map(String::as_str).collect::<Vec<_>>(), base);
    let version = sync::next_version(conn)?;
    let mut versions = product.field_versions.clone();
    let changed = changed_fields(&product.listing, &listing);
    stamp(&mut versions, &changed.iter().map(String::as_str).collect::<Vec<_>>(), version);
    rows::update(conn, product.id, &listing, &versions, version, &clock::now())?;
    Ok((rows::find(conn, product.id)?.ok_or_else(not_found)?, conflicts))
}

/// Adds `delta` units to the stock (negative for a sale). Increments from
/// several devices add up instead of overwriting each other.
pub fn adjust_stock(conn: &Connection, farmer: &UserRow, target: ProductRef<'_>, delta: i64) -> ApiResult<ProductRow> {
    let product = owned(conn, farmer, target)?;
    let quantity = product.listing.quantity.saturating_add(delta);
    if !(0..=MAX_QUANTITY).contains(&quantity) {
        return Err(AppError::invalid("quantity", "stock_out_of_range", "The stock cannot go below 0"));
    }
    let mut listing = product.listing.clone();
    listing.quantity = quantity;
    let version = sync::next_version(conn)?;
    let mut versions = product.field_versions.clone();
    stamp(&mut versions, &["quantity"], version);
    rows::update(conn, product.id, &listing, &versions, version, &clock::now())?;
    rows::find(conn, product.id)?.ok_or_else(not_found)
}

/// Removes a product from sale and from the farmer's list; the row stays as a
/// tombstone so sync can say "deleted" and orders keep what they need.
pub fn delete(conn: &Connection, farmer: &UserRow, target: ProductRef<'_>) -> ApiResult<()> {
    let product = owned(conn, farmer, target)?;
    let version = sync::next_version(conn)?;
    rows::tombstone(conn, product.id, version, &clock::now())?;
    Ok(())
}

/// Lower case without accents, so "cafe" finds "Café" and "eleve" finds "Élevé".
pub fn fold(text: &str) -> String {
    text.chars()
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
            'ç' => 'c',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ñ' => 'n',
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            'ý' | 'ÿ' => 'y',
            other => other,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Option<Loose> {
        Some(Loose::Text(s.to_owned()))
    }

    fn complete() -> ListingInput {
        ListingInput {
            title: Some("Tomatoes".into()),
            description: Some("Ripe".into()),
            quantity: text("50"),
            price: text("2.50"),
            current_price: Some(Loose::Number(2.0)),
            ..ListingInput::default()
        }
    }

    #[test]
    fn prices_are_dollars_with_two_decimals_at_least_zero() {
        for (given, cents) in
            [("0", Some(0)), ("2.5", Some(250)), ("2.50", Some(250)), (".99", Some(99)), ("10", Some(1000))]
        {
            assert_eq!(parse_cents(&Loose::Text(given.into())), cents, "{given}");
        }
        for bad in ["-1", "2.505", "abc", "", "1e3", "1.2.3"] {
            assert_eq!(parse_cents(&Loose::Text(bad.into())), None, "{bad}");
        }
        assert_eq!(parse_cents(&Loose::Number(3.75)), Some(375));
    }

    #[test]
    fn a_new_product_needs_the_specs_fields_in_the_specs_order() {
        let errors = apply(&Listing::default(), &ListingInput::default(), Mode::Create).unwrap_err();
        assert_eq!(errors.codes(), ["required", "required", "quantity_invalid", "price_invalid", "price_invalid"]);
        let mut zero = complete();
        zero.quantity = text("0");
        assert!(apply(&Listing::default(), &zero, Mode::Create).unwrap_err().has("quantity"));
        let listing = apply(&Listing::default(), &complete(), Mode::Create).unwrap();
        assert_eq!((listing.quantity, listing.price, listing.current_price), (50, 250, 200));
    }

    #[test]
    fn marketplace_fields_are_checked() {
        let mut input = complete();
        input.category = Some("herbs".into());
        input.certifications = Some(vec!["Organic".into(), "organic".into()]);
        input.harvest_date = Some("2026-11-01".into());
        input.expiry_date = Some("2026-10-01".into());
        input.min_order = text("5");
        input.max_order = text("2");
        let errors = apply(&Listing::default(), &input, Mode::Create).unwrap_err();
        assert_eq!(errors.codes(), ["expiry_before_harvest", "max_below_min"]);
        input.expiry_date = Some("2026-12-01".into());
        input.max_order = text("");
        let listing = apply(&Listing::default(), &input, Mode::Create).unwrap();
        assert_eq!(
            (listing.category, listing.certifications, listing.max_order),
            (Category::Herbs, vec!["organic".to_owned()], None)
        );
    }

    #[test]
    fn search_text_folds_case_and_accents() {
        assert_eq!(fold("Café Élevé Ñame"), "cafe eleve name");
    }
}
