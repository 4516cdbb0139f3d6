//! Courses, their modules and lessons (docs/training.md); learners'
//! enrolments, events and certificates are in `enrolments`.

use crate::db::Value;
use crate::db::{Connection, OptionalExtension, Row, params, params_from_iter};

use crate::model::course::{CourseCategory, CourseFields, LessonKind, Level, Question};

#[derive(Debug, Clone)]
pub struct CourseRow {
    pub id: i64,
    pub uid: String,
    pub fields: CourseFields,
    pub rating: f64,
    pub rating_count: i64,
    pub download_bytes: i64,
    pub version: i64,
    pub created_at: String,
    pub updated_at: String,
    pub deleted_at: Option<String>,
    /// Active enrolments.
    pub enrolled: i64,
    pub lesson_count: i64,
    pub minutes: i64,
}

impl CourseRow {
    /// In the catalogue: published and not deleted.
    pub fn is_listed(&self) -> bool {
        self.fields.published && self.deleted_at.is_none()
    }
}

const SELECT: &str = "SELECT c.id, c.uid, c.title, c.description, c.category, c.level, c.language, c.instructor_name,
        c.instructor_title, c.instructor_bio, c.instructor_photo, c.cover_image, c.price_cents, c.certificate, c.tags,
        c.outcomes, c.requirements, c.published, c.rating, c.rating_count, c.download_bytes, c.version, c.created_at,
        c.updated_at, c.deleted_at,
        (SELECT COUNT(*) FROM enrolments e WHERE e.course_id = c.id AND e.status = 'active'),
        (SELECT COUNT(*) FROM course_lessons l JOIN course_modules m ON m.id = l.module_id WHERE m.course_id = c.id),
        (SELECT COALESCE(SUM(l.minutes), 0) FROM course_lessons l JOIN course_modules m ON m.id = l.module_id
         WHERE m.course_id = c.id)
    FROM courses c";

fn json_list(text: String) -> Vec<String> {
    serde_json::from_str(&text).unwrap_or_default()
}

fn from_row(row: &Row<'_>) -> crate::db::Result<CourseRow> {
    Ok(CourseRow {
        id: row.get(0)?,
        uid: row.get(1)?,
        fields: CourseFields {
            title: row.get(2)?,
            description: row.get(3)?,
            category: row.get(4)?,
            level: row.get(5)?,
            language: row.get(6)?,
            instructor_name: row.get(7)?,
            instructor_title: row.get(8)?,
            instructor_bio: row.get(9)?,
            instructor_photo: row.get(10)?,
            cover_image: row.get(11)?,
            price: row.get(12)?,
            certificate: row.get(13)?,
            tags: json_list(row.get(14)?),
            outcomes: json_list(row.get(15)?),
            requirements: json_list(row.get(16)?),
            published: row.get(17)?,
        },
        rating: row.get(18)?,
        rating_count: row.get(19)?,
        download_bytes: row.get(20)?,
        version: row.get(21)?,
        created_at: row.get(22)?,
        updated_at: row.get(23)?,
        deleted_at: row.get(24)?,
        enrolled: row.get(25)?,
        lesson_count: row.get(26)?,
        minutes: row.get(27)?,
    })
}

fn to_json(list: &[String]) -> String {
    serde_json::to_string(list).unwrap_or_else(|_| "[]".into())
}

fn field_values(f: &CourseFields) -> Vec<Value> {
    let text = |s: &str| Value::Text(s.to_owned());
    let maybe = |s: &Option<String>| s.as_deref().map_or(Value::Null, text);
    vec![
        text(&f.title),
        text(&f.description),
        text(f.category.as_str()),
        text(f.level.as_str()),
        text(f.language.as_str()),
        text(&f.instructor_name),
        text(&f.instructor_title),
        text(&f.instructor_bio),
        maybe(&f.instructor_photo),
        maybe(&f.cover_image),
        Value::Integer(f.price),
        Value::Integer(f.certificate.into()),
        text(&to_json(&f.tags)),
        text(&to_json(&f.outcomes)),
        text(&to_json(&f.requirements)),
        Value::Integer(f.published.into()),
        text(&f.search_text()),
    ]
}

const FIELD_COLUMNS: [&str; 17] = [
    "title",
    "description",
    "category",
    "level",
    "language",
    "instructor_name",
    "instructor_title",
    "instructor_bio",
    "instructor_photo",
    "cover_image",
    "price_cents",
    "certificate",
    "tags",
    "outcomes",
    "requirements",
    "published",
    "search_text",
];

