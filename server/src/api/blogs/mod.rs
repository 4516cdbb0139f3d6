//! News and blog (docs/news.md), the spec's API: `GET /blogs` (published
//! posts, an array), `GET /blogs/{id}` (one post), an RSS feed per language
//! (`GET /blogs/feed.xml?lang=`), the admin's Blog Management (`admin.rs`) and
//! comments (`comments.rs`).

mod admin;
mod comments;

use axum::Json;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::db::blogs::{self as rows, BlogFilter, BlogRow};
use crate::domain::blogs;
use crate::error::{ApiResult, ErrorBody};
use crate::model::blog::{BlogCategory, BlogFields};
use crate::model::course::CourseLanguage;
use crate::outbound::media::{self, MediaStore};
use crate::state::AppState;
use crate::web::escape;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(one))
        .routes(routes!(feed))
        .merge(admin::routes())
        .merge(comments::routes())
}

/// A post as the spec's client reads it.
#[derive(Serialize, ToSchema)]
#[cfg_attr(test, derive(ts_rs::TS), ts(rename = "PostRecord"))]
pub struct BlogJson {
    id: i64,
    /// The post's id in sync.
    uid: String,
    title: String,
    description: String,
    /// Sanitised HTML.
    full_content: String,
    author: String,
    category: BlogCategory,
    read_time: String,
    /// en, fr or sw.
    language: CourseLanguage,
    published: bool,
    /// The picture, 1024 px wide (relative to this server), or null.
    image_url: Option<String>,
    /// The picture 320 px wide, for lists.
    thumbnail_url: Option<String>,
    /// When it was published, else written.
    date: String,
    published_at: Option<String>,
    created_at: String,
    updated_at: String,
}

impl From<BlogRow> for BlogJson {
    fn from(b: BlogRow) -> Self {
        let BlogFields {
            title,
            description,
            full_content,
            author,
            category,
            read_time,
            language,
            image,
            published,
            ..
        } = b.fields;
        BlogJson {
            id: b.id,
            uid: b.uid,
            image_url: image.as_deref().map(|h| MediaStore::url(h, media::DISPLAY)),
            thumbnail_url: image.as_deref().map(|h| MediaStore::url(h, media::THUMBNAIL)),
            title,
            description,
            full_content,
            author,
            category,
            read_time,
            language,
            published,
            date: b.published_at.clone().unwrap_or_else(|| b.created_at.clone()),
            published_at: b.published_at,
            created_at: b.created_at,
            updated_at: b.updated_at,
        }
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct ListQuery {
    /// Words found in the title, description or author (any case, any accents).
    q: Option<String>,
    /// One of the categories, or all.
    #[param(value_type = Option<String>, schema_with = crate::api::document::blog_categories)]
    category: Option<String>,
    /// en, fr or sw: posts in that language only.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
    page: Option<i64>,
    /// 24 unless asked, at most 100.
    per_page: Option<i64>,
}

/// The folded words of a search.
fn words(q: Option<&str>) -> ApiResult<Vec<String>> {
    Ok(super::search(q)?
        .map(|q| crate::model::product::fold(&q).split_whitespace().map(str::to_owned).collect())
        .unwrap_or_default())
}

/// Published posts, newest first: the spec's array, a page at a time; the
/// number that match is in `X-Total-Count`.
#[utoipa::path(get, path = "/blogs", operation_id = "list_blogs", tag = "news", params(ListQuery),
    responses((status = 200, body = [BlogJson], headers(("X-Total-Count" = i64))), (status = 422, description = "invalid_filter, search_too_long", body = ErrorBody)))]
