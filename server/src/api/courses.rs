//! Training (docs/training.md): the public catalogue (`/courses`), a
//! course's lessons, enrolment and progress for API clients (phones use
//! sync), certificates and their public check, and the admin's course
//! management (`/admin/courses`, `/admin/modules`, `/admin/lessons`).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::MessageResponse;
use super::extract::ApiJson;
use crate::AppState;
use crate::auth::{AdminUser, AuthUser, MaybeAuthUser};
use crate::certificate_pdf::{self, CertificateText};
use crate::db::courses::{self as rows, CourseFilter, CourseRow, CourseSort, EnrolmentRow, ModuleRow};
use crate::domain::courses::{self, CourseInput, CourseKey, LessonInput, ModuleOrder, ProgressInput};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::labels::Lang;
use crate::media::{self, MediaStore};
use crate::model::course::{
    CourseCategory, CourseLanguage, EnrolmentStatus, LessonKind, Level, PASS_MARK, Progress, Question,
};

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(catalogue))
        .routes(routes!(course))
        .routes(routes!(content))
        .routes(routes!(enrol))
        .routes(routes!(progress))
        .routes(routes!(rate))
        .routes(routes!(certificate))
        .routes(routes!(certificate_pdf))
        .routes(routes!(admin_list, admin_create))
        .routes(routes!(admin_course, admin_update, admin_delete))
        .routes(routes!(admin_reorder))
        .routes(routes!(admin_add_module))
        .routes(routes!(admin_rename_module, admin_delete_module))
        .routes(routes!(admin_add_lesson))
        .routes(routes!(admin_update_lesson, admin_delete_lesson))
}

fn dollars(cents: i64) -> f64 {
    cents as f64 / 100.0
}

