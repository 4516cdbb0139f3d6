//! What identifies an account: its email and its phone number, each unique among
//! live accounts (docs/accounts.md), and finding the account a typed number names.

use crate::db::Connection;

use super::person::Person;
use super::phone;
use crate::db::users::{self, NewUser, ProfileChanges, UserRow};
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::model::user::{Country, Role, Status};
use crate::platform::clock;

pub fn email_taken() -> AppError {
    AppError::invalid("email", "email_taken", "This email is already registered")
}

/// A new buyer's account (role `user`, active): made at sign-up, or by a field agent.
pub fn new_buyer(person: Person, password_hash: String, avatar: Option<String>) -> NewUser {
    NewUser {
        email: person.email,
        password_hash,
        first_name: person.first_name,
        last_name: person.last_name,
        phone_number: Some(person.phone_number),
        country: Some(person.country),
        role: Role::User,
        status: Status::Active,
        location: person.location,
        avatar,
    }
}

/// Refuses a new account's email or phone number that another account has.
pub fn check_new_account(conn: &Connection, email: Option<&str>, phone: &str) -> ApiResult<()> {
    let mut errors = FieldErrors::default();
    if let Some(email) = email {
        if users::email_taken(conn, email, None)? {
            errors.add("email", "email_taken", "This email is already registered");
        }
    }
    if users::phone_taken(conn, phone, None)? {
        errors.add("phone_number", "phone_taken", "This phone number is already registered");
    }
    errors.finish()
}

/// The accounts that sign in with a typed phone number: international (`+243…`)
/// or in the national form of one of the six countries, which may name an
/// account in each of two countries (at most two are returned). Numbers two
/// accounts shared before numbers were unique name none.
pub fn accounts_by_phone(conn: &Connection, typed: &str) -> ApiResult<Vec<UserRow>> {
    let mut numbers: Vec<String> = Country::ALL.iter().filter_map(|c| phone::to_e164(typed, *c)).collect();
    numbers.sort();
    numbers.dedup();
    if numbers.is_empty() {
        return Ok(Vec::new());
    }
    Ok(users::find_by_phones(conn, &numbers)?)
}

/// Inserts an account; a unique email or number taken meanwhile is the same 422 as when checked before.
pub fn insert_account(conn: &Connection, account: &NewUser) -> ApiResult<UserRow> {
    let Some(id) = users::insert(conn, account, &clock::now())? else {
        let phone = account.phone_number.as_deref().unwrap_or_default();
        check_new_account(conn, account.email.as_deref(), phone)?;
        return Err(email_taken());
    };
    users::find(conn, id)?.ok_or_else(|| AppError::internal("inserted user vanished"))
}

/// Refuses an email, phone number or username another account already has.
pub fn check_unique(conn: &Connection, user_id: i64, changes: &ProfileChanges) -> ApiResult<()> {
    let mut errors = FieldErrors::default();
    if let Some(email) = &changes.email {
        if users::email_taken(conn, email, Some(user_id))? {
            errors.add("email", "email_taken", "This email is already registered");
        }
    }
    if let Some(phone) = &changes.phone_number {
        if users::phone_taken(conn, phone, Some(user_id))? {
            errors.add("phone_number", "phone_taken", "This phone number is already registered");
        }
    }
    if let Some(username) = &changes.username {
        if users::username_taken(conn, username, Some(user_id))? {
            errors.add("username", "username_taken", "This username is already taken");
        }
    }
    errors.finish()
}
