//! Passwords (argon2id), tokens (HS256 JWTs backed by a `sessions` row so
//! they can be revoked) and the extractors that guard handlers.

use std::path::Path;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use argon2::Argon2;
use argon2::password_hash::rand_core::{OsRng, RngCore};
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use axum::extract::{FromRef, FromRequestParts};
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use crate::db::users::UserRow;
use crate::db::{Db, sessions, users};
use crate::error::{ApiResult, AppError};
use crate::model::user::Status;
use crate::platform::clock;

pub(crate) const SECRET_FILE: &str = "jwt-secret";

// ---- passwords ----

/// argon2id with 7 MiB and 5 passes: one of OWASP's equivalent settings (with 19 MiB
/// and 2 passes, the crate's default, which hashes made before 2026-11-26 use), the one
/// lightest in memory: two sign-ins at once held 38 MiB of a small server, now 14.
const MEMORY_KIB: u32 = 7 * 1024;
const PASSES: u32 = 5;

fn hasher() -> Argon2<'static> {
    let params = argon2::Params::new(MEMORY_KIB, PASSES, 1, None).expect("valid argon2 parameters");
    Argon2::new(argon2::Algorithm::Argon2id, argon2::Version::V0x13, params)
}

pub fn hash_password(password: &str) -> ApiResult<String> {
    let salt = SaltString::generate(&mut OsRng);
    hasher().hash_password(password.as_bytes(), &salt).map(|hash| hash.to_string()).map_err(AppError::internal)
}

/// A hash made with other settings than today's (it still verifies: a hash carries its own).
pub fn needs_rehash(hash: &str) -> bool {
    let Ok(parsed) = PasswordHash::new(hash) else { return false };
    let Ok(params) = argon2::Params::try_from(&parsed) else { return false };
    parsed.algorithm != argon2::Algorithm::Argon2id.ident()
        || (params.m_cost(), params.t_cost(), params.p_cost()) != (MEMORY_KIB, PASSES, 1)
}

/// Checks `password` against `hash`; with no usable hash (an unknown account, or
/// one nobody has chosen a password for, `!`) it checks against a fixed one and
/// fails, so every answer takes the same time and none tells which kind it was.
pub fn verify_password(hash: Option<&str>, password: &str) -> bool {
    static DUMMY: OnceLock<String> = OnceLock::new();
    let dummy = DUMMY.get_or_init(|| hash_password("not a real password").unwrap_or_default());
    let (target, real) = match hash.filter(|h| PasswordHash::new(h).is_ok()) {
        Some(hash) => (hash, true),
        None => (dummy.as_str(), false),
    };
    let Ok(parsed) = PasswordHash::new(target) else { return false };
    // Each hash's own settings (the old default's, or today's).
    hasher().verify_password(password.as_bytes(), &parsed).is_ok() && real
}

/// Each argon2 run takes 7 MiB (19 for a hash of the old settings) and a core's worth
/// of work for a moment; at most two at once keeps memory and CPU bounded under a
/// flood of sign-ins.
static HASHING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(2);

/// Runs the CPU-heavy hashing off the async threads.
pub async fn hash_password_async(password: String) -> ApiResult<String> {
    let _permit = HASHING.acquire().await.map_err(AppError::internal)?;
    tokio::task::spawn_blocking(move || hash_password(&password)).await?
}

pub async fn verify_password_async(hash: Option<String>, password: String) -> ApiResult<bool> {
    let _permit = HASHING.acquire().await.map_err(AppError::internal)?;
    Ok(tokio::task::spawn_blocking(move || verify_password(hash.as_deref(), &password)).await?)
}

// ---- tokens ----

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    pub sub: String,
    pub jti: String,
    pub iat: i64,
    pub exp: i64,
}

pub struct TokenKeys {
    encoding: EncodingKey,
    decoding: DecodingKey,
    ttl: Duration,
}

pub struct IssuedToken {
    pub token: String,
    pub jti: String,
    pub expires_at: String,
}

