//! The `surveys` table (farmer applications).

use crate::db::Value;
use crate::db::{Connection, OptionalExtension, Row, params, params_from_iter};

use crate::model::FieldVersions;
use crate::model::survey::{AnswerKind, Cell, CellValue, SurveyAnswers, SurveyStatus};

/// Who an application belongs to, or who made it.
#[derive(Debug, Clone)]
pub struct Person {
    pub first_name: String,
    pub last_name: String,
    /// `None` for an account made with a phone number only.
    pub email: Option<String>,
    /// The applicant's number (the author's is not given).
    pub phone_number: Option<String>,
    /// The applicant reaches MAVUNO by a basic phone: no password, and they have dialled
    /// the USSD menu (docs/ussd.md).
    pub basic_phone: bool,
}

#[derive(Debug, Clone)]
pub struct SurveyRow {
    pub id: i64,
    pub uid: String,
    pub user_id: i64,
    pub created_by: i64,
    pub status: SurveyStatus,
    pub active: bool,
    pub admin_comment: Option<String>,
    pub reviewed_at: Option<String>,
    pub answers: SurveyAnswers,
    pub version: i64,
    pub created_at: String,
    pub updated_at: String,
    pub deleted_at: Option<String>,
    /// field name → the version that last changed it (`status` included).
    pub field_versions: FieldVersions,
    pub owner: Person,
    pub creator: Person,
}

/// The answer columns, named as the answers are, in the form's order.
fn answer_columns() -> impl Iterator<Item = &'static str> {
    SurveyAnswers::FIELDS.iter().map(|field| field.name)
}

fn answer_values(answers: &SurveyAnswers) -> Vec<Value> {
    answers
        .cells()
        .into_iter()
        .map(|(_, cell)| match cell {
            Cell::Text(text) => text.clone().map_or(Value::Null, Value::Text),
            Cell::Bool(yes) => Value::Integer(yes.into()),
            Cell::Number(number) => Value::Integer(number),
        })
        .collect()
}

fn read_answers(row: &Row<'_>, offset: usize) -> crate::db::Result<SurveyAnswers> {
    let mut answers = SurveyAnswers::default();
    for (i, field) in SurveyAnswers::FIELDS.iter().enumerate() {
        let value = match field.kind {
            AnswerKind::Text | AnswerKind::LongText => CellValue::Text(row.get(offset + i)?),
            AnswerKind::Flag => CellValue::Bool(row.get(offset + i)?),
            AnswerKind::Percent => CellValue::Number(row.get(offset + i)?),
        };
        answers.set(field.name, value);
    }
    Ok(answers)
}

fn select(filter: &str) -> String {
    let answers = answer_columns().map(|c| format!("s.{c}")).collect::<Vec<_>>().join(", ");
    format!(
        "SELECT s.id, s.uid, s.user_id, s.created_by, s.status, s.active, s.admin_comment, s.reviewed_at,
                s.version, s.created_at, s.updated_at, s.deleted_at, s.field_versions,
                o.first_name, o.last_name, o.email, c.first_name, c.last_name, c.email, o.phone_number,
                o.password_hash = '!' AND EXISTS (SELECT 1 FROM phone_settings ps WHERE ps.phone = o.phone_number),
                {answers}
         FROM surveys s JOIN users o ON o.id = s.user_id JOIN users c ON c.id = s.created_by
         WHERE {filter}"
    )
}

fn from_row(row: &Row<'_>) -> crate::db::Result<SurveyRow> {
    Ok(SurveyRow {
        id: row.get(0)?,
        uid: row.get(1)?,
        user_id: row.get(2)?,
        created_by: row.get(3)?,
        status: row.get(4)?,
        active: row.get(5)?,
        admin_comment: row.get(6)?,
        reviewed_at: row.get(7)?,
        version: row.get(8)?,
        created_at: row.get(9)?,
        updated_at: row.get(10)?,
        deleted_at: row.get(11)?,
        field_versions: serde_json::from_str(&row.get::<_, String>(12)?).unwrap_or_default(),
        owner: Person {
            first_name: row.get(13)?,
            last_name: row.get(14)?,
            email: row.get(15)?,
            phone_number: row.get(19)?,
            basic_phone: row.get(20)?,
        },
        creator: Person {
            first_name: row.get(16)?,
            last_name: row.get(17)?,
            email: row.get(18)?,
            phone_number: None,
            basic_phone: false,
        },
        answers: read_answers(row, 21)?,
    })
}

