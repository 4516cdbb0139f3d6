//! Training (docs/training.md): the public catalogue (`/courses`) and a
//! course's lessons here; enrolment, progress and certificates in
//! `learning`; the admin's course management in `admin`.

mod admin;
mod learning;

pub use learning::{CertificateJson, EnrolmentJson};

use crate::db::Connection;
use axum::Json;
use axum::extract::{Path, Query, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::MaybeAuthUser;
use crate::db::courses::{self as rows, CourseFilter, CourseRow, CourseSort, ModuleRow};
use crate::domain::courses;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::course::{CourseCategory, CourseLanguage, LessonKind, Level, Question};
use crate::outbound::media::{self, MediaStore};
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(catalogue))
        .routes(routes!(course))
        .routes(routes!(content))
        .merge(learning::routes())
        .merge(admin::routes())
}

fn dollars(cents: i64) -> f64 {
    cents as f64 / 100.0
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "Instructor"))]
pub struct InstructorJson {
    name: String,
    title: String,
    bio: String,
    /// 320 px.
    photo_url: Option<String>,
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "LessonOutline"))]
pub struct LessonOutlineJson {
    id: i64,
    title: String,
    kind: LessonKind,
    minutes: i64,
}

#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "CourseModule"))]
pub struct ModuleJson {
    id: i64,
    title: String,
    minutes: i64,
    lessons: Vec<LessonOutlineJson>,
}

/// A course as the catalogue and its page show it (its outline, not its lessons' text).
#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "CourseRecord"))]
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
            image_url: f.cover_image.as_deref().map(|h| MediaStore::url(h, media::DISPLAY)),
            thumbnail_url: f.cover_image.as_deref().map(|h| MediaStore::url(h, media::THUMBNAIL)),
            instructor: InstructorJson {
                photo_url: f.instructor_photo.as_deref().map(|h| MediaStore::url(h, media::THUMBNAIL)),
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

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CourseQuery {
    /// Words found in the title, description or instructor (case and accents ignored).
    q: Option<String>,
    /// farming, marketing, finance, certification, climate or processing.
    #[param(value_type = Option<String>, schema_with = crate::api::document::course_categories)]
    category: Option<String>,
    /// beginner, intermediate or advanced.
    #[param(value_type = Option<String>, schema_with = crate::api::document::levels)]
    level: Option<String>,
    /// newest (default), title, price_asc, price_desc, rating or duration (shortest first).
    #[param(value_type = Option<String>, schema_with = crate::api::document::course_sorts)]
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
#[utoipa::path(get, path = "/courses", operation_id = "course_catalogue", tag = "training", params(CourseQuery),
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
    let (page, per_page) = super::catalogue_page(query.page, query.per_page);
    let (data, total) = state
        .db
        .read(move |conn| {
            let (found, total) = rows::catalogue(conn, &filter, per_page, (page - 1) * per_page)?;
            let data = found
                .into_iter()
                .map(|c| {
                    let modules = rows::modules(conn, c.id, false)?;
                    Ok(CourseJson::new(c, modules))
                })
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
fn content_of(media: &MediaStore, row: &CourseRow, modules: Vec<ModuleRow>) -> ApiResult<ContentJson> {
    let mut hashes: Vec<(String, u32)> = Vec::new();
    let mut add = |hash: &str, size: u32| {
        if !hashes.iter().any(|(h, s)| h == hash && *s == size) {
            hashes.push((hash.to_owned(), size));
        }
    };
    if let Some(cover) = &row.fields.cover_image {
        add(cover, media::DISPLAY);
        add(cover, media::THUMBNAIL);
    }
    if let Some(photo) = &row.fields.instructor_photo {
        add(photo, media::THUMBNAIL);
    }
    let lessons: Vec<LessonJson> = modules
        .into_iter()
        .flat_map(|m| m.lessons)
        .map(|l| {
            for hash in courses::markup::pictures(&l.body) {
                add(&hash, media::DISPLAY);
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
    Ok(answer)
}

/// Writes a course's download size (call in the transaction that changed it).
pub fn refresh_download_size(tx: &Connection, media: &MediaStore, course_id: i64) -> ApiResult<()> {
    let Some(row) = rows::find(tx, course_id)? else { return Ok(()) };
    let answer = content_of(media, &row, rows::modules(tx, course_id, true)?)?;
    Ok(rows::set_download_bytes(tx, course_id, answer.bytes as i64)?)
}

/// A course's lessons with their text and questions, and its pictures to
/// keep offline: free courses for anyone, paid ones for their learners.
#[utoipa::path(get, path = "/courses/{id}/content", tag = "training", params(("id" = i64, Path)), security((), ("bearer" = [])),
    responses(
        (status = 200, body = ContentJson),
        (status = 401, description = "missing_token: a paid course, and nobody signed in", body = ErrorBody),
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
                return Err(match (row.is_listed(), &viewer) {
                    (false, _) => courses::not_found(),
                    // Nobody signed in: sign in first (a client sends the person to sign in).
                    (true, None) => AppError::unauthorized("missing_token", "Please sign in to continue."),
                    (true, Some(_)) => AppError::forbidden("not_enrolled", "Enrol in the course to read its lessons"),
                });
            }
            content_of(&media, &row, rows::modules(conn, id, true)?)
        })
        .await?;
    Ok(Json(answer))
}
