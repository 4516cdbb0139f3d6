//! Courses (docs/training.md): admins write them (a course, its modules in
//! order, their lessons in order); everyone reads published ones; learners
//! enrol and make progress (`learning`). Every text and list is bounded.

pub mod learning;
pub mod markup;

pub use learning::{CourseKey, ProgressInput, can_read_content, enrol, rate, record_progress};

use crate::db::Connection;
use serde::Deserialize;
use sync_protocol::Loose;
use utoipa::ToSchema;

use super::input::has_hidden_characters;
use crate::db::courses::{self as rows, CourseRow, LessonContent};
use crate::db::users::UserRow;
use crate::db::{sync, uploads};
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::model::course::{CourseCategory, CourseFields, CourseLanguage, LessonKind, Level, Question};
use crate::platform::clock;

pub const MAX_TITLE_CHARS: usize = 120;
pub const MAX_DESCRIPTION_CHARS: usize = 4000;
pub const MAX_NAME_CHARS: usize = 100;
pub const MAX_BIO_CHARS: usize = 1000;
pub const MAX_LIST_ITEMS: usize = 12;
pub const MAX_ITEM_CHARS: usize = 200;
pub const MAX_TAGS: usize = 10;
pub const MAX_TAG_CHARS: usize = 30;
/// A course holds at most this many modules, a module this many lessons.
pub const MAX_MODULES: usize = 30;
pub const MAX_LESSONS: usize = 40;
/// A reading's text (about 20 printed pages) and a quiz's size.
const MAX_BODY_CHARS: usize = 40_000;
const MAX_QUESTIONS: usize = 30;
const MAX_CHOICES: usize = 6;
const MAX_PICTURES_PER_LESSON: usize = 20;
/// 10,000 USD.
pub const MAX_PRICE_CENTS: i64 = 1_000_000;

pub fn not_found() -> AppError {
    AppError::not_found("course_not_found", "Course not found")
}

fn check_admin(actor: &UserRow) -> ApiResult<()> {
    if actor.role.is_admin() { Ok(()) } else { Err(AppError::forbidden("forbidden", "Only admins manage courses")) }
}

/// A course's fields as an admin sends them; on an edit, only those to change.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(default, deny_unknown_fields)]
pub struct CourseInput {
    pub title: Option<String>,
    pub description: Option<String>,
    /// farming, marketing, finance, certification, climate or processing.
    pub category: Option<String>,
    /// beginner, intermediate or advanced.
    pub level: Option<String>,
    /// en, fr or sw: the language it is taught in.
    pub language: Option<String>,
    pub instructor_name: Option<String>,
    pub instructor_title: Option<String>,
    pub instructor_bio: Option<String>,
    /// A picture's hash (`PUT /uploads/{sha256}` first); blank removes it.
    pub instructor_photo: Option<String>,
    pub cover_image: Option<String>,
    /// USD; 0 is free.
    #[schema(value_type = Option<f64>)]
    pub price: Option<Loose>,
    pub certificate: Option<bool>,
    pub tags: Option<Vec<String>>,
    /// "What you'll learn".
    pub outcomes: Option<Vec<String>>,
    pub requirements: Option<Vec<String>>,
    pub published: Option<bool>,
}

pub(crate) fn check_text(errors: &mut FieldErrors, field: &str, text: &str, max: usize, multiline: bool) {
    if text.chars().count() > max {
        errors.add(field, "too_long", format!("The {field} is at most {max} characters"));
    } else if has_hidden_characters(text, multiline) {
        errors.add(field, "invalid_characters", format!("The {field} contains characters that are not allowed"));
    }
}

fn check_list(errors: &mut FieldErrors, field: &str, items: &[String], max_items: usize, max_chars: usize) {
    if items.len() > max_items || items.iter().any(|i| i.chars().count() > max_chars) {
        errors.add(field, "too_long", format!("At most {max_items} items of {max_chars} characters"));
    } else if items.iter().any(|i| has_hidden_characters(i, false)) {
        errors.add(field, "invalid_characters", format!("The {field} contain characters that are not allowed"));
    }
}