async fn list(State(state): State<AppState>, Query(query): Query<ListQuery>) -> ApiResult<Response> {
    let filter = BlogFilter {
        words: words(query.q.as_deref())?,
        category: super::filter(query.category.as_deref(), "category", BlogCategory::parse)?,
        published: Some(true),
        language: super::filter(query.lang.as_deref(), "lang", CourseLanguage::parse)?.map(|l| l.as_str().to_owned()),
        first_language: None,
    };
    let (page, per_page) = super::catalogue_page(query.page, query.per_page);
    let (found, total) =
        state.db.read(move |conn| Ok(rows::list(conn, &filter, per_page, (page - 1) * per_page)?)).await?;
    let data: Vec<BlogJson> = found.into_iter().map(BlogJson::from).collect();
    let mut response = Json(data).into_response();
    response.headers_mut().insert("x-total-count", HeaderValue::from(total));
    Ok(response)
}

/// One published post.
#[utoipa::path(get, path = "/blogs/{id}", tag = "news", params(("id" = i64, Path)),
    responses((status = 200, body = BlogJson), (status = 404, description = "blog_not_found", body = ErrorBody)))]
async fn one(State(state): State<AppState>, Path(id): Path<i64>) -> ApiResult<Json<BlogJson>> {
    let row = state.db.read(move |conn| blogs::readable(conn, id)).await?;
    Ok(Json(row.into()))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct FeedQuery {
    /// en (default), fr or sw.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
}

/// How many posts a feed carries.
const FEED_ITEMS: i64 = 30;

/// The latest published posts in one language, as RSS 2.0.
#[utoipa::path(get, path = "/blogs/feed.xml", tag = "news", params(FeedQuery),
    responses((status = 200, content_type = "application/rss+xml", description = "RSS 2.0"), (status = 422, body = ErrorBody)))]
async fn feed(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    Query(query): Query<FeedQuery>,
) -> ApiResult<Response> {
    let language = super::filter(query.lang.as_deref(), "lang", CourseLanguage::parse)?.unwrap_or(CourseLanguage::En);
    let filter =
        BlogFilter { published: Some(true), language: Some(language.as_str().to_owned()), ..Default::default() };
    let (posts, _) = state.db.read(move |conn| Ok(rows::list(conn, &filter, FEED_ITEMS, 0)?)).await?;
    let origin = crate::platform::middleware::public_origin(&state.config, peer.ip(), &headers);
    let xml = rss(&origin, language, &posts);
    Ok(([(header::CONTENT_TYPE, "application/rss+xml; charset=utf-8")], xml).into_response())
}

/// RFC 3339 (as stored) → RFC 2822 (as RSS wants it).
fn rfc2822(at: &str) -> String {
    crate::platform::clock::parse(at)
        .and_then(|t| t.format(&time::format_description::well_known::Rfc2822).ok())
        .unwrap_or_default()
}

fn rss(origin: &str, language: CourseLanguage, posts: &[BlogRow]) -> String {
    // The channel speaks the feed's language, in the PWA's own words.
    let words = crate::labels::Lang::parse(Some(language.as_str()));
    let mut xml = format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\">\n<channel>\n\
         <title>{title}</title>\n<link>{origin}/news</link>\n\
         <atom:link href=\"{origin}/api/v1/blogs/feed.xml?lang={lang}\" rel=\"self\" type=\"application/rss+xml\"/>\n\
         <description>{description}</description>\n<language>{lang}</language>\n",
        title = escape(&words.text("news.title")),
        description = escape(&words.text("news.intro")),
        lang = language.as_str()
    );
    for post in posts {
        let f = &post.fields;
        let date = post.published_at.as_deref().unwrap_or(&post.created_at);
        xml.push_str(&format!(
            "<item>\n<title>{}</title>\n<link>{origin}/news/{id}</link>\n<guid isPermaLink=\"false\">{}</guid>\n\
             <pubDate>{}</pubDate>\n<category>{}</category>\n<description>{}</description>\n</item>\n",
            escape(&f.title),
            post.uid,
            rfc2822(date),
            f.category,
            escape(&f.description),
            id = post.id,
        ));
    }
    xml.push_str("</channel>\n</rss>\n");
    xml
}
