//! A person's favourite products, kept on their account so they follow them
//! from phone to phone.

use crate::db::Connection;

use crate::db::users::UserRow;
use crate::db::{favourites, products, sync};
use crate::error::{ApiResult, AppError};
use crate::platform::clock;

/// Marks (`on`) or unmarks the product `uid` as a favourite of `user`;
/// setting what is already set changes nothing (and takes no version).
pub fn set(tx: &Connection, user: &UserRow, uid: &str, on: bool) -> ApiResult<()> {
    let uid = uid.to_lowercase();
    if products::find_by_uid(tx, &uid)?.is_none() {
        return Err(AppError::not_found("product_not_found", "Product not found"));
    }
    if favourites::is_set(tx, user.id, &uid)? != Some(on) {
        favourites::set(tx, user.id, &uid, on, sync::next_version(tx)?, &clock::now())?;
    }
    Ok(())
}
