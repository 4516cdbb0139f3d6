//! Admin review of farmer applications (SPEC sections 2, 4 and 7):
//! `GET/POST /admin/surveys`, `PATCH /admin/surveys/{id}`, and a bulk decision.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::ApiJson;
use super::surveys::{SurveyForm, SurveyJson, SurveyList, SurveyResponse};
use crate::AppState;
use crate::auth::AdminUser;
use crate::db::{surveys as rows, users};
use crate::domain::surveys::{self, Decision};
use crate::error::{ApiResult, AppError, ErrorBody};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_all, create_for_user))
        .routes(routes!(decide))
        .routes(routes!(decide_many))
}

/// Every application, newest first, with applicant and creator.
#[utoipa::path(get, path = "/admin/surveys", tag = "admin", security(("bearer" = [])),
    responses((status = 200, body = SurveyList), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn list_all(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<Json<SurveyList>> {
    let rows = state.db.read(|conn| Ok(rows::list_all(conn)?)).await?;
    Ok(Json(SurveyList { success: true, data: rows.into_iter().map(SurveyJson::from).collect() }))
}

#[derive(Deserialize, ToSchema)]
pub struct ReviewForm {
    /// `approved` (or the spec client's `active`) or `rejected`.
    status: String,
    #[serde(default)]
    admin_comment: Option<String>,
}

#[derive(Deserialize, ToSchema)]
pub struct ReviewRequest {
    farmer_survey_form: ReviewForm,
}

fn decision(status: &str) -> ApiResult<Decision> {
    Decision::parse(status)
        .ok_or_else(|| AppError::invalid("status", "invalid_transition", "An application can be approved or rejected"))
}

/// Approve or reject a pending or re-submitted application. Approval makes a buyer a farmer.
#[utoipa::path(patch, path = "/admin/surveys/{id}", tag = "admin", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = ReviewRequest,
    responses(
        (status = 200, body = SurveyResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "not_reviewable: not pending or re-submitted", body = ErrorBody), (status = 422, body = ErrorBody),
    ))]
async fn decide(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<ReviewRequest>,
) -> ApiResult<Json<SurveyResponse>> {
    let form = request.farmer_survey_form;
    let decision = decision(&form.status)?;
    let row = state.db.write(move |tx| surveys::review(tx, id, decision, form.admin_comment.as_deref())).await?;
    Ok(Json(SurveyResponse { success: true, data: row.into() }))
}

#[derive(Deserialize, ToSchema)]
pub struct BulkRequest {
    ids: Vec<i64>,
    status: String,
    #[serde(default)]
    admin_comment: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct BulkResult {
    id: i64,
    success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct BulkResponse {
    success: bool,
    results: Vec<BulkResult>,
}

/// Approve or reject several applications: each is decided on its own
/// (all or nothing per application) and each result is reported.
#[utoipa::path(post, path = "/admin/surveys/bulk", tag = "admin", security(("bearer" = [])), request_body = BulkRequest,
    responses((status = 200, body = BulkResponse), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn decide_many(State(state): State<AppState>, _admin: AdminUser, ApiJson(request): ApiJson<BulkRequest>) -> ApiResult<Json<BulkResponse>> {
    let decision = decision(&request.status)?;
    if request.ids.is_empty() {
        return Err(AppError::invalid("ids", "nothing_selected", "Select at least one application"));
    }
    let mut results = Vec::with_capacity(request.ids.len());
    for id in request.ids {
        let comment = request.admin_comment.clone();
        let outcome = state.db.write(move |tx| surveys::review(tx, id, decision, comment.as_deref())).await;
        results.push(match outcome {
            Ok(_) => BulkResult { id, success: true, code: None, message: None },
            Err(AppError::Internal(cause)) => return Err(AppError::Internal(cause)),
            Err(refusal) => BulkResult { id, success: false, code: Some(refusal.code().to_owned()), message: Some(refusal.message()) },
        });
    }
    Ok(Json(BulkResponse { success: true, results }))
}

#[derive(Deserialize, ToSchema)]
pub struct CreateForUser {
    /// The applicant.
    #[serde(default)]
    user_id: Option<i64>,
    /// The same form the owner sends.
    #[serde(flatten)]
    form: SurveyForm,
}

#[derive(Deserialize, ToSchema)]
pub struct CreateForUserRequest {
    farmer_survey_form: CreateForUser,
}

/// Create an application on a person's behalf (SPEC section 2, "create survey for selected user").
#[utoipa::path(post, path = "/admin/surveys", tag = "admin", security(("bearer" = [])), request_body = CreateForUserRequest,
    responses((status = 201, body = SurveyResponse), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_for_user(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ApiJson(request): ApiJson<CreateForUserRequest>,
) -> ApiResult<(StatusCode, Json<SurveyResponse>)> {
    let CreateForUser { user_id, form: SurveyForm { uid, status, answers } } = request.farmer_survey_form;
    let Some(user_id) = user_id else { return Err(AppError::invalid("user_id", "user_required", "Please select a user")) };
    let admin_id = admin.user.id;
    let (row, created) = state
        .db
        .write(move |tx| {
            let owner = users::find(tx, user_id)?.ok_or_else(|| AppError::invalid("user_id", "user_required", "Please select a user"))?;
            surveys::create(tx, &owner, admin_id, uid, &answers, status.as_deref())
        })
        .await?;
    let code = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((code, Json(SurveyResponse { success: true, data: row.into() })))
}