#[allow(clippy::too_many_arguments)]
pub fn insert(
    conn: &Connection,
    uid: &str,
    user_id: i64,
    created_by: i64,
    status: SurveyStatus,
    answers: &SurveyAnswers,
    field_versions: &FieldVersions,
    version: i64,
    now: &str,
) -> crate::db::Result<i64> {
    let columns: Vec<&str> = answer_columns().collect();
    let marks = vec!["?"; columns.len()].join(", ");
    let columns = columns.join(", ");
    let sql = format!(
        "INSERT INTO surveys (uid, user_id, created_by, status, active, version, created_at, updated_at, field_versions, {columns})
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, {marks})"
    );
    let mut values = vec![
        Value::Text(uid.to_owned()),
        Value::Integer(user_id),
        Value::Integer(created_by),
        Value::Text(status.as_str().to_owned()),
        Value::Integer((status == SurveyStatus::Approved).into()),
        Value::Integer(version),
        Value::Text(now.to_owned()),
        Value::Text(now.to_owned()),
        Value::Text(versions_json(field_versions)),
    ];
    values.extend(answer_values(answers));
    conn.insert(&sql, params_from_iter(values))
}

fn versions_json(field_versions: &FieldVersions) -> String {
    serde_json::to_string(field_versions).unwrap_or_else(|_| "{}".to_owned())
}

pub fn update(
    conn: &Connection,
    id: i64,
    status: SurveyStatus,
    answers: &SurveyAnswers,
    field_versions: &FieldVersions,
    version: i64,
    now: &str,
) -> crate::db::Result<()> {
    let assignments = answer_columns().map(|c| format!("{c} = ?")).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "UPDATE surveys SET status = ?, version = ?, updated_at = ?, field_versions = ?, {assignments} WHERE id = ?"
    );
    let mut values = vec![
        Value::Text(status.as_str().to_owned()),
        Value::Integer(version),
        Value::Text(now.to_owned()),
        Value::Text(versions_json(field_versions)),
    ];
    values.extend(answer_values(answers));
    values.push(Value::Integer(id));
    conn.prepare_cached(&sql)?.execute(params_from_iter(values))?;
    Ok(())
}

pub fn tombstone(conn: &Connection, id: i64, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE surveys SET deleted_at = ?2, updated_at = ?2, version = ?3 WHERE id = ?1")?
        .execute(params![id, now, version])?;
    Ok(())
}

/// Records an admin's decision.
#[allow(clippy::too_many_arguments)]
/// A field agent (or admin) takes up a draft its applicant started: they author it now,
/// so their phone has it; the applicant keeps it too.
pub fn set_author(conn: &Connection, id: i64, author: i64, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE surveys SET created_by = ?2, version = ?3, updated_at = ?4 WHERE id = ?1")?
        .execute(params![id, author, version, now])?;
    Ok(())
}

/// The draft application `user_id` started themselves (in the app or by USSD), if any.
pub fn own_draft(conn: &Connection, user_id: i64) -> crate::db::Result<Option<i64>> {
    conn.prepare_cached(
        "SELECT id FROM surveys WHERE user_id = ?1 AND created_by = ?1 AND status = 'draft' AND deleted_at IS NULL
         ORDER BY id DESC LIMIT 1",
    )?
    .query_row([user_id], |r| r.get(0))
    .optional()
}

pub fn set_review(
    conn: &Connection,
    id: i64,
    status: SurveyStatus,
    comment: Option<&str>,
    field_versions: &FieldVersions,
    version: i64,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE surveys SET status = ?2, active = ?3, admin_comment = ?4, reviewed_at = ?5, field_versions = ?6,
                            version = ?7, updated_at = ?5
         WHERE id = ?1",
    )?
    .execute(params![
        id,
        status,
        status == SurveyStatus::Approved,
        comment,
        now,
        versions_json(field_versions),
        version
    ])?;
    Ok(())
}

/// The ids of a person's live drafts.
pub fn draft_ids_of(conn: &Connection, user_id: i64) -> crate::db::Result<Vec<i64>> {
    let mut stmt =
        conn.prepare_cached("SELECT id FROM surveys WHERE user_id = ?1 AND status = 'draft' AND deleted_at IS NULL")?;
    stmt.query_map([user_id], |row| row.get(0))?.collect()
}

/// What changed after `after` (a version) in the applications a person
/// applied with or filled for someone, oldest first, at most `limit` rows;
/// tombstones, except those at or below `snapshot` (a snapshot has nothing of them to delete).
pub fn changes_visible_to(
    conn: &Connection,
    user_id: i64,
    after: i64,
    limit: usize,
    snapshot: Option<i64>,
) -> crate::db::Result<Vec<SurveyRow>> {
    let filter = "(s.user_id = ?1 OR s.created_by = ?1) AND s.version > ?2
                  AND (CAST(?4 AS BIGINT) IS NULL OR s.version > ?4 OR s.deleted_at IS NULL)";
    let mut stmt = conn.prepare_cached(&format!("{} ORDER BY s.version LIMIT ?3", select(filter)))?;
    stmt.query_map(params![user_id, after, limit as i64, snapshot], from_row)?.collect()
}

/// Includes tombstones; callers decide what a deleted row means to them.
pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<SurveyRow>> {
    conn.prepare_cached(&select("s.id = ?1"))?.query_row([id], from_row).optional()
}

pub fn find_by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<SurveyRow>> {
    conn.prepare_cached(&select("s.uid = ?1"))?.query_row([uid], from_row).optional()
}

