//! The admin's course management (`/admin/courses`, `/admin/modules`,
//! `/admin/lessons`): every change keeps the course's download size true in
//! its transaction.

use crate::db::Connection;
use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{CourseJson, LessonJson, content_of, refresh_download_size};
use crate::api::MessageResponse;
use crate::api::document::forms::{CourseForm, NewCourseForm};
use crate::api::extract::ApiJson;
use crate::auth::AdminUser;
use crate::db::courses as rows;
use crate::db::enrolments;
use crate::domain::courses::{self, CourseInput, LessonInput, ModuleOrder};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(admin_list, admin_create))
        .routes(routes!(admin_course, admin_update, admin_delete))
        .routes(routes!(admin_reorder))
        .routes(routes!(admin_add_module))
        .routes(routes!(admin_rename_module, admin_delete_module))
        .routes(routes!(admin_add_lesson))
        .routes(routes!(admin_update_lesson, admin_delete_lesson))
}

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
#[utoipa::path(get, path = "/admin/courses", operation_id = "admin_list_courses", tag = "training", security(("bearer" = [])),
    responses((status = 200, body = AdminCourses), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody)))]
async fn admin_list(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<Json<AdminCourses>> {
    let data = state
        .db
        .read(|conn| {
            rows::list_all(conn)?
                .into_iter()
                .map(|row| {
                    let (enrolled, completed) = enrolments::enrolment_counts(conn, row.id)?;
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
            let content = content_of(&media, &row, rows::modules(conn, id, true)?)?;
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
#[utoipa::path(post, path = "/admin/courses", tag = "training", security(("bearer" = [])), request_body = NewCourseForm,
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
    request_body = CourseForm,
    responses((status = 403, description = "forbidden: not an admin", body = ErrorBody), (status = 200, body = AdminCourseDetail), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
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
    responses((status = 403, description = "forbidden: not an admin", body = ErrorBody), (status = 200, body = MessageResponse), (status = 404, body = ErrorBody)))]
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
    responses((status = 403, description = "forbidden: not an admin", body = ErrorBody), (status = 200, body = AdminCourseDetail), (status = 404, description = "course_not_found", body = ErrorBody), (status = 422, description = "invalid_order", body = ErrorBody)))]
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
    #[schema(schema_with = crate::api::document::line::<{ crate::domain::courses::MAX_TITLE_CHARS }>)]
    title: String,
}

/// Add a module at the end of a course.
#[utoipa::path(post, path = "/admin/courses/{id}/modules", tag = "training", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = ModuleBody,
    responses((status = 403, description = "forbidden: not an admin", body = ErrorBody), (status = 201, body = AdminCourseDetail), (status = 404, description = "course_not_found", body = ErrorBody), (status = 409, description = "too_many_modules", body = ErrorBody),
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
    responses((status = 403, description = "forbidden: not an admin", body = ErrorBody), (status = 200, body = AdminCourseDetail), (status = 404, description = "module_not_found", body = ErrorBody),
        (status = 422, description = "The title is required, on one line, within its length", body = ErrorBody)))]
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
    responses((status = 403, description = "forbidden: not an admin", body = ErrorBody), (status = 200, body = AdminCourseDetail), (status = 404, description = "module_not_found", body = ErrorBody)))]
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
    responses((status = 403, description = "forbidden: not an admin", body = ErrorBody), (status = 201, body = AdminCourseDetail), (status = 404, description = "module_not_found", body = ErrorBody), (status = 409, description = "too_many_lessons", body = ErrorBody),
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
    responses((status = 403, description = "forbidden: not an admin", body = ErrorBody), (status = 200, body = AdminCourseDetail), (status = 404, description = "lesson_not_found", body = ErrorBody),
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
    responses((status = 403, description = "forbidden: not an admin", body = ErrorBody), (status = 200, body = AdminCourseDetail), (status = 404, description = "lesson_not_found", body = ErrorBody)))]
async fn admin_delete_lesson(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<AdminCourseDetail>> {
    Ok(Json(change(&state, move |tx| courses::delete_lesson(tx, &auth.user, id)).await?))
}
