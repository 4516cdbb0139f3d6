//! Sign-up, sign-in and profile changes as they run: password hashing and
//! photos off the async threads, throttles, then one transaction through
//! the domain's rules (domain/accounts.rs).

use std::net::IpAddr;
use std::sync::Arc;

use crate::AppState;
use crate::auth::{self, AuthUser, TokenKeys};
use crate::db::sessions;
use crate::db::users::{self, NewUser, UserRow};
use crate::domain::accounts::{
    self, AccountForm, MAX_PASSWORD_CHARS, ProfileEdit, email_taken, insert_account, invalid_credentials,
    normalise_email, validate_registration,
};
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::media::{AVATAR_SIZES, MediaStore};
use crate::model::user::{Role, Status};

async fn store_avatar(media: &MediaStore, avatar: Option<Vec<u8>>) -> ApiResult<Option<String>> {
    match avatar {
        Some(bytes) => Ok(Some(media.store_image(bytes, AVATAR_SIZES).await?)),
        None => Ok(None),
    }
}

/// Sign-up: a new buyer (role `user`, status `active`), signed in at once.
pub async fn register(state: &AppState, form: AccountForm) -> ApiResult<(UserRow, String)> {
    let registration = validate_registration(&form).map_err(AppError::Validation)?;
    let email = registration.email.clone();
    if state.db.read(move |conn| Ok(users::email_taken(conn, &email, None)?)).await? {
        return Err(email_taken());
    }
    let avatar = store_avatar(&state.media, form.avatar).await?;
    let account = NewUser {
        email: registration.email,
        password_hash: auth::hash_password_async(registration.password).await?,
        first_name: registration.first_name,
        last_name: registration.last_name,
        phone_number: Some(registration.phone_number),
        country: Some(registration.country),
        role: Role::User,
        status: Status::Active,
        location: None,
        avatar,
    };
    let keys = state.tokens.clone();
    state
        .db
        .write(move |tx| {
            let user = insert_account(tx, &account)?;
            let token = auth::start_session(tx, &keys, user.id)?;
            Ok((user, token))
        })
        .await
}

/// Sign-in. Unknown email and wrong password answer alike, and take the same time.
pub async fn login(state: &AppState, email: &str, password: &str, from: IpAddr) -> ApiResult<(UserRow, String)> {
    let mut errors = FieldErrors::default();
    if email.trim().is_empty() {
        errors.add("email", "email_required", "Email is required");
    }
    if password.is_empty() {
        errors.add("password", "password_required", "Password is required");
    }
    errors.finish()?;

    let email = normalise_email(email);
    let account_key = format!("email:{email}");
    let address_key = format!("ip:{from}");
    let keys = [account_key.as_str(), address_key.as_str()];
    if let Err(wait_secs) = state.login_throttle.check(&keys) {
        let minutes = wait_secs.div_ceil(60);
        return Err(AppError::too_many_requests(
            "too_many_attempts",
            format!("Too many failed sign-in attempts. Please wait {minutes} minutes and try again."),
            wait_secs,
        ));
    }
    let lookup = email.clone();
    let user = state.db.read(move |conn| Ok(users::find_by_email(conn, &lookup)?)).await?;
    let hash = user.as_ref().map(|u| u.password_hash.clone());
    let password = password.chars().take(MAX_PASSWORD_CHARS + 1).collect();
    let verified = auth::verify_password_async(hash, password).await?;
    let Some(user) = user.filter(|_| verified) else {
        state.login_throttle.record(&keys);
        return Err(invalid_credentials());
    };
    state.login_throttle.clear(&account_key);
    if user.status == Status::Inactive {
        return Err(AppError::forbidden(
            "account_inactive",
            "This account is not active. Please contact the MAVUNO team.",
        ));
    }
    let tokens: Arc<TokenKeys> = state.tokens.clone();
    let user_id = user.id;
    let token = state.db.write(move |tx| auth::start_session(tx, &tokens, user_id)).await?;
    Ok((user, token))
}

pub async fn logout(state: &AppState, auth: &AuthUser) -> ApiResult<()> {
    let jti = auth.jti.clone();
    state.db.write(move |tx| Ok(sessions::delete(tx, &jti)?)).await
}

/// A profile edit: checked, photo stored, password hashed, then saved.
pub async fn update_profile(state: &AppState, auth: &AuthUser, form: AccountForm) -> ApiResult<UserRow> {
    let ProfileEdit { mut changes, new_password } =
        accounts::validate_profile_edit(&form, auth.user.country).map_err(AppError::Validation)?;
    let user_id = auth.user.id;
    let (email, username) = (changes.email.clone(), changes.username.clone());
    state.db.read(move |conn| accounts::check_unique(conn, user_id, email.as_deref(), username.as_deref())).await?;
    changes.avatar = store_avatar(&state.media, form.avatar).await?;
    if let Some(password) = new_password {
        changes.password_hash = Some(auth::hash_password_async(password).await?);
    }
    let keep_session = auth.jti.clone();
    state.db.write(move |tx| accounts::save_profile(tx, user_id, &changes, &keep_session)).await
}

pub async fn delete_account(state: &AppState, auth: &AuthUser) -> ApiResult<()> {
    let user_id = auth.user.id;
    state.db.write(move |tx| accounts::erase(tx, user_id)).await
}
