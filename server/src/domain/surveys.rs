//! Farmer applications (SPEC sections 3, 4 and 5): the answers, their option
//! lists, validation in the spec's order, and the owner's status rules. The
//! functions take a transaction, so the REST API and (with the sync engine)
//! offline mutations apply exactly the same rules.

use rusqlite::Connection;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::stamp;
use crate::clock;
use crate::db::surveys::{self as rows, FieldVersions, SurveyRow};
use crate::db::sync;
use crate::db::users::UserRow;
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::labels::Lang;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub enum SurveyStatus {
    #[serde(rename = "draft")]
    Draft,
    #[serde(rename = "pending")]
    Pending,
    /// Shown as "Active" to the applicant; `active` is true.
    #[serde(rename = "approved")]
    Approved,
    #[serde(rename = "rejected")]
    Rejected,
    #[serde(rename = "re-submitted")]
    Resubmitted,
}
string_enum!(SurveyStatus {
    Draft => "draft",
    Pending => "pending",
    Approved => "approved",
    Rejected => "rejected",
    Resubmitted => "re-submitted",
});

impl SurveyStatus {
    /// SPEC section 4: the owner may edit or delete only drafts and rejected applications.
    pub fn owner_may_change(self) -> bool {
        matches!(self, SurveyStatus::Draft | SurveyStatus::Rejected)
    }
}

/// The answers of an application (SPEC section 3). Option fields hold the
/// spec's English option text, which stays stable; the PWA translates it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Answers {
    pub land_size: Option<String>,
    pub work_type: Option<String>,
    pub cooperative_name: Option<String>,
    pub income_sources: Option<String>,
    pub seed_type: Option<String>,
    pub seed_source: Option<String>,
    pub fertilizers: Option<String>,
    pub field_preparation: Option<String>,
    pub farming_techniques: Option<String>,
    pub planting_season: Option<String>,
    pub higher_season: Option<String>,
    pub higher_season_reason: Option<String>,
    pub average_yield: Option<String>,
    pub challenges: Option<String>,
    pub post_harvest_losses: bool,
    /// 0 to 100; 0 unless `post_harvest_losses`.
    pub loss_percentage: i64,
    pub selling_method: Option<String>,
    pub selling_challenges: bool,
    /// Only when `selling_challenges`.
    pub selling_challenges_explanation: Option<String>,
    pub mobile_interest: bool,
    pub improvements_production: Option<String>,
    pub improvements_selling: Option<String>,
    pub additional_comments: Option<String>,
}

/// One answer as an export shows it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Cell<'a> {
    Text(&'a Option<String>),
    Bool(bool),
    Number(i64),
}

impl Answers {
    /// Every answer with its name, in the form's order (SPEC section 3).
    pub fn cells(&self) -> [(&'static str, Cell<'_>); 23] {
        use Cell::{Bool, Number, Text};
        [
            ("land_size", Text(&self.land_size)),
            ("work_type", Text(&self.work_type)),
            ("cooperative_name", Text(&self.cooperative_name)),
            ("income_sources", Text(&self.income_sources)),
            ("seed_type", Text(&self.seed_type)),
            ("seed_source", Text(&self.seed_source)),
            ("fertilizers", Text(&self.fertilizers)),
            ("field_preparation", Text(&self.field_preparation)),
            ("farming_techniques", Text(&self.farming_techniques)),
            ("planting_season", Text(&self.planting_season)),
            ("higher_season", Text(&self.higher_season)),
            ("higher_season_reason", Text(&self.higher_season_reason)),
            ("average_yield", Text(&self.average_yield)),
            ("challenges", Text(&self.challenges)),
            ("post_harvest_losses", Bool(self.post_harvest_losses)),
            ("loss_percentage", Number(self.loss_percentage)),
            ("selling_method", Text(&self.selling_method)),
            ("selling_challenges", Bool(self.selling_challenges)),
            ("selling_challenges_explanation", Text(&self.selling_challenges_explanation)),
            ("mobile_interest", Bool(self.mobile_interest)),
            ("improvements_production", Text(&self.improvements_production)),
            ("improvements_selling", Text(&self.improvements_selling)),
            ("additional_comments", Text(&self.additional_comments)),
        ]
    }

