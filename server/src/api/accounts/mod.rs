//! Accounts: sign-up, sign-in, the signed-in person's profile, sign-out and
//! erasure (docs/api.md).

mod flows;
mod reset;

use axum::Json;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::MessageResponse;
use super::extract::{ApiJson, ClientIp, UserForm};
use crate::auth::AuthUser;
use crate::db::users::UserRow;
use crate::domain::accounts::AccountForm;
use crate::error::{ApiResult, ErrorBody};
use crate::model::user::{Country, Role, Status};
use crate::outbound::media::{self, MediaStore};
use crate::state::AppState;

/// Forms that carry an avatar: the image plus a little room for the text fields.
const MULTIPART_LIMIT: usize = media::MAX_IMAGE_BYTES + 256 * 1024;

pub fn routes() -> OpenApiRouter<AppState> {
    let with_avatar = OpenApiRouter::new()
        .routes(routes!(register))
        .routes(routes!(update_me))
        .layer(DefaultBodyLimit::max(MULTIPART_LIMIT))
        .layer(axum::middleware::from_fn(|request, next| media::reserve_body(MULTIPART_LIMIT, request, next)));

    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(me))
        .routes(routes!(logout))
        .routes(routes!(delete_me))
        .merge(reset::routes())
        .merge(with_avatar)
}