fn picture(
    conn: &Connection,
    errors: &mut FieldErrors,
    field: &str,
    hash: Option<&String>,
    current: Option<String>,
) -> ApiResult<Option<String>> {
    let Some(hash) = hash else { return Ok(current) };
    let hash = hash.trim();
    if hash.is_empty() {
        return Ok(None);
    }
    if uploads::find(conn, hash)?.is_none() {
        errors.add(field, "photo_missing", "Send the picture to /uploads first");
    }
    Ok(Some(hash.to_owned()))
}

/// The fields after `input` (on top of `current` when editing), checked.
fn apply(conn: &Connection, input: &CourseInput, current: Option<&CourseFields>) -> ApiResult<CourseFields> {
    let mut errors = FieldErrors::default();
    let mut text = |field: &str, value: &Option<String>, now: Option<&String>, max: usize, required: bool| {
        let value = value.as_deref().map(str::trim).map(str::to_owned).or_else(|| now.cloned()).unwrap_or_default();
        if required && value.is_empty() {
            errors.add(field, "required", format!("The {field} is required"));
        } else {
            check_text(&mut errors, field, &value, max, field == "description" || field == "instructor_bio");
        }
        value
    };
    let title = text("title", &input.title, current.map(|c| &c.title), MAX_TITLE_CHARS, true);
    let description =
        text("description", &input.description, current.map(|c| &c.description), MAX_DESCRIPTION_CHARS, true);
    let instructor_name =
        text("instructor_name", &input.instructor_name, current.map(|c| &c.instructor_name), MAX_NAME_CHARS, true);
    let instructor_title =
        text("instructor_title", &input.instructor_title, current.map(|c| &c.instructor_title), MAX_NAME_CHARS, false);
    let instructor_bio =
        text("instructor_bio", &input.instructor_bio, current.map(|c| &c.instructor_bio), MAX_BIO_CHARS, false);
    let mut choice = |field: &str, value: &Option<String>| -> Option<String> {
        match value.as_deref().map(str::trim) {
            Some(v) => Some(v.to_owned()),
            None if current.is_none() => {
                errors.add(field, "required", format!("The {field} is required"));
                None
            }
            None => None,
        }
    };
    let category = choice("category", &input.category);
    let level = choice("level", &input.level);
    let language = choice("language", &input.language);
    let category = match category {
        Some(c) => CourseCategory::parse(&c).or_else(|| {
            errors.add("category", "invalid_option", "Please choose one of the categories");
            None
        }),
        None => current.map(|c| c.category),
    };
    let level = match level {
        Some(l) => Level::parse(&l).or_else(|| {
            errors.add("level", "invalid_option", "The level is beginner, intermediate or advanced");
            None
        }),
        None => current.map(|c| c.level),
    };
    let language = match language {
        Some(l) => CourseLanguage::parse(&l).or_else(|| {
            errors.add("language", "invalid_option", "The language is en, fr or sw");
            None
        }),
        None => current.map(|c| c.language),
    };
    let price = match &input.price {
        Some(value) => match super::products::parse_cents(value).filter(|c| *c <= MAX_PRICE_CENTS) {
            Some(cents) => cents,
            None => {
                errors.add("price", "price_invalid", "Enter a price of at least 0 with at most two decimals");
                0
            }
        },
        None => current.map_or(0, |c| c.price),
    };
    let list = |value: &Option<Vec<String>>, now: Option<&Vec<String>>| -> Vec<String> {
        match value {
            Some(items) => items.iter().map(|i| i.trim().to_owned()).filter(|i| !i.is_empty()).collect(),
            None => now.cloned().unwrap_or_default(),
        }
    };
    let tags = list(&input.tags, current.map(|c| &c.tags));
    let outcomes = list(&input.outcomes, current.map(|c| &c.outcomes));
    let requirements = list(&input.requirements, current.map(|c| &c.requirements));
    check_list(&mut errors, "tags", &tags, MAX_TAGS, MAX_TAG_CHARS);
    check_list(&mut errors, "outcomes", &outcomes, MAX_LIST_ITEMS, MAX_ITEM_CHARS);
    check_list(&mut errors, "requirements", &requirements, MAX_LIST_ITEMS, MAX_ITEM_CHARS);
    let instructor_photo = picture(
        conn,
        &mut errors,
        "instructor_photo",
        input.instructor_photo.as_ref(),
        current.and_then(|c| c.instructor_photo.clone()),
    )?;
    let cover_image = picture(
        conn,
        &mut errors,
        "cover_image",
        input.cover_image.as_ref(),
        current.and_then(|c| c.cover_image.clone()),
    )?;
    errors.finish()?;
    let (Some(category), Some(level), Some(language)) = (category, level, language) else {
        return Err(AppError::internal("a checked course lacks a choice"));
    };
    Ok(CourseFields {
        title,
        description,
        category,
        level,
        language,
        instructor_name,
        instructor_title,
        instructor_bio,
        instructor_photo,
        cover_image,
        price,
        certificate: input.certificate.or(current.map(|c| c.certificate)).unwrap_or(true),
        tags,
        outcomes,
        requirements,
        published: input.published.or(current.map(|c| c.published)).unwrap_or(false),
    })
}

