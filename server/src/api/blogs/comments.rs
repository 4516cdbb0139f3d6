//! Comments under news posts (docs/news.md): readers list a post's comments;
//! signed-in people comment, reply and like (phones also send
//! `comment.create` and `comment.like` through sync, so it works offline);
//! authors and admins delete; admins hide and list them all.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::api::MessageResponse;
use crate::api::extract::ApiJson;
use crate::auth::{AdminUser, AuthUser, MaybeAuthUser};
use crate::db::comments::{self as rows, CommentRow};
use crate::domain::blogs;
use crate::domain::comments::{self, Key};
use crate::error::{ApiResult, ErrorBody};
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(like))
        .routes(routes!(delete))
        .routes(routes!(admin_list))
        .routes(routes!(hide))
        .routes(routes!(unhide))
}

/// Who wrote a comment.
#[derive(Serialize, ToSchema)]
struct CommentAuthor {
    id: i64,
    name: String,
}

/// A comment, with its replies (oldest first) when it starts a thread.
#[derive(Serialize, ToSchema)]
struct CommentJson {
    id: i64,
    /// Made by the writer's phone, or by the server.
    uid: String,
    /// The post's id.
    post_id: i64,
    /// The comment it answers.
    parent_id: Option<i64>,
    author: CommentAuthor,
    /// Plain text, as written: show it as text, never as HTML.
    body: String,
    likes: i64,
    /// Whether the caller likes it.
    liked: bool,
    /// Whether the caller wrote it.
    mine: bool,
    /// Hidden from readers by an admin (only admins see these).
    hidden: bool,
    created_at: String,
    #[schema(no_recursion)]
    replies: Vec<CommentJson>,
    /// The post's title (in the admin's list).
    #[serde(skip_serializing_if = "Option::is_none")]
    post_title: Option<String>,
}

impl CommentJson {
    fn new(c: CommentRow, viewer: i64, replies: Vec<CommentRow>) -> CommentJson {
        CommentJson {
            mine: c.user_id == viewer,
            replies: replies.into_iter().map(|r| CommentJson::new(r, viewer, Vec::new())).collect(),
            id: c.id,
            uid: c.uid,
            post_id: c.blog_id,
            parent_id: c.parent_id,
            author: CommentAuthor { id: c.user_id, name: c.author_name },
            body: c.body,
            likes: c.likes,
            liked: c.liked,
            hidden: c.hidden,
            created_at: c.created_at,
            post_title: None,
        }
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct PageQuery {
    page: Option<i64>,
    /// 20 unless asked, at most 100.
    per_page: Option<i64>,
}

fn page_of(query: &PageQuery) -> (i64, i64) {
    (query.page.unwrap_or(1).clamp(1, 100_000), query.per_page.unwrap_or(20).clamp(1, 100))
}

#[derive(Serialize, ToSchema)]
struct CommentPage {
    success: bool,
    data: Vec<CommentJson>,
    total: i64,
    page: i64,
    per_page: i64,
}

/// A published post's comments, newest first, a page at a time, each with its replies.
#[utoipa::path(get, path = "/blogs/{id}/comments", operation_id = "list_comments", tag = "news", params(("id" = i64, Path), PageQuery),
    security((), ("bearer" = [])),
    responses((status = 200, body = CommentPage), (status = 404, description = "blog_not_found", body = ErrorBody)))]
async fn list(
    State(state): State<AppState>,
    auth: MaybeAuthUser,
    Path(id): Path<i64>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<CommentPage>> {
    let viewer = auth.0.map_or(0, |a| a.user.id);
    let (page, per_page) = page_of(&query);
    let (threads, total) = state
        .db
        .read(move |conn| {
            blogs::readable(conn, id)?;
            Ok(rows::of_post(conn, id, viewer, per_page, (page - 1) * per_page)?)
        })
        .await?;
    let data = threads.into_iter().map(|(c, replies)| CommentJson::new(c, viewer, replies)).collect();
    Ok(Json(CommentPage { success: true, data, total, page, per_page }))
}

#[derive(Deserialize, ToSchema)]
struct CommentBody {
    /// Made by the client, so a comment sent twice is one (optional; at most 64 characters).
    #[serde(default)]
    #[schema(max_length = 64, pattern = "^[^\\u0000]*[^\\s\\u0000][^\\u0000]*$")]
    uid: Option<String>,
    #[schema(schema_with = crate::api::document::text::<{ crate::domain::comments::MAX_BODY_CHARS }>)]
    body: String,
    /// The comment this answers.
    #[serde(default)]
    parent_id: Option<i64>,
}

#[derive(Serialize, ToSchema)]
struct CommentResponse {
    success: bool,
    data: CommentJson,
}

/// Comment on a post, or reply to a comment (replies are one level deep).
/// At most 10 comments in 10 minutes from one person.
#[utoipa::path(post, path = "/blogs/{id}/comments", operation_id = "create_comment", tag = "news", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = CommentBody,
    responses(
        (status = 201, body = CommentResponse), (status = 200, description = "The same uid again", body = CommentResponse),
        (status = 401, body = ErrorBody), (status = 404, description = "blog_not_found, comment_not_found", body = ErrorBody),
        (status = 409, description = "uid_taken: another person's comment has this uid", body = ErrorBody),
        (status = 422, description = "required, too_long, invalid_characters, invalid_uid", body = ErrorBody),
        (status = 429, description = "too_many_comments", body = ErrorBody),
    ))]
