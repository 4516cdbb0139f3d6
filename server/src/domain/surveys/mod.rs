//! Farmer applications (docs/applications.md): the use cases over a
//! connection or transaction, so the REST API and offline mutations apply
//! exactly the same rules. The answers are declared in sync-protocol; their
//! checks are in `validate`, the option lists in `options`, the status rules
//! in `status`, the decision email in `email`.

mod email;
mod options;
mod status;
mod validate;

pub use email::notify_decision;
pub use options::options;
pub use status::{Decision, owner_transition};
pub use validate::{Strictness, apply};

use crate::db::Connection;

use self::status::locked;
use self::validate::MAX_TEXT_CHARS;
use super::long_text;
use super::merge::{Base, conflicts, stamp};
use crate::db::surveys::{self as rows, SurveyRow};
use crate::db::sync;
use crate::db::texts::{self, TextKey};
use crate::db::users::UserRow;
use crate::domain::made_once;
use crate::error::{ApiResult, AppError};
use crate::model::FieldVersions;
use crate::model::survey::{AnswerKind, Cell, CellValue, SurveyAnswers, SurveyAnswersInput, SurveyStatus};
use crate::model::user::Status;
use crate::platform::clock;

fn not_found() -> AppError {
    AppError::not_found("survey_not_found", "Application not found")
}

/// A client-made id: a UUID in its usual text form.
fn check_uid(uid: &str) -> ApiResult<()> {
    if super::is_uuid(uid) {
        Ok(())
    } else {
        Err(AppError::invalid("uid", "invalid_uid", "The application id must be a UUID"))
    }
}

/// Creates an application for `owner`, made by `created_by` (the owner, or an
/// admin or agent on their behalf). A `uid` already used for the same owner
/// answers the existing one, so a retried request never makes a second.
pub fn create(
    conn: &Connection,
    owner: &UserRow,
    created_by: i64,
    uid: Option<String>,
    input: &SurveyAnswersInput,
    status: Option<&str>,
) -> ApiResult<(SurveyRow, bool)> {
    let uid = uid.unwrap_or_else(|| uuid::Uuid::new_v4().to_string()).to_lowercase();
    check_uid(&uid)?;
    let known = rows::find_by_uid(conn, &uid)?;
    let mine = |k: &SurveyRow| k.user_id == owner.id && k.created_by == created_by && k.deleted_at.is_none();
    if let Some(known) = made_once(known, mine, "This application id is already in use")? {
        return Ok((known, false));
    }
    let (status, strictness) = owner_transition(None, status)?;
    one_waiting(conn, owner.id, status, 0)?;
    let answers = apply(&SurveyAnswers::default(), input, strictness).map_err(AppError::Validation)?;
    let version = sync::next_version(conn)?;
    let mut versions = FieldVersions::new();
    stamp(&mut versions, &answers.changed_fields(&SurveyAnswers::default()), version);
    stamp(&mut versions, &["status"], version);
    let id = rows::insert(conn, &uid, owner.id, created_by, status, &answers, &versions, version, &clock::now())?;
    Ok((rows::find(conn, id)?.ok_or_else(not_found)?, true))
}

/// One application per person waits for a decision at a time: sending another
/// (pending or re-submitted) while one waits is refused with the reason.
fn one_waiting(conn: &Connection, user_id: i64, status: SurveyStatus, except: i64) -> ApiResult<()> {
    if matches!(status, SurveyStatus::Pending | SurveyStatus::Resubmitted)
        && rows::waiting_of(conn, user_id, except)?.is_some()
    {
        return Err(AppError::conflict(
            "application_waiting",
            "This person already has an application waiting for a decision",
        ));
    }
    Ok(())
}

