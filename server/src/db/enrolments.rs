//! Learners' enrolments, their progress events, certificates and course
//! ratings (docs/training.md).

use crate::db::{Connection, OptionalExtension, Row, params};

use crate::model::course::{EnrolmentStatus, Event, EventKind, Progress};

#[derive(Debug, Clone)]
pub struct EnrolmentRow {
    pub id: i64,
    pub course_id: i64,
    pub course_uid: String,
    pub user_id: i64,
    pub status: EnrolmentStatus,
    pub price: i64,
    pub progress: Progress,
    pub completed_at: Option<String>,
    pub certificate: Option<CertificateRow>,
    pub version: i64,
    pub created_at: String,
    pub updated_at: String,
}

const ENROLMENT: &str =
    "SELECT e.id, e.course_id, c.uid, e.user_id, e.status, e.price_cents, e.progress, e.completed_at,
        e.version, e.created_at, e.updated_at, k.code, k.learner_name, k.course_title, k.issued_at
    FROM enrolments e JOIN courses c ON c.id = e.course_id LEFT JOIN certificates k ON k.enrolment_id = e.id";

fn enrolment_from_row(row: &Row<'_>) -> crate::db::Result<EnrolmentRow> {
    let code: Option<String> = row.get(11)?;
    Ok(EnrolmentRow {
        id: row.get(0)?,
        course_id: row.get(1)?,
        course_uid: row.get(2)?,
        user_id: row.get(3)?,
        status: row.get(4)?,
        price: row.get(5)?,
        progress: serde_json::from_str(&row.get::<_, String>(6)?).unwrap_or_default(),
        completed_at: row.get(7)?,
        version: row.get(8)?,
        created_at: row.get(9)?,
        updated_at: row.get(10)?,
        certificate: match code {
            Some(code) => Some(CertificateRow {
                code,
                learner_name: row.get(12)?,
                course_title: row.get(13)?,
                issued_at: row.get(14)?,
            }),
            None => None,
        },
    })
}

pub fn enrolment(conn: &Connection, user_id: i64, course_id: i64) -> crate::db::Result<Option<EnrolmentRow>> {
    conn.prepare_cached(&format!("{ENROLMENT} WHERE e.user_id = ?1 AND e.course_id = ?2"))?
        .query_row(params![user_id, course_id], enrolment_from_row)
        .optional()
}

pub fn insert_enrolment(
    conn: &Connection,
    user_id: i64,
    course_id: i64,
    price: i64,
    version: i64,
    now: &str,
) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO enrolments (course_id, user_id, status, price_cents, version, created_at, updated_at)
         VALUES (?1, ?2, 'active', ?3, ?4, ?5, ?5)",
        params![course_id, user_id, price, version, now],
    )
}

/// Starts (again) or ends an enrolment.
pub fn set_status(
    conn: &Connection,
    id: i64,
    status: EnrolmentStatus,
    price: i64,
    version: i64,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE enrolments SET status = ?2, price_cents = ?3, version = ?4, updated_at = ?5 WHERE id = ?1",
    )?
    .execute(params![id, status, price, version, now])?;
    Ok(())
}

pub fn set_progress(
    conn: &Connection,
    id: i64,
    progress: &Progress,
    completed_at: Option<&str>,
    version: i64,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE enrolments SET progress = ?2, completed_at = COALESCE(completed_at, ?3), version = ?4, updated_at = ?5
         WHERE id = ?1",
    )?
    .execute(params![
        id,
        serde_json::to_string(progress).unwrap_or_else(|_| "{}".into()),
        completed_at,
        version,
        now
    ])?;
    Ok(())
}

/// A person's enrolments changed after `after`, oldest change first.
pub fn enrolment_changes(
    conn: &Connection,
    user_id: i64,
    after: i64,
    limit: usize,
) -> crate::db::Result<Vec<EnrolmentRow>> {
    conn.prepare_cached(&format!("{ENROLMENT} WHERE e.user_id = ?1 AND e.version > ?2 ORDER BY e.version LIMIT ?3"))?
        .query_map(params![user_id, after, limit as i64], enrolment_from_row)?
        .collect()
}

/// A course's enrolments: (active, completed).
pub fn enrolment_counts(conn: &Connection, course_id: i64) -> crate::db::Result<(i64, i64)> {
    conn.prepare_cached(
        "SELECT COUNT(*), COUNT(completed_at) FROM enrolments WHERE course_id = ?1 AND status = 'active'",
    )?
    .query_row([course_id], |r| Ok((r.get(0)?, r.get(1)?)))
}

