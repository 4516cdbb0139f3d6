//! Sign-up, sign-in and profile changes as they run: password hashing and
//! photos off the async threads, throttles, then one transaction through
//! the domain's rules (domain/accounts.rs).

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use crate::auth::{self, AuthUser, TokenKeys};
use crate::db::throttles::{KnownPlaces, Limit, Pacer};
use crate::db::users::{self, UserRow};
use crate::db::{Connection, sessions};
use crate::domain::accounts::{
    self, AccountForm, MAX_PASSWORD_CHARS, ProfileEdit, invalid_credentials, validate_registration,
};
use crate::domain::identifiers::{self, insert_account};
use crate::domain::person::normalise_email;
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::model::user::Status;
use crate::outbound::media::{AVATAR_SIZES, MediaStore};
use crate::state::AppState;

async fn store_avatar(media: &MediaStore, avatar: Option<Vec<u8>>) -> ApiResult<Option<String>> {
    match avatar {
        Some(bytes) => Ok(Some(media.store_image(bytes, AVATAR_SIZES).await?)),
        None => Ok(None),
    }
}

/// Sign-up: a new buyer (role `user`, status `active`), signed in at once.
/// A valid form counts against its address's sign-ups (docs/security.md).
pub async fn register(state: &AppState, form: AccountForm, from: IpAddr) -> ApiResult<(UserRow, String)> {
    let registration = validate_registration(&form).map_err(AppError::Validation)?;
    let address_key = format!("ip:{from}");
    state.throttles.signup.reserve(&[&address_key]).await?.map_err(|wait_secs| {
        AppError::too_many_requests(
            "too_many_signups",
            "Many accounts were created from this connection in a short time. Please wait a few minutes.",
            wait_secs,
        )
    })?;
    let person = registration.person;
    let (email, phone) = (person.email.clone(), person.phone_number.clone());
    state.db.read(move |conn| identifiers::check_new_account(conn, email.as_deref(), &phone)).await?;
    let avatar = store_avatar(&state.media, form.avatar).await?;
    let password_hash = auth::hash_password_async(registration.password).await?;
    let account = identifiers::new_buyer(person, password_hash, avatar);
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

/// Who is signing in: by email, or by phone number (international, or national
/// in one of the six countries' forms).
pub enum SignIn {
    Email(String),
    Phone(String),
}

impl SignIn {
    /// The throttles' name for the account tried: the email, or the number's last
    /// eight digits, so every way of writing one number counts together.
    fn key(&self) -> String {
        match self {
            SignIn::Email(email) => format!("email:{}", normalise_email(email)),
            SignIn::Phone(typed) => format!("phone:{}", crate::domain::phone::last_digits(typed)),
        }
    }
}

/// Sign-in. Unknown accounts and wrong passwords answer alike, and take the same time.
///
/// Throttles (docs/security.md): each attempt is counted before the password
/// is checked and given back when it succeeds; per (account, address) ten
/// failures block that pair, per address a hundred block the address; past
/// ten failures on an account from anywhere, attempts on it take turns five
/// seconds apart. Where the account's owner signed in before, neither the
/// address's count nor the pace applies, and a full pair slows down instead.
pub async fn login(state: &AppState, who: SignIn, password: &str, from: IpAddr) -> ApiResult<(UserRow, String)> {
    let mut errors = FieldErrors::default();
    match &who {
        SignIn::Email(email) if email.trim().is_empty() => errors.add("email", "email_required", "Email is required"),
        SignIn::Phone(phone) if phone.trim().is_empty() => {
            errors.add("phone_number", "phone_number_required", "Phone number is required")
        }
        _ => {}
    }
    if password.is_empty() {
        errors.add("password", "password_required", "Password is required");
    }
    errors.finish()?;

    let keys = AttemptKeys::of(&who, from);
    let limits = SignInLimits::of(state);
    let counted = keys.clone();
    let (pause, known_place) = state.db.write_together(move |tx| limits.count(tx, &counted)).await?;
    if !pause.is_zero() {
        tokio::time::sleep(pause).await;
    }

    let candidates = state
        .db
        .read(move |conn| match who {
            SignIn::Email(email) => Ok(users::find_by_email(conn, &normalise_email(&email))?.into_iter().collect()),
            SignIn::Phone(typed) => identifiers::accounts_by_phone(conn, &typed),
        })
        .await?;
    let password: String = password.chars().take(MAX_PASSWORD_CHARS + 1).collect();
    let mut signed_in = None;
    if candidates.is_empty() {
        // An unknown account takes as long as a wrong password.
        auth::verify_password_async(None, password.clone()).await?;
    }
    // A national number may name one account in each of two countries: the password tells which.
    for user in candidates {
        if auth::verify_password_async(Some(user.password_hash.clone()), password.clone()).await? {
            signed_in = Some(user);
            break;
        }
    }
    let Some(user) = signed_in else {
        return Err(invalid_credentials());
    };
    state.db.write_together(move |tx| limits.signed_in(tx, &keys, known_place)).await?;
    if auth::needs_rehash(&user.password_hash) {
        rehash(state, user.id, user.password_hash.clone(), password);
    }
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

/// Hashes a password that signed in again with today's settings (auth.rs, 7 MiB
/// instead of the old 19), after the answer, so the next sign-in takes less memory.
fn rehash(state: &AppState, user_id: i64, old_hash: String, password: String) {
    let state = state.clone();
    tokio::spawn(async move {
        let rehashed = async {
            let new_hash = auth::hash_password_async(password).await?;
            state.db.write(move |tx| Ok(users::rehash_password(tx, user_id, &old_hash, &new_hash)?)).await
        };
        if let Err(err) = rehashed.await {
            tracing::warn!(user_id, %err, "could not rehash a password");
        }
    });
}

/// What one sign-in attempt is counted under: its account, its address and the pair.
#[derive(Clone)]
struct AttemptKeys {
    account: String,
    address: String,
    pair: String,
    from: IpAddr,
}

impl AttemptKeys {
    fn of(who: &SignIn, from: IpAddr) -> AttemptKeys {
        let account = who.key();
        AttemptKeys { pair: format!("{account}|ip:{from}"), address: format!("ip:{from}"), account, from }
    }
}

/// The throttles a sign-in is counted against (see `login`).
#[derive(Clone, Copy)]
struct SignInLimits {
    pair: Limit,
    address: Limit,
    account: Limit,
    pace: Pacer,
    places: KnownPlaces,
    slow_after: usize,
}

impl SignInLimits {
    fn of(state: &AppState) -> SignInLimits {
        let throttles = &state.throttles;
        SignInLimits {
            pair: throttles.login_pair.limit(),
            address: throttles.login_address,
            account: throttles.login_account,
            pace: throttles.login_pace,
            places: throttles.known_places,
            slow_after: state.config.login_slow_after,
        }
    }

    /// Counts an attempt, in one write with its checks (as attempts sent at once take
    /// turns), or refuses it: then the write is undone and nothing is counted. Answers
    /// how long it waits for its turn, and whether its owner signed in from there before.
    fn count(self, tx: &Connection, keys: &AttemptKeys) -> ApiResult<(Duration, bool)> {
        let known_place = self.places.contains(tx, &keys.account, keys.from)?;
        self.account.reserve(tx, &[&keys.account])?.ok();
        if !known_place {
            self.address.reserve(tx, &[&keys.address])?.map_err(too_many_attempts)?;
        }
        let mut pause = match self.pair.reserve(tx, &[&keys.pair])? {
            Ok(()) => Duration::ZERO,
            Err(wait) if !known_place => return Err(too_many_attempts(wait)),
            // The owner's own address is slowed down, never locked out: its attempts take turns.
            Err(_) => self.pace.turn(tx, &keys.pair)?.map_err(too_many_attempts)?,
        };
        if !known_place && self.account.count(tx, &keys.account)? > self.slow_after {
            pause = pause.max(self.pace.turn(tx, &keys.account)?.map_err(too_many_attempts)?);
        }
        Ok((pause, known_place))
    }

    /// The right password: what the attempt counted is given back, the pair starts
    /// afresh and the address is one its owner signs in from.
    fn signed_in(self, tx: &Connection, keys: &AttemptKeys, known_place: bool) -> ApiResult<()> {
        self.account.release(tx, &[&keys.account])?;
        if !known_place {
            self.address.release(tx, &[&keys.address])?;
        }
        self.pair.clear(tx, &keys.pair)?;
        self.places.add(tx, &keys.account, keys.from)?;
        Ok(())
    }
}

fn too_many_attempts(wait_secs: u64) -> AppError {
    let minutes = wait_secs.div_ceil(60);
    AppError::too_many_requests(
        "too_many_attempts",
        format!("Too many failed sign-in attempts. Please wait {minutes} minutes and try again."),
        wait_secs,
    )
}

pub async fn logout(state: &AppState, auth: &AuthUser) -> ApiResult<()> {
    let jti = auth.jti.clone();
    state.db.write(move |tx| Ok(sessions::delete(tx, &jti)?)).await
}

/// A profile edit: checked, photo stored, password hashed, then saved.
pub async fn update_profile(state: &AppState, auth: &AuthUser, form: AccountForm) -> ApiResult<UserRow> {
    let edit = accounts::validate_profile_edit(&form, auth.user.country).map_err(AppError::Validation)?;
    if accounts::needs_current_password(&edit, &auth.user) {
        check_current_password(state, auth, form.current_password.as_deref()).await?;
    }
    let ProfileEdit { changes, new_password } = edit;
    let user_id = auth.user.id;
    let mut changes =
        state.db.read(move |conn| identifiers::check_unique(conn, user_id, &changes).map(|()| changes)).await?;
    changes.avatar = store_avatar(&state.media, form.avatar).await?;
    if let Some(password) = new_password {
        changes.password_hash = Some(auth::hash_password_async(password).await?);
    }
    let keep_session = auth.jti.clone();
    let saved = state.db.write(move |tx| accounts::save_profile(tx, user_id, &changes, &keep_session)).await?;
    Ok(saved)
}

/// The current password, checked like a sign-in: at most ten wrong tries per
/// window, so a borrowed token cannot guess it either.
async fn check_current_password(state: &AppState, auth: &AuthUser, given: Option<&str>) -> ApiResult<()> {
    let Some(given) = given.filter(|p| !p.is_empty()) else { return Err(accounts::current_password_required()) };
    let key = format!("current:{}", auth.user.id);
    state.throttles.login_pair.reserve(&[&key]).await?.map_err(|wait_secs| {
        AppError::too_many_requests(
            "too_many_attempts",
            format!("Too many failed attempts. Please wait {} minutes and try again.", wait_secs.div_ceil(60)),
            wait_secs,
        )
    })?;
    let password = given.chars().take(MAX_PASSWORD_CHARS + 1).collect();
    if !auth::verify_password_async(Some(auth.user.password_hash.clone()), password).await? {
        return Err(accounts::current_password_wrong());
    }
    state.throttles.login_pair.release(&[&key]).await
}

pub async fn delete_account(state: &AppState, auth: &AuthUser) -> ApiResult<()> {
    let user_id = auth.user.id;
    state.db.write(move |tx| accounts::erase(tx, user_id)).await
}