    /// The text answers with their names, in the form's order.
    pub fn texts(&self) -> Vec<(&'static str, &Option<String>)> {
        self.cells()
            .into_iter()
            .filter_map(|(name, cell)| if let Cell::Text(text) = cell { Some((name, text)) } else { None })
            .collect()
    }

    fn texts_mut(&mut self) -> [(&'static str, &mut Option<String>); 19] {
        [
            ("land_size", &mut self.land_size),
            ("work_type", &mut self.work_type),
            ("cooperative_name", &mut self.cooperative_name),
            ("income_sources", &mut self.income_sources),
            ("seed_type", &mut self.seed_type),
            ("seed_source", &mut self.seed_source),
            ("fertilizers", &mut self.fertilizers),
            ("field_preparation", &mut self.field_preparation),
            ("farming_techniques", &mut self.farming_techniques),
            ("planting_season", &mut self.planting_season),
            ("higher_season", &mut self.higher_season),
            ("higher_season_reason", &mut self.higher_season_reason),
            ("average_yield", &mut self.average_yield),
            ("challenges", &mut self.challenges),
            ("selling_method", &mut self.selling_method),
            ("selling_challenges_explanation", &mut self.selling_challenges_explanation),
            ("improvements_production", &mut self.improvements_production),
            ("improvements_selling", &mut self.improvements_selling),
            ("additional_comments", &mut self.additional_comments),
        ]
    }
}

/// A value as forms send it: a JSON boolean or number, or text ("true", "on", "42").
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Loose {
    Bool(bool),
    Number(f64),
    Text(String),
}

/// What a client sends: any subset of the answers (absent fields keep their value).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(default)]
pub struct AnswersInput {
    pub land_size: Option<String>,
    pub work_type: Option<String>,
    pub cooperative_name: Option<String>,
    pub income_sources: Option<String>,
    pub seed_type: Option<String>,
    pub seed_source: Option<String>,
    pub fertilizers: Option<String>,
    pub field_preparation: Option<String>,
    pub farming_techniques: Option<String>,
    pub planting_season: Option<String>,
    pub higher_season: Option<String>,
    pub higher_season_reason: Option<String>,
    pub average_yield: Option<String>,
    pub challenges: Option<String>,
    #[schema(value_type = Option<bool>)]
    pub post_harvest_losses: Option<Loose>,
    #[schema(value_type = Option<i64>)]
    pub loss_percentage: Option<Loose>,
    pub selling_method: Option<String>,
    #[schema(value_type = Option<bool>)]
    pub selling_challenges: Option<Loose>,
    pub selling_challenges_explanation: Option<String>,
    #[schema(value_type = Option<bool>)]
    pub mobile_interest: Option<Loose>,
    pub improvements_production: Option<String>,
    pub improvements_selling: Option<String>,
    pub additional_comments: Option<String>,
}

impl AnswersInput {
    /// The fields this input sets, so an edit knows what the person changed.
    pub fn given_fields(&self) -> Vec<&'static str> {
        let empty = Answers::default();
        let mut fields: Vec<&'static str> = empty
            .texts()
            .into_iter()
            .map(|(name, _)| name)
            .zip(self.texts())
            .filter(|(_, value)| value.is_some())
            .map(|(name, _)| name)
            .collect();
        let others = [
            ("post_harvest_losses", self.post_harvest_losses.is_some()),
            ("loss_percentage", self.loss_percentage.is_some()),
            ("selling_challenges", self.selling_challenges.is_some()),
            ("mobile_interest", self.mobile_interest.is_some()),
        ];
        fields.extend(others.into_iter().filter(|(_, given)| *given).map(|(name, _)| name));
        fields
    }

    fn texts(&self) -> [&Option<String>; 19] {
        [
            &self.land_size,
            &self.work_type,
            &self.cooperative_name,
            &self.income_sources,
            &self.seed_type,
            &self.seed_source,
            &self.fertilizers,
            &self.field_preparation,
            &self.farming_techniques,
            &self.planting_season,
            &self.higher_season,
            &self.higher_season_reason,
            &self.average_yield,
            &self.challenges,
            &self.selling_method,
            &self.selling_challenges_explanation,
            &self.improvements_production,
            &self.improvements_selling,
            &self.additional_comments,
        ]
    }
}

