//! The `blog_comments` and `blog_comment_likes` tables (docs/news.md).

use crate::db::{Connection, OptionalExtension, Row, params};

#[derive(Debug, Clone)]
pub struct CommentRow {
    pub id: i64,
    pub uid: String,
    pub blog_id: i64,
    pub parent_id: Option<i64>,
    pub user_id: i64,
    pub author_name: String,
    pub body: String,
    pub likes: i64,
    /// Whether the viewer likes it (false for visitors).
    pub liked: bool,
    pub hidden: bool,
    pub deleted: bool,
    pub created_at: String,
    /// The post's title (in the admin's list).
    pub post_title: String,
}

/// Columns; `?1` in the statement is the viewer's id (0 for visitors).
const SELECT: &str = "SELECT c.id, c.uid, c.blog_id, c.parent_id, c.user_id,
        trim(u.first_name || ' ' || u.last_name), c.body, c.likes,
        EXISTS (SELECT 1 FROM blog_comment_likes l WHERE l.comment_id = c.id AND l.user_id = ?1),
        c.hidden_at IS NOT NULL, c.deleted_at IS NOT NULL, c.created_at, b.title
    FROM blog_comments c JOIN users u ON u.id = c.user_id JOIN blogs b ON b.id = c.blog_id";

fn from_row(r: &Row<'_>) -> crate::db::Result<CommentRow> {
    Ok(CommentRow {
        id: r.get(0)?,
        uid: r.get(1)?,
        blog_id: r.get(2)?,
        parent_id: r.get(3)?,
        user_id: r.get(4)?,
        author_name: r.get(5)?,
        body: r.get(6)?,
        likes: r.get(7)?,
        liked: r.get(8)?,
        hidden: r.get(9)?,
        deleted: r.get(10)?,
        created_at: r.get(11)?,
        post_title: r.get(12)?,
    })
}

pub struct NewComment<'a> {
    pub uid: &'a str,
    pub blog_id: i64,
    pub parent_id: Option<i64>,
    pub user_id: i64,
    pub body: &'a str,
    pub now: &'a str,
}

pub fn insert(conn: &Connection, c: &NewComment<'_>) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO blog_comments (uid, blog_id, parent_id, user_id, body, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?6)",
        params![c.uid, c.blog_id, c.parent_id, c.user_id, c.body, c.now],
    )
}

pub fn find(conn: &Connection, id: i64, viewer: i64) -> crate::db::Result<Option<CommentRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE c.id = ?2"))?.query_row(params![viewer, id], from_row).optional()
}

pub fn find_by_uid(conn: &Connection, uid: &str, viewer: i64) -> crate::db::Result<Option<CommentRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE c.uid = ?2"))?.query_row(params![viewer, uid], from_row).optional()
}

/// How many comments a person wrote since `since` (the rate limit).
pub fn written_since(conn: &Connection, user_id: i64, since: &str) -> crate::db::Result<i64> {
    conn.prepare_cached("SELECT COUNT(*) FROM blog_comments WHERE user_id = ?1 AND created_at >= ?2")?
        .query_row(params![user_id, since], |r| r.get(0))
}

/// A comment and its replies.
pub type Thread = (CommentRow, Vec<CommentRow>);

