//! The admin's Blog Management (docs/news.md): every post with the count
//! cards and filters, create and edit (the spec's multipart `blog[...]`
//! form, or `{"blog": {...}}` JSON), publish, unpublish, delete.

use axum::Json;
use axum::extract::{DefaultBodyLimit, FromRequest, Multipart, Path, Query, Request, State};
use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{BlogJson, words};
use crate::api::MessageResponse;
use crate::api::document::forms::{NewPostFields, PostFields};
use crate::api::extract::{
    ApiJson, MAX_TEXT_FIELD_BYTES, field_too_long, multipart_error, multipart_rejection, read_field,
};
use crate::auth::AdminUser;
use crate::db::blogs::{self as rows, BlogFilter};
use crate::domain::blogs::{self, BlogInput, MAX_CONTENT_BYTES};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::blog::BlogCategory;
use crate::outbound::media;
use crate::state::AppState;

/// A form: one picture of 5 MB, the content, and the short fields.
const FORM_LIMIT: usize = media::MAX_IMAGE_BYTES + MAX_CONTENT_BYTES + 64 * 1024;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(admin_list, create))
        .routes(routes!(update, delete))
        .layer(DefaultBodyLimit::max(FORM_LIMIT))
        .layer(axum::middleware::from_fn(|request, next| media::reserve_body(FORM_LIMIT, request, next)))
        .routes(routes!(publish))
        .routes(routes!(unpublish))
}

/// A `blog[...]` form: multipart with an optional `blog[image]` file, or JSON.
pub struct BlogForm {
    pub input: BlogInput,
    /// The picture file, not yet checked.
    pub image: Option<Vec<u8>>,
}

impl FromRequest<AppState> for BlogForm {
    type Rejection = AppError;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, AppError> {
        let content_type = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        if content_type.starts_with("multipart/form-data") {
            let multipart = Multipart::from_request(req, state).await.map_err(multipart_rejection)?;
            return read_multipart(multipart).await;
        }
        #[derive(Deserialize)]
        struct Envelope {
            blog: BlogInput,
        }
        if content_type.starts_with("application/json") {
            let ApiJson(Envelope { blog }) = ApiJson::from_request(req, state).await?;
            return Ok(BlogForm { input: blog, image: None });
        }
        Err(AppError::unsupported_media_type("Send the form as multipart/form-data or as JSON"))
    }
}

#[derive(ToSchema)]
#[allow(dead_code)] // documents the body
struct NewPostRequest {
    blog: NewPostFields,
}

#[derive(ToSchema)]
#[allow(dead_code)] // documents the body
struct PostRequest {
    blog: PostFields,
}

async fn read_multipart(mut multipart: Multipart) -> Result<BlogForm, AppError> {
    let mut fields = serde_json::Map::new();
    let mut image = None;
    while let Some(mut field) = multipart.next_field().await.map_err(multipart_error)? {
        let name = field.name().unwrap_or_default().to_owned();
        let key = name.strip_prefix("blog[").and_then(|n| n.strip_suffix(']')).unwrap_or(&name).to_owned();
        if key == "image" {
            let bytes = read_field(&mut field, media::MAX_IMAGE_BYTES, media::too_large).await?;
            // Browsers send an empty part when no file was chosen.
            image = Some(bytes).filter(|b| !b.is_empty());
            continue;
        }
        let limit = if key == "full_content" { MAX_CONTENT_BYTES + 1 } else { MAX_TEXT_FIELD_BYTES };
        let bytes = read_field(&mut field, limit, field_too_long).await?;
        let text = crate::api::extract::field_text(bytes)?;
        fields.insert(key, serde_json::Value::String(text));
    }
    let input = serde_json::from_value(serde_json::Value::Object(fields))
        .map_err(|err| AppError::bad_request("invalid_body", format!("The form has the wrong shape: {err}")))?;
    Ok(BlogForm { input, image })
}

/// Stores the form's picture (checked by its content, re-encoded at the sizes the pages use).
async fn store_image(
    state: &AppState,
    admin: &crate::db::users::UserRow,
    image: Option<Vec<u8>>,
) -> ApiResult<Option<String>> {
    match image {
        Some(bytes) => Ok(crate::api::products::store_files(state, admin, vec![bytes]).await?.pop()),
        None => Ok(None),
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct AdminQuery {
    /// Words found in the title, description or author.
    q: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::blog_statuses)]
    status: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::blog_categories)]
    category: Option<String>,
    page: Option<i64>,
    /// 50 unless asked, at most 200.
    per_page: Option<i64>,
}

/// The count cards: all posts, published, drafts, distinct authors.
#[derive(Serialize, ToSchema)]
struct BlogStats {
    total: i64,
    published: i64,
    drafts: i64,
    authors: i64,
}

#[derive(Serialize, ToSchema)]
struct AdminBlogList {
    success: bool,
    data: Vec<BlogJson>,
    total: i64,
    page: i64,
    per_page: i64,
    stats: BlogStats,
}

