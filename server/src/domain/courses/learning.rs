//! Learning (docs/training.md): enrolment, progress from the learner's
//! events, quizzes graded here from the answers, certificates, ratings.

use crate::db::Connection;

use super::not_found;
use crate::db::courses::{self as rows, CourseRow};
use crate::db::enrolments::{self, CertificateRow, EnrolmentRow};
use crate::db::sync;
use crate::db::users::UserRow;
use crate::error::{ApiResult, AppError};
use crate::model::course::{EnrolmentStatus, EventKind, LessonKind, Progress, grade};
use crate::platform::clock;

/// An enrolment keeps at most this many events (a learner opening every
/// lesson of a long course many times stays far below).
const MAX_EVENTS: i64 = 5_000;
const MAX_UID_CHARS: usize = 64;

/// A published course by id or uid, for learners.
pub fn listed(conn: &Connection, course: CourseKey<'_>) -> ApiResult<CourseRow> {
    let row = match course {
        CourseKey::Id(id) => rows::find(conn, id)?,
        CourseKey::Uid(uid) => rows::find_by_uid(conn, uid)?,
    };
    row.filter(CourseRow::is_listed).ok_or_else(not_found)
}

#[derive(Debug, Clone, Copy)]
pub enum CourseKey<'a> {
    Id(i64),
    Uid(&'a str),
}

/// Whether `viewer` may read a course's lessons: free published courses are
/// open to all; a paid one to its active learners and to admins.
pub fn can_read_content(conn: &Connection, viewer: Option<&UserRow>, course: &CourseRow) -> ApiResult<bool> {
    if viewer.is_some_and(|v| v.role.is_admin()) {
        return Ok(course.deleted_at.is_none());
    }
    if !course.is_listed() {
        return Ok(false);
    }
    if course.fields.price == 0 {
        return Ok(true);
    }
    let Some(viewer) = viewer else { return Ok(false) };
    Ok(enrolments::enrolment(conn, viewer.id, course.id)?.is_some_and(|e| e.status == EnrolmentStatus::Active))
}

/// Whether `user_id` is enrolled in `course_id` and not refunded.
pub fn is_active_learner(conn: &Connection, user_id: i64, course_id: i64) -> ApiResult<bool> {
    Ok(enrolments::enrolment(conn, user_id, course_id)?.is_some_and(|e| e.status == EnrolmentStatus::Active))
}

/// A course payment went through: its payer is enrolled (again, after a
/// refund, with the progress they had).
pub fn grant_paid(tx: &Connection, user_id: i64, course_id: i64, price: i64) -> ApiResult<()> {
    let (version, now) = (sync::next_version(tx)?, clock::now());
    match enrolments::enrolment(tx, user_id, course_id)? {
        Some(e) => enrolments::set_status(tx, e.id, EnrolmentStatus::Active, price, version, &now)?,
        None => {
            enrolments::insert_enrolment(tx, user_id, course_id, price, version, &now)?;
        }
    }
    Ok(())
}

/// A refund went through: the enrolment ends (lessons of the paid course
/// close; progress and any certificate earned are kept).
pub fn end_refunded(tx: &Connection, user_id: i64, course_id: i64) -> ApiResult<()> {
    if let Some(e) = enrolments::enrolment(tx, user_id, course_id)? {
        let (version, now) = (sync::next_version(tx)?, clock::now());
        enrolments::set_status(tx, e.id, EnrolmentStatus::Refunded, e.price, version, &now)?;
    }
    Ok(())
}

/// Enrols `learner` in a free course; enrolling again answers the same
/// enrolment (`false`: not new). A paid course is refused here: its
/// enrolment comes from a payment (`POST /courses/{id}/payments`).
pub fn enrol(tx: &Connection, learner: &UserRow, course: CourseKey<'_>) -> ApiResult<(EnrolmentRow, bool)> {
    let course = listed(tx, course)?;
    if let Some(existing) = enrolments::enrolment(tx, learner.id, course.id)? {
        return Ok((existing, false));
    }
    if course.fields.price > 0 {
        return Err(AppError::conflict("payment_required", "This course is paid: pay for it to enrol"));
    }
    enrolments::insert_enrolment(tx, learner.id, course.id, 0, sync::next_version(tx)?, &clock::now())?;
    let row =
        enrolments::enrolment(tx, learner.id, course.id)?.ok_or_else(|| AppError::internal("enrolment vanished"))?;
    Ok((row, true))
}

/// One thing a learner did, as a phone sends it (`enrolment.progress`).
#[derive(Debug, Clone)]
pub struct ProgressInput<'a> {
    /// Made on the phone: an event sent twice is kept once.
    pub event_uid: &'a str,
    pub lesson_id: i64,
    /// viewed, completed or quiz.
    pub kind: &'a str,
    /// A quiz attempt's choices, one per question in order.
    pub answers: Option<&'a [usize]>,
    pub client_time: Option<&'a str>,
}

