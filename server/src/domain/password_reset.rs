//! Forgotten passwords (docs/accounts.md): a link by email that works once, for an
//! hour. Asking answers the same whether or not the address has an account; the
//! link carries a random token of which only the hash is stored; using it sets the
//! new password, spends every open link of the account and signs out every phone.

use std::time::Duration;

use rusqlite::Connection;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::clock;
use crate::db::users::UserRow;
use crate::db::{outbox, password_resets, sessions, users};
use crate::domain::accounts::{check_password, normalise_email};
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::labels::Lang;
use crate::model::user::Status;

/// How long a link works.
pub const LINK_LIFETIME: Duration = Duration::from_secs(3600);
/// Links sent to one account per hour at most; more requests are answered alike and send nothing.
const LINKS_PER_HOUR: i64 = 3;

fn hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// Writes a link for the account of `email` (if there is an active one) to the
/// email outbox, in the person's language; `origin` is where the app is opened.
/// Returns whether an email was queued (for the log; never for the answer).
pub fn request(tx: &Connection, email: &str, origin: &str) -> ApiResult<bool> {
    let Some(user) = users::find_by_email(tx, &normalise_email(email))? else { return Ok(false) };
    if user.status != Status::Active {
        return Ok(false);
    }
    if password_resets::sent_since(tx, user.id, &clock::before_now(LINK_LIFETIME))? >= LINKS_PER_HOUR {
        return Ok(false);
    }
    let token = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let now = OffsetDateTime::now_utc();
    password_resets::insert(tx, &hash(&token), user.id, &clock::format(now), &clock::format(now + LINK_LIFETIME))?;
    let lang = Lang::for_country(user.country);
    let link = format!("{origin}/reset-password?token={token}");
    let name = user.first_name.clone();
    let subject = lang.text("email.password_reset.subject");
    let body = format!(
        "{}\n\n{}",
        lang.format("email.password_reset.body", &[("name", &name), ("link", &link)]),
        lang.text("email.signature")
    );
    outbox::enqueue(tx, &user.email, &subject, &body, &clock::now())?;
    Ok(true)
}

/// The new password, checked as at sign-up.
pub fn validate(password: &str, confirmation: &str) -> Result<(), FieldErrors> {
    let mut errors = FieldErrors::default();
    check_password(&mut errors, password, confirmation);
    if errors.is_empty() { Ok(()) } else { Err(errors) }
}

/// The account a link opens, if it still may: known, unused, in time, and active.
pub fn check(conn: &Connection, token: &str) -> ApiResult<i64> {
    let invalid = || AppError::invalid("token", "reset_link_invalid", "This link is not valid. Ask for a new one.");
    let row = password_resets::find(conn, &hash(token))?.ok_or_else(invalid)?;
    if row.used_at.is_some() {
        return Err(AppError::invalid("token", "reset_link_used", "This link was already used. Ask for a new one."));
    }
    if row.expires_at <= clock::now() {
        return Err(AppError::invalid("token", "reset_link_expired", "This link has expired. Ask for a new one."));
    }
    match users::find(conn, row.user_id)? {
        Some(user) if user.status == Status::Active => Ok(user.id),
        _ => Err(invalid()),
    }
}

/// Sets the password the link was for (already hashed), in one transaction.
pub fn reset(tx: &Connection, token: &str, password_hash: &str) -> ApiResult<UserRow> {
    let user_id = check(tx, token)?;
    let now = clock::now();
    users::set_password(tx, user_id, password_hash, &now)?;
    password_resets::use_all(tx, user_id, &now)?;
    sessions::delete_for_user(tx, user_id, None)?;
    users::find(tx, user_id)?.ok_or_else(|| AppError::not_found("user_not_found", "Account not found"))
}
