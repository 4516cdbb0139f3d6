//! An admin hides a listing with a reason, or restores it (docs/api.md, Admin
//! products). The farmer is told by email and SMS, in their language, and sees the
//! reason on their own product; the new version takes it off every phone's market.

use crate::db::Connection;

use crate::db::products::{self as rows, ProductRow};
use crate::db::users::UserRow;
use crate::db::{admin_products, outbox, sync, users};
use crate::domain::input::has_hidden_characters;
use crate::domain::settings::lang_for;
use crate::domain::sms;
use crate::error::{ApiResult, AppError};
use crate::platform::clock;
use crate::platform::gsm7;

pub const MAX_REASON_CHARS: usize = 500;
/// A product's title in an SMS is cut to this many characters (every template fits one segment).
pub const SMS_TITLE_CHARS: usize = 30;

fn live(conn: &Connection, id: i64) -> ApiResult<ProductRow> {
    rows::find(conn, id)?
        .filter(|p| p.deleted_at.is_none())
        .ok_or_else(|| AppError::not_found("product_not_found", "Product not found"))
}

/// Hides listing `id` from the marketplace for `reason` (a new reason replaces the old).
pub fn hide(tx: &Connection, admin: &UserRow, id: i64, reason: &str) -> ApiResult<ProductRow> {
    let reason = reason.trim();
    if reason.is_empty() {
        return Err(AppError::invalid(
            "reason",
            "hide_reason_required",
            "Say why the listing is hidden: its farmer reads it",
        ));
    }
    if reason.chars().count() > MAX_REASON_CHARS {
        return Err(AppError::invalid("reason", "too_long", "The reason is too long (at most 500 characters)"));
    }
    if has_hidden_characters(reason, true) {
        return Err(AppError::invalid(
            "reason",
            "invalid_characters",
            "The reason contains characters that are not allowed",
        ));
    }
    let product = live(tx, id)?;
    admin_products::hide(tx, id, reason, admin.id, sync::next_version(tx)?, &clock::now())?;
    tell_farmer(tx, &product, "hidden", reason)?;
    live(tx, id)
}

/// Puts hidden listing `id` back (on sale again if its farmer has it active).
pub fn restore(tx: &Connection, id: i64) -> ApiResult<ProductRow> {
    let product = live(tx, id)?;
    if product.hidden.is_none() {
        return Ok(product);
    }
    admin_products::restore(tx, id, sync::next_version(tx)?, &clock::now())?;
    tell_farmer(tx, &product, "restored", "")?;
    live(tx, id)
}

/// `email.product.<what>_*` and `sms.product_<what>` to the product's farmer.
fn tell_farmer(tx: &Connection, product: &ProductRow, what: &str, reason: &str) -> ApiResult<()> {
    let Some(farmer) = users::find(tx, product.farmer_id)? else { return Ok(()) };
    let lang = lang_for(tx, farmer.country)?;
    let title = product.listing.title.as_str();
    let values = [("name", farmer.greeting_name()), ("title", title.to_owned()), ("reason", reason.to_owned())];
    let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    if let Some(email) = &farmer.email {
        let subject = lang.format(&format!("email.product.{what}_subject"), &values);
        let body = format!(
            "{}\n\n{}",
            lang.format(&format!("email.product.{what}_body"), &values),
            lang.text("email.signature")
        );
        outbox::enqueue(tx, email, &subject, &body, &clock::now())?;
    }
    let link = crate::domain::notifications::section("products");
    crate::domain::notifications::notify(tx, farmer.id, &format!("product_{what}"), &link, &[("title", title)])?;
    let short = gsm7::cut(&gsm7::fold(title), SMS_TITLE_CHARS);
    sms::text_person(tx, &farmer, &format!("product_{what}"), &[("title", &short)])
}