/// SPEC section 5: what a submitted application must answer, in this order.
pub const REQUIRED: [&str; 16] = [
    "land_size",
    "work_type",
    "income_sources",
    "seed_type",
    "seed_source",
    "fertilizers",
    "field_preparation",
    "farming_techniques",
    "planting_season",
    "higher_season",
    "higher_season_reason",
    "average_yield",
    "challenges",
    "selling_method",
    "improvements_production",
    "improvements_selling",
];

const SEASONS: &[&str] = &["Season A", "Season B", "Both seasons"];

/// The allowed answers of the option fields: both readings of SPEC section 3
/// (the customer form and the admin's survey creation), so either client's
/// values are kept as sent.
pub fn options(field: &str) -> Option<&'static [&'static str]> {
    Some(match field {
        "land_size" => &["Less than 1 hectare", "1-2 hectares", "2-5 hectares", "More than 5 hectares"],
        "work_type" => &["Alone", "With family", "With hired workers", "Cooperative"],
        "income_sources" => {
            &["Farming only", "Farming and other business", "Farming and employment", "Multiple sources"]
        }
        "seed_type" => &["Local/traditional", "Improved/hybrid", "Certified seeds", "Mixed", "Both"],
        "seed_source" => &[
            "Local market",
            "Agricultural stores",
            "Government programs",
            "NGOs",
            "Own saved seeds",
            "Agricultural store",
            "Government program",
            "NGO program",
        ],
        "fertilizers" => &[
            "Compost/manure",
            "Chemical fertilizers",
            "Organic fertilizers",
            "No fertilizers",
            "Mixed",
            "Both",
            "None",
        ],
        "field_preparation" => &["Hand tools (hoe)", "Animal traction", "Tractor", "Mixed methods", "Combination"],
        "planting_season" | "higher_season" => SEASONS,
        "average_yield" => &["Less than 1 ton", "1-2 tons", "2-5 tons", "More than 5 tons"],
        "selling_method" => &[
            "Sell at local market",
            "Direct to consumers",
            "Through cooperatives",
            "To processors",
            "Multiple channels",
            "Sell to traders",
            "Sell to cooperatives",
        ],
        _ => return None,
    })
}

const MAX_TEXT_CHARS: usize = 2000;

fn label(field: &str) -> String {
    let spaced = field.replace('_', " ");
    let mut chars = spaced.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// Reads a yes/no as forms send it: a boolean, 0/1, or "true", "on", "yes" and their opposites.
pub fn loose_bool(value: &Loose) -> Option<bool> {
    match value {
        Loose::Bool(b) => Some(*b),
        Loose::Number(n) => Some(*n != 0.0),
        Loose::Text(t) => match t.trim().to_ascii_lowercase().as_str() {
            "true" | "1" | "on" | "yes" => Some(true),
            "false" | "0" | "off" | "no" | "" => Some(false),
            _ => None,
        },
    }
}

fn loose_percentage(value: &Loose) -> Option<i64> {
    let number = match value {
        Loose::Number(n) => *n,
        Loose::Text(t) if t.trim().is_empty() => 0.0,
        Loose::Text(t) => t.trim().parse().ok()?,
        Loose::Bool(_) => return None,
    };
    (number.fract() == 0.0 && (0.0..=100.0).contains(&number)).then_some(number as i64)
}

/// How strictly to check: a draft may be incomplete; a submission may not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strictness {
    Draft,
    Submission,
}