impl TokenKeys {
    /// Uses the configured secret, else the one in the data dir, creating it on first start.
    pub fn load(data_dir: &Path, configured: Option<&str>, ttl: Duration) -> std::io::Result<TokenKeys> {
        let secret = match configured {
            // Anything shorter can be guessed offline from one token.
            Some(secret) if secret.len() < MIN_SECRET_BYTES => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("the token secret (MAVUNO_JWT_SECRET) must be at least {MIN_SECRET_BYTES} characters long"),
                ));
            }
            Some(secret) => secret.to_owned(),
            None => load_or_create_secret(&data_dir.join(SECRET_FILE))?,
        };
        Ok(TokenKeys {
            encoding: EncodingKey::from_secret(secret.as_bytes()),
            decoding: DecodingKey::from_secret(secret.as_bytes()),
            ttl,
        })
    }

    pub fn issue(&self, user_id: i64) -> ApiResult<IssuedToken> {
        let now = OffsetDateTime::now_utc();
        let expires = now + self.ttl;
        let claims = Claims {
            sub: user_id.to_string(),
            jti: uuid::Uuid::new_v4().to_string(),
            iat: now.unix_timestamp(),
            exp: expires.unix_timestamp(),
        };
        let token = jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding)
            .map_err(AppError::internal)?;
        Ok(IssuedToken { token, jti: claims.jti, expires_at: clock::format(expires) })
    }

    pub fn verify(&self, token: &str) -> ApiResult<Claims> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.leeway = 0;
        validation.set_required_spec_claims(&["exp", "sub"]);
        jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation).map(|data| data.claims).map_err(|err| {
            match err.kind() {
                ErrorKind::ExpiredSignature => {
                    AppError::unauthorized("token_expired", "Your session has expired. Please sign in again.")
                }
                _ => invalid_token(),
            }
        })
    }
}

/// A password nobody chose: 16 letters and digits (about 90 bits), without
/// the look-alikes (0/O, 1/l/I) so it can be read off a terminal.
pub fn random_password() -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut bytes = [0u8; 16];
    OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| char::from(ALPHABET[usize::from(*b) % ALPHABET.len()])).collect()
}

/// A configured token secret must be at least this long (a generated one is 64 hex digits).
pub const MIN_SECRET_BYTES: usize = 32;

pub fn load_or_create_secret(path: &Path) -> std::io::Result<String> {
    if let Ok(secret) = std::fs::read_to_string(path) {
        if secret.trim().len() >= MIN_SECRET_BYTES {
            return Ok(secret.trim().to_owned());
        }
    }
    let mut bytes = [0u8; 32];
    OsRng.try_fill_bytes(&mut bytes).map_err(std::io::Error::other)?;
    let secret = hex::encode(bytes);
    write_private(path, &secret)?;
    Ok(secret)
}

#[cfg(unix)]
pub(crate) fn write_private(path: &Path, contents: &str) -> std::io::Result<()> {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new().write(true).create(true).truncate(true).mode(0o600).open(path)?;
    file.write_all(contents.as_bytes())
}

#[cfg(not(unix))]
pub(crate) fn write_private(path: &Path, contents: &str) -> std::io::Result<()> {
    std::fs::write(path, contents)
}

fn invalid_token() -> AppError {
    AppError::unauthorized("invalid_token", "Your session is not valid. Please sign in again.")
}

/// Sessions one person may hold at once: far more than their devices (phones
/// reinstalled or cleared leave theirs behind until they expire), so only a
/// script that signs in again and again meets it.
pub const MAX_SESSIONS: i64 = 100;

/// Records a new session for `user_id` in the caller's transaction.
pub fn start_session(conn: &crate::db::Connection, keys: &TokenKeys, user_id: i64) -> ApiResult<String> {
    let issued = keys.issue(user_id)?;
    sessions::insert(conn, &issued.jti, user_id, &clock::now(), &issued.expires_at)?;
    // Sessions are rows: a person signed in on more devices than this loses the oldest.
    sessions::keep_newest(conn, user_id, MAX_SESSIONS)?;
    Ok(issued.token)
}

// ---- extractors ----

/// A signed-in person with a live session. Rejects with 401 otherwise.
pub struct AuthUser {
    pub user: UserRow,
    /// The token's id, so logout can revoke exactly this session.
    pub jti: String,
}

/// The shared state an extractor below needs: the token keys and the database
/// (`AppState` gives both; `FromRef` keeps this module from naming it).
pub trait Guarded: Send + Sync {
    fn keys(&self) -> Arc<TokenKeys>;
    fn db(&self) -> Db;
}

impl<S: Send + Sync> Guarded for S
where
    Arc<TokenKeys>: FromRef<S>,
    Db: FromRef<S>,
{
    fn keys(&self) -> Arc<TokenKeys> {
        Arc::from_ref(self)
    }
    fn db(&self) -> Db {
        Db::from_ref(self)
    }
}

