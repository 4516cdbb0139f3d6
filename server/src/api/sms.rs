//! Africa's Talking's delivery reports (docs/sms.md): the status of a message it
//! took, posted to the address set in its dashboard, whose last part is our secret
//! (`--at-callback-token`), so nobody else can mark messages delivered.

use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::{Form, Json};
use serde::Deserialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::sms;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::platform::clock;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(delivery_report))
}

/// The fields of a report that are read (Africa's Talking sends a few more).
#[derive(Deserialize, ToSchema)]
pub struct DeliveryReport {
    /// The message id its send answer gave.
    id: String,
    /// `Success` (delivered), `Failed`, `Rejected`, `AbsentSubscriber`, `Expired`
    /// (not delivered), or `Sent`, `Submitted`, `Buffered` (on its way).
    status: String,
    #[serde(rename = "failureReason")]
    failure_reason: Option<String>,
}

/// A delivery report. 404 unless the address's token is this server's.
#[utoipa::path(post, path = "/sms/delivery/{token}", tag = "sms", params(("token" = String, Path)),
    request_body(content = DeliveryReport, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, description = "Taken (known message or not)"), (status = 404, body = ErrorBody),
              (status = 400, description = "invalid_body: not a delivery report", body = ErrorBody)))]
async fn delivery_report(
    State(state): State<AppState>,
    Path(token): Path<String>,
    report: Result<Form<DeliveryReport>, FormRejection>,
) -> ApiResult<Json<serde_json::Value>> {
    let expected = state
        .config
        .africas_talking
        .as_ref()
        .and_then(|at| at.callback_token.as_ref().map(crate::platform::config::Secret::expose));
    // Compared as digests: the time taken says nothing about how much of the token was right.
    let same = |expected: &str| Sha256::digest(expected.as_bytes()) == Sha256::digest(token.as_bytes());
    if !expected.is_some_and(same) {
        return Err(AppError::not_found("not_found", "Not found"));
    }
    let Form(report) = report.map_err(|err| {
        AppError::bad_request("invalid_body", format!("This is not a delivery report: {}", err.body_text()))
    })?;
    let delivered = match report.status.as_str() {
        "Success" => true,
        "Failed" | "Rejected" | "AbsentSubscriber" | "Expired" => false,
        _ => return Ok(Json(serde_json::json!({ "success": true, "effect": "on_its_way" }))),
    };
    let reason = report.failure_reason.filter(|r| !r.is_empty()).map(|r| r.chars().take(200).collect::<String>());
    let found =
        state.db.write(move |tx| Ok(sms::report(tx, &report.id, delivered, reason.as_deref(), &clock::now())?)).await?;
    Ok(Json(serde_json::json!({ "success": true, "effect": if found { "recorded" } else { "unknown_message" } })))
}