/// Lays `input` over `base` and checks the result: required answers (for a
/// submission), options, the loss percentage, lengths; then applies the
/// conditional rules (no loss percentage without losses, no explanation
/// without selling challenges).
pub fn apply(base: &Answers, input: &AnswersInput, strictness: Strictness) -> Result<Answers, FieldErrors> {
    let mut errors = FieldErrors::default();
    let mut answers = base.clone();
    for ((_, slot), given) in answers.texts_mut().into_iter().zip(input.texts()) {
        if let Some(text) = given {
            let text = text.trim();
            *slot = (!text.is_empty()).then(|| text.to_owned());
        }
    }
    let flags = [
        ("post_harvest_losses", &input.post_harvest_losses, &mut answers.post_harvest_losses),
        ("selling_challenges", &input.selling_challenges, &mut answers.selling_challenges),
        ("mobile_interest", &input.mobile_interest, &mut answers.mobile_interest),
    ];
    let mut flag_errors = Vec::new();
    for (field, given, slot) in flags {
        match given.as_ref().map(loose_bool) {
            Some(Some(value)) => *slot = value,
            Some(None) => flag_errors.push(field),
            None => {}
        }
    }
    let mut percentage_invalid = false;
    match input.loss_percentage.as_ref().map(loose_percentage) {
        Some(Some(value)) => answers.loss_percentage = value,
        Some(None) => percentage_invalid = true,
        None => {}
    }

    if strictness == Strictness::Submission {
        let texts = answers.texts();
        for field in REQUIRED {
            let answered = texts.iter().any(|(name, value)| *name == field && value.is_some());
            if !answered {
                errors.add(field, "required", format!("{} is required", label(field)));
            }
        }
    }
    for (field, value) in answers.texts() {
        let Some(value) = value else { continue };
        if options(field).is_some_and(|allowed| !allowed.contains(&value.as_str())) {
            errors.add(field, "invalid_option", "Please choose one of the options");
        } else if value.chars().count() > MAX_TEXT_CHARS {
            errors.add(
                field,
                "too_long",
                format!("{} is too long (at most {MAX_TEXT_CHARS} characters)", label(field)),
            );
        }
    }
    for field in flag_errors {
        errors.add(field, "invalid_boolean", format!("{} must be yes or no", label(field)));
    }
    if percentage_invalid {
        errors.add("loss_percentage", "out_of_range", "Loss percentage must be a whole number from 0 to 100");
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if !answers.post_harvest_losses {
        answers.loss_percentage = 0;
    }
    if !answers.selling_challenges {
        answers.selling_challenges_explanation = None;
    }
    Ok(answers)
}

/// The fields whose values differ between two versions of the answers.
fn changed_fields(old: &Answers, new: &Answers) -> Vec<&'static str> {
    let mut fields: Vec<&'static str> =
        old.texts().into_iter().zip(new.texts()).filter(|((_, a), (_, b))| a != b).map(|((name, _), _)| name).collect();
    let others = [
        ("post_harvest_losses", old.post_harvest_losses != new.post_harvest_losses),
        ("loss_percentage", old.loss_percentage != new.loss_percentage),
        ("selling_challenges", old.selling_challenges != new.selling_challenges),
        ("mobile_interest", old.mobile_interest != new.mobile_interest),
    ];
    fields.extend(others.into_iter().filter(|(_, changed)| *changed).map(|(name, _)| name));
    fields
}

fn locked(status: SurveyStatus) -> AppError {
    AppError::conflict(
        "survey_locked",
        format!("This application is {status} and can no longer be changed by its owner"),
    )
}

fn invalid_transition(message: &str) -> AppError {
    AppError::invalid("status", "invalid_transition", message)
}

