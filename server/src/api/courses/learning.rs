//! Enrolment, progress and ratings for API clients (phones use sync), and
//! certificates: the public check and the PDF (docs/training.md).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::MessageResponse;
use crate::api::extract::ApiJson;
use crate::auth::AuthUser;
use crate::db::courses as rows;
use crate::db::enrolments::{self, EnrolmentRow};
use crate::domain::courses::{self, CourseKey, ProgressInput};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::labels::Lang;
use crate::model::course::{EnrolmentStatus, PASS_MARK, Progress, certificate_code};
use crate::outbound::certificate_pdf::{self, CertificateText};
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(enrol))
        .routes(routes!(progress))
        .routes(routes!(rate))
        .routes(routes!(certificate))
        .routes(routes!(certificate_pdf))
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Certificate"))]
pub struct CertificateJson {
    code: String,
    learner_name: String,
    course_title: String,
    issued_at: String,
    /// The PDF (add `?lang=fr` or `sw` for another language).
    pdf_url: String,
}

impl From<enrolments::CertificateRow> for CertificateJson {
    fn from(c: enrolments::CertificateRow) -> Self {
        CertificateJson {
            pdf_url: format!("/api/v1/certificates/{}/pdf", c.code),
            code: c.code,
            learner_name: c.learner_name,
            course_title: c.course_title,
            issued_at: c.issued_at,
        }
    }
}

/// A learner's enrolment and their progress (also the sync record `enrolment`).
#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "EnrolmentRecord"))]
pub struct EnrolmentJson {
    /// The course's uid (the record's id in sync).
    uid: String,
    course_id: i64,
    status: EnrolmentStatus,
    progress: Progress,
    completed_at: Option<String>,
    certificate: Option<CertificateJson>,
    /// A quiz is passed at this score (percent).
    pass_mark: i64,
    version: i64,
    created_at: String,
    updated_at: String,
}

impl From<EnrolmentRow> for EnrolmentJson {
    fn from(e: EnrolmentRow) -> Self {
        EnrolmentJson {
            uid: e.course_uid,
            course_id: e.course_id,
            status: e.status,
            progress: e.progress,
            completed_at: e.completed_at,
            certificate: e.certificate.map(CertificateJson::from),
            pass_mark: PASS_MARK,
            version: e.version,
            created_at: e.created_at,
            updated_at: e.updated_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct EnrolmentResponse {
    success: bool,
    enrolment: EnrolmentJson,
}

/// Enrol in a free course (phones send `enrolment.create` through sync). Again: the same enrolment, 200.
#[utoipa::path(post, path = "/courses/{id}/enrol", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    responses(
        (status = 201, body = EnrolmentResponse), (status = 200, description = "already enrolled", body = EnrolmentResponse),
        (status = 401, body = ErrorBody), (status = 404, description = "course_not_found", body = ErrorBody),
        (status = 409, description = "payment_required (a paid course)", body = ErrorBody),
    ))]
async fn enrol(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<(StatusCode, Json<EnrolmentResponse>)> {
    let learner = auth.user;
    let (row, created) = state.db.write(move |tx| courses::enrol(tx, &learner, CourseKey::Id(id))).await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(EnrolmentResponse { success: true, enrolment: row.into() })))
}

#[derive(Deserialize, ToSchema)]
pub struct ProgressBody {
    /// Made by the client: an event sent twice is kept once.
    event_uid: String,
    lesson_id: i64,
    /// viewed, completed (a reading) or quiz (with `answers`).
    kind: String,
    /// A quiz's answers: for each question in order, the index of the choice made.
    #[serde(default)]
    #[schema(value_type = Option<Vec<u16>>)]
    answers: Option<Vec<usize>>,
    /// When it happened, by the client's clock (orders events from several devices).
    #[serde(default)]
    client_time: Option<String>,
}

/// Record what a learner did (phones send `enrolment.progress` through sync); answers the progress after it.
#[utoipa::path(post, path = "/courses/{id}/progress", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = ProgressBody,
    responses(
        (status = 200, body = EnrolmentResponse),
        (status = 403, description = "not_enrolled", body = ErrorBody),
        (status = 404, description = "course_not_found, lesson_not_found", body = ErrorBody),
        (status = 422, description = "answers_invalid, invalid_option, invalid_uid", body = ErrorBody),
    ))]