impl<S: Guarded> FromRequestParts<S> for AuthUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let header = parts.headers.get(AUTHORIZATION).and_then(|v| v.to_str().ok());
        let Some(token) = header.and_then(|h| h.strip_prefix("Bearer ")).map(str::trim).filter(|t| !t.is_empty())
        else {
            return Err(AppError::unauthorized("missing_token", "Please sign in to continue."));
        };
        signed_in(state, token).await
    }
}

/// The person `token` signs in, with a live session and an active account.
pub async fn signed_in<S: Guarded>(state: &S, token: &str) -> ApiResult<AuthUser> {
    let claims = state.keys().verify(token)?;
    let jti = claims.jti;
    let lookup_jti = jti.clone();
    let user = state
        .db()
        .read(move |conn| {
            let Some(user_id) = sessions::live_user(conn, &lookup_jti, &clock::now())? else { return Ok(None) };
            Ok(users::find(conn, user_id)?)
        })
        .await?;
    let Some(user) = user.filter(|u| u.id.to_string() == claims.sub) else { return Err(invalid_token()) };
    if user.status == Status::Inactive {
        return Err(account_inactive());
    }
    Ok(AuthUser { user, jti })
}

pub fn account_inactive() -> AppError {
    AppError::unauthorized("account_inactive", "This account is not active. Please contact the MAVUNO team.")
}

/// The signed-in person when the request carries a valid token, else `None`.
/// A bad or expired token is still refused (401), so the client learns its
/// session ended instead of silently acting anonymously.
pub struct MaybeAuthUser(pub Option<AuthUser>);

impl<S: Guarded> FromRequestParts<S> for MaybeAuthUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        if !parts.headers.contains_key(AUTHORIZATION) {
            return Ok(MaybeAuthUser(None));
        }
        AuthUser::from_request_parts(parts, state).await.map(|auth| MaybeAuthUser(Some(auth)))
    }
}

/// An admin or super admin; anyone else signed in gets 403.
pub struct AdminUser(pub AuthUser);

impl<S: Guarded> FromRequestParts<S> for AdminUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let auth = AuthUser::from_request_parts(parts, state).await?;
        if !auth.user.role.is_admin() {
            return Err(AppError::forbidden("forbidden", "You do not have permission to do this."));
        }
        Ok(AdminUser(auth))
    }
}

/// A field agent, admin or super admin: someone who fills applications for other people.
pub struct AgentUser(pub AuthUser);

impl<S: Guarded> FromRequestParts<S> for AgentUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let auth = AuthUser::from_request_parts(parts, state).await?;
        if !auth.user.role.surveys_others() {
            return Err(AppError::forbidden("forbidden", "You do not have permission to do this."));
        }
        Ok(AgentUser(auth))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_of_the_old_settings_still_verify_and_are_marked_for_rehashing() {
        let salt = SaltString::generate(&mut OsRng);
        let old = Argon2::default().hash_password(b"secret123", &salt).unwrap().to_string();
        assert!(old.contains("m=19456,t=2,p=1"), "{old}");
        assert!(verify_password(Some(&old), "secret123"));
        assert!(!verify_password(Some(&old), "secret124"));
        assert!(needs_rehash(&old));
        let new = hash_password("secret123").unwrap();
        assert!(new.contains("m=7168,t=5,p=1"), "{new}");
        assert!(!needs_rehash(&new));
        assert!(!needs_rehash("!"), "no password: nothing to rehash");
    }

    #[test]
    fn passwords_verify_only_against_their_own_hash() {
        let hash = hash_password("secret123").unwrap();
        assert!(hash.starts_with("$argon2id$"));
        assert!(verify_password(Some(&hash), "secret123"));
        assert!(!verify_password(Some(&hash), "secret124"));
        assert!(!verify_password(None, "not a real password"), "no account never verifies");
        assert!(!verify_password(Some("!"), "not a real password"), "nor one with no password");
    }

    #[test]
    fn tokens_round_trip_and_reject_tampering() {
        let dir = tempfile::tempdir().unwrap();
        let keys = TokenKeys::load(dir.path(), None, Duration::from_secs(60)).unwrap();
        let issued = keys.issue(7).unwrap();
        let claims = keys.verify(&issued.token).unwrap();
        assert_eq!((claims.sub.as_str(), claims.jti), ("7", issued.jti));
        let mut forged = issued.token.clone();
        forged.pop();
        assert_eq!(keys.verify(&forged).unwrap_err().code(), "invalid_token");
        // The secret persists, so tokens survive a restart.
        let again = TokenKeys::load(dir.path(), None, Duration::from_secs(60)).unwrap();
        assert!(again.verify(&issued.token).is_ok());
    }
}