/// Keeps a learner's event and derives their progress again from all their
/// events; issues the certificate when the course is complete.
pub fn record_progress(
    tx: &Connection,
    learner: &UserRow,
    course: CourseKey<'_>,
    event: &ProgressInput<'_>,
) -> ApiResult<EnrolmentRow> {
    let course = match course {
        CourseKey::Id(id) => rows::find(tx, id)?,
        CourseKey::Uid(uid) => rows::find_by_uid(tx, uid)?,
    }
    .filter(|c| c.deleted_at.is_none())
    .ok_or_else(not_found)?;
    let enrolment = enrolments::enrolment(tx, learner.id, course.id)?
        .filter(|e| e.status == EnrolmentStatus::Active)
        .ok_or_else(|| AppError::forbidden("not_enrolled", "Enrol in the course first"))?;
    if event.event_uid.is_empty() || event.event_uid.chars().count() > MAX_UID_CHARS {
        return Err(AppError::invalid("event_uid", "invalid_uid", "An event needs an id of at most 64 characters"));
    }
    let lessons = rows::lesson_kinds(tx, course.id)?;
    let Some((_, lesson_kind)) = lessons.iter().find(|(id, _)| *id == event.lesson_id) else {
        return Err(AppError::not_found("lesson_not_found", "Lesson not found"));
    };
    let kind = match (event.kind, lesson_kind) {
        ("viewed", _) => EventKind::Viewed,
        ("completed", LessonKind::Reading) => EventKind::Completed,
        ("quiz", LessonKind::Quiz) => {
            let questions = rows::modules(tx, course.id, true)?
                .into_iter()
                .flat_map(|m| m.lessons)
                .find(|l| l.id == event.lesson_id)
                .map(|l| l.questions)
                .unwrap_or_default();
            let answers = event.answers.unwrap_or_default();
            if answers.len() != questions.len() {
                return Err(AppError::invalid("answers", "answers_invalid", "Answer every question of the quiz"));
            }
            EventKind::Quiz(grade(&questions, answers))
        }
        _ => return Err(AppError::invalid("kind", "invalid_option", "This kind of event does not fit this lesson")),
    };
    if enrolments::event_count(tx, enrolment.id)? >= MAX_EVENTS {
        return Err(AppError::conflict("too_many_events", "This course has recorded all the progress it can keep"));
    }
    let now = clock::now();
    let client_time = event.client_time.filter(|t| t.len() <= 40 && time_like(t));
    let answers = matches!(kind, EventKind::Quiz(_)).then_some(event.answers.unwrap_or_default());
    if !enrolments::insert_event(tx, enrolment.id, event.event_uid, event.lesson_id, &kind, answers, client_time, &now)?
    {
        return Ok(enrolment);
    }
    let progress = Progress::derive(&lessons, &enrolments::events(tx, enrolment.id)?);
    let complete = progress.is_complete(lessons.len());
    enrolments::set_progress(
        tx,
        enrolment.id,
        &progress,
        complete.then_some(now.as_str()),
        sync::next_version(tx)?,
        &now,
    )?;
    if complete && course.fields.certificate && enrolment.certificate.is_none() {
        let certificate = CertificateRow {
            code: certificate_code(),
            learner_name: format!("{} {}", learner.first_name, learner.last_name).trim().to_owned(),
            course_title: course.fields.title.clone(),
            issued_at: now.clone(),
        };
        enrolments::insert_certificate(tx, enrolment.id, &certificate)?;
        let link = format!("/course/{}", course.id);
        let title = [("title", certificate.course_title.as_str())];
        crate::domain::notifications::notify(tx, learner.id, "certificate_issued", &link, &title)?;
    }
    enrolments::enrolment(tx, learner.id, course.id)?.ok_or_else(|| AppError::internal("enrolment vanished"))
}

/// Phones send ISO times; anything else is ignored (the server's time orders the event).
fn time_like(text: &str) -> bool {
    text.len() >= 10
        && text.as_bytes()[4] == b'-'
        && text.chars().all(|c| c.is_ascii_alphanumeric() || "-:.+".contains(c))
}

/// 12 random characters from 32 without look-alikes (no 0, O, 1, I): 60 bits, easy to read aloud.
fn certificate_code() -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    // The last six bytes of a v4 UUID are all random (its fixed bits are in bytes 6 and 8).
    let (a, b) = (uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
    let bytes = a.as_bytes()[10..].iter().chain(&b.as_bytes()[10..]);
    let chars: String = bytes.map(|b| ALPHABET[(b & 31) as usize] as char).collect();
    format!("{}-{}-{}", &chars[0..4], &chars[4..8], &chars[8..12])
}

/// A learner rates a course they are enrolled in (1 to 5; again changes it).
pub fn rate(tx: &Connection, learner: &UserRow, course_id: i64, rating: i64) -> ApiResult<()> {
    let course = listed(tx, CourseKey::Id(course_id))?;
    if enrolments::enrolment(tx, learner.id, course.id)?.is_none() {
        return Err(AppError::forbidden("not_enrolled", "Only the course's learners rate it"));
    }
    if !(1..=5).contains(&rating) {
        return Err(AppError::invalid("rating", "rating_invalid", "Choose 1 to 5 stars"));
    }
    Ok(enrolments::rate(tx, course.id, learner.id, rating, sync::next_version(tx)?, &clock::now())?)
}
