//! The `blogs` table (docs/news.md).

use crate::db::{Connection, OptionalExtension, Row, params};

use crate::model::blog::{BlogCategory, BlogFields};
use crate::model::product::fold;

#[derive(Debug, Clone)]
pub struct BlogRow {
    pub id: i64,
    pub uid: String,
    pub fields: BlogFields,
    pub published_at: Option<String>,
    pub version: i64,
    pub created_at: String,
    pub updated_at: String,
    pub deleted_at: Option<String>,
}

const COLUMNS: &str = "id, uid, title, description, full_content, author, category, read_time, language, image,
    published, published_at, version, created_at, updated_at, deleted_at, pictures";

fn from_row(r: &Row<'_>) -> crate::db::Result<BlogRow> {
    Ok(BlogRow {
        id: r.get(0)?,
        uid: r.get(1)?,
        fields: BlogFields {
            title: r.get(2)?,
            description: r.get(3)?,
            full_content: r.get(4)?,
            author: r.get(5)?,
            category: r.get(6)?,
            read_time: r.get(7)?,
            language: r.get(8)?,
            image: r.get(9)?,
            published: r.get(10)?,
            pictures: serde_json::from_str(&r.get::<_, String>(16)?).unwrap_or_default(),
        },
        published_at: r.get(11)?,
        version: r.get(12)?,
        created_at: r.get(13)?,
        updated_at: r.get(14)?,
        deleted_at: r.get(15)?,
    })
}

pub fn insert(
    conn: &Connection,
    uid: &str,
    f: &BlogFields,
    created_by: i64,
    version: i64,
    now: &str,
) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO blogs (uid, title, description, full_content, author, category, read_time, language, image,
                            published, published_at, created_by, version, created_at, updated_at, search_text,
                            pictures)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, CASE WHEN CAST(?10 AS BIGINT) = 1 THEN ?13 END, ?11, ?12, ?13, ?13, ?14, ?15)",
        params![
            uid,
            f.title,
            f.description,
            f.full_content,
            f.author,
            f.category,
            f.read_time,
            f.language,
            f.image,
            f.published,
            created_by,
            version,
            now,
            search_text(f),
            pictures(f)
        ],
    )
}

/// Writes a post's fields; `published_at` is set the first time it is published.
pub fn update(conn: &Connection, id: i64, f: &BlogFields, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE blogs SET title = ?2, description = ?3, full_content = ?4, author = ?5, category = ?6, read_time = ?7,
                language = ?8, image = ?9, published = ?10,
                published_at = CASE WHEN CAST(?10 AS BIGINT) = 1 THEN COALESCE(published_at, ?12) ELSE published_at END,
                version = ?11, updated_at = ?12, search_text = ?13, pictures = ?14
         WHERE id = ?1",
    )?
    .execute(params![
        id,
        f.title,
        f.description,
        f.full_content,
        f.author,
        f.category,
        f.read_time,
        f.language,
        f.image,
        f.published,
        version,
        now,
        search_text(f),
        pictures(f)
    ])?;
    Ok(())
}

fn pictures(f: &BlogFields) -> String {
    serde_json::to_string(&f.pictures).unwrap_or_else(|_| "[]".into())
}

fn search_text(f: &BlogFields) -> String {
    fold(&format!("{} {} {}", f.title, f.description, f.author))
}

pub fn tombstone(conn: &Connection, id: i64, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE blogs SET deleted_at = ?3, published = 0, version = ?2, updated_at = ?3 WHERE id = ?1",
    )?
    .execute(params![id, version, now])?;
    Ok(())
}

pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<BlogRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM blogs WHERE id = ?1"))?.query_row([id], from_row).optional()
}

/// What a list is narrowed to.
#[derive(Debug, Default)]
pub struct BlogFilter {
    /// Folded words, each found in the title, description or author.
    pub words: Vec<String>,
    pub category: Option<BlogCategory>,
    /// `Some(true)`: published only; `Some(false)`: drafts only.
    pub published: Option<bool>,
    pub language: Option<String>,
    /// Posts in this language first (the reader's), each language newest first.
    pub first_language: Option<String>,
}

