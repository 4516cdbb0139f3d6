//! News and blog posts (docs/news.md): admins write them; their content
//! HTML is sanitised here, with an allow-list, before it is stored, so a
//! script, an event handler or a `javascript:` link never reaches a reader.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use crate::db::Connection;
use serde::Deserialize;
use sync_protocol::Loose;

use crate::db::blogs::{self as rows, BlogRow};
use crate::db::users::UserRow;
use crate::db::{sync, uploads};
use crate::domain::courses::check_text;
use crate::domain::input::loose_bool;
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::model::blog::{BlogCategory, BlogFields};
use crate::model::course::CourseLanguage;
use crate::platform::clock;

pub const MAX_TITLE_CHARS: usize = 200;
pub const MAX_DESCRIPTION_CHARS: usize = 1_000;
pub const MAX_AUTHOR_CHARS: usize = 100;
pub const MAX_READ_TIME_CHARS: usize = 30;
/// An article's HTML as sent (a long article is some 30 KB).
pub const MAX_CONTENT_BYTES: usize = 200_000;
const MAX_PICTURES: usize = 30;

/// A post's fields as a form or JSON sends them; what is left out keeps its value.
#[derive(Debug, Default, Deserialize)]
pub struct BlogInput {
    pub title: Option<String>,
    pub description: Option<String>,
    pub full_content: Option<String>,
    pub author: Option<String>,
    pub category: Option<String>,
    pub read_time: Option<String>,
    pub language: Option<String>,
    pub published: Option<Loose>,
    /// True to take the post's image away.
    pub remove_image: Option<Loose>,
}

/// Where a content picture may come from: our own media store, one stored size.
fn media_picture(src: &str) -> Option<&str> {
    let name = src.strip_prefix("/media/")?.strip_suffix(".jpg")?;
    let (hash, size) = name.split_once('-')?;
    (crate::model::picture::is_hash(hash) && crate::model::picture::PHOTO_SIZES.iter().any(|s| s.to_string() == size))
        .then_some(hash)
}

/// The HTML a post may hold: headings, paragraphs, bold, italic, lists,
/// quotes, links (web, mail and phone, opened without access to us) and
/// pictures from our media store. Everything else goes: scripts and styles
/// with their content, event handlers, styles, `javascript:` and `data:`
/// URLs, pictures from elsewhere (they would be fetched from outside, and
/// not be there offline). Answers the clean HTML and the pictures it uses.
pub fn sanitise(html: &str) -> (String, Vec<String>) {
    let tags: HashSet<&str> = [
        "h2",
        "h3",
        "h4",
        "p",
        "br",
        "hr",
        "strong",
        "b",
        "em",
        "i",
        "u",
        "ul",
        "ol",
        "li",
        "a",
        "blockquote",
        "img",
        "figure",
        "figcaption",
    ]
    .into();
    let attributes: HashMap<&str, HashSet<&str>> = [("a", ["href"].into()), ("img", ["src", "alt"].into())].into();
    let clean = ammonia::Builder::default()
        .tags(tags)
        .tag_attributes(attributes)
        .generic_attributes(HashSet::new())
        .url_schemes(["http", "https", "mailto", "tel"].into())
        .url_relative(ammonia::UrlRelative::PassThrough)
        .link_rel(Some("noopener noreferrer nofollow"))
        .attribute_filter(|element, attribute, value| match (element, attribute) {
            ("img", "src") => media_picture(value).map(|_| Cow::Borrowed(value)),
            ("a", "href") => stays_here_or_allowed(value).then_some(Cow::Borrowed(value)),
            _ => Some(Cow::Borrowed(value)),
        })
        .clean(html)
        .to_string();
    let mut pictures = Vec::new();
    for part in clean.split("src=\"").skip(1) {
        if let Some(hash) = part.split('"').next().and_then(media_picture)
            && !pictures.iter().any(|p| p == hash)
        {
            pictures.push(hash.to_owned());
        }
    }
    (clean, pictures)
}

/// Whether a link, read as a browser reads it (WHATWG URL parsing: backslashes are
/// slashes, tabs and newlines vanish), is either absolute with an allowed scheme or a
/// path on this site. `/\evil.example`, `\/evil.example` and `/<TAB>/evil.example` are
/// protocol-relative links to another site, and go.
fn stays_here_or_allowed(href: &str) -> bool {
    const HERE: &str = "https://mavuno.invalid/";
    if let Ok(absolute) = url::Url::parse(href) {
        return ["http", "https", "mailto", "tel"].contains(&absolute.scheme());
    }
    let Ok(base) = url::Url::parse(HERE) else { return false };
    base.join(href).is_ok_and(|resolved| resolved.origin() == base.origin())
}

