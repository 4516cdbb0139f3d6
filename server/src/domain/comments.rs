//! Comments under news posts (docs/news.md): plain text from signed-in
//! people, one level of replies, one like per person, a rate limit, hidden
//! by admins and deleted by their author or an admin. A comment's `uid` may
//! be made on the phone, so one written offline and sent twice is one.

use crate::db::Connection;

use crate::db::comments::{self as rows, CommentRow, NewComment};
use crate::db::users::UserRow;
use crate::domain::blogs;
use crate::domain::input::has_hidden_characters;
use crate::domain::made_once;
use crate::error::{ApiResult, AppError};
use crate::platform::clock;

pub const MAX_BODY_CHARS: usize = 2_000;
const MAX_UID_CHARS: usize = 64;
/// At most this many comments from one person in `RATE_WINDOW`.
pub const RATE_LIMIT: i64 = 10;
const RATE_WINDOW: std::time::Duration = std::time::Duration::from_secs(10 * 60);

/// A post or comment by its server id or its uid.
#[derive(Debug, Clone, Copy)]
pub enum Key<'a> {
    Id(i64),
    Uid(&'a str),
}

fn not_found() -> AppError {
    AppError::not_found("comment_not_found", "Comment not found")
}

fn post_id(conn: &Connection, post: Key<'_>) -> ApiResult<i64> {
    let id = match post {
        Key::Id(id) => id,
        Key::Uid(uid) => crate::db::blogs::find_by_uid(conn, uid)?.map_or(0, |b| b.id),
    };
    Ok(blogs::readable(conn, id)?.id)
}

/// A comment readers see (not hidden, not deleted), under a published post.
fn shown(conn: &Connection, comment: Key<'_>, viewer: i64) -> ApiResult<CommentRow> {
    let row = match comment {
        Key::Id(id) => rows::find(conn, id, viewer)?,
        Key::Uid(uid) => rows::find_by_uid(conn, uid, viewer)?,
    }
    .filter(|c| !c.hidden && !c.deleted)
    .ok_or_else(not_found)?;
    blogs::readable(conn, row.blog_id).map_err(|_| not_found())?;
    Ok(row)
}

/// Writes a comment (or a reply to `parent`) under `post`; answers it and
/// whether it is new (the same uid again from its author answers the first).
pub fn create(
    tx: &Connection,
    author: &UserRow,
    post: Key<'_>,
    uid: Option<&str>,
    parent: Option<Key<'_>>,
    body: &str,
) -> ApiResult<(CommentRow, bool)> {
    let uid = uid.map(str::trim).map(str::to_owned).unwrap_or_else(|| uuid::Uuid::new_v4().to_string());
    if uid.is_empty() || uid.chars().count() > MAX_UID_CHARS {
        return Err(AppError::invalid("uid", "invalid_uid", "A comment needs an id of at most 64 characters"));
    }
    let known = rows::find_by_uid(tx, &uid, author.id)?;
    if let Some(known) = made_once(known, |k| k.user_id == author.id, "Another comment has this id")? {
        return Ok((known, false));
    }
    let blog_id = post_id(tx, post)?;
    let body = body.trim();
    if body.is_empty() {
        return Err(AppError::invalid("body", "required", "Write a comment first"));
    }
    if body.chars().count() > MAX_BODY_CHARS {
        return Err(AppError::invalid("body", "too_long", "A comment is at most 2,000 characters"));
    }
    if has_hidden_characters(body, true) {
        return Err(AppError::invalid(
            "body",
            "invalid_characters",
            "The comment contains characters that are not allowed",
        ));
    }
    let (parent_id, answered) = match parent {
        None => (None, None),
        Some(key) => {
            let parent = shown(tx, key, author.id)?;
            if parent.blog_id != blog_id {
                return Err(not_found());
            }
            // Replies are one level deep: an answer to a reply joins its thread.
            (Some(parent.parent_id.unwrap_or(parent.id)), Some(parent.user_id))
        }
    };
    let now = clock::now();
    if rows::written_since(tx, author.id, &clock::before_now(RATE_WINDOW))? >= RATE_LIMIT {
        return Err(AppError::too_many_requests(
            "too_many_comments",
            "You have written many comments in a short time; please wait a few minutes",
            RATE_WINDOW.as_secs(),
        ));
    }
    let id = rows::insert(tx, &NewComment { uid: &uid, blog_id, parent_id, user_id: author.id, body, now: &now })?;
    if let Some(answered) = answered.filter(|id| *id != author.id) {
        let name = author.greeting_name();
        let link = format!("/news/{blog_id}");
        crate::domain::notifications::notify(tx, answered, "comment_reply", &link, &[("name", &name)])?;
    }
    let row = rows::find(tx, id, author.id)?.ok_or_else(|| AppError::internal("comment vanished"))?;
    Ok((row, true))
}

/// Likes (`on`) or unlikes a comment; a person's like counts once.
pub fn like(tx: &Connection, user: &UserRow, comment: Key<'_>, on: bool) -> ApiResult<CommentRow> {
    let row = shown(tx, comment, user.id)?;
    rows::set_like(tx, row.id, user.id, on, &clock::now())?;
    rows::find(tx, row.id, user.id)?.ok_or_else(|| AppError::internal("comment vanished"))
}

/// Deletes a comment: its author or an admin.
pub fn delete(tx: &Connection, user: &UserRow, id: i64) -> ApiResult<()> {
    let row = rows::find(tx, id, user.id)?.filter(|c| !c.deleted).ok_or_else(not_found)?;
    if row.user_id != user.id && !user.role.is_admin() {
        return Err(AppError::forbidden("not_your_comment", "Only its author or an admin can delete a comment"));
    }
    rows::delete(tx, id, &clock::now())?;
    Ok(())
}

/// Hides a comment from readers, or shows it again (admins).
pub fn set_hidden(tx: &Connection, admin: &UserRow, id: i64, hidden: bool) -> ApiResult<CommentRow> {
    blogs::check_admin(admin)?;
    let row = rows::find(tx, id, admin.id)?.filter(|c| !c.deleted).ok_or_else(not_found)?;
    rows::set_hidden(tx, row.id, hidden.then_some(admin.id), &clock::now())?;
    rows::find(tx, row.id, admin.id)?.ok_or_else(|| AppError::internal("comment vanished"))
}
