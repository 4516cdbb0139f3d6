//! Accounts: registration, sign-in, profile changes and erasure, with the
//! validation in the order and wording of docs/product.md, Validation.

use crate::db::Connection;
use serde::Deserialize;
use utoipa::ToSchema;

use super::input::has_hidden_characters;
use super::person::{Person, looks_like_email, normalise_email};
use super::{identifiers, phone};
use crate::db::users::{self, ProfileChanges, UserRow};
use crate::db::{sessions, surveys, sync};
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::model::user::{Country, Role, Status};
use crate::platform::clock;

pub const MIN_PASSWORD_CHARS: usize = 6;
/// Bounds the work a hostile client can make argon2 do.
pub const MAX_PASSWORD_CHARS: usize = 128;
const MAX_NAME_CHARS: usize = 100;
const MAX_TEXT_CHARS: usize = 200;
const MAX_PHONE_CHARS: usize = 32;

/// The `user[...]` fields a client may send, from multipart or JSON. Role,
/// status and id are not among them, so they cannot be set this way.
#[derive(Debug, Default, Deserialize, ToSchema)]
pub struct AccountForm {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub phone_number: Option<String>,
    /// One of DRC, BDI, RWA, UGA, TZA, KEN.
    pub country: Option<String>,
    pub password: Option<String>,
    pub password_confirmation: Option<String>,
    pub username: Option<String>,
    pub location: Option<String>,
    pub business_name: Option<String>,
    /// Needed to change the email or the password, so a borrowed token cannot take the account.
    pub current_password: Option<String>,
    /// `true` or `false`: SMS about applications, orders and payments (docs/sms.md).
    pub sms_updates: Option<String>,
    /// The avatar's bytes (multipart only).
    #[serde(skip)]
    #[schema(ignore)]
    pub avatar: Option<Vec<u8>>,
}

/// A trimmed, non-empty value, or `None`.
fn present(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

fn chars(value: &str) -> usize {
    value.chars().count()
}

pub fn check_password(errors: &mut FieldErrors, password: &str, confirmation: &str) {
    if password != confirmation {
        errors.add("password_confirmation", "passwords_do_not_match", "Passwords do not match");
    }
    let length = chars(password);
    if length < MIN_PASSWORD_CHARS {
        errors.add("password", "password_too_short", "Password must be at least 6 characters long");
    } else if length > MAX_PASSWORD_CHARS {
        errors.add("password", "password_too_long", "Password must be at most 128 characters long");
    }
}

fn check_length(errors: &mut FieldErrors, field: &str, value: Option<&str>, max: usize) {
    if value.is_some_and(|v| chars(v) > max) {
        errors.add(field, "too_long", format!("{} is too long (at most {max} characters)", label(field)));
    } else if value.is_some_and(|v| has_hidden_characters(v, false)) {
        errors.add(field, "invalid_characters", format!("{} contains characters that are not allowed", label(field)));
    }
}

fn label(field: &str) -> &'static str {
    match field {
        "first_name" => "First name",
        "last_name" => "Last name",
        "phone_number" => "Phone number",
        "location" => "Location",
        "business_name" => "Business name",
        "username" => "Username",
        _ => "This field",
    }
}

fn check_email_format(errors: &mut FieldErrors, email: Option<&str>) {
    if email.is_some_and(|e| !looks_like_email(e)) {
        errors.add("email", "email_invalid", "Please enter a valid email address");
    }
}

fn parse_country(errors: &mut FieldErrors, country: Option<&str>) -> Option<Country> {
    let code = country?;
    let parsed = Country::parse(&code.to_uppercase());
    if parsed.is_none() {
        errors.add("country", "country_invalid", "Please choose a country from the list");
    }
    parsed
}

/// The checks of what was given, shared by sign-up and profile edits: name
/// lengths, email shape, phone length, country code. Returns the normalised
/// email and the country when they were given.
fn check_formats(errors: &mut FieldErrors, form: &AccountForm) -> (Option<String>, Option<Country>) {
    check_length(errors, "first_name", present(&form.first_name), MAX_NAME_CHARS);
    check_length(errors, "last_name", present(&form.last_name), MAX_NAME_CHARS);
    let email = present(&form.email).map(normalise_email);
    check_email_format(errors, email.as_deref());
    check_length(errors, "phone_number", present(&form.phone_number), MAX_PHONE_CHARS);
    let country = parse_country(errors, present(&form.country));
    (email, country)
}