/// Approves or rejects an application that is pending or re-submitted;
/// anything else is refused with the reason. Approval makes a buyer a farmer.
pub fn review(conn: &Connection, id: i64, decision: Decision, comment: Option<&str>) -> ApiResult<SurveyRow> {
    let survey = rows::find(conn, id)?.filter(|s| s.deleted_at.is_none()).ok_or_else(not_found)?;
    if !matches!(survey.status, SurveyStatus::Pending | SurveyStatus::Resubmitted) {
        return Err(AppError::conflict(
            "not_reviewable",
            format!("Only pending or re-submitted applications can be decided; this one is {}", survey.status),
        ));
    }
    let (status, now) = match decision {
        Decision::Approve => (SurveyStatus::Approved, clock::now()),
        Decision::Reject => (SurveyStatus::Rejected, clock::now()),
    };
    let comment = comment.map(str::trim).filter(|c| !c.is_empty());
    if comment.is_some_and(|c| c.chars().count() > MAX_TEXT_CHARS) {
        return Err(AppError::invalid("admin_comment", "too_long", "The comment is too long"));
    }
    let version = sync::next_version(conn)?;
    let mut versions = survey.field_versions.clone();
    stamp(&mut versions, &["status", "admin_comment"], version);
    rows::set_review(conn, id, status, comment, &versions, version, &now)?;
    if decision == Decision::Approve {
        crate::db::users::promote_buyer_to_farmer(conn, survey.user_id, &now)?;
        // Their products now say "Verified Seller".
        crate::db::product_search::touch_farmer(conn, survey.user_id)?;
    }
    rows::find(conn, id)?.ok_or_else(not_found)
}

/// Which application: by its id (REST) or its uid (sync).
#[derive(Debug, Clone, Copy)]
pub enum SurveyRef<'a> {
    Id(i64),
    Uid(&'a str),
}

/// The owner edits, submits or re-submits an application (docs/product.md, Statuses).
///
/// `base` is the version the person edited (an offline edit); the fields
/// they changed that someone else changed after `base` are returned as
/// conflicts. Their change wins (it arrived later); every field they did not
/// touch, or set to the value it already has, keeps the other change.
pub fn update(
    conn: &Connection,
    owner: &UserRow,
    target: SurveyRef<'_>,
    input: &SurveyAnswersInput,
    status: Option<&str>,
    base: Option<Base<'_>>,
) -> ApiResult<(SurveyRow, Vec<String>)> {
    let survey = owned(conn, owner, target)?;
    let (new_status, strictness) = owner_transition(Some(survey.status), status)?;
    if new_status != survey.status {
        one_waiting(conn, survey.user_id, new_status, survey.id)?;
    }
    let mut answers = apply(&survey.answers, input, strictness).map_err(AppError::Validation)?;
    let mut changed = answers.changed_fields(&survey.answers);
    if new_status != survey.status {
        changed.push("status");
    }
    let mut conflicts = conflicts(&survey.field_versions, &changed, base.map(|b| b.version));
    let version = sync::next_version(conn)?;
    for field in SurveyAnswers::FIELDS.iter().filter(|f| f.kind == AnswerKind::LongText && changed.contains(&f.name)) {
        let key = TextKey { entity: "survey", record_id: survey.id, field: field.name };
        let stored = (text_of(&survey.answers, field.name), *survey.field_versions.get(field.name).unwrap_or(&0));
        let sent = text_of(&answers, field.name);
        let written = long_text::write(conn, key, (&stored.0, stored.1), base, &sent, version, MAX_TEXT_CHARS)?;
        if written.merged {
            conflicts.retain(|conflict| conflict != field.name);
        }
        answers.set(field.name, CellValue::Text(Some(written.text).filter(|text| !text.is_empty())));
    }
    let mut versions = survey.field_versions.clone();
    stamp(&mut versions, &changed, version);
    rows::update(conn, survey.id, new_status, &answers, &versions, version, &clock::now())?;
    Ok((rows::find(conn, survey.id)?.ok_or_else(not_found)?, conflicts))
}

/// The owner deletes a draft or a rejected application; it leaves a tombstone for sync.
pub fn delete(conn: &Connection, owner: &UserRow, target: SurveyRef<'_>) -> ApiResult<()> {
    let survey = owned(conn, owner, target)?;
    if !survey.status.owner_may_change() {
        return Err(locked(survey.status));
    }
    let version = sync::next_version(conn)?;
    rows::tombstone(conn, survey.id, version, &clock::now())?;
    texts::delete(conn, "survey", survey.id)?;
    Ok(())
}

