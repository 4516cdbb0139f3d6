//! Africa's Talking's USSD API (docs/ussd.md): it posts a form with `sessionId`,
//! `serviceCode`, `phoneNumber`, `networkCode` and `text` (the answers so far
//! joined by `*`, empty at first) to the callback address set in its dashboard,
//! whose last part is our secret; we answer `text/plain`, `CON ` then a screen
//! that waits for an answer, or `END ` then the last one. Another gateway (a
//! Congolese aggregator) is another module like this one, calling `respond`.

use axum::Form;
use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{Dial, Reply, respond, token_is_ours};
use crate::error::{AppError, ErrorBody};
use crate::labels::Lang;
use crate::state::AppState;

/// The fields of a request that are read (`networkCode` is not needed).
#[derive(Deserialize, ToSchema)]
pub struct UssdRequest {
    /// (Both read as empty when missing, so that a request without one is still
    /// answered in its number's language.)
    #[serde(rename = "sessionId", default)]
    session_id: String,
    #[serde(rename = "phoneNumber", default)]
    phone_number: String,
    /// What the person dialled (`*384*12#`): named in the welcome SMS as the code to
    /// dial again while no code is set in the settings.
    #[serde(rename = "serviceCode")]
    service_code: Option<String>,
    /// Every answer so far joined by `*`; empty on a session's first request.
    #[serde(default)]
    text: String,
    /// Not sent by Africa's Talking: the language the emulator (`mavuno ussd --lang`)
    /// starts in when the number has chosen none.
    lang: Option<String>,
}

/// One request of a USSD session. 404 unless the address's token is this server's.
#[utoipa::path(post, path = "/ussd/{token}", tag = "ussd", params(("token" = String, Path)),
    request_body(content = UssdRequest, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "`CON <screen>` or `END <screen>`, text/plain", content_type = "text/plain"),
              (status = 404, body = ErrorBody)))]
pub async fn session(
    State(state): State<AppState>,
    Path(token): Path<String>,
    form: Result<Form<UssdRequest>, FormRejection>,
) -> Response {
    if !token_is_ours(&state, &token) {
        return AppError::not_found("not_found", "Not found").into_response();
    }
    let Ok(Form(request)) = form else { return answer(Reply::end(Lang::EN, "broken")) };
    let lang = request.lang.as_deref().map(|code| Lang::parse(Some(code)));
    let reply = match Dial::read(&request.session_id, &request.phone_number, &request.text, lang) {
        Some(dial) => respond(&state, dial.dialled(request.service_code.as_deref())).await,
        // In the number's language when it is one (its chosen one, else its country's).
        None => Reply::end(super::language_of(&state, &request.phone_number).await, "broken"),
    };
    answer(reply)
}

fn answer(reply: Reply) -> Response {
    let text = format!("{} {}", if reply.end { "END" } else { "CON" }, reply.text);
    ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
}