/// A person as the API shows them: never a password or its hash.
#[derive(Debug, Serialize, ToSchema)]
pub struct UserJson {
    pub id: i64,
    pub first_name: String,
    pub last_name: String,
    pub full_name: String,
    /// `null` for an account made with a phone number only.
    pub email: Option<String>,
    /// E.164 when it could be read for the person's country.
    pub phone_number: Option<String>,
    pub country: Option<Country>,
    pub username: Option<String>,
    pub role: Role,
    pub status: Status,
    pub location: Option<String>,
    pub avatar_url: Option<String>,
    pub business_profile: Option<BusinessProfile>,
    pub created_at: String,
    pub updated_at: String,
    /// SMS about applications, orders and payments (docs/sms.md); turned off in the profile.
    pub sms_updates: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BusinessProfile {
    pub name: String,
}

impl From<UserRow> for UserJson {
    fn from(row: UserRow) -> Self {
        UserJson {
            id: row.id,
            full_name: format!("{} {}", row.first_name, row.last_name).trim().to_owned(),
            first_name: row.first_name,
            last_name: row.last_name,
            email: row.email,
            phone_number: row.phone_number,
            country: row.country,
            username: row.username,
            role: row.role,
            status: row.status,
            location: row.location,
            avatar_url: row.avatar.map(|hash| MediaStore::url(&hash, media::AVATAR_SIZES[0])),
            business_profile: row.business_name.map(|name| BusinessProfile { name }),
            created_at: row.created_at,
            updated_at: row.updated_at,
            sms_updates: row.sms_updates,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct SessionData {
    user: UserJson,
    token: String,
}

#[derive(Serialize, ToSchema)]
pub struct RegisterResponse {
    success: bool,
    message: String,
    data: SessionData,
}

/// JSON form of sign-up (the multipart form uses `user[field]` names).
#[derive(Deserialize, ToSchema)]
#[allow(dead_code)] // documents the body; UserForm reads it
struct RegisterJson {
    user: AccountForm,
}

/// Create an account. New accounts are buyers (`user`), active, and signed in at once.
#[utoipa::path(post, path = "/users", tag = "accounts",
    request_body(description = "Multipart `user[first_name]`, `user[last_name]`, `user[email]`, `user[phone_number]`, \
        `user[country]`, `user[password]`, `user[password_confirmation]`, optional `user[avatar]` image; or the same as JSON.",
        content((RegisterJson = "application/json"), (AccountForm = "multipart/form-data"))),
    responses(
        (status = 201, body = RegisterResponse),
        (status = 413, description = "Avatar over 5 MB", body = ErrorBody),
        (status = 415, description = "Avatar is not an image", body = ErrorBody),
        (status = 422, description = "Validation failed (docs/product.md, Validation order)", body = ErrorBody),
        (status = 429, description = "Too many sign-ups from this address", body = ErrorBody),
        (status = 503, description = "Busy with other pictures; try again after Retry-After", body = ErrorBody),
    ))]
async fn register(
    State(state): State<AppState>,
    ClientIp(from): ClientIp,
    UserForm(form): UserForm,
) -> ApiResult<(StatusCode, Json<RegisterResponse>)> {
    let (user, token) = flows::register(&state, form, from).await?;
    Ok((
        StatusCode::CREATED,
        Json(RegisterResponse {
            success: true,
            message: "Registration successful! Welcome to MAVUNO.".to_owned(),
            data: SessionData { user: user.into(), token },
        }),
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct LoginRequest {
    user: Credentials,
}

/// An email or a phone number (international, or national in one of the six countries),
/// and the password; documented by `api::document::credentials`.
#[derive(Deserialize)]
pub struct Credentials {
    email: Option<String>,
    /// Sent instead of `email` to sign in by phone number.
    phone_number: Option<String>,
    #[serde(default)]
    password: String,
}

impl utoipa::PartialSchema for Credentials {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::api::document::credentials()
    }
}
impl ToSchema for Credentials {}

#[derive(Serialize, ToSchema)]
pub struct UserWithToken {
    #[serde(flatten)]
    user: UserJson,
    token: String,
}

#[derive(Serialize, ToSchema)]
pub struct LoginResponse {
    success: bool,
    user: UserWithToken,
}

/// Sign in with an email or a phone number. Failed attempts are throttled per account and per address.
#[utoipa::path(post, path = "/users/login", tag = "accounts", request_body = LoginRequest,
    responses(
        (status = 200, body = LoginResponse),
        (status = 401, description = "Invalid email, phone number or password", body = ErrorBody),
        (status = 403, description = "The account is not active", body = ErrorBody),
        (status = 422, description = "Email (or phone number) or password missing", body = ErrorBody),
        (status = 429, description = "Too many failed attempts", body = ErrorBody),
    ))]
async fn login(
    State(state): State<AppState>,
    ClientIp(from): ClientIp,
    ApiJson(request): ApiJson<LoginRequest>,
) -> ApiResult<Json<LoginResponse>> {
    let Credentials { email, phone_number, password } = request.user;
    let who = match (email, phone_number) {
        (None, Some(phone)) => flows::SignIn::Phone(phone),
        (email, _) => flows::SignIn::Email(email.unwrap_or_default()),
    };
    let (user, token) = flows::login(&state, who, &password, from).await?;
    Ok(Json(LoginResponse { success: true, user: UserWithToken { user: user.into(), token } }))
}

#[derive(Serialize, ToSchema)]
pub struct MeResponse {
    success: bool,
    user: UserJson,
}

/// The signed-in person.
#[utoipa::path(get, path = "/me", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = MeResponse), (status = 401, body = ErrorBody)))]
async fn me(auth: AuthUser) -> Json<MeResponse> {
    Json(MeResponse { success: true, user: auth.user.into() })
}

/// Sign out: this token stops working at once.
#[utoipa::path(post, path = "/auth/logout", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = MessageResponse), (status = 401, body = ErrorBody)))]
async fn logout(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Json<MessageResponse>> {
    flows::logout(&state, &auth).await?;
    Ok(MessageResponse::new("Signed out"))
}

#[derive(Serialize, ToSchema)]
pub struct UpdateResponse {
    success: bool,
    message: String,
    user: UserJson,
}

/// Change one's own profile. Only non-empty fields change; a blank password
/// keeps the current one; a new password signs out every other device.
#[utoipa::path(patch, path = "/me/update", tag = "accounts", security(("bearer" = [])),
    request_body(description = "Multipart `user[...]` fields (first_name, last_name, email, phone_number, country, \
        username, location, business_name, password, password_confirmation, avatar), or the same as JSON.",
        content((RegisterJson = "application/json"), (AccountForm = "multipart/form-data"))),
    responses(
        (status = 200, body = UpdateResponse),
        (status = 401, body = ErrorBody),
        (status = 413, body = ErrorBody),
        (status = 415, body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
async fn update_me(
    State(state): State<AppState>,
    auth: AuthUser,
    UserForm(form): UserForm,
) -> ApiResult<Json<UpdateResponse>> {
    let user = flows::update_profile(&state, &auth, form).await?;
    Ok(Json(UpdateResponse {
        success: true,
        message: "User details updated successfully".to_owned(),
        user: user.into(),
    }))
}

/// Delete one's own account (docs/accounts.md says what happens to what it owned).
#[utoipa::path(delete, path = "/me/delete", tag = "accounts", security(("bearer" = [])),
    responses((status = 200, body = MessageResponse), (status = 401, body = ErrorBody)))]
async fn delete_me(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Json<MessageResponse>> {
    flows::delete_account(&state, &auth).await?;
    Ok(MessageResponse::new("Account deleted"))
}