/// SPEC section 4 for the owner: where a requested status may lead, and how
/// strictly the answers are checked on the way.
pub fn owner_transition(from: Option<SurveyStatus>, requested: Option<&str>) -> ApiResult<(SurveyStatus, Strictness)> {
    use SurveyStatus::*;
    let requested = match requested.map(str::trim).filter(|s| !s.is_empty()) {
        Some(text) => Some(SurveyStatus::parse(text).ok_or_else(|| invalid_transition("Unknown status"))?),
        None => None,
    };
    match (from, requested) {
        (None, None | Some(Pending)) => Ok((Pending, Strictness::Submission)),
        (None, Some(Draft)) => Ok((Draft, Strictness::Draft)),
        (None, Some(_)) => Err(invalid_transition("A new application is saved as a draft or submitted")),
        (Some(Draft), None | Some(Draft)) => Ok((Draft, Strictness::Draft)),
        (Some(Draft), Some(Pending)) => Ok((Pending, Strictness::Submission)),
        (Some(Draft), Some(_)) => Err(invalid_transition("A draft can only be saved again or submitted")),
        (Some(Rejected), None | Some(Rejected)) => Ok((Rejected, Strictness::Draft)),
        (Some(Rejected), Some(Resubmitted)) => Ok((Resubmitted, Strictness::Submission)),
        (Some(Rejected), Some(_)) => {
            Err(invalid_transition("A rejected application can only be edited or re-submitted"))
        }
        (Some(other), _) => Err(locked(other)),
    }
}

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
    input: &AnswersInput,
    status: Option<&str>,
) -> ApiResult<(SurveyRow, bool)> {
    let uid = uid.unwrap_or_else(|| uuid::Uuid::new_v4().to_string()).to_lowercase();
    check_uid(&uid)?;
    if let Some(existing) = rows::find_by_uid(conn, &uid)? {
        return if existing.user_id == owner.id && existing.created_by == created_by && existing.deleted_at.is_none() {
            Ok((existing, false))
        } else {
            Err(AppError::conflict("uid_taken", "This application id is already in use"))
        };
    }
    let (status, strictness) = owner_transition(None, status)?;
    let answers = apply(&Answers::default(), input, strictness).map_err(AppError::Validation)?;
    let version = sync::next_version(conn)?;
    let mut versions = FieldVersions::new();
    stamp(&mut versions, &changed_fields(&Answers::default(), &answers), version);
    stamp(&mut versions, &["status"], version);
    let id = rows::insert(conn, &uid, owner.id, created_by, status, &answers, &versions, version, &clock::now())?;
    Ok((rows::find(conn, id)?.ok_or_else(not_found)?, true))
}

/// An admin's decision on an application (SPEC section 4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decision {
    Approve,
    Reject,
}

impl Decision {
    /// The statuses an admin may send: the server's `approved` or the spec client's `active`.
    pub fn parse(status: &str) -> Option<Decision> {
        match status {
            "approved" | "active" => Some(Decision::Approve),
            "rejected" => Some(Decision::Reject),
            _ => None,
        }
    }
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
        crate::db::products::touch_farmer(conn, survey.user_id)?;
    }
    rows::find(conn, id)?.ok_or_else(not_found)
}

/// Writes the applicant an email about the decision on `survey`, in the
/// language of their country; the mailer sends it after the commit.
pub fn notify_decision(conn: &Connection, survey: &SurveyRow) -> ApiResult<()> {
    let Some(applicant) = crate::db::users::find(conn, survey.user_id)? else { return Ok(()) };
    let lang = Lang::for_country(applicant.country);
    let outcome = if survey.status == SurveyStatus::Approved { "approved" } else { "rejected" };
    let name = if applicant.first_name.is_empty() { applicant.email.clone() } else { applicant.first_name.clone() };
    let number = survey.id.to_string();
    let mut body = lang.format(&format!("email.decision.body_{outcome}"), &[("name", &name), ("number", &number)]);
    if let Some(comment) = &survey.admin_comment {
        body.push_str("\n\n");
        body.push_str(&lang.format("email.decision.comment", &[("comment", comment)]));
    }
    body.push_str("\n\n");
    body.push_str(&lang.text("email.signature"));
    let subject = lang.format(&format!("email.decision.subject_{outcome}"), &[("number", &number)]);
    crate::db::outbox::enqueue(conn, &applicant.email, &subject, &body, &clock::now())?;
    Ok(())
}

/// Which application: by its id (REST) or its uid (sync).
#[derive(Debug, Clone, Copy)]
pub enum SurveyRef<'a> {
    Id(i64),
    Uid(&'a str),
}