/// A page of a post's comments that readers see, newest first, and how many
/// there are; each with its visible replies, oldest first.
pub fn of_post(
    conn: &Connection,
    blog_id: i64,
    viewer: i64,
    limit: i64,
    offset: i64,
) -> crate::db::Result<(Vec<Thread>, i64)> {
    const SHOWN: &str = "c.hidden_at IS NULL AND c.deleted_at IS NULL";
    let total = conn
        .prepare_cached(&format!(
            "SELECT COUNT(*) FROM blog_comments c WHERE c.blog_id = ?1 AND c.parent_id IS NULL AND {SHOWN}"
        ))?
        .query_row([blog_id], |r| r.get(0))?;
    let top = conn
        .prepare_cached(&format!(
            "{SELECT} WHERE c.blog_id = ?2 AND c.parent_id IS NULL AND {SHOWN} ORDER BY c.id DESC LIMIT ?3 OFFSET ?4"
        ))?
        .query_map(params![viewer, blog_id, limit, offset], from_row)?
        .collect::<crate::db::Result<Vec<_>>>()?;
    // The page's replies in one query, oldest first, at most MAX_REPLIES_SHOWN a thread.
    let ids = serde_json::to_string(&top.iter().map(|c| c.id).collect::<Vec<_>>()).unwrap_or_else(|_| "[]".into());
    let numbered =
        SELECT.replacen("\n    FROM", ", ROW_NUMBER() OVER (PARTITION BY c.parent_id ORDER BY c.id) AS n\n    FROM", 1);
    let mut replies = conn
        .prepare_cached(&format!(
            "SELECT * FROM ({numbered} WHERE c.parent_id IN (SELECT CAST(j.value AS BIGINT) FROM {}) AND {SHOWN}) AS r
             WHERE n <= {MAX_REPLIES_SHOWN} ORDER BY 1",
            super::dialect::json_items(conn.engine(), "?2", "j")
        ))?
        .query_map(params![viewer, ids], from_row)?
        .collect::<crate::db::Result<Vec<_>>>()?;
    let threads = top
        .into_iter()
        .map(|comment| {
            let (answers, rest) = replies.drain(..).partition(|r| r.parent_id == Some(comment.id));
            replies = rest;
            (comment, answers)
        })
        .collect();
    Ok((threads, total))
}

/// Replies shown under one comment.
pub const MAX_REPLIES_SHOWN: usize = 100;

/// Every comment for the admin, newest first: `hidden` narrows to hidden
/// (true) or shown (false) ones. Deleted ones are left out.
pub fn for_admin(
    conn: &Connection,
    hidden: Option<bool>,
    limit: i64,
    offset: i64,
) -> crate::db::Result<(Vec<CommentRow>, i64)> {
    let filter = match hidden {
        Some(true) => " AND c.hidden_at IS NOT NULL",
        Some(false) => " AND c.hidden_at IS NULL",
        None => "",
    };
    let total = conn
        .prepare_cached(&format!("SELECT COUNT(*) FROM blog_comments c WHERE c.deleted_at IS NULL{filter}"))?
        .query_row([], |r| r.get(0))?;
    let rows = conn
        .prepare_cached(&format!("{SELECT} WHERE c.deleted_at IS NULL{filter} ORDER BY c.id DESC LIMIT ?2 OFFSET ?3"))?
        .query_map(params![0, limit, offset], from_row)?
        .collect::<crate::db::Result<Vec<_>>>()?;
    Ok((rows, total))
}

/// Likes or unlikes; answers whether anything changed.
pub fn set_like(conn: &Connection, comment_id: i64, user_id: i64, on: bool, now: &str) -> crate::db::Result<bool> {
    let changed = if on {
        conn.prepare_cached(
            "INSERT INTO blog_comment_likes (comment_id, user_id, created_at) VALUES (?1, ?2, ?3)
             ON CONFLICT DO NOTHING",
        )?
        .execute(params![comment_id, user_id, now])?
    } else {
        conn.prepare_cached("DELETE FROM blog_comment_likes WHERE comment_id = ?1 AND user_id = ?2")?
            .execute(params![comment_id, user_id])?
    };
    if changed > 0 {
        conn.prepare_cached(
            "UPDATE blog_comments SET likes = (SELECT COUNT(*) FROM blog_comment_likes WHERE comment_id = ?1)
             WHERE id = ?1",
        )?
        .execute([comment_id])?;
    }
    Ok(changed > 0)
}

pub fn set_hidden(conn: &Connection, id: i64, by: Option<i64>, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE blog_comments SET hidden_at = CASE WHEN CAST(?2 AS BIGINT) IS NULL THEN NULL ELSE ?3 END, hidden_by = ?2,
                updated_at = ?3 WHERE id = ?1",
    )?
    .execute(params![id, by, now])?;
    Ok(())
}

pub fn delete(conn: &Connection, id: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE blog_comments SET deleted_at = ?2, updated_at = ?2 WHERE id = ?1")?
        .execute(params![id, now])?;
    Ok(())
}