pub fn insert(conn: &Connection, uid: &str, fields: &CourseFields, version: i64, now: &str) -> crate::db::Result<i64> {
    let n = FIELD_COLUMNS.len();
    let marks = (1..=n + 4).map(|i| format!("?{i}")).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "INSERT INTO courses ({}, uid, version, created_at, updated_at) VALUES ({marks})",
        FIELD_COLUMNS.join(", ")
    );
    let mut values = field_values(fields);
    values.extend([
        Value::Text(uid.to_owned()),
        Value::Integer(version),
        Value::Text(now.into()),
        Value::Text(now.into()),
    ]);
    conn.insert(&sql, params_from_iter(values))
}

pub fn update(conn: &Connection, id: i64, fields: &CourseFields, version: i64, now: &str) -> crate::db::Result<()> {
    let n = FIELD_COLUMNS.len();
    let sets =
        FIELD_COLUMNS.iter().enumerate().map(|(i, c)| format!("{c} = ?{}", i + 1)).collect::<Vec<_>>().join(", ");
    let sql = format!("UPDATE courses SET {sets}, version = ?{}, updated_at = ?{} WHERE id = ?{}", n + 1, n + 2, n + 3);
    let mut values = field_values(fields);
    values.extend([Value::Integer(version), Value::Text(now.into()), Value::Integer(id)]);
    conn.prepare_cached(&sql)?.execute(params_from_iter(values))?;
    Ok(())
}

/// A module or lesson changed: the course takes a new version, so phones pull its outline again.
pub fn touch(conn: &Connection, id: i64, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE courses SET version = ?2, updated_at = ?3 WHERE id = ?1")?
        .execute(params![id, version, now])?;
    Ok(())
}

pub fn tombstone(conn: &Connection, id: i64, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE courses SET deleted_at = ?2, updated_at = ?2, version = ?3, published = 0 WHERE id = ?1",
    )?
    .execute(params![id, now, version])?;
    Ok(())
}

pub fn set_download_bytes(conn: &Connection, id: i64, bytes: i64) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE courses SET download_bytes = ?2 WHERE id = ?1")?.execute(params![id, bytes])?;
    Ok(())
}

/// Includes unpublished and deleted courses; callers decide what they may see.
pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<CourseRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE c.id = ?1"))?.query_row([id], from_row).optional()
}

pub fn find_by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<CourseRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE c.uid = ?1"))?.query_row([uid], from_row).optional()
}

/// How the catalogue is ordered (docs/product.md, Constants; courses add duration).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CourseSort {
    Newest,
    Title,
    PriceUp,
    PriceDown,
    Rating,
    /// Shortest first.
    Duration,
}

#[derive(Debug, Clone)]
pub struct CourseFilter {
    /// Folded words, each found in the title, description or instructor.
    pub search: Vec<String>,
    pub category: Option<CourseCategory>,
    pub level: Option<Level>,
    pub sort: CourseSort,
}

/// One page of published courses and how many match in all.
pub fn catalogue(
    conn: &Connection,
    filter: &CourseFilter,
    limit: i64,
    offset: i64,
) -> crate::db::Result<(Vec<CourseRow>, i64)> {
    let mut sql = "c.published = 1 AND c.deleted_at IS NULL".to_owned();
    let mut values: Vec<Value> = Vec::new();
    for word in &filter.search {
        values.push(Value::Text(super::like_pattern(word)));
        sql.push_str(&format!(" AND c.search_text LIKE ?{} ESCAPE '\\'", values.len()));
    }
    if let Some(category) = filter.category {
        values.push(Value::Text(category.as_str().into()));
        sql.push_str(&format!(" AND c.category = ?{}", values.len()));
    }
    if let Some(level) = filter.level {
        values.push(Value::Text(level.as_str().into()));
        sql.push_str(&format!(" AND c.level = ?{}", values.len()));
    }
    let total: i64 = conn
        .prepare_cached(&format!("SELECT COUNT(*) FROM courses c WHERE {sql}"))?
        .query_row(params_from_iter(values.clone()), |r| r.get(0))?;
    // Columns 27 and 1: total minutes and id (SELECT's order).
    let by_title = format!("{}, c.id", super::dialect::nocase(conn.engine(), "c.title"));
    let order = match filter.sort {
        CourseSort::Newest => "c.id DESC",
        CourseSort::Title => &by_title,
        CourseSort::PriceUp => "c.price_cents, c.id",
        CourseSort::PriceDown => "c.price_cents DESC, c.id",
        CourseSort::Rating => "c.rating DESC, c.rating_count DESC, c.id",
        CourseSort::Duration => "28, c.id",
    };
    let page =
        format!("{SELECT} WHERE {sql} ORDER BY {order} LIMIT ?{} OFFSET ?{}", values.len() + 1, values.len() + 2);
    values.extend([Value::Integer(limit), Value::Integer(offset)]);
    let rows = conn.prepare_cached(&page)?.query_map(params_from_iter(values), from_row)?.collect::<Result<_, _>>()?;
    Ok((rows, total))
}

