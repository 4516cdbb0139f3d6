//! Farmers' products (docs/products.md): one model for the farmer's form and
//! the marketplace, the owner's rights, per-field merge of offline edits, and
//! stock as a counter. The checks of a listing are in `validate`.

pub mod moderation;
mod validate;

pub use validate::{
    CERTIFICATIONS, LOW_STOCK, MAX_CENTS, MAX_DESCRIPTION_CHARS, MAX_IMAGES, MAX_QUANTITY, MAX_SHIPPING_DAYS_CHARS,
    MAX_TAG_CHARS, MAX_TAGS, MAX_TITLE_CHARS, Mode, apply, parse_cents,
};

use crate::db::Connection;
use sync_protocol::ListingInput;

use self::validate::changed_fields;
use super::long_text;
use super::merge::{Base, conflicts, stamp};
use crate::db::products::{self as rows, ProductRow};
use crate::db::texts::{self, TextKey};
use crate::db::users::UserRow;
use crate::db::{sync, uploads};
use crate::domain::made_once;
use crate::error::{ApiResult, AppError};
use crate::model::FieldVersions;
use crate::model::product::Listing;
use crate::model::user::Role;
use crate::platform::clock;

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

/// The code of [`photo_missing`]: sync answers it with `retry` instead of a refusal.
pub const PHOTO_MISSING: &str = "photo_missing";

pub fn photo_missing(hashes: &[String]) -> AppError {
    AppError::conflict(PHOTO_MISSING, format!("These photos have not arrived yet: {}", hashes.join(", ")))
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
    let known = rows::find_by_uid(conn, &uid)?;
    let mine = |k: &ProductRow| k.farmer_id == farmer.id && k.deleted_at.is_none();
    if let Some(known) = made_once(known, mine, "This product id is already in use")? {
        return Ok((known, false));
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
/// conflicts (the edit wins them); fields it does not touch, or sets to the
/// value they already have, keep the other change without a conflict.
pub fn update(
    conn: &Connection,
    farmer: &UserRow,
    target: ProductRef<'_>,
    input: &ListingInput,
    base: Option<Base<'_>>,
) -> ApiResult<(ProductRow, Vec<String>)> {
    let product = owned(conn, farmer, target)?;
    let mut listing = apply(&product.listing, input, Mode::Edit).map_err(AppError::Validation)?;
    let missing = missing_photos(conn, &listing, &product.listing.images)?;
    if !missing.is_empty() {
        return Err(photo_missing(&missing));
    }
    let changed = changed_fields(&product.listing, &listing);
    let changed: Vec<&str> = changed.iter().map(String::as_str).collect();
    let mut conflicts = conflicts(&product.field_versions, &changed, base.map(|b| b.version));
    let version = sync::next_version(conn)?;
    // The descriptions are long texts: edits of different sentences merge.
    if changed.contains(&"description") {
        let key = TextKey { entity: "product", record_id: product.id, field: "description" };
        let stored = (product.listing.description.as_str(), *product.field_versions.get("description").unwrap_or(&0));
        let written = long_text::write(conn, key, stored, base, &listing.description, version, MAX_DESCRIPTION_CHARS)?;
        if written.merged {
            conflicts.retain(|field| field != "description");
        }
        listing.description = written.text;
    }
    for (field, old, new) in [
        ("description_en", &product.listing.description_en, &mut listing.description_en),
        ("description_fr", &product.listing.description_fr, &mut listing.description_fr),
        ("description_sw", &product.listing.description_sw, &mut listing.description_sw),
    ] {
        if !changed.contains(&field) {
            continue;
        }
        let key = TextKey { entity: "product", record_id: product.id, field };
        let stored = (old.as_deref().unwrap_or(""), *product.field_versions.get(field).unwrap_or(&0));
        let sent = new.as_deref().unwrap_or("");
        let written = long_text::write(conn, key, stored, base, sent, version, MAX_DESCRIPTION_CHARS)?;
        if written.merged {
            conflicts.retain(|f| f != field);
        }
        *new = Some(written.text).filter(|text| !text.is_empty());
    }
    let mut versions = product.field_versions.clone();
    stamp(&mut versions, &changed, version);
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
    texts::delete(conn, "product", product.id)?;
    Ok(())
}