/// Every post (drafts too), newest first, filtered and paged, with the count cards.
#[utoipa::path(get, path = "/admin/blogs", operation_id = "admin_list_blogs", tag = "news", security(("bearer" = [])), params(AdminQuery),
    responses((status = 200, body = AdminBlogList), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn admin_list(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<AdminQuery>,
) -> ApiResult<Json<AdminBlogList>> {
    let filter = BlogFilter {
        words: words(query.q.as_deref())?,
        category: crate::api::filter(query.category.as_deref(), "category", BlogCategory::parse)?,
        published: crate::api::filter(query.status.as_deref(), "status", |s| match s {
            "published" => Some(true),
            "draft" => Some(false),
            _ => None,
        })?,
        language: None,
        first_language: None,
    };
    let crate::api::Paging { page, per_page } = crate::api::Paging::admin(query.page, query.per_page);
    let (found, total, (all, published, drafts, authors)) = state
        .db
        .read(move |conn| {
            let (found, total) = rows::list(conn, &filter, per_page, (page - 1) * per_page)?;
            Ok((found, total, rows::counts(conn)?))
        })
        .await?;
    Ok(Json(AdminBlogList {
        success: true,
        data: found.into_iter().map(BlogJson::from).collect(),
        total,
        page,
        per_page,
        stats: BlogStats { total: all, published, drafts, authors },
    }))
}

#[derive(Serialize, ToSchema)]
struct BlogSaved {
    success: bool,
    message: String,
    data: BlogJson,
}

fn saved(message: &str, row: crate::db::blogs::BlogRow) -> Json<BlogSaved> {
    Json(BlogSaved { success: true, message: message.to_owned(), data: row.into() })
}

/// Write a post: multipart `blog[title]`, `[description]`, `[full_content]`
/// (HTML, sanitised here), `[author]`, `[category]`, `[read_time]`,
/// `[language]`, `[published]`, optional `[image]` (JPEG, PNG, GIF or WebP, at
/// most 5 MB); or `{"blog": {...}}`. Defaults: General, a read time counted from the words (empty), a draft.
#[utoipa::path(post, path = "/admin/blogs", operation_id = "create_blog", tag = "news", security(("bearer" = [])),
    request_body(description = "`{\"blog\": {...}}`, or multipart `blog[field]` (or `field`) with the picture as `blog[image]`",
        content((NewPostRequest = "application/json"), (NewPostFields = "multipart/form-data"))),
    responses((status = 201, body = BlogSaved), (status = 403, body = ErrorBody), (status = 413, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    form: BlogForm,
) -> ApiResult<(StatusCode, Json<BlogSaved>)> {
    let image = store_image(&state, &auth.user, form.image).await?;
    let admin = auth.user.clone();
    let row = state.db.write(move |tx| blogs::create(tx, &admin, &form.input, image)).await?;
    Ok((StatusCode::CREATED, saved("Blog post created", row)))
}

/// Edit a post (the same form; what is left out keeps its value;
/// `blog[remove_image]=true` takes the picture away).
#[utoipa::path(put, path = "/admin/blogs/{id}", operation_id = "update_blog", tag = "news", security(("bearer" = [])), params(("id" = i64, Path)),
    request_body(description = "As a new post's, only the fields to change; `remove_image` takes the picture away",
        content((PostRequest = "application/json"), (PostFields = "multipart/form-data"))),
    responses((status = 200, body = BlogSaved), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn update(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
    form: BlogForm,
) -> ApiResult<Json<BlogSaved>> {
    // A missing post is said before a picture is stored for it.
    state.db.read(move |conn| blogs::live(conn, id)).await?;
    let image = store_image(&state, &auth.user, form.image).await?;
    let admin = auth.user.clone();
    let row = state.db.write(move |tx| blogs::update(tx, &admin, id, &form.input, image)).await?;
    Ok(saved("Blog post updated", row))
}

/// Publish a post.
#[utoipa::path(put, path = "/admin/blogs/{id}/publish", tag = "news", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = BlogSaved), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn publish(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<BlogSaved>> {
    let admin = auth.user.clone();
    let row = state.db.write(move |tx| blogs::set_published(tx, &admin, id, true)).await?;
    Ok(saved("Blog post published", row))
}

/// Take a post back to draft.
#[utoipa::path(put, path = "/admin/blogs/{id}/unpublish", tag = "news", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = BlogSaved), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn unpublish(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<BlogSaved>> {
    let admin = auth.user.clone();
    let row = state.db.write(move |tx| blogs::set_published(tx, &admin, id, false)).await?;
    Ok(saved("Blog post unpublished", row))
}

/// Delete a post (readers' phones drop it at their next sync).
#[utoipa::path(delete, path = "/admin/blogs/{id}", operation_id = "delete_blog", tag = "news", security(("bearer" = [])), params(("id" = i64, Path)),
    responses((status = 200, body = MessageResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn delete(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<MessageResponse>> {
    let admin = auth.user.clone();
    state.db.write(move |tx| blogs::delete(tx, &admin, id)).await?;
    Ok(MessageResponse::new("Blog post deleted"))
}
