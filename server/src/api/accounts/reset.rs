//! Forgotten passwords: ask for a link by email or a code by SMS, then choose a new
//! password with it (domain/password_reset.rs).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::MessageResponse;
use crate::api::extract::{ApiJson, ClientIp};
use crate::auth;
use crate::domain::accounts::MAX_PASSWORD_CHARS;
use crate::domain::password_reset;
use crate::domain::person::normalise_email;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(forgot)).routes(routes!(reset))
}

/// An email (a link comes) or a phone number (a code comes by SMS); documented by
/// `api::document::forgot_request`.
#[derive(Deserialize)]
pub struct ForgotRequest {
    email: Option<String>,
    phone_number: Option<String>,
}

impl utoipa::PartialSchema for ForgotRequest {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::api::document::forgot_request()
    }
}
impl ToSchema for ForgotRequest {}

/// The same words whether or not the address has an account.
const SENT: &str =
    "If an account uses this email, a link to choose a new password is on its way. It works once, for one hour.";
const TEXTED: &str = "If an account uses this number, a code to choose a new password is on its way by SMS. It works once, for 15 minutes.";

/// Ask for a link by email, or a code by SMS, to choose a new password. The answer
/// is the same whether or not an account has the email or number; at most five
/// requests per 15 minutes per address and per email or number.
#[utoipa::path(post, path = "/password/forgot", tag = "accounts", request_body = ForgotRequest,
    responses((status = 202, body = MessageResponse), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn forgot(
    State(state): State<AppState>,
    ClientIp(from): ClientIp,
    ApiJson(request): ApiJson<ForgotRequest>,
) -> ApiResult<(StatusCode, Json<MessageResponse>)> {
    if let Some(phone) = request.phone_number.map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()) {
        if phone.chars().count() > 30 {
            return Err(AppError::invalid("phone_number", "phone_number_invalid", "Please enter a valid phone number"));
        }
        // Every writing of one number (+243…, 0…, 00243…, spaced) shares one budget.
        let number = crate::domain::phone::last_digits(&phone);
        throttle(&state, &[format!("reset-ip:{from}"), format!("reset-phone:{number}")]).await?;
        state.db.write(move |tx| password_reset::request_code(tx, &phone)).await?;
        return Ok((StatusCode::ACCEPTED, MessageResponse::new(TEXTED)));
    }
    let email = normalise_email(request.email.as_deref().unwrap_or_default());
    if email.is_empty() {
        return Err(AppError::invalid("email", "email_required", "Email is required"));
    }
    if !crate::domain::person::looks_like_email(&email) {
        return Err(AppError::invalid("email", "email_invalid", "Please enter a valid email address"));
    }
    throttle(&state, &[format!("reset-ip:{from}"), format!("reset-email:{email}")]).await?;
    let origin = state.config.public_url.clone().or_else(|| state.origin.get().cloned()).unwrap_or_default();
    state.db.write(move |tx| password_reset::request(tx, &email, &origin)).await?;
    Ok((StatusCode::ACCEPTED, MessageResponse::new(SENT)))
}

async fn throttle(state: &AppState, keys: &[String]) -> ApiResult<()> {
    let keys = keys.iter().map(String::as_str).collect::<Vec<_>>();
    state.throttles.password_reset.reserve(&keys).await?.map_err(|wait_secs| {
        AppError::too_many_requests(
            "too_many_reset_requests",
            "Many links were asked for in a short time. Please wait a few minutes.",
            wait_secs,
        )
    })
}

/// An emailed link's `token`, or the `phone_number` and the `code` texted to it.
#[derive(Deserialize, ToSchema)]
pub struct ResetRequest {
    token: Option<String>,
    phone_number: Option<String>,
    code: Option<String>,
    #[schema(min_length = 6, max_length = 128)]
    password: String,
    /// The same as `password`.
    #[schema(min_length = 6, max_length = 128)]
    password_confirmation: String,
}

/// Choose a new password with an emailed link's token, or a texted code: it then
/// stops working, and every phone signed in to the account is signed out.
#[utoipa::path(post, path = "/password/reset", tag = "accounts", request_body = ResetRequest,
    responses((status = 200, body = MessageResponse), (status = 422, description = "Password refused; the link is invalid, used or expired; the code wrong, used or expired", body = ErrorBody)))]
async fn reset(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ResetRequest>,
) -> ApiResult<Json<MessageResponse>> {
    let ResetRequest { token, phone_number, code, password, password_confirmation } = request;
    if let (Some(phone), Some(code)) = (phone_number, code) {
        if phone.chars().count() > 30 || code.chars().count() > 12 {
            return Err(AppError::invalid("code", "reset_code_wrong", "This code is not right."));
        }
        password_reset::validate(&password, &password_confirmation).map_err(AppError::Validation)?;
        // Checked (a wrong code counted) before the slow hash, and again when it is used.
        let (check_phone, check_code) = (phone.clone(), code.clone());
        state.db.write(move |tx| password_reset::check_code(tx, &check_phone, &check_code)).await??;
        let hash = auth::hash_password_async(password.chars().take(MAX_PASSWORD_CHARS).collect()).await?;
        state.db.write(move |tx| password_reset::reset_with_code(tx, &phone, &code, &hash)).await?;
        return Ok(MessageResponse::new("Your password has been changed. Sign in with the new one."));
    }
    let token = token.unwrap_or_default();
    if token.len() > 200 {
        return Err(AppError::invalid("token", "reset_link_invalid", "This link is not valid. Ask for a new one."));
    }
    password_reset::validate(&password, &password_confirmation).map_err(AppError::Validation)?;
    // Checked before the slow hash, and again in the transaction that uses it.
    let check = token.clone();
    state.db.read(move |conn| password_reset::check(conn, &check)).await?;
    let hash = auth::hash_password_async(password.chars().take(MAX_PASSWORD_CHARS).collect()).await?;
    state.db.write(move |tx| password_reset::reset(tx, &token, &hash)).await?;
    Ok(MessageResponse::new("Your password has been changed. Sign in with the new one."))
}
