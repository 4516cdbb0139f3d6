//! `mavuno create-user`: an account of any role from the command line (the first super
//! admin), through the same rules as a sign-up.

use mavuno::Config;
use mavuno::auth;
use mavuno::db::users::NewUser;
use mavuno::domain::{accounts, identifiers, person};
use mavuno::model::user::{Role, Status};
use mavuno::state::AppState;

pub async fn create_user(
    config: Config,
    email: &str,
    password: &str,
    role: &str,
    first_name: String,
    last_name: String,
) -> Result<(), String> {
    let Some(role) = Role::parse(role) else {
        let roles: Vec<&str> = Role::ALL.iter().map(|r| r.as_str()).collect();
        return Err(format!("unknown role {role:?}; use one of {}", roles.join(", ")));
    };
    let email = person::normalise_email(email);
    if !person::looks_like_email(&email) {
        return Err(format!("{email:?} is not a valid email address"));
    }
    let length = password.chars().count();
    if !(accounts::MIN_PASSWORD_CHARS..=accounts::MAX_PASSWORD_CHARS).contains(&length) {
        return Err("the password must be 6 to 128 characters long".to_owned());
    }
    let state = AppState::open(config).await.map_err(|e| e.to_string())?;
    let account = NewUser {
        email: Some(email.clone()),
        password_hash: auth::hash_password(password).map_err(|e| e.to_string())?,
        first_name,
        last_name,
        phone_number: None,
        country: None,
        role,
        status: Status::Active,
        location: None,
        avatar: None,
    };
    let user = state.db.write(move |tx| identifiers::insert_account(tx, &account)).await.map_err(|err| {
        if matches!(err, mavuno::error::AppError::Validation(_)) {
            format!("a user with email {email} already exists")
        } else {
            err.to_string()
        }
    })?;
    println!("created {} {} (id {})", user.role, user.email.as_deref().unwrap_or_default(), user.id);
    Ok(())
}
