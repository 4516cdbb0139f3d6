//! Forgotten passwords: ask for a link by email, then choose a new password with it
//! (domain/password_reset.rs).

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::Deserialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::AppState;
use crate::api::MessageResponse;
use crate::api::extract::{ApiJson, ClientIp};
use crate::auth;
use crate::domain::accounts::{MAX_PASSWORD_CHARS, normalise_email};
use crate::domain::password_reset;
use crate::error::{ApiResult, AppError, ErrorBody};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(forgot)).routes(routes!(reset))
}

#[derive(Deserialize, ToSchema)]
pub struct ForgotRequest {
    email: String,
}

/// The same words whether or not the address has an account.
const SENT: &str =
    "If an account uses this email, a link to choose a new password is on its way. It works once, for one hour.";

/// Ask for a link to choose a new password. The answer is the same whether or not
/// the email has an account; at most five requests per 15 minutes per address and per email.
#[utoipa::path(post, path = "/password/forgot", tag = "accounts", request_body = ForgotRequest,
    responses((status = 202, body = MessageResponse), (status = 422, body = ErrorBody), (status = 429, body = ErrorBody)))]
async fn forgot(
    State(state): State<AppState>,
    ClientIp(from): ClientIp,
    ApiJson(request): ApiJson<ForgotRequest>,
) -> ApiResult<(StatusCode, Json<MessageResponse>)> {
    let email = normalise_email(&request.email);
    if email.is_empty() {
        return Err(AppError::invalid("email", "email_required", "Email is required"));
    }
    if !crate::domain::accounts::looks_like_email(&email) {
        return Err(AppError::invalid("email", "email_invalid", "Please enter a valid email address"));
    }
    let keys = [format!("reset-ip:{from}"), format!("reset-email:{email}")];
    let keys = keys.iter().map(String::as_str).collect::<Vec<_>>();
    state.throttles.password_reset.reserve(&keys).map_err(|wait_secs| {
        AppError::too_many_requests(
            "too_many_reset_requests",
            "Many links were asked for in a short time. Please wait a few minutes.",
            wait_secs,
        )
    })?;
    let origin = state.config.public_url.clone().or_else(|| state.origin.get().cloned()).unwrap_or_default();
    if state.db.write(move |tx| password_reset::request(tx, &email, &origin)).await? {
        state.mailer.wake();
    }
    Ok((StatusCode::ACCEPTED, MessageResponse::new(SENT)))
}

#[derive(Deserialize, ToSchema)]
pub struct ResetRequest {
    token: String,
    password: String,
    password_confirmation: String,
}

/// Choose a new password with an emailed link's token: the link then stops working,
/// and every phone signed in to the account is signed out.
#[utoipa::path(post, path = "/password/reset", tag = "accounts", request_body = ResetRequest,
    responses((status = 200, body = MessageResponse), (status = 422, description = "Password refused, or the link is invalid, used or expired", body = ErrorBody)))]
async fn reset(
    State(state): State<AppState>,
    ApiJson(request): ApiJson<ResetRequest>,
) -> ApiResult<Json<MessageResponse>> {
    let ResetRequest { token, password, password_confirmation } = request;
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