/// Every course that is not deleted, newest first (the admin's list).
pub fn list_all(conn: &Connection) -> crate::db::Result<Vec<CourseRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE c.deleted_at IS NULL ORDER BY c.id DESC"))?
        .query_map([], from_row)?
        .collect()
}

/// Courses changed after `after`, oldest change first. A snapshot (`snapshot`: the
/// version it was taken at) leaves out, of the courses at or below it, what is not listed.
pub fn changes_after(
    conn: &Connection,
    after: i64,
    limit: usize,
    snapshot: Option<i64>,
) -> crate::db::Result<Vec<CourseRow>> {
    let listed = " AND (CAST(?3 AS BIGINT) IS NULL OR c.version > ?3 OR (c.published = 1 AND c.deleted_at IS NULL))";
    conn.prepare_cached(&format!("{SELECT} WHERE c.version > ?1{listed} ORDER BY c.version LIMIT ?2"))?
        .query_map(params![after, limit as i64, snapshot], from_row)?
        .collect()
}

// --- Modules and lessons -------------------------------------------------

#[derive(Debug, Clone)]
pub struct LessonRow {
    pub id: i64,
    pub module_id: i64,
    pub kind: LessonKind,
    pub title: String,
    pub minutes: i64,
    pub body: String,
    pub questions: Vec<Question>,
}

#[derive(Debug, Clone)]
pub struct ModuleRow {
    pub id: i64,
    pub title: String,
    pub lessons: Vec<LessonRow>,
}

/// A course's modules with their lessons, in order; with the lessons' text
/// and questions only when `content`.
pub fn modules(conn: &Connection, course_id: i64, content: bool) -> crate::db::Result<Vec<ModuleRow>> {
    let mut modules: Vec<ModuleRow> = conn
        .prepare_cached("SELECT id, title FROM course_modules WHERE course_id = ?1 ORDER BY position, id")?
        .query_map([course_id], |r| Ok(ModuleRow { id: r.get(0)?, title: r.get(1)?, lessons: Vec::new() }))?
        .collect::<Result<_, _>>()?;
    let sql = if content {
        "SELECT l.id, l.module_id, l.kind, l.title, l.minutes, l.body, l.questions FROM course_lessons l
         JOIN course_modules m ON m.id = l.module_id WHERE m.course_id = ?1 ORDER BY l.position, l.id"
    } else {
        "SELECT l.id, l.module_id, l.kind, l.title, l.minutes, '', '[]' FROM course_lessons l
         JOIN course_modules m ON m.id = l.module_id WHERE m.course_id = ?1 ORDER BY l.position, l.id"
    };
    let lessons = conn
        .prepare_cached(sql)?
        .query_map([course_id], |r| {
            Ok(LessonRow {
                id: r.get(0)?,
                module_id: r.get(1)?,
                kind: r.get(2)?,
                title: r.get(3)?,
                minutes: r.get(4)?,
                body: r.get(5)?,
                questions: serde_json::from_str(&r.get::<_, String>(6)?).unwrap_or_default(),
            })
        })?
        .collect::<Result<Vec<_>, _>>()?;
    for lesson in lessons {
        if let Some(module) = modules.iter_mut().find(|m| m.id == lesson.module_id) {
            module.lessons.push(lesson);
        }
    }
    Ok(modules)
}

/// The course a module belongs to.
pub fn module_course(conn: &Connection, module_id: i64) -> crate::db::Result<Option<i64>> {
    conn.prepare_cached("SELECT course_id FROM course_modules WHERE id = ?1")?
        .query_row([module_id], |r| r.get(0))
        .optional()
}

/// The course and module a lesson belongs to.
pub fn lesson_place(conn: &Connection, lesson_id: i64) -> crate::db::Result<Option<(i64, i64)>> {
    conn.prepare_cached(
        "SELECT m.course_id, l.module_id FROM course_lessons l JOIN course_modules m ON m.id = l.module_id WHERE l.id = ?1",
    )?
    .query_row([lesson_id], |r| Ok((r.get(0)?, r.get(1)?)))
    .optional()
}