/// A course that is not deleted, for an admin.
fn live(conn: &Connection, id: i64) -> ApiResult<CourseRow> {
    rows::find(conn, id)?.filter(|c| c.deleted_at.is_none()).ok_or_else(not_found)
}

pub fn create(tx: &Connection, actor: &UserRow, input: &CourseInput) -> ApiResult<CourseRow> {
    check_admin(actor)?;
    let fields = apply(tx, input, None)?;
    let uid = uuid::Uuid::new_v4().to_string();
    let id = rows::insert(tx, &uid, &fields, sync::next_version(tx)?, &clock::now())?;
    live(tx, id)
}

pub fn update(tx: &Connection, actor: &UserRow, id: i64, input: &CourseInput) -> ApiResult<CourseRow> {
    check_admin(actor)?;
    let current = live(tx, id)?;
    let fields = apply(tx, input, Some(&current.fields))?;
    if fields.published && !current.fields.published && current.lesson_count == 0 {
        return Err(AppError::invalid("published", "course_empty", "Add at least one lesson before publishing"));
    }
    rows::update(tx, id, &fields, sync::next_version(tx)?, &clock::now())?;
    live(tx, id)
}

/// Takes a course out of the catalogue for good; enrolments and certificates stay (certificates stay verifiable).
pub fn delete(tx: &Connection, actor: &UserRow, id: i64) -> ApiResult<()> {
    check_admin(actor)?;
    live(tx, id)?;
    rows::tombstone(tx, id, sync::next_version(tx)?, &clock::now())?;
    Ok(())
}

fn touch(tx: &Connection, course_id: i64) -> ApiResult<()> {
    Ok(rows::touch(tx, course_id, sync::next_version(tx)?, &clock::now())?)
}

fn module_title(title: &str) -> ApiResult<String> {
    let title = title.trim();
    let mut errors = FieldErrors::default();
    if title.is_empty() {
        errors.add("title", "required", "The title is required");
    }
    check_text(&mut errors, "title", title, MAX_TITLE_CHARS, false);
    errors.finish()?;
    Ok(title.to_owned())
}

/// Adds a module at the end of the course; returns its id.
pub fn add_module(tx: &Connection, actor: &UserRow, course_id: i64, title: &str) -> ApiResult<i64> {
    check_admin(actor)?;
    live(tx, course_id)?;
    let title = module_title(title)?;
    if rows::modules(tx, course_id, false)?.len() >= MAX_MODULES {
        return Err(AppError::conflict("too_many_modules", format!("A course has at most {MAX_MODULES} modules")));
    }
    let id = rows::insert_module(tx, course_id, &title)?;
    touch(tx, course_id)?;
    Ok(id)
}

