//! Checking a listing (docs/products.md): the farmer's form fields in order
//! (title, description, quantity, price, current price), then the
//! marketplace fields.

use sync_protocol::{ListingInput, Loose};

use crate::domain::input::loose_bool;
use crate::error::FieldErrors;
use crate::model::product::{Category, Listing, ProductStatus, Unit};

pub const CERTIFICATIONS: [&str; 3] = ["organic", "fair-trade", "rainforest-alliance"];
/// A product with this many units or fewer is "low stock" on the farmer's screen.
pub const LOW_STOCK: i64 = 10;
pub const MAX_IMAGES: usize = 6;
pub const MAX_TITLE_CHARS: usize = 120;
pub const MAX_DESCRIPTION_CHARS: usize = 4000;
pub const MAX_TAGS: usize = 10;
pub const MAX_TAG_CHARS: usize = 30;
/// 1,000,000 USD: beyond any harvest, and far from integer limits.
pub const MAX_CENTS: i64 = 100_000_000;
pub const MAX_QUANTITY: i64 = 10_000_000;
/// A longer delivery time ("2-3 days") is not kept.
pub const MAX_SHIPPING_DAYS_CHARS: usize = 20;

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

/// The listing after `input`, checked in the order of docs/product.md, Validation (title,
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
            Some(text) if crate::domain::input::has_hidden_characters(text, field == "description") => {
                errors.add(field, "invalid_characters", format!("The {field} contains characters that are not allowed"))
            }
            Some(text) => *slot = text.to_owned(),
            None => {}
        }
    }
    // The names and descriptions in other languages: optional, a blank clears one.
    let (name, description) = ((MAX_TITLE_CHARS, false, "name"), (MAX_DESCRIPTION_CHARS, true, "description"));
    for (field, given, slot, (max, multiline, what)) in [
        ("title_en", &input.title_en, &mut next.title_en, name),
        ("title_fr", &input.title_fr, &mut next.title_fr, name),
        ("title_sw", &input.title_sw, &mut next.title_sw, name),
        ("description_en", &input.description_en, &mut next.description_en, description),
        ("description_fr", &input.description_fr, &mut next.description_fr, description),
        ("description_sw", &input.description_sw, &mut next.description_sw, description),
    ] {
        match given.as_deref().map(str::trim) {
            Some(text) if text.chars().count() > max => {
                errors.add(field, "too_long", format!("The {what} is too long"))
            }
            Some(text) if crate::domain::input::has_hidden_characters(text, multiline) => {
                errors.add(field, "invalid_characters", format!("The {what} contains characters that are not allowed"))
            }
            Some(text) => *slot = blank_to_none(text),
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
        } else if tags.iter().any(|t| crate::domain::input::has_hidden_characters(t, false)) {
            errors.add("tags", "invalid_characters", "The tags contain characters that are not allowed");
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
        next.shipping_days = blank_to_none(text).filter(|d| d.chars().count() <= MAX_SHIPPING_DAYS_CHARS);
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
        } else if images.iter().any(|h| !crate::model::picture::is_hash(h)) {
            errors.add("images", "invalid_hash", "A photo reference is not a SHA-256");
        }
        next.images = images.iter().map(|h| h.to_ascii_lowercase()).collect();
    }
    if errors.is_empty() { Ok(next) } else { Err(errors) }
}

/// Fields whose value differs, by name.
pub(super) fn changed_fields(old: &Listing, new: &Listing) -> Vec<String> {
    let (Ok(serde_json::Value::Object(old)), Ok(serde_json::Value::Object(new))) =
        (serde_json::to_value(old), serde_json::to_value(new))
    else {
        return Vec::new();
    };
    new.into_iter().filter(|(k, v)| old.get(k) != Some(v)).map(|(k, _)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::product::Category;

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
}
