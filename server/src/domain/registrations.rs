//! People a field agent registers in the field, offline if need be (docs/accounts.md,
//! `person.register`): an active buyer's account with a phone number, no email and no
//! password. The person is texted how to sign in: "Forgot password?" with this number
//! sends a code, which sets their first password.

use crate::db::Connection;
use sync_protocol::PersonRegister;

use super::accounts::{self, AccountForm};
use super::{identifiers, sms};
use crate::db::users::{self, UserRow};
use crate::error::{ApiResult, AppError};

/// The password hash of an account nobody has chosen a password for: it matches none.
const NO_PASSWORD: &str = "!";

/// Registers the person `input` describes, for `agent` (a field agent or admin). The
/// same `uid` again, from the same agent, answers the account already made.
pub fn register(tx: &Connection, agent: &UserRow, input: &PersonRegister) -> ApiResult<UserRow> {
    if !agent.role.surveys_others() {
        return Err(AppError::forbidden("forbidden", "Only field agents and admins can register people"));
    }
    let uid = input.uid.to_lowercase();
    if !super::is_uuid(&uid) {
        return Err(AppError::invalid("uid", "invalid_uid", "The registration id must be a UUID"));
    }
    if let Some((person, by)) = users::find_by_registered_uid(tx, &uid)? {
        return if by == agent.id {
            Ok(person)
        } else {
            Err(AppError::conflict("uid_taken", "This registration id is already in use"))
        };
    }
    let form = AccountForm {
        first_name: Some(input.first_name.clone()),
        last_name: Some(input.last_name.clone()),
        phone_number: Some(input.phone_number.clone()),
        country: Some(input.country.clone()),
        location: input.location.clone(),
        ..AccountForm::default()
    };
    let person = accounts::validate_person(&form).map_err(AppError::Validation)?;
    identifiers::check_new_account(tx, None, &person.phone_number)?;
    let user = identifiers::insert_account(tx, &identifiers::new_buyer(person, NO_PASSWORD.to_owned(), None))?;
    users::set_registration(tx, user.id, &uid, agent.id)?;
    sms::send(tx, &user, "registered", &[])?;
    Ok(user)
}

/// Opens an account for someone who joined from a basic phone (docs/ussd.md): the
/// same checks and the same account as an agent's registration, texted a welcome that
/// says what to dial and how to sign in to the app.
pub fn join_by_phone(tx: &Connection, form: &AccountForm) -> ApiResult<UserRow> {
    let person = accounts::validate_person(form).map_err(AppError::Validation)?;
    identifiers::check_new_account(tx, None, &person.phone_number)?;
    let user = identifiers::insert_account(tx, &identifiers::new_buyer(person, NO_PASSWORD.to_owned(), None))?;
    sms::send(tx, &user, "joined", &[])?;
    Ok(user)
}

/// The person a field agent's phone registered under `uid`, for an application it files for them.
pub fn registered(conn: &Connection, uid: &str) -> ApiResult<UserRow> {
    users::find_by_registered_uid(conn, &uid.to_lowercase())?.map(|(person, _)| person).ok_or_else(|| {
        AppError::invalid(
            "person_uid",
            "person_not_registered",
            "The person this application is for could not be registered",
        )
    })
}