/// The owner edits, submits or re-submits an application (SPEC section 4).
///
/// `base` is the version the person edited (an offline edit); the fields
/// they changed that someone else changed after `base` are returned as
/// conflicts. Their change wins (it arrived later); every field they did not
/// touch keeps the other change.
pub fn update(
    conn: &Connection,
    owner: &UserRow,
    target: SurveyRef<'_>,
    input: &AnswersInput,
    status: Option<&str>,
    base: Option<i64>,
) -> ApiResult<(SurveyRow, Vec<String>)> {
    let survey = owned(conn, owner, target)?;
    let (new_status, strictness) = owner_transition(Some(survey.status), status)?;
    let answers = apply(&survey.answers, input, strictness).map_err(AppError::Validation)?;
    let mut touched = input.given_fields();
    if status.is_some() {
        touched.push("status");
    }
    let conflicts = super::conflicts(&survey.field_versions, &touched, base);
    let version = sync::next_version(conn)?;
    let mut versions = survey.field_versions.clone();
    stamp(&mut versions, &changed_fields(&survey.answers, &answers), version);
    if new_status != survey.status {
        stamp(&mut versions, &["status"], version);
    }
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
    Ok(())
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

/// The person a field agent or admin fills an application for: an active buyer or farmer.
pub fn applicant_for(conn: &Connection, actor: &UserRow, user_id: i64) -> ApiResult<UserRow> {
    if !actor.role.surveys_others() {
        return Err(AppError::forbidden("forbidden", "You can only fill in your own applications"));
    }
    crate::db::users::find(conn, user_id)?
        .filter(|person| person.role.may_be_surveyed() && person.status == crate::domain::user::Status::Active)
        .ok_or_else(|| AppError::invalid("user_id", "user_required", "Please select a user"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn complete() -> AnswersInput {
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
        let errors = apply(&Answers::default(), &AnswersInput::default(), Strictness::Submission).unwrap_err();
        let fields: Vec<&str> = REQUIRED.to_vec();
        assert_eq!(errors.codes(), vec!["required"; 16]);
        assert!(errors.first().unwrap().message.starts_with("Land size is required"));
        assert_eq!(fields.len(), 16);
        assert!(apply(&Answers::default(), &complete(), Strictness::Submission).is_ok());
    }

    #[test]
    fn a_draft_may_be_incomplete_but_not_wrong() {
        let draft = apply(
            &Answers::default(),
            &AnswersInput { land_size: Some("1-2 hectares".into()), ..Default::default() },
            Strictness::Draft,
        );
        assert_eq!(draft.unwrap().land_size.as_deref(), Some("1-2 hectares"));
        let wrong = AnswersInput { land_size: Some("A lot".into()), ..Default::default() };
        assert_eq!(apply(&Answers::default(), &wrong, Strictness::Draft).unwrap_err().codes(), ["invalid_option"]);
    }

    #[test]
    fn booleans_and_percentages_are_read_leniently_and_conditions_applied() {
        let input: AnswersInput = serde_json::from_value(serde_json::json!({
            "post_harvest_losses": "true", "loss_percentage": "30", "selling_challenges": 0,
            "selling_challenges_explanation": "Roads", "mobile_interest": "on"
        }))
        .unwrap();
        let answers = apply(&Answers::default(), &input, Strictness::Draft).unwrap();
        assert!(answers.post_harvest_losses && answers.mobile_interest && !answers.selling_challenges);
        assert_eq!(answers.loss_percentage, 30);
        assert_eq!(answers.selling_challenges_explanation, None, "no explanation without challenges");

        let no_losses: AnswersInput =
            serde_json::from_value(serde_json::json!({"post_harvest_losses": false, "loss_percentage": 40})).unwrap();
        assert_eq!(apply(&Answers::default(), &no_losses, Strictness::Draft).unwrap().loss_percentage, 0);

        for bad in [serde_json::json!(101), serde_json::json!(-1), serde_json::json!(12.5), serde_json::json!("lots")] {
            let input: AnswersInput =
                serde_json::from_value(serde_json::json!({"post_harvest_losses": true, "loss_percentage": bad}))
                    .unwrap();
            assert_eq!(
                apply(&Answers::default(), &input, Strictness::Draft).unwrap_err().codes(),
                ["out_of_range"],
                "{bad}"
            );
        }
        let input: AnswersInput = serde_json::from_value(serde_json::json!({"mobile_interest": "maybe"})).unwrap();
        assert_eq!(apply(&Answers::default(), &input, Strictness::Draft).unwrap_err().codes(), ["invalid_boolean"]);
    }

    #[test]
    fn an_edit_keeps_what_it_does_not_mention_and_blank_clears() {
        let base = apply(&Answers::default(), &complete(), Strictness::Submission).unwrap();
        let edit = AnswersInput {
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
