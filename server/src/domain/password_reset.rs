//! Forgotten passwords (docs/accounts.md): a link by email that works once, for an
//! hour, or a six-digit code by SMS that works once, for 15 minutes. Asking answers
//! the same whether or not an account has that address or number; only hashes are
//! stored; using one sets the new password, spends every open link and code of the
//! account and signs out every phone. Five wrong codes spend the account's codes.

use std::time::Duration;

use crate::db::Connection;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use crate::db::users::UserRow;
use crate::db::{outbox, password_resets, sessions, users};
use crate::domain::accounts::check_password;
use crate::domain::identifiers::accounts_by_phone;
use crate::domain::person::normalise_email;
use crate::domain::settings::lang_for;
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::model::user::Status;
use crate::platform::clock;

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
    let email = normalise_email(email);
    let Some(user) = users::find_by_email(tx, &email)? else { return Ok(false) };
    if user.status != Status::Active {
        return Ok(false);
    }
    if password_resets::sent_since(tx, user.id, &clock::before_now(LINK_LIFETIME))? >= LINKS_PER_HOUR {
        return Ok(false);
    }
    let token = format!("{}{}", uuid::Uuid::new_v4().simple(), uuid::Uuid::new_v4().simple());
    let now = OffsetDateTime::now_utc();
    let (created, expires) = (clock::format(now), clock::format(now + LINK_LIFETIME));
    password_resets::insert(tx, &hash(&token), "link", user.id, &created, &expires)?;
    let lang = lang_for(tx, user.country)?;
    let link = format!("{origin}/reset-password?token={token}");
    let name = user.first_name.clone();
    let subject = lang.text("email.password_reset.subject");
    let body = format!(
        "{}\n\n{}",
        lang.format("email.password_reset.body", &[("name", &name), ("link", &link)]),
        lang.text("email.signature")
    );
    outbox::enqueue(tx, &email, &subject, &body, &clock::now())?;
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
    let row = password_resets::find(conn, &hash(token), "link")?.ok_or_else(invalid)?;
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
    set_password(tx, user_id, password_hash)
}

/// How long an SMS code works.
pub const CODE_LIFETIME: Duration = Duration::from_secs(15 * 60);
/// Wrong codes before the account's open codes are spent.
pub const CODE_TRIES: i64 = 5;

/// The one active account a typed phone number names (domain/accounts.rs,
/// `accounts_by_phone`); `None` when there is none or more than one.
pub fn account_by_phone(conn: &Connection, typed: &str) -> ApiResult<Option<UserRow>> {
    Ok(match accounts_by_phone(conn, typed)?.as_slice() {
        [one] if one.status == Status::Active => Some(one.clone()),
        _ => None,
    })
}

fn code_hash(user_id: i64, code: &str) -> String {
    hash(&format!("sms:{user_id}:{code}"))
}

/// Texts a code to the account of `phone` (if there is one), whatever its SMS
/// updates say: the person asked for it. Returns whether one was written.
pub fn request_code(tx: &Connection, phone: &str) -> ApiResult<bool> {
    let Some(user) = account_by_phone(tx, phone)? else { return Ok(false) };
    if password_resets::sent_since(tx, user.id, &clock::before_now(LINK_LIFETIME))? >= LINKS_PER_HOUR {
        return Ok(false);
    }
    let code = format!("{:06}", u128::from_le_bytes(*uuid::Uuid::new_v4().as_bytes()) % 1_000_000);
    let now = OffsetDateTime::now_utc();
    let (created, expires) = (clock::format(now), clock::format(now + CODE_LIFETIME));
    password_resets::insert(tx, &code_hash(user.id, &code), "sms", user.id, &created, &expires)?;
    super::sms::send(tx, &user, "reset_code", &[("code", &code)])?;
    Ok(true)
}

/// The account a code opens, or why not (the outer error is the database's). A
/// wrong code counts against the account's open codes, so the transaction must
/// commit also when the code is refused; an unknown number is a wrong code.
pub fn check_code(tx: &Connection, phone: &str, code: &str) -> ApiResult<Result<i64, AppError>> {
    let wrong =
        || AppError::invalid("code", "reset_code_wrong", "This code is not right. Check the SMS or ask for a new one.");
    let Some(user) = account_by_phone(tx, phone)? else { return Ok(Err(wrong())) };
    let now = clock::now();
    Ok(match password_resets::find(tx, &code_hash(user.id, code.trim()), "sms")? {
        Some(row) if row.used_at.is_none() && row.expires_at > now => Ok(user.id),
        Some(_) => Err(AppError::invalid(
            "code",
            "reset_code_expired",
            "This code has expired or was used. Ask for a new one.",
        )),
        None => {
            password_resets::wrong_code(tx, user.id, CODE_TRIES, &now)?;
            Err(wrong())
        }
    })
}

/// Sets the password a code was for (already hashed), in one transaction.
pub fn reset_with_code(tx: &Connection, phone: &str, code: &str, password_hash: &str) -> ApiResult<UserRow> {
    let user_id = check_code(tx, phone, code)??;
    set_password(tx, user_id, password_hash)
}

fn set_password(tx: &Connection, user_id: i64, password_hash: &str) -> ApiResult<UserRow> {
    let now = clock::now();
    users::set_password(tx, user_id, password_hash, &now)?;
    password_resets::use_all(tx, user_id, &now)?;
    sessions::delete_for_user(tx, user_id, None)?;
    users::find(tx, user_id)?.ok_or_else(|| AppError::not_found("user_not_found", "Account not found"))
}