/// The applications a person applied with or filled for someone, newest first.
pub fn list_visible_to(conn: &Connection, user_id: i64) -> crate::db::Result<Vec<SurveyRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "{} ORDER BY s.id DESC",
        select("(s.user_id = ?1 OR s.created_by = ?1) AND s.deleted_at IS NULL")
    ))?;
    stmt.query_map([user_id], from_row)?.collect()
}

/// What the admin's list is narrowed to (docs/product.md, Constants: the search covers
/// the applicant's names and email, the work type and the cooperative).
#[derive(Debug, Default, Clone)]
pub struct AdminFilter {
    pub search: Option<String>,
    pub status: Option<SurveyStatus>,
    /// Created at or after this instant (RFC 3339, UTC).
    pub created_from: Option<String>,
}

impl AdminFilter {
    /// Drafts are their author's until sent, so the admin never sees them.
    fn sql(&self) -> (String, Vec<Value>) {
        let mut sql = String::from("s.deleted_at IS NULL AND s.status <> 'draft'");
        let mut values = Vec::new();
        if let Some(search) = self.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            sql.push_str(
                " AND (lower(o.first_name) LIKE lower(?1) ESCAPE '\\' OR lower(o.last_name) LIKE lower(?1) ESCAPE '\\' OR lower(o.email) LIKE lower(?1) ESCAPE '\\'
                       OR lower((o.first_name || ' ' || o.last_name)) LIKE lower(?1) ESCAPE '\\'
                       OR lower(s.work_type) LIKE lower(?1) ESCAPE '\\' OR lower(s.cooperative_name) LIKE lower(?1) ESCAPE '\\')",
            );
            values.push(Value::Text(super::like_pattern(search)));
        }
        if let Some(status) = self.status {
            values.push(Value::Text(status.to_string()));
            sql.push_str(&format!(" AND s.status = ?{}", values.len()));
        }
        if let Some(from) = &self.created_from {
            values.push(Value::Text(from.clone()));
            sql.push_str(&format!(" AND s.created_at >= ?{}", values.len()));
        }
        (sql, values)
    }
}

const NEWEST_FIRST: &str = "ORDER BY s.created_at DESC, s.id DESC";

/// One page of the admin's list, newest first.
pub fn search(conn: &Connection, filter: &AdminFilter, limit: i64, offset: i64) -> crate::db::Result<Vec<SurveyRow>> {
    let (filter, mut values) = filter.sql();
    let sql = format!("{} {NEWEST_FIRST} LIMIT ?{} OFFSET ?{}", select(&filter), values.len() + 1, values.len() + 2);
    values.extend([Value::Integer(limit), Value::Integer(offset)]);
    conn.prepare_cached(&sql)?.query_map(params_from_iter(values), from_row)?.collect()
}

/// Calls `each` with every match, newest first, without holding them all (exports).
pub fn for_each_match(
    conn: &Connection,
    filter: &AdminFilter,
    each: impl FnMut(SurveyRow),
) -> crate::db::Result<usize> {
    let (filter, values) = filter.sql();
    let sql = format!("{} {NEWEST_FIRST}", select(&filter));
    super::for_each_row(conn, &sql, params_from_iter(values), from_row, each)
}

pub fn count(conn: &Connection, filter: &AdminFilter) -> crate::db::Result<i64> {
    let (filter, values) = filter.sql();
    let sql = format!("SELECT COUNT(*) FROM surveys s JOIN users o ON o.id = s.user_id WHERE {filter}");
    conn.prepare_cached(&sql)?.query_row(params_from_iter(values), |row| row.get(0))
}

/// How many sent applications there are in each status (drafts left out).
pub fn count_by_status(conn: &Connection) -> crate::db::Result<Vec<(SurveyStatus, i64)>> {
    let mut stmt = conn.prepare_cached(
        "SELECT status, COUNT(*) FROM surveys WHERE deleted_at IS NULL AND status <> 'draft' GROUP BY status",
    )?;
    stmt.query_map([], |row| Ok((row.get(0)?, row.get(1)?)))?.collect()
}

/// Whether a person has an approved application (a "verified" farmer).
pub fn has_approved(conn: &Connection, user_id: i64) -> crate::db::Result<bool> {
    conn.prepare_cached(
        "SELECT EXISTS (SELECT 1 FROM surveys WHERE user_id = ?1 AND status = 'approved' AND deleted_at IS NULL)",
    )?
    .query_row([user_id], |r| r.get(0))
}

/// A person's application waiting for a decision (pending or re-submitted), other than `except`.
pub fn waiting_of(conn: &Connection, user_id: i64, except: i64) -> crate::db::Result<Option<i64>> {
    conn.prepare_cached(
        "SELECT id FROM surveys WHERE user_id = ?1 AND id != ?2 AND status IN ('pending', 're-submitted')
           AND deleted_at IS NULL LIMIT 1",
    )?
    .query_row(params![user_id, except], |r| r.get(0))
    .optional()
}