/// Keeps an event unless one with its uid is already kept; whether it was new.
#[allow(clippy::too_many_arguments)]
pub fn insert_event(
    conn: &Connection,
    enrolment_id: i64,
    uid: &str,
    lesson_id: i64,
    kind: &EventKind,
    answers: Option<&[usize]>,
    client_time: Option<&str>,
    now: &str,
) -> crate::db::Result<bool> {
    let (kind, score) = match kind {
        EventKind::Viewed => ("viewed", None),
        EventKind::Completed => ("completed", None),
        EventKind::Quiz(score) => ("quiz", Some(*score)),
    };
    let answers = answers.map(|a| serde_json::to_string(a).unwrap_or_else(|_| "[]".into()));
    let added = conn
        .prepare_cached(
            "INSERT INTO progress_events (enrolment_id, uid, lesson_id, kind, answers, score, client_time, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT DO NOTHING",
        )?
        .execute(params![enrolment_id, uid, lesson_id, kind, answers, score, client_time, now])?;
    Ok(added == 1)
}

/// An enrolment's events in the order they happened (by the phone's clock,
/// then arrival), so events from two phones interleave as they were made.
pub fn events(conn: &Connection, enrolment_id: i64) -> crate::db::Result<Vec<Event>> {
    conn.prepare_cached(
        "SELECT lesson_id, kind, score FROM progress_events WHERE enrolment_id = ?1
         ORDER BY COALESCE(client_time, created_at), id",
    )?
    .query_map([enrolment_id], |r| {
        let kind = match (r.get::<_, String>(1)?.as_str(), r.get::<_, Option<i64>>(2)?) {
            ("completed", _) => EventKind::Completed,
            ("quiz", score) => EventKind::Quiz(score.unwrap_or(0)),
            _ => EventKind::Viewed,
        };
        Ok(Event { lesson_id: r.get(0)?, kind })
    })?
    .collect()
}

pub fn event_count(conn: &Connection, enrolment_id: i64) -> crate::db::Result<i64> {
    conn.prepare_cached("SELECT COUNT(*) FROM progress_events WHERE enrolment_id = ?1")?
        .query_row([enrolment_id], |r| r.get(0))
}

#[derive(Debug, Clone)]
pub struct CertificateRow {
    pub code: String,
    pub learner_name: String,
    pub course_title: String,
    pub issued_at: String,
}

pub fn insert_certificate(conn: &Connection, enrolment_id: i64, certificate: &CertificateRow) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO certificates (code, enrolment_id, learner_name, course_title, issued_at) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?
    .execute(params![
        certificate.code,
        enrolment_id,
        certificate.learner_name,
        certificate.course_title,
        certificate.issued_at
    ])?;
    Ok(())
}

/// A certificate by its code, with the learner's id and the course's id.
pub fn certificate(conn: &Connection, code: &str) -> crate::db::Result<Option<(CertificateRow, i64, i64)>> {
    conn.prepare_cached(
        "SELECT k.code, k.learner_name, k.course_title, k.issued_at, e.user_id, e.course_id
         FROM certificates k JOIN enrolments e ON e.id = k.enrolment_id WHERE k.code = ?1",
    )?
    .query_row([code], |r| {
        Ok((
            CertificateRow { code: r.get(0)?, learner_name: r.get(1)?, course_title: r.get(2)?, issued_at: r.get(3)? },
            r.get(4)?,
            r.get(5)?,
        ))
    })
    .optional()
}

/// Records a learner's rating and recomputes the course's mean, with a new version.
pub fn rate(
    conn: &Connection,
    course_id: i64,
    user_id: i64,
    rating: i64,
    version: i64,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO course_ratings (course_id, user_id, rating, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)
         ON CONFLICT (course_id, user_id) DO UPDATE SET rating = excluded.rating, updated_at = excluded.updated_at",
    )?
    .execute(params![course_id, user_id, rating, now])?;
    conn.prepare_cached(
        "UPDATE courses SET rating = COALESCE((SELECT AVG(rating) FROM course_ratings WHERE course_id = ?1), 0),
                            rating_count = (SELECT COUNT(*) FROM course_ratings WHERE course_id = ?1),
                            version = ?2
         WHERE id = ?1",
    )?
    .execute(params![course_id, version])?;
    Ok(())
}