/// Whether sanitised HTML shows any words (a post of only a script is empty).
fn has_text(html: &str) -> bool {
    let mut inside = false;
    html.chars().any(|c| match c {
        '<' => {
            inside = true;
            false
        }
        '>' => {
            inside = false;
            false
        }
        c => !inside && !c.is_whitespace(),
    }) || html.contains("<img")
}

pub(crate) fn check_admin(actor: &UserRow) -> ApiResult<()> {
    if actor.role.is_admin() { Ok(()) } else { Err(AppError::forbidden("forbidden", "Only admins manage the blog")) }
}

fn not_found() -> AppError {
    AppError::not_found("blog_not_found", "Blog post not found")
}

/// The fields after `input` (on top of `current` when editing), checked;
/// `image` is a picture just stored with the form, if any.
fn apply(
    conn: &Connection,
    input: &BlogInput,
    image: Option<String>,
    current: Option<&BlogFields>,
) -> ApiResult<BlogFields> {
    let mut errors = FieldErrors::default();
    let mut text = |field: &str, value: &Option<String>, now: Option<&String>, max: usize| {
        let value = value.as_deref().map(str::trim).map(str::to_owned).or_else(|| now.cloned()).unwrap_or_default();
        if value.is_empty() {
            errors.add(field, "required", format!("The {field} is required"));
        } else {
            check_text(&mut errors, field, &value, max, field == "description");
        }
        value
    };
    let title = text("title", &input.title, current.map(|c| &c.title), MAX_TITLE_CHARS);
    let description = text("description", &input.description, current.map(|c| &c.description), MAX_DESCRIPTION_CHARS);
    let author = text("author", &input.author, current.map(|c| &c.author), MAX_AUTHOR_CHARS);
    let (full_content, pictures) = match input.full_content.as_deref() {
        Some(raw) if raw.len() > MAX_CONTENT_BYTES => {
            errors.add("full_content", "too_long", "The content is at most 200 KB");
            (String::new(), Vec::new())
        }
        Some(raw) => sanitise(raw),
        None => current.map(|c| (c.full_content.clone(), c.pictures.clone())).unwrap_or_default(),
    };
    if !has_text(&full_content) && !errors.has("full_content") {
        errors.add("full_content", "required", "The content is required");
    }
    if pictures.len() > MAX_PICTURES {
        errors.add("full_content", "too_many_images", "At most 30 pictures in a post");
    }
    for hash in &pictures {
        if uploads::find(conn, hash)?.is_none() {
            errors.add("full_content", "photo_missing", "Send the picture to /uploads first");
            break;
        }
    }
    let category = match input.category.as_deref().map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => BlogCategory::parse(c).unwrap_or_else(|| {
            errors.add("category", "invalid_option", "Please choose one of the categories");
            BlogCategory::General
        }),
        None => current.map_or(BlogCategory::General, |c| c.category),
    };
    // Empty: counted from the words, in each reader's language (model::blog::read_minutes).
    let read_time = match input.read_time.as_deref().map(str::trim) {
        Some(r) => r.to_owned(),
        None => current.map_or(String::new(), |c| c.read_time.clone()),
    };
    check_text(&mut errors, "read_time", &read_time, MAX_READ_TIME_CHARS, false);
    let language = match input.language.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
        Some(l) => CourseLanguage::parse(l).unwrap_or_else(|| {
            errors.add("language", "invalid_option", "The language is en, fr or sw");
            CourseLanguage::En
        }),
        None => current.map_or(CourseLanguage::En, |c| c.language),
    };
    let flag = |value: &Option<Loose>, field: &str, errors: &mut FieldErrors| {
        value.as_ref().and_then(|v| {
            loose_bool(v).or_else(|| {
                errors.add(field, "invalid_option", format!("The {field} is true or false"));
                None
            })
        })
    };
    let published = flag(&input.published, "published", &mut errors).or(current.map(|c| c.published)).unwrap_or(false);
    let remove_image = flag(&input.remove_image, "remove_image", &mut errors).unwrap_or(false);
    errors.finish()?;
    let image = match (image, remove_image) {
        (Some(stored), _) => Some(stored),
        (None, true) => None,
        (None, false) => current.and_then(|c| c.image.clone()),
    };
    Ok(BlogFields {
        title,
        description,
        full_content,
        author,
        category,
        read_time,
        language,
        image,
        pictures,
        published,
    })
}

/// A post that is not deleted.
pub fn live(conn: &Connection, id: i64) -> ApiResult<BlogRow> {
    rows::find(conn, id)?.filter(|b| b.deleted_at.is_none()).ok_or_else(not_found)
}

/// A post readers may see: published and not deleted.
pub fn readable(conn: &Connection, id: i64) -> ApiResult<BlogRow> {
    live(conn, id).and_then(|b| if b.fields.published { Ok(b) } else { Err(not_found()) })
}

