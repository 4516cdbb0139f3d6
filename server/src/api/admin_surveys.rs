//! Admin review of farmer applications (docs/product.md, Screens and Statuses; docs/api.md):
//! `GET/POST /admin/surveys`, `PATCH /admin/surveys/{id}`, and a bulk decision.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::admin::csv_download;
use super::extract::ApiJson;
use super::surveys::{SurveyForm, SurveyJson, SurveyResponse};
use crate::auth::AdminUser;
use crate::db::surveys::{self as rows, AdminFilter};
use crate::db::users;
use crate::domain::surveys::{self, Decision};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::labels::Lang;
use crate::model::survey::{Cell, SurveyAnswers, SurveyStatus};
use crate::platform::clock;
use crate::platform::csv::Csv;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_page, create_for_user))
        .routes(routes!(export))
        .routes(routes!(decide))
        .routes(routes!(decide_many))
}

/// Filters of the admin's list; all optional. Drafts are never listed.
#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SurveyQuery {
    /// Part of the applicant's first or last name or email, the work type or the cooperative name.
    q: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::survey_statuses)]
    status: Option<String>,
    #[param(value_type = Option<String>, schema_with = crate::api::document::from_instant)]
    from: Option<String>,
    /// 1-based; 50 a page unless `per_page` (at most 200) says otherwise.
    page: Option<i64>,
    per_page: Option<i64>,
    /// Language of an export's labels: en, fr or sw.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
}

impl SurveyQuery {
    fn filter(&self) -> ApiResult<AdminFilter> {
        // The export's language, refused on the list too: they read one query.
        super::export_lang(self.lang.as_deref())?;
        let status = match self.status.as_deref().filter(|s| !s.is_empty() && *s != "all") {
            None => None,
            Some("active") => Some(SurveyStatus::Approved),
            Some(text) => Some(
                SurveyStatus::parse(text)
                    .filter(|s| *s != SurveyStatus::Draft)
                    .ok_or_else(|| AppError::invalid("status", "invalid_filter", format!("Unknown status {text:?}")))?,
            ),
        };
        let created_from = match self.from.as_deref().filter(|s| !s.is_empty()) {
            None => None,
            Some(text) => Some(clock::parse(text).map(clock::format).ok_or_else(|| {
                AppError::invalid("from", "invalid_filter", "The start date must be an RFC 3339 time")
            })?),
        };
        Ok(AdminFilter { search: super::search(self.q.as_deref())?, status, created_from })
    }
}

/// Sent applications per status, for the stat cards (over all, not the filter).
#[derive(Serialize, ToSchema)]
pub struct SurveyStats {
    total: i64,
    pending: i64,
    approved: i64,
    rejected: i64,
    #[serde(rename = "re-submitted")]
    resubmitted: i64,
}

#[derive(Serialize, ToSchema)]
pub struct SurveyPage {
    success: bool,
    /// This page, newest first, with applicant and creator.
    data: Vec<SurveyJson>,
    /// How many match the filters.
    total: i64,
    page: i64,
    per_page: i64,
    stats: SurveyStats,
}

/// The applications matching the filters, a page at a time, newest first.
#[utoipa::path(get, path = "/admin/surveys", tag = "admin", security(("bearer" = [])), params(SurveyQuery),
    responses((status = 200, body = SurveyPage), (status = 401, body = ErrorBody), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn list_page(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<SurveyQuery>,
) -> ApiResult<Json<SurveyPage>> {
    let filter = query.filter()?;
    let super::Paging { page, per_page } = super::Paging::admin(query.page, query.per_page);
    let (rows, total, counts) = state
        .db
        .read(move |conn| {
            let tx = conn.begin_read()?;
            let rows = rows::search(&tx, &filter, per_page, (page - 1).saturating_mul(per_page))?;
            Ok((rows, rows::count(&tx, &filter)?, rows::count_by_status(&tx)?))
        })
        .await?;
    let count = |status| counts.iter().find(|(s, _)| *s == status).map_or(0, |(_, n)| *n);
    let stats = SurveyStats {
        total: counts.iter().map(|(_, n)| n).sum(),
        pending: count(SurveyStatus::Pending),
        approved: count(SurveyStatus::Approved),
        rejected: count(SurveyStatus::Rejected),
        resubmitted: count(SurveyStatus::Resubmitted),
    };
    Ok(Json(SurveyPage {
        success: true,
        data: rows.into_iter().map(SurveyJson::from).collect(),
        total,
        page,
        per_page,
        stats,
    }))
}

/// Every application matching the filters as `applications_{date}.csv`:
/// every field, labels and choices in `lang`.
#[utoipa::path(get, path = "/admin/surveys/export", operation_id = "export_surveys", tag = "admin", security(("bearer" = [])), params(SurveyQuery),
    responses((status = 200, content_type = "text/csv", body = String), (status = 403, body = ErrorBody), (status = 404, description = "no_applications: nothing to export", body = ErrorBody)))]