/// A text answer by name ("" when blank).
fn text_of(answers: &SurveyAnswers, name: &str) -> String {
    answers
        .cells()
        .into_iter()
        .find_map(|(field, cell)| match cell {
            Cell::Text(text) if field == name => text.clone(),
            _ => None,
        })
        .unwrap_or_default()
}

/// An application is its applicant's and its author's (a field agent or
/// admin who filled it for them); to anyone else it is "not found", so ids
/// reveal nothing.
fn owned(conn: &Connection, actor: &UserRow, target: SurveyRef<'_>) -> ApiResult<SurveyRow> {
    let found = match target {
        SurveyRef::Id(id) => rows::find(conn, id)?,
        SurveyRef::Uid(uid) => rows::find_by_uid(conn, &uid.to_lowercase())?,
    };
    found
        .filter(|s| (s.user_id == actor.id || s.created_by == actor.id) && s.deleted_at.is_none())
        .ok_or_else(not_found)
}

/// A field agent (or admin) takes up the draft application `user_id` started themselves
/// (in the app, or by USSD one answer at a time) to finish it with them: they author it
/// from now on, so it reaches their phone at its next pull; the applicant keeps it.
/// `404 no_draft` when the person has no draft of their own.
pub fn take_up_draft(conn: &Connection, actor: &UserRow, user_id: i64) -> ApiResult<SurveyRow> {
    let person = applicant_for(conn, actor, user_id)?;
    let Some(id) = rows::own_draft(conn, person.id)? else {
        return Err(AppError::not_found("no_draft", "This person has no application of their own to finish"));
    };
    let version = sync::next_version(conn)?;
    rows::set_author(conn, id, actor.id, version, &clock::now())?;
    rows::find(conn, id)?.ok_or_else(not_found)
}