pub fn create(tx: &Connection, actor: &UserRow, input: &BlogInput, image: Option<String>) -> ApiResult<BlogRow> {
    check_admin(actor)?;
    let fields = apply(tx, input, image, None)?;
    let uid = uuid::Uuid::new_v4().to_string();
    let id = rows::insert(tx, &uid, &fields, actor.id, sync::next_version(tx)?, &clock::now())?;
    live(tx, id)
}

pub fn update(
    tx: &Connection,
    actor: &UserRow,
    id: i64,
    input: &BlogInput,
    image: Option<String>,
) -> ApiResult<BlogRow> {
    check_admin(actor)?;
    let current = live(tx, id)?;
    let fields = apply(tx, input, image, Some(&current.fields))?;
    rows::update(tx, id, &fields, sync::next_version(tx)?, &clock::now())?;
    live(tx, id)
}

pub fn set_published(tx: &Connection, actor: &UserRow, id: i64, published: bool) -> ApiResult<BlogRow> {
    check_admin(actor)?;
    let current = live(tx, id)?;
    let fields = BlogFields { published, ..current.fields };
    rows::update(tx, id, &fields, sync::next_version(tx)?, &clock::now())?;
    live(tx, id)
}

pub fn delete(tx: &Connection, actor: &UserRow, id: i64) -> ApiResult<()> {
    check_admin(actor)?;
    live(tx, id)?;
    rows::tombstone(tx, id, sync::next_version(tx)?, &clock::now())?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clean(html: &str) -> String {
        sanitise(html).0
    }

    #[test]
    fn scripts_handlers_and_hostile_urls_are_removed() {
        let hostile = [
            "<script>alert(1)</script><p>Beans</p>",
            "<p onclick=\"alert(1)\">Beans</p>",
            "<img src=x onerror=alert(1)><p>Beans</p>",
            "<a href=\"javascript:alert(1)\">Beans</a>",
            "<a href=\"JaVaScRiPt:alert(1)\">Beans</a>",
            "<a href=\"&#106;avascript:alert(1)\">Beans</a>",
            "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">Beans</a>",
            "<svg onload=alert(1)><p>Beans</p></svg>",
            "<iframe src=\"https://evil.example\"></iframe><p>Beans</p>",
            "<p style=\"background:url(javascript:alert(1))\">Beans</p>",
            "<scr<script>ipt>alert(1)</script><p>Beans</p>",
            "<p>Beans<!-- <script>alert(1)</script> --></p>",
            "<math><mi><style><img src=x onerror=alert(1)></style></mi></math><p>Beans</p>",
            "<form action=\"https://evil.example\"><input name=a></form><p>Beans</p>",
            "<p>Beans</p><object data=\"x\"></object><embed src=\"x\">",
        ];
        for html in hostile {
            let out = clean(html).to_lowercase();
            for bad in [
                "<script",
                "onerror",
                "onclick",
                "onload",
                "javascript:",
                "data:",
                "<iframe",
                "style=",
                "<svg",
                "<form",
                "<object",
                "<embed",
                "<input",
            ] {
                assert!(!out.contains(bad), "{html:?} gave {out:?}");
            }
            assert!(out.contains("beans"), "{html:?} lost its text: {out:?}");
        }
    }

    #[test]
    fn what_authors_write_stays() {
        let hash = "a".repeat(64);
        let html = format!(
            "<h2>Prices</h2><p><strong>Beans</strong> and <em>maize</em></p><ul><li>one</li></ul>\
             <blockquote>Said</blockquote><a href=\"https://mavuno.example/x\">more</a>\
             <img src=\"/media/{hash}-1024.jpg\" alt=\"A field\"><img src=\"https://elsewhere.example/p.jpg\">\
             <a href=\"//evil.example\">away</a>"
        );
        let (out, pictures) = sanitise(&html);
        for kept in ["<h2>Prices</h2>", "<strong>Beans</strong>", "<em>maize</em>", "<li>one</li>", "<blockquote>"] {
            assert!(out.contains(kept), "{kept} in {out}");
        }
        assert!(out.contains("href=\"https://mavuno.example/x\" rel=\"noopener noreferrer nofollow\""), "{out}");
        assert!(out.contains(&format!("src=\"/media/{hash}-1024.jpg\"")));
        assert!(!out.contains("elsewhere.example") && !out.contains("evil.example"), "{out}");
        assert_eq!(pictures, [hash]);
        // Malformed HTML comes out balanced.
        assert_eq!(clean("<p><strong>open"), "<p><strong>open</strong></p>");
    }

    #[test]
    fn a_post_of_only_a_script_has_no_text() {
        assert!(!has_text(&clean("<script>alert(1)</script>  ")));
        assert!(has_text(&clean("<p>Beans</p>")));
    }
}