fn next_position(conn: &Connection, sql: &str, parent: i64) -> crate::db::Result<i64> {
    conn.prepare_cached(sql)?.query_row([parent], |r| r.get(0))
}

pub fn insert_module(conn: &Connection, course_id: i64, title: &str) -> crate::db::Result<i64> {
    let position = next_position(
        conn,
        "SELECT COALESCE(MAX(position), 0) + 1 FROM course_modules WHERE course_id = ?1",
        course_id,
    )?;
    conn.insert(
        "INSERT INTO course_modules (course_id, position, title) VALUES (?1, ?2, ?3)",
        params![course_id, position, title],
    )
}

pub fn rename_module(conn: &Connection, id: i64, title: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE course_modules SET title = ?2 WHERE id = ?1")?.execute(params![id, title])?;
    Ok(())
}

/// Removes a module and its lessons (learners' events about them stay, and are ignored).
pub fn delete_module(conn: &Connection, id: i64) -> crate::db::Result<()> {
    conn.prepare_cached("DELETE FROM course_lessons WHERE module_id = ?1")?.execute([id])?;
    conn.prepare_cached("DELETE FROM course_modules WHERE id = ?1")?.execute([id])?;
    Ok(())
}

/// What a lesson is made of, as written.
pub struct LessonContent<'a> {
    pub kind: LessonKind,
    pub title: &'a str,
    pub minutes: i64,
    pub body: &'a str,
    pub questions: &'a [Question],
    /// The picture hashes the body shows.
    pub images: &'a [String],
}

/// Adds a lesson at the end of a module; returns its id.
pub fn insert_lesson(conn: &Connection, module_id: i64, lesson: &LessonContent<'_>) -> crate::db::Result<i64> {
    let position = next_position(
        conn,
        "SELECT COALESCE(MAX(position), 0) + 1 FROM course_lessons WHERE module_id = ?1",
        module_id,
    )?;
    let id = conn.insert(
        "INSERT INTO course_lessons (module_id, position, kind, title, minutes) VALUES (?1, ?2, ?3, ?4, ?5)",
        params![module_id, position, lesson.kind, lesson.title, lesson.minutes],
    )?;
    update_lesson(conn, id, lesson)?;
    Ok(id)
}

pub fn update_lesson(conn: &Connection, id: i64, lesson: &LessonContent<'_>) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE course_lessons SET kind = ?2, title = ?3, minutes = ?4, body = ?5, questions = ?6, images = ?7 WHERE id = ?1",
    )?
    .execute(params![
        id,
        lesson.kind,
        lesson.title,
        lesson.minutes,
        lesson.body,
        serde_json::to_string(lesson.questions).unwrap_or_else(|_| "[]".into()),
        to_json(lesson.images),
    ])?;
    Ok(())
}

pub fn delete_lesson(conn: &Connection, id: i64) -> crate::db::Result<()> {
    conn.prepare_cached("DELETE FROM course_lessons WHERE id = ?1")?.execute([id])?;
    Ok(())
}

/// Puts a module at `position` (1, 2, ...).
pub fn place_module(conn: &Connection, id: i64, position: i64) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE course_modules SET position = ?2 WHERE id = ?1")?.execute(params![id, position])?;
    Ok(())
}

/// Puts a lesson in `module_id` at `position` (1, 2, ...).
pub fn place_lesson(conn: &Connection, id: i64, module_id: i64, position: i64) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE course_lessons SET module_id = ?2, position = ?3 WHERE id = ?1")?
        .execute(params![id, module_id, position])?;
    Ok(())
}

/// Every picture courses use: covers, instructors' photos, lessons' pictures.
pub fn pictures_in_use(engine: crate::db::Engine) -> String {
    format!(
        "SELECT cover_image FROM courses WHERE cover_image IS NOT NULL AND deleted_at IS NULL
         UNION SELECT instructor_photo FROM courses WHERE instructor_photo IS NOT NULL AND deleted_at IS NULL
         UNION SELECT j.value FROM course_lessons l, {}",
        super::dialect::json_items(engine, "l.images", "j")
    )
}

/// A course's lessons (id, kind) in course order.
pub fn lesson_kinds(conn: &Connection, course_id: i64) -> crate::db::Result<Vec<(i64, LessonKind)>> {
    conn.prepare_cached(
        "SELECT l.id, l.kind FROM course_lessons l JOIN course_modules m ON m.id = l.module_id
         WHERE m.course_id = ?1 ORDER BY m.position, m.id, l.position, l.id",
    )?
    .query_map([course_id], |r| Ok((r.get(0)?, r.get(1)?)))?
    .collect()
}