#[derive(Debug)]
pub struct Registration {
    pub person: Person,
    pub password: String,
}

/// The number in E.164, or a `phone_number_invalid` error when it cannot be read for the country.
fn read_phone(errors: &mut FieldErrors, typed: &str, country: Country) -> Option<String> {
    let read = phone::to_e164(typed, country);
    if read.is_none() && !errors.has("phone_number") {
        errors.add("phone_number", "phone_number_invalid", "Please enter a valid phone number for your country");
    }
    read
}

/// The required fields, then the format of what was given, after whatever `errors` holds.
fn check_person(mut errors: FieldErrors, form: &AccountForm) -> Result<Person, FieldErrors> {
    let required = [
        ("first_name", &form.first_name, "first_name_required", "First name is required"),
        ("last_name", &form.last_name, "last_name_required", "Last name is required"),
        ("phone_number", &form.phone_number, "phone_number_required", "Phone number is required"),
        ("country", &form.country, "country_required", "Country is required"),
    ];
    for (field, value, code, message) in required {
        if present(value).is_none() {
            errors.add(field, code, message);
        }
    }
    let (email, country) = check_formats(&mut errors, form);
    check_length(&mut errors, "location", present(&form.location), MAX_TEXT_CHARS);
    let phone = match (present(&form.phone_number), country) {
        (Some(typed), Some(country)) => read_phone(&mut errors, typed, country),
        _ => None,
    };
    match (errors.is_empty(), country, phone) {
        (true, Some(country), Some(phone_number)) => Ok(Person {
            first_name: present(&form.first_name).unwrap_or_default().to_owned(),
            last_name: present(&form.last_name).unwrap_or_default().to_owned(),
            email,
            phone_number,
            country,
            location: present(&form.location).map(str::to_owned),
        }),
        _ => Err(errors),
    }
}

/// docs/product.md, Validation, in order: passwords match, password length, then the
/// required fields, then the format of what was given. The email is optional
/// (docs/decisions.md); the phone number is required and must be readable.
pub fn validate_registration(form: &AccountForm) -> Result<Registration, FieldErrors> {
    let mut errors = FieldErrors::default();
    let password = form.password.clone().unwrap_or_default();
    check_password(&mut errors, &password, form.password_confirmation.as_deref().unwrap_or_default());
    Ok(Registration { person: check_person(errors, form)?, password })
}

/// A person a field agent registers: as at sign-up, without a password.
pub fn validate_person(form: &AccountForm) -> Result<Person, FieldErrors> {
    check_person(FieldErrors::default(), form)
}

pub fn invalid_credentials() -> AppError {
    AppError::unauthorized("invalid_credentials", "Invalid email or password")
}

/// The checked changes of a profile edit, and the new password if one was given.
pub struct ProfileEdit {
    pub changes: ProfileChanges,
    pub new_password: Option<String>,
}

/// Only non-empty fields change; a blank password keeps the current one.
pub fn validate_profile_edit(form: &AccountForm, current_country: Option<Country>) -> Result<ProfileEdit, FieldErrors> {
    let mut errors = FieldErrors::default();
    let new_password = present(&form.password).map(|_| form.password.clone().unwrap_or_default());
    if let Some(password) = &new_password {
        check_password(&mut errors, password, form.password_confirmation.as_deref().unwrap_or_default());
    }
    let (email, country) = check_formats(&mut errors, form);
    let username = present(&form.username).map(str::to_owned);
    check_length(&mut errors, "username", username.as_deref(), MAX_TEXT_CHARS);
    if username.as_deref().is_some_and(|u| !valid_username(u)) {
        errors.add("username", "username_invalid", "Username must be 3 to 30 letters, digits, dots or underscores");
    }
    check_length(&mut errors, "location", present(&form.location), MAX_TEXT_CHARS);
    check_length(&mut errors, "business_name", present(&form.business_name), MAX_TEXT_CHARS);
    let sms_updates = present(&form.sms_updates).map(|v| match v {
        "true" | "1" | "on" => Some(true),
        "false" | "0" | "off" => Some(false),
        _ => None,
    });
    if sms_updates == Some(None) {
        errors.add("sms_updates", "invalid_boolean", "SMS updates must be true or false");
    }
    let phone_number = present(&form.phone_number).and_then(|typed| match country.or(current_country) {
        // An account's number identifies it, so it must be readable where the country is known.
        Some(country) => read_phone(&mut errors, typed, country),
        None => Some(typed.to_owned()),
    });
    if !errors.is_empty() {
        return Err(errors);
    }
    let owned = |value: &Option<String>| present(value).map(str::to_owned);
    Ok(ProfileEdit {
        changes: ProfileChanges {
            first_name: owned(&form.first_name),
            last_name: owned(&form.last_name),
            email,
            phone_number,
            country,
            username,
            location: owned(&form.location),
            business_name: owned(&form.business_name),
            avatar: None,
            password_hash: None,
            sms_updates: sms_updates.flatten(),
        },
        new_password,
    })
}