async fn create(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<CommentBody>,
) -> ApiResult<(StatusCode, Json<CommentResponse>)> {
    let author = auth.user;
    let viewer = author.id;
    let (row, created) = state
        .db
        .write(move |tx| {
            let parent = request.parent_id.map(Key::Id);
            comments::create(tx, &author, Key::Id(id), request.uid.as_deref(), parent, &request.body)
        })
        .await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(CommentResponse { success: true, data: CommentJson::new(row, viewer, Vec::new()) })))
}

#[derive(Deserialize, ToSchema)]
struct LikeBody {
    liked: bool,
}

/// Like or unlike a comment: one like per person.
#[utoipa::path(put, path = "/comments/{id}/like", tag = "news", params(("id" = i64, Path)), security(("bearer" = [])),
    request_body = LikeBody,
    responses((status = 200, body = CommentResponse), (status = 401, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn like(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<LikeBody>,
) -> ApiResult<Json<CommentResponse>> {
    let user = auth.user;
    let viewer = user.id;
    let row = state.db.write(move |tx| comments::like(tx, &user, Key::Id(id), request.liked)).await?;
    Ok(Json(CommentResponse { success: true, data: CommentJson::new(row, viewer, Vec::new()) }))
}

/// Delete a comment: its author or an admin.
#[utoipa::path(delete, path = "/comments/{id}", operation_id = "delete_comment", tag = "news", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, body = MessageResponse), (status = 403, description = "not_your_comment", body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<MessageResponse>> {
    let user = auth.user;
    state.db.write(move |tx| comments::delete(tx, &user, id)).await?;
    Ok(MessageResponse::new("Comment deleted"))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct AdminQuery {
    #[param(value_type = Option<String>, schema_with = crate::api::document::comment_statuses)]
    status: Option<String>,
    page: Option<i64>,
    per_page: Option<i64>,
}

/// Every comment, newest first, with its post's title (admins).
#[utoipa::path(get, path = "/admin/comments", operation_id = "admin_list_comments", tag = "news", params(AdminQuery), security(("bearer" = [])),
    responses((status = 200, body = CommentPage), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn admin_list(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<AdminQuery>,
) -> ApiResult<Json<CommentPage>> {
    let hidden = crate::api::filter(query.status.as_deref(), "status", |s| match s {
        "hidden" => Some(true),
        "shown" => Some(false),
        _ => None,
    })?;
    let (page, per_page) = page_of(&PageQuery { page: query.page, per_page: query.per_page });
    let (found, total) =
        state.db.read(move |conn| Ok(rows::for_admin(conn, hidden, per_page, (page - 1) * per_page)?)).await?;
    let data = found
        .into_iter()
        .map(|c| {
            let title = c.post_title.clone();
            CommentJson { post_title: Some(title), ..CommentJson::new(c, 0, Vec::new()) }
        })
        .collect();
    Ok(Json(CommentPage { success: true, data, total, page, per_page }))
}

/// Hide a comment from readers (admins).
#[utoipa::path(put, path = "/admin/comments/{id}/hide", operation_id = "hide_comment", tag = "news", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, body = CommentResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn hide(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<CommentResponse>> {
    let admin = auth.user.clone();
    let row = state.db.write(move |tx| comments::set_hidden(tx, &admin, id, true)).await?;
    Ok(Json(CommentResponse { success: true, data: CommentJson::new(row, 0, Vec::new()) }))
}

/// Show a hidden comment again (admins).
#[utoipa::path(put, path = "/admin/comments/{id}/unhide", tag = "news", params(("id" = i64, Path)), security(("bearer" = [])),
    responses((status = 200, body = CommentResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn unhide(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<CommentResponse>> {
    let admin = auth.user.clone();
    let row = state.db.write(move |tx| comments::set_hidden(tx, &admin, id, false)).await?;
    Ok(Json(CommentResponse { success: true, data: CommentJson::new(row, 0, Vec::new()) }))
}