/// The person a field agent or admin fills an application for: an active buyer or farmer.
pub fn applicant_for(conn: &Connection, actor: &UserRow, user_id: i64) -> ApiResult<UserRow> {
    if !actor.role.surveys_others() {
        return Err(AppError::forbidden("forbidden", "You can only fill in your own applications"));
    }
    crate::db::users::find(conn, user_id)?
        .filter(|person| person.role.may_be_surveyed() && person.status == Status::Active)
        .ok_or_else(|| AppError::invalid("user_id", "user_required", "Please select a user"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete() -> SurveyAnswersInput {
        serde_json::from_value(serde_json::json!({
            "land_size": "1-2 hectares", "work_type": "With family", "income_sources": "Farming only",
            "seed_type": "Improved/hybrid", "seed_source": "Local market", "fertilizers": "Compost/manure",
            "field_preparation": "Hand tools (hoe)", "farming_techniques": "Mulching and intercropping",
            "planting_season": "Season A", "higher_season": "Season B", "higher_season_reason": "More rain",
            "average_yield": "1-2 tons", "challenges": "Pests", "selling_method": "Sell at local market",
            "improvements_production": "Better seed", "improvements_selling": "Group selling",
        }))
        .unwrap()
    }

    #[test]
    fn a_submission_needs_every_required_answer_in_the_specs_order() {
        let errors =
            apply(&SurveyAnswers::default(), &SurveyAnswersInput::default(), Strictness::Submission).unwrap_err();
        assert_eq!(errors.codes(), vec!["required"; 16]);
        assert!(errors.first().unwrap().message.starts_with("Land size is required"));
        assert!(apply(&SurveyAnswers::default(), &complete(), Strictness::Submission).is_ok());
    }

    #[test]
    fn a_draft_may_be_incomplete_but_not_wrong() {
        let draft = apply(
            &SurveyAnswers::default(),
            &SurveyAnswersInput { land_size: Some("1-2 hectares".into()), ..Default::default() },
            Strictness::Draft,
        );
        assert_eq!(draft.unwrap().land_size.as_deref(), Some("1-2 hectares"));
        let wrong = SurveyAnswersInput { land_size: Some("A lot".into()), ..Default::default() };
        assert_eq!(
            apply(&SurveyAnswers::default(), &wrong, Strictness::Draft).unwrap_err().codes(),
            ["invalid_option"]
        );
    }

    #[test]
    fn booleans_and_percentages_are_read_leniently_and_conditions_applied() {
        let input: SurveyAnswersInput = serde_json::from_value(serde_json::json!({
            "post_harvest_losses": "true", "loss_percentage": "30", "selling_challenges": 0,
            "selling_challenges_explanation": "Roads", "mobile_interest": "on"
        }))
        .unwrap();
        let answers = apply(&SurveyAnswers::default(), &input, Strictness::Draft).unwrap();
        assert!(answers.post_harvest_losses && answers.mobile_interest && !answers.selling_challenges);
        assert_eq!(answers.loss_percentage, 30);
        assert_eq!(answers.selling_challenges_explanation, None, "no explanation without challenges");

        let no_losses: SurveyAnswersInput =
            serde_json::from_value(serde_json::json!({"post_harvest_losses": false, "loss_percentage": 40})).unwrap();
        assert_eq!(apply(&SurveyAnswers::default(), &no_losses, Strictness::Draft).unwrap().loss_percentage, 0);

        for bad in [serde_json::json!(101), serde_json::json!(-1), serde_json::json!(12.5), serde_json::json!("lots")] {
            let input: SurveyAnswersInput =
                serde_json::from_value(serde_json::json!({"post_harvest_losses": true, "loss_percentage": bad}))
                    .unwrap();
            assert_eq!(
                apply(&SurveyAnswers::default(), &input, Strictness::Draft).unwrap_err().codes(),
                ["out_of_range"],
                "{bad}"
            );
        }
        let input: SurveyAnswersInput =
            serde_json::from_value(serde_json::json!({"mobile_interest": "maybe"})).unwrap();
        assert_eq!(
            apply(&SurveyAnswers::default(), &input, Strictness::Draft).unwrap_err().codes(),
            ["invalid_boolean"]
        );
    }

    #[test]
    fn an_edit_keeps_what_it_does_not_mention_and_blank_clears() {
        let base = apply(&SurveyAnswers::default(), &complete(), Strictness::Submission).unwrap();
        let edit = SurveyAnswersInput {
            challenges: Some("Drought".into()),
            cooperative_name: Some("  ".into()),
            ..Default::default()
        };
        let after = apply(&base, &edit, Strictness::Draft).unwrap();
        assert_eq!(after.challenges.as_deref(), Some("Drought"));
        assert_eq!(after.land_size, base.land_size);
        assert_eq!(after.cooperative_name, None);
    }

    #[test]
    fn the_owners_status_rules() {
        use SurveyStatus::*;
        assert_eq!(owner_transition(None, None).unwrap(), (Pending, Strictness::Submission));
        assert_eq!(owner_transition(None, Some("draft")).unwrap(), (Draft, Strictness::Draft));
        assert_eq!(owner_transition(Some(Draft), Some("pending")).unwrap(), (Pending, Strictness::Submission));
        assert_eq!(
            owner_transition(Some(Rejected), Some("re-submitted")).unwrap(),
            (Resubmitted, Strictness::Submission)
        );
        assert_eq!(owner_transition(Some(Rejected), None).unwrap(), (Rejected, Strictness::Draft));
        for (from, to) in
            [(None, "approved"), (Some(Draft), "approved"), (Some(Draft), "re-submitted"), (Some(Rejected), "pending")]
        {
            assert_eq!(owner_transition(from, Some(to)).unwrap_err().code(), "validation_failed", "{from:?} → {to}");
        }
        for from in [Pending, Approved, Resubmitted] {
            assert_eq!(owner_transition(Some(from), None).unwrap_err().code(), "survey_locked");
        }
    }

    #[test]
    fn uids_are_uuids() {
        assert!(check_uid("0f8e6a6c-6a3c-4f7e-9d36-1c2b3a4d5e6f").is_ok());
        assert!(check_uid("not-a-uuid").is_err());
    }
}