async fn progress(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(body): ApiJson<ProgressBody>,
) -> ApiResult<Json<EnrolmentResponse>> {
    let learner = auth.user;
    let row = state
        .db
        .write(move |tx| {
            let event = ProgressInput {
                event_uid: &body.event_uid,
                lesson_id: body.lesson_id,
                kind: &body.kind,
                answers: body.answers.as_deref(),
                client_time: body.client_time.as_deref(),
            };
            courses::record_progress(tx, &learner, CourseKey::Id(id), &event)
        })
        .await?;
    Ok(Json(EnrolmentResponse { success: true, enrolment: row.into() }))
}

#[derive(Deserialize, ToSchema)]
pub struct RatingBody {
    #[schema(minimum = 1, maximum = 5)]
    rating: i64,
}

/// A learner rates a course they are enrolled in (again: changes their rating).
#[utoipa::path(put, path = "/courses/{id}/rating", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = RatingBody,
    responses((status = 200, body = MessageResponse), (status = 403, description = "not_enrolled", body = ErrorBody),
        (status = 404, description = "course_not_found", body = ErrorBody),
        (status = 422, description = "rating_invalid", body = ErrorBody)))]
async fn rate(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(body): ApiJson<RatingBody>,
) -> ApiResult<Json<MessageResponse>> {
    let learner = auth.user;
    state.db.write(move |tx| courses::rate(tx, &learner, id, body.rating)).await?;
    Ok(MessageResponse::new("Thank you for rating this course"))
}

fn certificate_not_found() -> AppError {
    AppError::not_found("certificate_not_found", "No certificate has this code")
}

#[derive(Serialize, ToSchema)]
pub struct CertificateCheck {
    success: bool,
    certificate: CertificateJson,
    /// The course's id, when it is still in the catalogue.
    course_id: Option<i64>,
}

/// Check a certificate by its code (public: anyone an employer or a buyer shows it to).
#[utoipa::path(get, path = "/certificates/{code}", tag = "training", params(("code" = String, Path)),
    responses((status = 200, body = CertificateCheck), (status = 404, description = "certificate_not_found", body = ErrorBody)))]
async fn certificate(State(state): State<AppState>, Path(code): Path<String>) -> ApiResult<Json<CertificateCheck>> {
    let code = certificate_code(&code);
    let (found, course_id) = state
        .db
        .read(move |conn| {
            let (found, _, course_id) = enrolments::certificate(conn, &code)?.ok_or_else(certificate_not_found)?;
            let listed = rows::find(conn, course_id)?.is_some_and(|c| c.is_listed());
            Ok((found, listed.then_some(course_id)))
        })
        .await?;
    Ok(Json(CertificateCheck { success: true, certificate: found.into(), course_id }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct PdfQuery {
    /// en, fr or sw; the learner's (by their country) unless given.
    lang: Option<String>,
}

/// A certificate as a PDF, to print or keep (public, like the check).
#[utoipa::path(get, path = "/certificates/{code}/pdf", tag = "training", params(("code" = String, Path), PdfQuery),
    responses((status = 200, content_type = "application/pdf", body = Vec<u8>), (status = 404, body = ErrorBody)))]
async fn certificate_pdf(
    State(state): State<AppState>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    Path(code): Path<String>,
    Query(query): Query<PdfQuery>,
) -> ApiResult<Response> {
    let code = certificate_code(&code);
    let (found, country) = state
        .db
        .read(move |conn| {
            let (found, user_id, _) = enrolments::certificate(conn, &code)?.ok_or_else(certificate_not_found)?;
            let country = crate::db::users::find(conn, user_id)?.and_then(|u| u.country);
            Ok((found, country))
        })
        .await?;
    let lang = match query.lang.as_deref() {
        Some(code) => Lang::parse(Some(code)),
        None => Lang::for_country(country),
    };
    // Where anyone can check it: the platform's public address (docs/security.md).
    let verify_at = format!(
        "{}/certificates/{}",
        crate::platform::middleware::public_origin(&state.config, peer.ip(), &headers),
        found.code
    );
    let disposition = format!("inline; filename=\"mavuno-certificate-{}.pdf\"", found.code);
    let pdf = tokio::task::spawn_blocking(move || {
        certificate_pdf::render(
            &CertificateText {
                learner: &found.learner_name,
                course: &found.course_title,
                date: found.issued_at.get(..10).unwrap_or(&found.issued_at),
                code: &found.code,
                verify_at: &verify_at,
            },
            lang,
        )
    })
    .await
    .map_err(AppError::internal)?;
    Ok(([(header::CONTENT_TYPE, "application/pdf".to_owned()), (header::CONTENT_DISPOSITION, disposition)], pdf)
        .into_response())
}