fn conditions(filter: &BlogFilter, args: &mut Vec<crate::db::Value>) -> String {
    let mut sql = String::from("deleted_at IS NULL");
    for word in &filter.words {
        args.push(super::like_pattern(word).into());
        sql.push_str(&format!(" AND search_text LIKE ?{} ESCAPE '\\'", args.len()));
    }
    if let Some(category) = filter.category {
        args.push(category.as_str().to_owned().into());
        sql.push_str(&format!(" AND category = ?{}", args.len()));
    }
    if let Some(published) = filter.published {
        args.push(i64::from(published).into());
        sql.push_str(&format!(" AND published = ?{}", args.len()));
    }
    if let Some(language) = &filter.language {
        args.push(language.clone().into());
        sql.push_str(&format!(" AND language = ?{}", args.len()));
    }
    sql
}

/// A page of posts, newest first (published ones by when they were published),
/// and how many match.
pub fn list(conn: &Connection, filter: &BlogFilter, limit: i64, offset: i64) -> crate::db::Result<(Vec<BlogRow>, i64)> {
    let mut args = Vec::new();
    let sql = conditions(filter, &mut args);
    let total = conn
        .prepare(&format!("SELECT COUNT(*) FROM blogs WHERE {sql}"))?
        .query_row(crate::db::params_from_iter(args.iter()), |r| r.get(0))?;
    let first = match &filter.first_language {
        Some(language) => {
            args.push(language.clone().into());
            format!("language = ?{} DESC, ", args.len())
        }
        None => String::new(),
    };
    args.push(limit.into());
    args.push(offset.into());
    let n = args.len();
    let rows = conn
        .prepare(&format!(
            "SELECT {COLUMNS} FROM blogs WHERE {sql} ORDER BY {first}COALESCE(published_at, created_at) DESC, id DESC
             LIMIT ?{} OFFSET ?{n}",
            n - 1
        ))?
        .query_map(crate::db::params_from_iter(args.iter()), from_row)?
        .collect::<crate::db::Result<Vec<_>>>()?;
    Ok((rows, total))
}

/// The admin's count cards: (all, published, drafts, distinct authors).
pub fn counts(conn: &Connection) -> crate::db::Result<(i64, i64, i64, i64)> {
    conn.prepare_cached(
        "SELECT COUNT(*), COUNT(*) FILTER (WHERE published = 1), COUNT(*) FILTER (WHERE published = 0),
                COUNT(DISTINCT lower(trim(author)))
         FROM blogs WHERE deleted_at IS NULL",
    )?
    .query_row([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
}

/// Pictures posts use (kept by the hourly clean-up): their images, and
/// pictures inside their content (`/media/{hash}/...`).
pub fn pictures_in_use(engine: crate::db::Engine) -> String {
    format!(
        "SELECT image FROM blogs WHERE image IS NOT NULL AND deleted_at IS NULL
         UNION SELECT j.value FROM blogs b, {} WHERE b.deleted_at IS NULL",
        super::dialect::json_items(engine, "b.pictures", "j")
    )
}

/// Dates a post back (the demo's articles were not all written today).
pub fn backdate(conn: &Connection, id: i64, at: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE blogs SET created_at = ?2, updated_at = ?2, published_at = CASE WHEN published = 1 THEN ?2 END
         WHERE id = ?1",
    )?
    .execute(params![id, at])?;
    Ok(())
}

/// How many of the latest published posts a phone's first snapshot carries;
/// later pulls bring every post that changes (new ones among them).
pub const ON_THE_PHONE: i64 = 20;

/// Posts changed after `after`, oldest change first. A snapshot (`snapshot`: the
/// version it was taken at) carries, of the posts at or below it, only the latest published.
pub fn changes_after(
    conn: &Connection,
    after: i64,
    limit: usize,
    snapshot: Option<i64>,
) -> crate::db::Result<Vec<BlogRow>> {
    let latest =
        " AND (CAST(?4 AS BIGINT) IS NULL OR version > ?4 OR id IN (SELECT id FROM blogs WHERE published = 1 AND deleted_at IS NULL
                     ORDER BY published_at DESC, id DESC LIMIT ?3))";
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM blogs WHERE version > ?1{latest} ORDER BY version LIMIT ?2"))?
        .query_map(params![after, limit as i64, ON_THE_PHONE, snapshot], from_row)?
        .collect()
}

pub fn find_by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<BlogRow>> {
    conn.prepare_cached(&format!("SELECT {COLUMNS} FROM blogs WHERE uid = ?1"))?.query_row([uid], from_row).optional()
}