async fn export(
    State(state): State<AppState>,
    _admin: AdminUser,
    Query(query): Query<SurveyQuery>,
) -> ApiResult<impl IntoResponse> {
    let filter = query.filter()?;
    let lang = super::export_lang(query.lang.as_deref())?;
    let csv = state
        .db
        .read(move |conn| {
            let mut csv = Csv::new();
            csv.row(export_header(lang));
            let count = rows::for_each_match(conn, &filter, |row| csv.row(export_line(lang, &row)))?;
            if count == 0 {
                return Err(AppError::not_found("no_applications", "No applications found matching your criteria."));
            }
            Ok(csv)
        })
        .await?;
    Ok(csv_download("applications", csv))
}

fn export_header(lang: Lang) -> Vec<String> {
    let mut header: Vec<String> = [
        "admin.columns.id",
        "admin.columns.applicant",
        "fields.email",
        "admin.columns.created_by",
        "admin.columns.status",
        "admin.columns.submitted",
        "admin.columns.reviewed_at",
        "admin.columns.admin_comment",
    ]
    .iter()
    .map(|key| lang.text(key))
    .collect();
    header.extend(SurveyAnswers::FIELDS.iter().map(|field| lang.text(&format!("survey.fields.{}", field.name))));
    header
}

fn export_line(lang: Lang, row: &rows::SurveyRow) -> Vec<String> {
    let mut line = vec![
        row.id.to_string(),
        format!("{} {}", row.owner.first_name, row.owner.last_name).trim().to_owned(),
        row.owner.email.clone().unwrap_or_default(),
        match &row.creator.email {
            Some(email) => format!("{} {} <{email}>", row.creator.first_name, row.creator.last_name),
            None => format!("{} {}", row.creator.first_name, row.creator.last_name),
        }
        .trim()
        .to_owned(),
        lang.text(&format!("survey.status.{}", row.status)),
        row.created_at.clone(),
        row.reviewed_at.clone().unwrap_or_default(),
        row.admin_comment.clone().unwrap_or_default(),
    ];
    line.extend(row.answers.cells().into_iter().map(|(field, cell)| match cell {
        Cell::Text(None) => String::new(),
        Cell::Text(Some(text)) if surveys::options(field).is_some() => lang.option(field, text),
        Cell::Text(Some(text)) => text.clone(),
        Cell::Bool(yes) => lang.text(if yes { "survey.yes" } else { "survey.no" }),
        Cell::Number(n) => n.to_string(),
    }));
    line
}

#[derive(Deserialize, ToSchema)]
pub struct ReviewForm {
    #[schema(schema_with = crate::api::document::decisions)]
    status: String,
    #[serde(default)]
    admin_comment: Option<String>,
    /// Email the applicant about the decision (written to the outbox with it).
    #[serde(default)]
    notify: bool,
}

#[derive(Deserialize, ToSchema)]
#[schema(as = ApplicationDecisionRequest)]
pub struct ReviewRequest {
    farmer_survey_form: ReviewForm,
}

fn decision(status: &str) -> ApiResult<Decision> {
    Decision::parse(status)
        .ok_or_else(|| AppError::invalid("status", "invalid_transition", "An application can be approved or rejected"))
}

/// Approve or reject a pending or re-submitted application. Approval makes a buyer a farmer.
#[utoipa::path(patch, path = "/admin/surveys/{id}", tag = "admin", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = ReviewRequest,
    responses(
        (status = 200, body = SurveyResponse), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody),
        (status = 409, description = "not_reviewable: not pending or re-submitted", body = ErrorBody), (status = 422, body = ErrorBody),
    ))]
