//! The contact form, and the admins' view of what was sent.

use std::net::IpAddr;

use axum::Json;
use axum::extract::State;
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::MessageResponse;
use super::extract::{ApiJson, ClientIp};
use crate::auth::{AdminUser, MaybeAuthUser};
use crate::db::contact::{self, NewContact};
use crate::domain::contact::{self as rules, ContactForm};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::platform::clock;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(send_message)).routes(routes!(list_messages))
}

#[derive(Deserialize, ToSchema)]
pub struct ContactRequest {
    contact: ContactForm,
}

/// Send a message to the team. Anyone may; a signed-in sender is remembered.
#[utoipa::path(post, path = "/contact", tag = "contact", request_body = ContactRequest, security((), ("bearer" = [])),
    responses(
        (status = 201, body = MessageResponse),
        (status = 422, description = "A field is missing or malformed", body = ErrorBody),
        (status = 429, description = "Too many messages from this address", body = ErrorBody),
    ))]
async fn send_message(
    State(state): State<AppState>,
    ClientIp(from): ClientIp,
    sender: MaybeAuthUser,
    ApiJson(request): ApiJson<ContactRequest>,
) -> ApiResult<(StatusCode, Json<MessageResponse>)> {
    send(&state, request.contact, sender.0.map(|auth| auth.user.id), from).await?;
    Ok((StatusCode::CREATED, MessageResponse::new("Message sent successfully!")))
}

#[derive(Serialize, ToSchema)]
pub struct ContactMessage {
    id: i64,
    name: String,
    email: String,
    subject: String,
    message: String,
    user_id: Option<i64>,
    created_at: String,
}

#[derive(Serialize, ToSchema)]
pub struct ContactList {
    success: bool,
    data: Vec<ContactMessage>,
}

/// Messages sent through the contact form, newest first.
#[utoipa::path(get, path = "/admin/contact_messages", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = ContactList), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_messages(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<Json<ContactList>> {
    let rows = state.db.read(|conn| Ok(contact::list(conn)?)).await?;
    let data = rows
        .into_iter()
        .map(|r| ContactMessage {
            id: r.id,
            name: r.name,
            email: r.email,
            subject: r.subject,
            message: r.message,
            user_id: r.user_id,
            created_at: r.created_at,
        })
        .collect();
    Ok(Json(ContactList { success: true, data }))
}

/// Stores a message; a few per address per hour, so the form cannot be used to flood the team.
/// Counted in the write that stores it: parallel sends cannot all pass the check, and a
/// message that is not stored is not counted.
async fn send(state: &AppState, form: ContactForm, sender: Option<i64>, from: IpAddr) -> ApiResult<()> {
    rules::validate(&form).map_err(AppError::Validation)?;
    let key = format!("ip:{from}");
    let limit = state.throttles.contact;
    state
        .db
        .write(move |tx| {
            limit.reserve(tx, &[&key])?.map_err(|wait_secs| {
                AppError::too_many_requests(
                    "too_many_messages",
                    "You have sent several messages in a short time. Please wait a while before sending another.",
                    wait_secs,
                )
            })?;
            let row = NewContact {
                name: form.name.trim(),
                email: form.email.trim(),
                subject: form.subject.trim(),
                message: form.message.trim(),
                user_id: sender,
            };
            contact::insert(tx, &row, &clock::now())?;
            Ok(())
        })
        .await
}