fn module_course(tx: &Connection, module_id: i64) -> ApiResult<i64> {
    let course_id = rows::module_course(tx, module_id)?.ok_or_else(not_found_module)?;
    live(tx, course_id)?;
    Ok(course_id)
}

fn not_found_module() -> AppError {
    AppError::not_found("module_not_found", "Module not found")
}

fn not_found_lesson() -> AppError {
    AppError::not_found("lesson_not_found", "Lesson not found")
}

pub fn rename_module(tx: &Connection, actor: &UserRow, module_id: i64, title: &str) -> ApiResult<i64> {
    check_admin(actor)?;
    let course_id = module_course(tx, module_id)?;
    rows::rename_module(tx, module_id, &module_title(title)?)?;
    touch(tx, course_id)?;
    Ok(course_id)
}

pub fn delete_module(tx: &Connection, actor: &UserRow, module_id: i64) -> ApiResult<i64> {
    check_admin(actor)?;
    let course_id = module_course(tx, module_id)?;
    rows::delete_module(tx, module_id)?;
    touch(tx, course_id)?;
    Ok(course_id)
}

/// A lesson as an admin sends it.
#[derive(Debug, Clone, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LessonInput {
    pub title: String,
    #[schema(value_type = crate::model::course::LessonKind)]
    pub kind: String,
    /// How long it takes, in minutes (1 to 600).
    pub minutes: i64,
    /// A reading's text in the lesson markup (docs/training.md).
    #[serde(default)]
    pub body: String,
    /// A quiz's questions.
    #[serde(default)]
    pub questions: Vec<Question>,
}

/// The lesson checked; the picture hashes its body shows.
fn check_lesson(conn: &Connection, input: &LessonInput) -> ApiResult<(LessonKind, Vec<String>)> {
    let mut errors = FieldErrors::default();
    let title = input.title.trim();
    if title.is_empty() {
        errors.add("title", "required", "The title is required");
    }
    check_text(&mut errors, "title", title, MAX_TITLE_CHARS, false);
    let kind = LessonKind::parse(&input.kind);
    if kind.is_none() {
        errors.add("kind", "invalid_option", "A lesson is a reading or a quiz");
    }
    if !(1..=600).contains(&input.minutes) {
        errors.add("minutes", "out_of_range", "Minutes are between 1 and 600");
    }
    check_text(&mut errors, "body", &input.body, MAX_BODY_CHARS, true);
    let pictures = markup::pictures(&input.body);
    if pictures.len() > MAX_PICTURES_PER_LESSON {
        errors.add("body", "too_many_images", format!("A lesson shows at most {MAX_PICTURES_PER_LESSON} pictures"));
    }
    for hash in &pictures {
        if uploads::find(conn, hash)?.is_none() {
            errors.add("body", "photo_missing", format!("Send the picture {hash} to /uploads first"));
            break;
        }
    }
    match kind {
        Some(LessonKind::Quiz) if input.questions.is_empty() => {
            errors.add("questions", "required", "A quiz needs at least one question");
        }
        Some(LessonKind::Reading) if !input.questions.is_empty() => {
            errors.add("questions", "invalid_option", "A reading has no questions");
        }
        _ => {}
    }
    if input.questions.len() > MAX_QUESTIONS {
        errors.add("questions", "too_long", format!("A quiz has at most {MAX_QUESTIONS} questions"));
    }
    for q in &input.questions {
        let texts = std::iter::once(&q.prompt).chain(&q.choices).chain(std::iter::once(&q.explanation));
        if !(2..=MAX_CHOICES).contains(&q.choices.len())
            || q.answer >= q.choices.len()
            || q.prompt.trim().is_empty()
            || q.choices.iter().any(|c| c.trim().is_empty())
        {
            errors.add(
                "questions",
                "invalid_option",
                "Each question has a prompt, 2 to 6 choices and one right answer",
            );
            break;
        }
        if texts.clone().any(|t| t.chars().count() > MAX_ITEM_CHARS * 5 || has_hidden_characters(t, false)) {
            errors.add("questions", "too_long", "A question's texts are at most 1000 characters, on one line");
            break;
        }
    }
    errors.finish()?;
    Ok((kind.unwrap_or(LessonKind::Reading), pictures))
}