fn valid_username(username: &str) -> bool {
    (3..=30).contains(&username.len()) && username.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Saves a checked profile edit. A new password signs out every device but
/// the one in `keep_session`.
pub fn save_profile(tx: &Connection, user_id: i64, changes: &ProfileChanges, keep_session: &str) -> ApiResult<UserRow> {
    let before = users::find(tx, user_id)?.ok_or_else(|| AppError::not_found("user_not_found", "Account not found"))?;
    match users::update_profile(tx, user_id, changes, &clock::now()) {
        Err(err) if users::is_unique_violation(&err) => {
            identifiers::check_unique(tx, user_id, changes)?;
            return Err(identifiers::email_taken());
        }
        other => other?,
    }
    // The marketplace shows the farmer's name and place with their products.
    crate::db::product_search::touch_farmer(tx, user_id)?;
    crate::db::texts::delete_of_user(tx, user_id)?;
    if changes.password_hash.is_some() {
        sessions::delete_for_user(tx, user_id, Some(keep_session))?;
    }
    let after = users::find(tx, user_id)?.ok_or_else(|| AppError::not_found("user_not_found", "Account not found"))?;
    match (&before.email, &after.email) {
        (Some(old), Some(new)) if old != new => {
            // The old address hears of it: if this was not its owner, they know whom to call.
            let lang = crate::domain::settings::lang_for(tx, before.country)?;
            let values = [("old", old.as_str()), ("new", new.as_str())];
            let subject = lang.format("email.account.email_changed_subject", &values);
            let body = format!(
                "{}\n\n{}",
                lang.format("email.account.email_changed_body", &values),
                lang.text("email.signature")
            );
            crate::db::outbox::enqueue(tx, old, &subject, &body, &clock::now())?;
        }
        _ => {}
    }
    Ok(after)
}

/// Whether a profile edit needs the current password: it changes the email, the
/// phone number (each signs in and receives reset codes) or the password.
pub fn needs_current_password(edit: &ProfileEdit, current: &UserRow) -> bool {
    let changes = |new: &Option<String>, old: &Option<String>| new.is_some() && new != old;
    edit.new_password.is_some()
        || changes(&edit.changes.email, &current.email)
        || changes(&edit.changes.phone_number, &current.phone_number)
}

pub fn current_password_required() -> AppError {
    AppError::invalid(
        "current_password",
        "current_password_required",
        "Please enter your current password to change your email, phone number or password",
    )
}

pub fn current_password_wrong() -> AppError {
    AppError::invalid("current_password", "current_password_wrong", "Your current password is not correct")
}

/// Erases the account (docs/accounts.md): its sessions end, its personal
/// data is removed, and the row stays as an anonymous placeholder.
pub fn erase(tx: &Connection, user_id: i64) -> ApiResult<()> {
    let me = users::find(tx, user_id)?.ok_or_else(|| AppError::not_found("user_not_found", "User not found"))?;
    if me.role == Role::SuperAdmin && me.status == Status::Active && users::active_super_admins(tx)? <= 1 {
        return Err(AppError::conflict(
            "last_super_admin",
            "The last active super admin cannot delete their account; make someone else super admin first",
        ));
    }
    let now = clock::now();
    sessions::delete_for_user(tx, user_id, None)?;
    if let Some(phone) = &me.phone_number {
        crate::db::phone_settings::forget(tx, phone)?;
    }
    users::erase(tx, user_id, &now)?;
    crate::db::product_search::touch_farmer(tx, user_id)?;
    crate::db::texts::delete_of_user(tx, user_id)?;
    crate::db::notifications::delete_of_user(tx, user_id)?;
    // Each tombstone takes its own version, so pull pages never split a version.
    for id in surveys::draft_ids_of(tx, user_id)? {
        surveys::tombstone(tx, id, sync::next_version(tx)?, &now)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(pairs: &[(&str, &str)]) -> AccountForm {
        let map: serde_json::Map<String, serde_json::Value> =
            pairs.iter().map(|(k, v)| ((*k).to_owned(), serde_json::Value::from(*v))).collect();
        serde_json::from_value(serde_json::Value::Object(map)).unwrap()
    }

    fn codes(result: Result<Registration, FieldErrors>) -> Vec<&'static str> {
        result.unwrap_err().codes()
    }

    #[test]
    fn an_empty_form_fails_in_the_specs_order() {
        assert_eq!(
            codes(validate_registration(&form(&[("password", "abc"), ("password_confirmation", "abd")]))),
            [
                "passwords_do_not_match",
                "password_too_short",
                "first_name_required",
                "last_name_required",
                "phone_number_required",
                "country_required"
            ]
        );
    }

    #[test]
    fn a_complete_form_is_cleaned_up() {
        let ok = validate_registration(&form(&[
            ("first_name", " Amani "),
            ("last_name", "Bahati"),
            ("email", " Amani@Example.COM "),
            ("phone_number", "0991 234 567"),
            ("country", "DRC"),
            ("password", "secret1"),
            ("password_confirmation", "secret1"),
        ]))
        .unwrap();
        assert_eq!(ok.person.first_name, "Amani");
        assert_eq!(ok.person.email.as_deref(), Some("amani@example.com"));
        assert_eq!(ok.person.phone_number, "+243991234567");
        assert_eq!(ok.person.country, Country::Drc);
    }

    #[test]
    fn a_phone_number_alone_makes_an_account_if_it_can_be_read() {
        let base = [
            ("first_name", "Neema"),
            ("last_name", "Bahati"),
            ("country", "DRC"),
            ("password", "secret1"),
            ("password_confirmation", "secret1"),
        ];
        let with = |phone: &str| form(&[&base[..], &[("phone_number", phone)]].concat());
        let ok = validate_registration(&with("099 123 4567")).unwrap();
        assert_eq!((ok.person.email, ok.person.phone_number.as_str()), (None, "+243991234567"));
        assert_eq!(codes(validate_registration(&with("12345"))), ["phone_number_invalid"]);
        let edit = validate_profile_edit(&form(&[("phone_number", "12")]), Some(Country::Drc));
        assert_eq!(edit.err().unwrap().codes(), ["phone_number_invalid"]);
    }

    #[test]
    fn formats_are_checked_after_presence() {
        let result = validate_registration(&form(&[
            ("first_name", "A"),
            ("last_name", "B"),
            ("email", "not-an-email"),
            ("phone_number", "12"),
            ("country", "FRA"),
            ("password", "secret1"),
            ("password_confirmation", "secret1"),
        ]));
        assert_eq!(codes(result), ["email_invalid", "country_invalid"]);
    }

    #[test]
    fn email_shapes() {
        assert!(looks_like_email("a@b.co"));
        for bad in ["a@b", "@b.co", "a b@c.co", "a@@b.co", "a@b..co", "a@.co"] {
            assert!(!looks_like_email(bad), "{bad}");
        }
    }

    #[test]
    fn profile_edits_ignore_blanks_and_check_new_passwords() {
        let edit = validate_profile_edit(&form(&[("first_name", "  "), ("last_name", "New")]), None).unwrap();
        assert_eq!(edit.changes.first_name, None);
        assert_eq!(edit.changes.last_name.as_deref(), Some("New"));
        assert!(edit.new_password.is_none());
        let errors =
            validate_profile_edit(&form(&[("password", "abc"), ("password_confirmation", "abd")]), None).err().unwrap();
        assert_eq!(errors.codes(), ["passwords_do_not_match", "password_too_short"]);
        let phone = validate_profile_edit(&form(&[("phone_number", "0712345678")]), Some(Country::Ken)).unwrap();
        assert_eq!(phone.changes.phone_number.as_deref(), Some("+254712345678"));
    }
}
