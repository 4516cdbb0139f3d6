//! The owner's farmer applications (docs/api.md):
//! `GET/POST /farmer/farmer_survey_forms/`, `PATCH/DELETE /farmer/farmer_survey_forms/{id}`.

use axum::Json;
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::routing::get;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::ApiJson;
use crate::auth::AuthUser;
use crate::db::surveys::{self as rows, Person, SurveyRow};
use crate::domain::surveys::{self, SurveyRef};
use crate::error::{ApiResult, ErrorBody};
use crate::model::survey::{SurveyAnswers, SurveyAnswersInput, SurveyStatus};
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(list_surveys, create_survey)).routes(routes!(update_survey, delete_survey))
}

/// The spec's client writes the collection path with a trailing slash.
pub fn trailing_slash() -> Router<AppState> {
    Router::new().route("/farmer/farmer_survey_forms/", get(list_surveys).post(create_survey))
}

/// The alias in the document too (a route is never left out of it): the same operations
/// as without the slash, under ids of their own.
pub fn document_trailing_slash(doc: &mut utoipa::openapi::OpenApi) {
    let Some(mut item) = doc.paths.paths.get("/farmer/farmer_survey_forms").cloned() else { return };
    for operation in [&mut item.get, &mut item.post].into_iter().flatten() {
        if let Some(id) = &mut operation.operation_id {
            id.push_str("_with_slash");
        }
    }
    doc.paths.paths.insert("/farmer/farmer_survey_forms/".to_owned(), item);
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "PersonName"))]
pub struct PersonJson {
    first_name: String,
    last_name: String,
    email: Option<String>,
    /// The applicant's number (null for the author, and when they gave none).
    phone_number: Option<String>,
    /// The applicant reaches MAVUNO by a basic phone (USSD and SMS, no app).
    basic_phone: bool,
}

impl From<Person> for PersonJson {
    fn from(p: Person) -> Self {
        PersonJson {
            first_name: p.first_name,
            last_name: p.last_name,
            email: p.email,
            phone_number: p.phone_number,
            basic_phone: p.basic_phone,
        }
    }
}

/// An application as its owner sees it.
#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "SurveyRecord"))]
pub struct SurveyJson {
    id: i64,
    /// Made by the client that created it; the same on every device.
    uid: String,
    /// The applicant's account.
    user_id: i64,
    user: PersonJson,
    created_by: PersonJson,
    status: SurveyStatus,
    active: bool,
    admin_comment: Option<String>,
    reviewed_at: Option<String>,
    #[serde(flatten)]
    answers: SurveyAnswers,
    version: i64,
    created_at: String,
    updated_at: String,
}

impl From<SurveyRow> for SurveyJson {
    fn from(row: SurveyRow) -> Self {
        SurveyJson {
            id: row.id,
            uid: row.uid,
            user_id: row.user_id,
            user: row.owner.into(),
            created_by: row.creator.into(),
            status: row.status,
            active: row.active,
            admin_comment: row.admin_comment,
            reviewed_at: row.reviewed_at,
            answers: row.answers,
            version: row.version,
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

#[derive(Deserialize, ToSchema)]
pub struct SurveyForm {
    /// Optional on create: a client-made UUID that makes retries safe.
    #[serde(default)]
    pub uid: Option<String>,
    /// `draft` to save, `pending` to submit (the default for a new one), `re-submitted` after a rejection.
    #[serde(default)]
    #[schema(value_type = Option<String>, schema_with = crate::api::document::owner_statuses)]
    pub status: Option<String>,
    #[serde(flatten)]
    pub answers: SurveyAnswersInput,
}

#[derive(Deserialize, ToSchema)]
pub struct SurveyRequest {
    farmer_survey_form: SurveyForm,
}

#[derive(Serialize, ToSchema)]
pub struct SurveyList {
    pub success: bool,
    pub data: Vec<SurveyJson>,
}

#[derive(Serialize, ToSchema)]
pub struct SurveyResponse {
    pub success: bool,
    pub data: SurveyJson,
}

#[derive(Serialize, ToSchema)]
pub struct Deleted {
    success: bool,
}

/// The signed-in person's applications, newest first.
#[utoipa::path(get, path = "/farmer/farmer_survey_forms", tag = "applications", security(("bearer" = [])),
    responses((status = 200, body = SurveyList), (status = 401, body = ErrorBody)))]
async fn list_surveys(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Json<SurveyList>> {
    let user_id = auth.user.id;
    let rows = state.db.read(move |conn| Ok(rows::list_visible_to(conn, user_id)?)).await?;
    Ok(Json(SurveyList { success: true, data: rows.into_iter().map(SurveyJson::from).collect() }))
}

/// Save a draft or submit an application. With a `uid` that was already
/// used by this person, answers the existing application (200) instead of
/// making a second one.
#[utoipa::path(post, path = "/farmer/farmer_survey_forms", tag = "applications", security(("bearer" = [])),
    request_body = SurveyRequest,
    responses(
        (status = 201, body = SurveyResponse), (status = 200, description = "Already created with this uid", body = SurveyResponse),
        (status = 401, body = ErrorBody), (status = 409, body = ErrorBody), (status = 422, body = ErrorBody),
    ))]
async fn create_survey(
    State(state): State<AppState>,
    auth: AuthUser,
    ApiJson(request): ApiJson<SurveyRequest>,
) -> ApiResult<(StatusCode, Json<SurveyResponse>)> {
    let SurveyForm { uid, status, answers } = request.farmer_survey_form;
    let (row, created) = state
        .db
        .write(move |tx| surveys::create(tx, &auth.user, auth.user.id, uid, &answers, status.as_deref()))
        .await?;
    let code = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((code, Json(SurveyResponse { success: true, data: row.into() })))
}

/// Edit a draft or a rejected application, submit a draft, or re-submit a rejected one.
#[utoipa::path(patch, path = "/farmer/farmer_survey_forms/{id}", tag = "applications", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = SurveyRequest,
    responses(
        (status = 200, body = SurveyResponse), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "Under review or decided: the owner can no longer change it", body = ErrorBody),
        (status = 422, body = ErrorBody),
    ))]
async fn update_survey(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<SurveyRequest>,
) -> ApiResult<Json<SurveyResponse>> {
    let SurveyForm { status, answers, .. } = request.farmer_survey_form;
    let (row, _) = state
        .db
        .write(move |tx| surveys::update(tx, &auth.user, SurveyRef::Id(id), &answers, status.as_deref(), None))
        .await?;
    Ok(Json(SurveyResponse { success: true, data: row.into() }))
}

/// Delete a draft or a rejected application.
#[utoipa::path(delete, path = "/farmer/farmer_survey_forms/{id}", tag = "applications", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = Deleted), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
async fn delete_survey(State(state): State<AppState>, auth: AuthUser, Path(id): Path<i64>) -> ApiResult<Json<Deleted>> {
    state.db.write(move |tx| surveys::delete(tx, &auth.user, SurveyRef::Id(id))).await?;
    Ok(Json(Deleted { success: true }))
}