/// Adds a lesson at the end of a module; returns its id.
pub fn add_lesson(tx: &Connection, actor: &UserRow, module_id: i64, input: &LessonInput) -> ApiResult<i64> {
    check_admin(actor)?;
    let course_id = module_course(tx, module_id)?;
    let (kind, images) = check_lesson(tx, input)?;
    let module =
        rows::modules(tx, course_id, false)?.into_iter().find(|m| m.id == module_id).ok_or_else(not_found_module)?;
    if module.lessons.len() >= MAX_LESSONS {
        return Err(AppError::conflict("too_many_lessons", format!("A module has at most {MAX_LESSONS} lessons")));
    }
    let id = rows::insert_lesson(tx, module_id, &content(kind, input, &images))?;
    touch(tx, course_id)?;
    Ok(id)
}

fn content<'a>(kind: LessonKind, input: &'a LessonInput, images: &'a [String]) -> LessonContent<'a> {
    LessonContent {
        kind,
        title: input.title.trim(),
        minutes: input.minutes,
        body: if kind == LessonKind::Reading { &input.body } else { "" },
        questions: &input.questions,
        images,
    }
}

fn lesson_course(tx: &Connection, lesson_id: i64) -> ApiResult<i64> {
    let (course_id, _) = rows::lesson_place(tx, lesson_id)?.ok_or_else(not_found_lesson)?;
    live(tx, course_id)?;
    Ok(course_id)
}

pub fn update_lesson(tx: &Connection, actor: &UserRow, lesson_id: i64, input: &LessonInput) -> ApiResult<i64> {
    check_admin(actor)?;
    let course_id = lesson_course(tx, lesson_id)?;
    let (kind, images) = check_lesson(tx, input)?;
    rows::update_lesson(tx, lesson_id, &content(kind, input, &images))?;
    touch(tx, course_id)?;
    Ok(course_id)
}

pub fn delete_lesson(tx: &Connection, actor: &UserRow, lesson_id: i64) -> ApiResult<i64> {
    check_admin(actor)?;
    let course_id = lesson_course(tx, lesson_id)?;
    rows::delete_lesson(tx, lesson_id)?;
    touch(tx, course_id)?;
    Ok(course_id)
}

/// A course's order: its modules, each with its lessons, as they should be.
#[derive(Debug, Clone, Deserialize, ToSchema)]
pub struct ModuleOrder {
    pub id: i64,
    pub lessons: Vec<i64>,
}

/// Puts the modules and lessons in the order given; it must name every
/// module and lesson of the course exactly once (lessons may change module).
pub fn reorder(tx: &Connection, actor: &UserRow, course_id: i64, order: &[ModuleOrder]) -> ApiResult<()> {
    check_admin(actor)?;
    live(tx, course_id)?;
    let modules = rows::modules(tx, course_id, false)?;
    let mut have: Vec<i64> = modules.iter().map(|m| m.id).collect();
    let mut given: Vec<i64> = order.iter().map(|m| m.id).collect();
    let mut have_lessons: Vec<i64> = modules.iter().flat_map(|m| m.lessons.iter().map(|l| l.id)).collect();
    let mut given_lessons: Vec<i64> = order.iter().flat_map(|m| m.lessons.iter().copied()).collect();
    for list in [&mut have, &mut given, &mut have_lessons, &mut given_lessons] {
        list.sort_unstable();
    }
    if have != given || have_lessons != given_lessons || order.iter().any(|m| m.lessons.len() > MAX_LESSONS) {
        return Err(AppError::invalid("order", "invalid_order", "Name every module and lesson of the course once"));
    }
    for (m, module) in order.iter().enumerate() {
        rows::place_module(tx, module.id, m as i64 + 1)?;
        for (l, lesson) in module.lessons.iter().enumerate() {
            rows::place_lesson(tx, *lesson, module.id, l as i64 + 1)?;
        }
    }
    touch(tx, course_id)
}
