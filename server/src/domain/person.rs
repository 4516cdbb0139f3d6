//! Who an account is for and how an email address is read: shared by accounts,
//! the identifiers an account is known by, and the platform's settings (so none of
//! them imports another for it).

use super::input::has_hidden_characters;
use crate::model::user::Country;

const MAX_EMAIL_CHARS: usize = 254;

/// Who a new account is for: names, phone number and country (required), email and
/// place (optional). The number is E.164: it identifies the account.
#[derive(Debug)]
pub struct Person {
    pub first_name: String,
    pub last_name: String,
    pub email: Option<String>,
    pub phone_number: String,
    pub country: Country,
    pub location: Option<String>,
}

pub fn normalise_email(email: &str) -> String {
    email.trim().to_lowercase()
}

/// An address with one `@`, something before it, and a dotted domain after it.
/// `looks_like_email` for the API document: one `@`, a dot in the part after it, no empty
/// label, no space nor hidden character (within `MAX_EMAIL_CHARS`, said as `maxLength`).
pub const EMAIL_PATTERN: &str = r"^[^@\s\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]+@([^@\s.\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]+\.)+[^@\s.\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]+$";

pub fn looks_like_email(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else { return false };
    !local.is_empty()
        && !domain.contains('@')
        && domain.contains('.')
        && domain.split('.').all(|label| !label.is_empty())
        && !email.chars().any(char::is_whitespace)
        && !has_hidden_characters(email, false)
        && email.chars().count() <= MAX_EMAIL_CHARS
}