#[derive(Serialize, ToSchema)]
pub struct InstructorJson {
    name: String,
    title: String,
    bio: String,
    /// 320 px.
    photo_url: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct LessonOutlineJson {
    id: i64,
    title: String,
    kind: LessonKind,
    minutes: i64,
}

#[derive(Serialize, ToSchema)]
pub struct ModuleJson {
    id: i64,
    title: String,
    minutes: i64,
    lessons: Vec<LessonOutlineJson>,
}

/// A course as the catalogue and its page show it (its outline, not its lessons' text).
#[derive(Serialize, ToSchema)]
pub struct CourseJson {
    id: i64,
    /// The same on every device (enrolments name courses by it).
    uid: String,
    title: String,
    description: String,
    category: CourseCategory,
    level: Level,
    language: CourseLanguage,
    instructor: InstructorJson,
    /// The cover, 1024 and 320 px.
    image_url: Option<String>,
    thumbnail_url: Option<String>,
    /// The pictures' hashes, for the admin's form.
    cover_image: Option<String>,
    instructor_photo: Option<String>,
    /// USD; 0 is free.
    price: f64,
    currency: &'static str,
    certificate: bool,
    tags: Vec<String>,
    /// "What you'll learn".
    outcomes: Vec<String>,
    requirements: Vec<String>,
    rating: f64,
    reviews: i64,
    enrolled: i64,
    lessons: i64,
    /// The lessons' minutes added up.
    minutes: i64,
    /// What "Download for offline" fetches: the lessons and their pictures.
    download_bytes: i64,
    published: bool,
    modules: Vec<ModuleJson>,
    version: i64,
    created_at: String,
    updated_at: String,
}

impl CourseJson {
    pub fn new(row: CourseRow, modules: Vec<ModuleRow>) -> CourseJson {
        let f = row.fields;
        CourseJson {
            id: row.id,
            uid: row.uid,
            image_url: f.cover_image.as_deref().map(|h| MediaStore::url(h, media::PHOTO_SIZES[1])),
            thumbnail_url: f.cover_image.as_deref().map(|h| MediaStore::url(h, media::PHOTO_SIZES[0])),
            instructor: InstructorJson {
                photo_url: f.instructor_photo.as_deref().map(|h| MediaStore::url(h, media::PHOTO_SIZES[0])),
                name: f.instructor_name,
                title: f.instructor_title,
                bio: f.instructor_bio,
            },
            title: f.title,
            description: f.description,
            category: f.category,
            level: f.level,
            language: f.language,
            cover_image: f.cover_image,
            instructor_photo: f.instructor_photo,
            price: dollars(f.price),
            currency: "USD",
            certificate: f.certificate,
            tags: f.tags,
            outcomes: f.outcomes,
            requirements: f.requirements,
            rating: (row.rating * 10.0).round() / 10.0,
            reviews: row.rating_count,
            enrolled: row.enrolled,
            lessons: row.lesson_count,
            minutes: row.minutes,
            download_bytes: row.download_bytes,
            published: f.published,
            modules: modules
                .into_iter()
                .map(|m| ModuleJson {
                    id: m.id,
                    title: m.title,
                    minutes: m.lessons.iter().map(|l| l.minutes).sum(),
                    lessons: m
                        .lessons
                        .into_iter()
                        .map(|l| LessonOutlineJson { id: l.id, title: l.title, kind: l.kind, minutes: l.minutes })
                        .collect(),
                })
                .collect(),
            version: row.version,
            created_at: row.created_at,
            updated_at: row.updated_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
pub struct CertificateJson {
    code: String,
    learner_name: String,
    course_title: String,
    issued_at: String,
    /// The PDF (add `?lang=fr` or `sw` for another language).
    pdf_url: String,
}

impl From<rows::CertificateRow> for CertificateJson {
    fn from(c: rows::CertificateRow) -> Self {
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

const DEFAULT_PER_PAGE: i64 = 24;
const MAX_PER_PAGE: i64 = 100;

#[derive(Deserialize, IntoParams)]
pub struct CourseQuery {
    /// Words found in the title, description or instructor (case and accents ignored).
    q: Option<String>,
    /// farming, marketing, finance, certification, climate or processing.
    category: Option<String>,
    /// beginner, intermediate or advanced.
    level: Option<String>,
    /// newest (default), title, price_asc, price_desc, rating or duration (shortest first).
    sort: Option<String>,
    page: Option<i64>,
    /// 24 unless given; at most 100.
    per_page: Option<i64>,
}

#[derive(Serialize, ToSchema)]
pub struct CoursePage {
    success: bool,
    data: Vec<CourseJson>,
    total: i64,
    page: i64,
    per_page: i64,
}

/// Published courses, filtered, sorted and paged.
#[utoipa::path(get, path = "/courses", tag = "training", params(CourseQuery),
    responses((status = 200, body = CoursePage), (status = 422, description = "invalid_filter, search_too_long", body = ErrorBody)))]
async fn catalogue(State(state): State<AppState>, Query(query): Query<CourseQuery>) -> ApiResult<Json<CoursePage>> {
    let search = super::search(query.q.as_deref())?
        .map(|q| crate::model::product::fold(&q).split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default();
    let sort = super::filter(query.sort.as_deref(), "sort", |s| match s {
        "newest" => Some(CourseSort::Newest),
        "title" | "name" => Some(CourseSort::Title),
        "price_asc" => Some(CourseSort::PriceUp),
        "price_desc" => Some(CourseSort::PriceDown),
        "rating" => Some(CourseSort::Rating),
        "duration" => Some(CourseSort::Duration),
        _ => None,
    })?;
    let filter = CourseFilter {
        search,
        category: super::filter(query.category.as_deref(), "category", CourseCategory::parse)?,
        level: super::filter(query.level.as_deref(), "level", Level::parse)?,
        sort: sort.unwrap_or(CourseSort::Newest),
    };
    let per_page = query.per_page.unwrap_or(DEFAULT_PER_PAGE).clamp(1, MAX_PER_PAGE);
    let page = query.page.unwrap_or(1).clamp(1, 100_000);
    let (data, total) = state
        .db
        .read(move |conn| {
            let (found, total) = rows::catalogue(conn, &filter, per_page, (page - 1) * per_page)?;
            let data = found
                .into_iter()
                .map(|c| Ok(CourseJson::new(c.clone(), rows::modules(conn, c.id, false)?)))
                .collect::<ApiResult<Vec<_>>>()?;
            Ok((data, total))
        })
        .await?;
    Ok(Json(CoursePage { success: true, data, total, page, per_page }))
}

#[derive(Serialize, ToSchema)]
pub struct CourseResponse {
    success: bool,
    data: CourseJson,
}

/// One course: published ones for everyone, any for admins.
#[utoipa::path(get, path = "/courses/{id}", tag = "training", params(("id" = i64, Path)), security((), ("bearer" = [])),
    responses((status = 200, body = CourseResponse), (status = 404, description = "course_not_found", body = ErrorBody)))]
async fn course(
    State(state): State<AppState>,
    auth: MaybeAuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<CourseResponse>> {
    let admin = auth.0.is_some_and(|a| a.user.role.is_admin());
    let data = state
        .db
        .read(move |conn| {
            let row = rows::find(conn, id)?
                .filter(|c| c.is_listed() || (admin && c.deleted_at.is_none()))
                .ok_or_else(courses::not_found)?;
            let modules = rows::modules(conn, id, false)?;
            Ok(CourseJson::new(row, modules))
        })
        .await?;
    Ok(Json(CourseResponse { success: true, data }))
}

#[derive(Serialize, ToSchema)]
pub struct LessonJson {
    id: i64,
    module_id: i64,
    title: String,
    kind: LessonKind,
    minutes: i64,
    /// A reading's text in the lesson markup (docs/training.md).
    body: String,
    /// A quiz's questions, with the right answers and explanations (quizzes
    /// give feedback offline; the server grades attempts again).
    questions: Vec<Question>,
}

#[derive(Serialize, ToSchema)]
pub struct PictureJson {
    url: String,
    bytes: u64,
}

/// Everything a course's lessons need, to keep on the phone.
#[derive(Serialize, ToSchema)]
pub struct ContentJson {
    success: bool,
    course_id: i64,
    /// The course's version this content belongs to.
    version: i64,
    lessons: Vec<LessonJson>,
    /// Every picture the lessons show (each once), and the course's own.
    pictures: Vec<PictureJson>,
    /// This answer and the pictures, in bytes.
    bytes: u64,
}

/// A course's lessons and pictures, in bytes and as the answer that carries them.
fn content_of(media: &MediaStore, row: &CourseRow, modules: Vec<ModuleRow>) -> ApiResult<(ContentJson, usize)> {
    let mut hashes: Vec<(String, u32)> = Vec::new();
    let mut add = |hash: &str, size: u32| {
        if !hashes.iter().any(|(h, s)| h == hash && *s == size) {
            hashes.push((hash.to_owned(), size));
        }
    };
    if let Some(cover) = &row.fields.cover_image {
        add(cover, media::PHOTO_SIZES[1]);
        add(cover, media::PHOTO_SIZES[0]);
    }
    if let Some(photo) = &row.fields.instructor_photo {
        add(photo, media::PHOTO_SIZES[0]);
    }
    let lessons: Vec<LessonJson> = modules
        .into_iter()
        .flat_map(|m| m.lessons)
        .map(|l| {
            for hash in courses::markup::pictures(&l.body) {
                add(&hash, media::PHOTO_SIZES[1]);
            }
            LessonJson {
                id: l.id,
                module_id: l.module_id,
                title: l.title,
                kind: l.kind,
                minutes: l.minutes,
                body: l.body,
                questions: l.questions,
            }
        })
        .collect();
    let pictures: Vec<PictureJson> = hashes
        .into_iter()
        .map(|(hash, size)| PictureJson { url: MediaStore::url(&hash, size), bytes: media.bytes_of(&hash, size) })
        .collect();
    let mut answer =
        ContentJson { success: true, course_id: row.id, version: row.version, lessons, pictures, bytes: 0 };
    let text = serde_json::to_vec(&answer).map_err(AppError::internal)?.len();
    answer.bytes = text as u64 + answer.pictures.iter().map(|p| p.bytes).sum::<u64>();
    Ok((answer, text))
}

/// Writes a course's download size (call in the transaction that changed it).
pub fn refresh_download_size(tx: &Connection, media: &MediaStore, course_id: i64) -> ApiResult<()> {
    let Some(row) = rows::find(tx, course_id)? else { return Ok(()) };
    let (answer, _) = content_of(media, &row, rows::modules(tx, course_id, true)?)?;
    Ok(rows::set_download_bytes(tx, course_id, answer.bytes as i64)?)
}

/// A course's lessons with their text and questions, and its pictures to
/// keep offline: free courses for anyone, paid ones for their learners.
#[utoipa::path(get, path = "/courses/{id}/content", tag = "training", params(("id" = i64, Path)), security((), ("bearer" = [])),
    responses(
        (status = 200, body = ContentJson),
        (status = 403, description = "not_enrolled (a paid course)", body = ErrorBody),
        (status = 404, description = "course_not_found", body = ErrorBody),
    ))]
async fn content(
    State(state): State<AppState>,
    auth: MaybeAuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<ContentJson>> {
    let viewer = auth.0.map(|a| a.user);
    let media = state.media.clone();
    let answer = state
        .db
        .read(move |conn| {
            let row = rows::find(conn, id)?.filter(|c| c.deleted_at.is_none()).ok_or_else(courses::not_found)?;
            if !courses::can_read_content(conn, viewer.as_ref(), &row)? {
                return Err(if row.is_listed() {
                    AppError::forbidden("not_enrolled", "Enrol in the course to read its lessons")
                } else {
                    courses::not_found()
                });
            }
            Ok(content_of(&media, &row, rows::modules(conn, id, true)?)?.0)
        })
        .await?;
    Ok(Json(answer))
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
    #[serde(default)]
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
    /// 1 to 5.
    rating: i64,
}

/// A learner rates a course they are enrolled in (again: changes their rating).
#[utoipa::path(put, path = "/courses/{id}/rating", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = RatingBody,
    responses((status = 200, body = MessageResponse), (status = 403, description = "not_enrolled", body = ErrorBody),
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

/// Codes are printed in capitals with dashes; people type them any way.
fn normal_code(code: &str) -> String {
    let plain: String = code.chars().filter(char::is_ascii_alphanumeric).take(12).collect::<String>().to_uppercase();
    if plain.len() == 12 { format!("{}-{}-{}", &plain[0..4], &plain[4..8], &plain[8..12]) } else { plain }
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
    let code = normal_code(&code);
    let (found, course_id) = state
        .db
        .read(move |conn| {
            let (found, _, course_id) = rows::certificate(conn, &code)?.ok_or_else(certificate_not_found)?;
            let listed = rows::find(conn, course_id)?.is_some_and(|c| c.is_listed());
            Ok((found, listed.then_some(course_id)))
        })
        .await?;
    Ok(Json(CertificateCheck { success: true, certificate: found.into(), course_id }))
}

#[derive(Deserialize, IntoParams)]
pub struct PdfQuery {
    /// en, fr or sw; the learner's (by their country) unless given.
    lang: Option<String>,
}

/// A certificate as a PDF, to print or keep (public, like the check).
#[utoipa::path(get, path = "/certificates/{code}/pdf", tag = "training", params(("code" = String, Path), PdfQuery),
    responses((status = 200, content_type = "application/pdf", body = Vec<u8>), (status = 404, body = ErrorBody)))]
async fn certificate_pdf(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(code): Path<String>,
    Query(query): Query<PdfQuery>,
) -> ApiResult<Response> {
    let code = normal_code(&code);
    let (found, country) = state
        .db
        .read(move |conn| {
            let (found, user_id, _) = rows::certificate(conn, &code)?.ok_or_else(certificate_not_found)?;
            let country = crate::db::users::find(conn, user_id)?.and_then(|u| u.country);
            Ok((found, country))
        })
        .await?;
    let lang = match query.lang.as_deref() {
        Some(code) => Lang::parse(Some(code)),
        None => Lang::for_country(country),
    };
    // The address the reader used, as printed on the certificate (only plain host characters).
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .filter(|h| h.len() <= 100 && h.chars().all(|c| c.is_ascii_alphanumeric() || ".:-[]".contains(c)))
        .unwrap_or("mavuno");
    let verify_at = format!("{host}/certificates/{}", found.code);
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

// --- Admin ------------------------------------------------------------------

#[derive(Serialize, ToSchema)]
pub struct AdminCourseJson {
    #[serde(flatten)]
    course: CourseJson,
    /// Learners who completed every lesson.
    completed: i64,
    /// `completed` out of `enrolled`, in percent.
    completion_rate: i64,
}

#[derive(Serialize, ToSchema)]
pub struct AdminCourses {
    success: bool,
    data: Vec<AdminCourseJson>,
}

/// Every course (published or not), newest first, with enrolments and completion rates.
#[utoipa::path(get, path = "/admin/courses", tag = "training", security(("bearer" = [])),
    responses((status = 200, body = AdminCourses), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn admin_list(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<Json<AdminCourses>> {
    let data = state
        .db
        .read(|conn| {
            rows::list_all(conn)?
                .into_iter()
                .map(|row| {
                    let (enrolled, completed) = rows::enrolment_counts(conn, row.id)?;
                    let modules = rows::modules(conn, row.id, false)?;
                    let completion_rate = if enrolled == 0 { 0 } else { completed * 100 / enrolled };
                    Ok(AdminCourseJson { course: CourseJson::new(row, modules), completed, completion_rate })
                })
                .collect::<ApiResult<Vec<_>>>()
        })
        .await?;
    Ok(Json(AdminCourses { success: true, data }))
}

#[derive(Serialize, ToSchema)]
pub struct AdminCourseDetail {
    success: bool,
    course: CourseJson,
    /// Every lesson with its text and questions, for editing.
    lessons: Vec<LessonJson>,
}

async fn admin_detail(state: &AppState, id: i64) -> ApiResult<AdminCourseDetail> {
    let media = state.media.clone();
    state
        .db
        .read(move |conn| {
            let row = rows::find(conn, id)?.filter(|c| c.deleted_at.is_none()).ok_or_else(courses::not_found)?;
            let (content, _) = content_of(&media, &row, rows::modules(conn, id, true)?)?;
            let modules = rows::modules(conn, id, false)?;
            Ok(AdminCourseDetail { success: true, course: CourseJson::new(row, modules), lessons: content.lessons })
        })
        .await
}

/// Runs an admin's change of course `id` (or of the course the change names)
/// and keeps its download size true, in one transaction.
async fn change(
    state: &AppState,
    f: impl FnOnce(&Connection) -> ApiResult<i64> + Send + 'static,
) -> ApiResult<AdminCourseDetail> {
    let media = state.media.clone();
    let id = state
        .db
        .write(move |tx| {
            let id = f(tx)?;
            refresh_download_size(tx, &media, id)?;
            Ok(id)
        })
        .await?;
    admin_detail(state, id).await
}

/// One course with every lesson's content, for the admin's editor.
#[utoipa::path(get, path = "/admin/courses/{id}", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, body = AdminCourseDetail), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn admin_course(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<AdminCourseDetail>> {
    Ok(Json(admin_detail(&state, id).await?))
}

/// Create a course (unpublished unless `published`; publishing needs a lesson).
#[utoipa::path(post, path = "/admin/courses", tag = "training", security(("bearer" = [])), request_body = CourseInput,
    responses((status = 201, body = AdminCourseDetail), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn admin_create(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    ApiJson(mut input): ApiJson<CourseInput>,
) -> ApiResult<(StatusCode, Json<AdminCourseDetail>)> {
    // A new course has no lessons yet: it is published once it has some.
    let publish = input.published.take().unwrap_or(false);
    if publish {
        return Err(AppError::invalid("published", "course_empty", "Add at least one lesson before publishing"));
    }
    let detail = change(&state, move |tx| Ok(courses::create(tx, &auth.user, &input)?.id)).await?;
    Ok((StatusCode::CREATED, Json(detail)))
}

/// Edit a course's fields (only those given); `published` publishes or unpublishes it.
#[utoipa::path(patch, path = "/admin/courses/{id}", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = CourseInput,
    responses((status = 200, body = AdminCourseDetail), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn admin_update(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
    ApiJson(input): ApiJson<CourseInput>,
) -> ApiResult<Json<AdminCourseDetail>> {
    Ok(Json(change(&state, move |tx| Ok(courses::update(tx, &auth.user, id, &input)?.id)).await?))
}

/// Delete a course: it leaves the catalogue and every phone; certificates stay verifiable.
#[utoipa::path(delete, path = "/admin/courses/{id}", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, body = MessageResponse), (status = 404, body = ErrorBody)))]
async fn admin_delete(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<MessageResponse>> {
    state.db.write(move |tx| courses::delete(tx, &auth.user, id)).await?;
    Ok(MessageResponse::new("Course deleted"))
}

#[derive(Deserialize, ToSchema)]
pub struct OrderBody {
    /// Every module of the course in its new order, each with all its lessons in order.
    modules: Vec<ModuleOrder>,
}

/// Reorder a course's modules and lessons (lessons may move between modules).
#[utoipa::path(put, path = "/admin/courses/{id}/order", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = OrderBody,
    responses((status = 200, body = AdminCourseDetail), (status = 422, description = "invalid_order", body = ErrorBody)))]
async fn admin_reorder(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
    ApiJson(body): ApiJson<OrderBody>,
) -> ApiResult<Json<AdminCourseDetail>> {
    Ok(Json(
        change(&state, move |tx| {
            courses::reorder(tx, &auth.user, id, &body.modules)?;
            Ok(id)
        })
        .await?,
    ))
}

#[derive(Deserialize, ToSchema)]
pub struct ModuleBody {
    title: String,
}

/// Add a module at the end of a course.
#[utoipa::path(post, path = "/admin/courses/{id}/modules", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = ModuleBody,
    responses((status = 201, body = AdminCourseDetail), (status = 409, description = "too_many_modules", body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn admin_add_module(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
    ApiJson(body): ApiJson<ModuleBody>,
) -> ApiResult<(StatusCode, Json<AdminCourseDetail>)> {
    let detail = change(&state, move |tx| {
        courses::add_module(tx, &auth.user, id, &body.title)?;
        Ok(id)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(detail)))
}

/// Rename a module.
#[utoipa::path(patch, path = "/admin/modules/{id}", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = ModuleBody,
    responses((status = 200, body = AdminCourseDetail), (status = 404, description = "module_not_found", body = ErrorBody)))]
async fn admin_rename_module(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
    ApiJson(body): ApiJson<ModuleBody>,
) -> ApiResult<Json<AdminCourseDetail>> {
    Ok(Json(change(&state, move |tx| courses::rename_module(tx, &auth.user, id, &body.title)).await?))
}

/// Remove a module and its lessons.
#[utoipa::path(delete, path = "/admin/modules/{id}", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, body = AdminCourseDetail), (status = 404, description = "module_not_found", body = ErrorBody)))]
async fn admin_delete_module(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<AdminCourseDetail>> {
    Ok(Json(change(&state, move |tx| courses::delete_module(tx, &auth.user, id)).await?))
}

/// Add a lesson at the end of a module (pictures by hash in the body's markup).
#[utoipa::path(post, path = "/admin/modules/{id}/lessons", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = LessonInput,
    responses((status = 201, body = AdminCourseDetail), (status = 409, description = "too_many_lessons", body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn admin_add_lesson(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
    ApiJson(body): ApiJson<LessonInput>,
) -> ApiResult<(StatusCode, Json<AdminCourseDetail>)> {
    let detail = change(&state, move |tx| {
        courses::add_lesson(tx, &auth.user, id, &body)?;
        rows::module_course(tx, id)?.ok_or_else(courses::not_found)
    })
    .await?;
    Ok((StatusCode::CREATED, Json(detail)))
}

/// Replace a lesson.
#[utoipa::path(put, path = "/admin/lessons/{id}", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = LessonInput,
    responses((status = 200, body = AdminCourseDetail), (status = 404, description = "lesson_not_found", body = ErrorBody),
        (status = 422, body = ErrorBody)))]
async fn admin_update_lesson(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
    ApiJson(body): ApiJson<LessonInput>,
) -> ApiResult<Json<AdminCourseDetail>> {
    Ok(Json(change(&state, move |tx| courses::update_lesson(tx, &auth.user, id, &body)).await?))
}

/// Remove a lesson (learners' progress in it no longer counts).
#[utoipa::path(delete, path = "/admin/lessons/{id}", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, body = AdminCourseDetail), (status = 404, description = "lesson_not_found", body = ErrorBody)))]
async fn admin_delete_lesson(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<AdminCourseDetail>> {
    Ok(Json(change(&state, move |tx| courses::delete_lesson(tx, &auth.user, id)).await?))
}