async fn decide(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<ReviewRequest>,
) -> ApiResult<Json<SurveyResponse>> {
    let form = request.farmer_survey_form;
    let decision = decision(&form.status)?;
    let notify = form.notify;
    let row = state
        .db
        .write(move |tx| {
            let row = surveys::review(tx, id, decision, form.admin_comment.as_deref())?;
            if notify {
                surveys::notify_decision(tx, &row)?;
            }
            Ok(row)
        })
        .await?;
    Ok(Json(SurveyResponse { success: true, data: row.into() }))
}

#[derive(Deserialize, ToSchema)]
pub struct BulkRequest {
    ids: Vec<i64>,
    #[schema(schema_with = crate::api::document::decisions)]
    status: String,
    #[serde(default)]
    admin_comment: Option<String>,
    /// Email each applicant whose application was decided.
    #[serde(default)]
    notify: bool,
}

#[derive(Serialize, ToSchema)]
pub struct BulkResult {
    id: i64,
    success: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct BulkResponse {
    success: bool,
    results: Vec<BulkResult>,
}

/// Approve or reject several applications: each is decided on its own
/// (all or nothing per application) and each result is reported.
#[utoipa::path(post, path = "/admin/surveys/bulk", tag = "admin", security(("bearer" = [])), request_body = BulkRequest,
    responses((status = 200, body = BulkResponse), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn decide_many(
    State(state): State<AppState>,
    _admin: AdminUser,
    ApiJson(request): ApiJson<BulkRequest>,
) -> ApiResult<Json<BulkResponse>> {
    let decision = decision(&request.status)?;
    if request.ids.is_empty() {
        return Err(AppError::invalid("ids", "nothing_selected", "Select at least one application"));
    }
    let mut results = Vec::with_capacity(request.ids.len());
    for id in request.ids {
        let comment = request.admin_comment.clone();
        let notify = request.notify;
        let outcome = state
            .db
            .write(move |tx| {
                let row = surveys::review(tx, id, decision, comment.as_deref())?;
                if notify {
                    surveys::notify_decision(tx, &row)?;
                }
                Ok(row)
            })
            .await;
        results.push(match outcome {
            Ok(_) => BulkResult { id, success: true, code: None, message: None },
            Err(AppError::Internal(cause)) => return Err(AppError::Internal(cause)),
            Err(refusal) => BulkResult {
                id,
                success: false,
                code: Some(refusal.code().to_owned()),
                message: Some(refusal.message()),
            },
        });
    }
    Ok(Json(BulkResponse { success: true, results }))
}

#[derive(Deserialize, ToSchema)]
pub struct CreateForUser {
    /// The applicant.
    #[serde(default)]
    user_id: Option<i64>,
    /// The same form the owner sends.
    #[serde(flatten)]
    form: SurveyForm,
}

#[derive(Deserialize, ToSchema)]
pub struct CreateForUserRequest {
    farmer_survey_form: CreateForUser,
}

/// Create an application on a person's behalf (docs/product.md, Screens, "create survey for selected user").
#[utoipa::path(post, path = "/admin/surveys", tag = "admin", security(("bearer" = [])), request_body = CreateForUserRequest,
    responses((status = 201, body = SurveyResponse), (status = 403, body = ErrorBody), (status = 422, body = ErrorBody)))]
async fn create_for_user(
    State(state): State<AppState>,
    AdminUser(admin): AdminUser,
    ApiJson(request): ApiJson<CreateForUserRequest>,
) -> ApiResult<(StatusCode, Json<SurveyResponse>)> {
    let CreateForUser { user_id, form: SurveyForm { uid, status, answers } } = request.farmer_survey_form;
    let Some(user_id) = user_id else {
        return Err(AppError::invalid("user_id", "user_required", "Please select a user"));
    };
    let admin_id = admin.user.id;
    let (row, created) = state
        .db
        .write(move |tx| {
            let owner = users::find(tx, user_id)?
                .ok_or_else(|| AppError::invalid("user_id", "user_required", "Please select a user"))?;
            surveys::create(tx, &owner, admin_id, uid, &answers, status.as_deref())
        })
        .await?;
    let code = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((code, Json(SurveyResponse { success: true, data: row.into() })))
}
