//! Paying for a course by mobile money (the enrolment follows when the
//! payment succeeds) and, for admins, a course's purchases and their refunds
//! within 30 days of paying (docs/payments.md, docs/training.md).

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::{PayRequest, PaymentList, PaymentResponse, ask_provider, json};
use crate::api::extract::ApiJson;
use crate::auth::{AdminUser, AuthUser};
use crate::db::courses as course_rows;
use crate::db::payments as rows;
use crate::db::refunds::{self, Purchase, RefundRow};
use crate::domain::courses::{CourseKey, learning};
use crate::domain::payments::{self, Outcome, REFUND_WINDOW};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::payment::PaymentStatus;
use crate::outbound::providers::Refund;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start_course_payment, list_course_payments))
        .routes(routes!(purchases))
        .routes(routes!(refund))
}

/// Pay for a course by mobile money, from the learner's country's operators:
/// the payer's phone shows a prompt, and the enrolment comes when the
/// payment succeeds (phones pull it by sync). A payment already under way is
/// answered instead of a second one.
#[utoipa::path(post, path = "/courses/{id}/payments", tag = "training", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = PayRequest,
    responses(
        (status = 201, body = PaymentResponse), (status = 200, description = "A payment already under way", body = PaymentResponse),
        (status = 404, description = "course_not_found", body = ErrorBody),
        (status = 409, description = "course_free, already_enrolled", body = ErrorBody),
        (status = 422, description = "operator_invalid, phone_invalid, phone_other_country", body = ErrorBody),
    ))]
async fn start_course_payment(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<PayRequest>,
) -> ApiResult<(StatusCode, Json<PaymentResponse>)> {
    let learner = auth.user.clone();
    let provider = state.payments.name();
    let (payment, created) = state
        .db
        .write(move |tx| {
            let course = learning::listed(tx, CourseKey::Id(id))?;
            payments::begin_course(tx, &learner, &course, &request.operator, &request.phone, provider)
        })
        .await?;
    ask_provider(&state, payment, created).await
}

/// The caller's payments for a course, oldest first, with their history.
#[utoipa::path(get, path = "/courses/{id}/payments", tag = "training", security(("bearer" = [])),
    params(("id" = i64, Path)), responses((status = 200, body = PaymentList), (status = 404, body = ErrorBody)))]
async fn list_course_payments(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<PaymentList>> {
    let viewer = auth.user.id;
    let data = state
        .db
        .read(move |conn| {
            let course = course_rows::find(conn, id)?
                .filter(|c| c.deleted_at.is_none())
                .ok_or_else(|| AppError::not_found("course_not_found", "Course not found"))?;
            rows::of_course(conn, course.id, viewer)?.into_iter().map(|p| json(conn, p)).collect::<ApiResult<Vec<_>>>()
        })
        .await?;
    Ok(Json(PaymentList { success: true, data }))
}

/// Where a refund stands.
#[derive(Serialize, ToSchema)]
struct RefundJson {
    id: String,
    /// pending, succeeded or failed.
    status: PaymentStatus,
    amount_cents: i64,
    currency: String,
    failure_reason: Option<String>,
    created_at: String,
    updated_at: String,
}

impl From<RefundRow> for RefundJson {
    fn from(r: RefundRow) -> Self {
        RefundJson {
            id: r.uid,
            status: r.status,
            amount_cents: r.amount_cents,
            currency: r.currency,
            failure_reason: r.failure_reason,
            created_at: r.created_at,
            updated_at: r.updated_at,
        }
    }
}

/// One paid enrolment.
#[derive(Serialize, ToSchema)]
struct PurchaseJson {
    /// The payment's id (what `POST /admin/payments/{id}/refund` takes).
    payment_id: String,
    learner_id: i64,
    learner_name: String,
    learner_email: Option<String>,
    amount_cents: i64,
    currency: String,
    /// The operator as people know it ("MTN MoMo").
    operator: String,
    paid_at: String,
    /// Until when it can be refunded.
    refundable_until: String,
    /// Its latest refund, if any.
    refund: Option<RefundJson>,
}

impl From<Purchase> for PurchaseJson {
    fn from(p: Purchase) -> Self {
        let refundable_until = crate::platform::clock::parse(&p.paid_at)
            .map(|at| crate::platform::clock::format(at + REFUND_WINDOW))
            .unwrap_or_default();
        PurchaseJson {
            payment_id: p.payment_uid,
            learner_id: p.learner_id,
            learner_name: p.learner_name,
            learner_email: p.learner_email,
            amount_cents: p.amount_cents,
            currency: p.currency,
            operator: crate::model::payment::operator_name(&p.operator).to_owned(),
            paid_at: p.paid_at,
            refundable_until,
            refund: p.refund.map(RefundJson::from),
        }
    }
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct PageQuery {
    page: Option<i64>,
    per_page: Option<i64>,
}

#[derive(Serialize, ToSchema)]
struct PurchaseList {
    success: bool,
    data: Vec<PurchaseJson>,
    total: i64,
    page: i64,
    per_page: i64,
}

/// A course's paid enrolments, newest first, with their refunds (admins).
#[utoipa::path(get, path = "/admin/courses/{id}/purchases", tag = "training", security(("bearer" = [])),
    params(("id" = i64, Path), PageQuery),
    responses((status = 200, body = PurchaseList), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn purchases(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(id): Path<i64>,
    Query(query): Query<PageQuery>,
) -> ApiResult<Json<PurchaseList>> {
    let (page, per_page) = crate::api::catalogue_page(query.page, query.per_page);
    let (data, total) = state
        .db
        .read(move |conn| {
            course_rows::find(conn, id)?.ok_or_else(|| AppError::not_found("course_not_found", "Course not found"))?;
            Ok(refunds::purchases(conn, id, per_page, (page - 1) * per_page)?)
        })
        .await?;
    let data = data.into_iter().map(PurchaseJson::from).collect();
    Ok(Json(PurchaseList { success: true, data, total, page, per_page }))
}

#[derive(Serialize, ToSchema)]
struct RefundResponse {
    success: bool,
    data: RefundJson,
}

/// Give a learner their money back for a course, within 30 days of paying
/// (admins). The money goes back to the number that paid; when the provider
/// confirms, the enrolment ends (its lessons close; progress and any
/// certificate stay). A refund under way is answered again (200); a failed
/// one may be tried again.
#[utoipa::path(post, path = "/admin/payments/{id}/refund", tag = "training", security(("bearer" = [])),
    params(("id" = String, Path, description = "The payment's id")),
    responses(
        (status = 201, body = RefundResponse), (status = 200, description = "A refund already under way", body = RefundResponse),
        (status = 403, body = ErrorBody), (status = 404, description = "payment_not_found", body = ErrorBody),
        (status = 409, description = "not_refundable, already_refunded, refund_window_over", body = ErrorBody),
    ))]
async fn refund(
    State(state): State<AppState>,
    AdminUser(auth): AdminUser,
    Path(id): Path<String>,
) -> ApiResult<(StatusCode, Json<RefundResponse>)> {
    let admin = auth.user.clone();
    // The path names the payment by its uid: the provider's id for it.
    let payment_uid = id.clone();
    let (row, created) = state.db.write(move |tx| payments::begin_refund(tx, &admin, &id)).await?;
    let uid = row.uid.clone();
    if created {
        let request = Refund { uid: uid.clone(), payment_uid, amount_cents: row.amount_cents, currency: row.currency };
        let outcome = state.payments.refund(&request).await;
        if outcome != Outcome::Unknown {
            let settling = uid.clone();
            state.db.write(move |tx| payments::settle_refund(tx, &settling, &outcome)).await?;
        }
    }
    let data = state
        .db
        .read(move |conn| refunds::find_by_uid(conn, &uid)?.ok_or_else(|| AppError::internal("refund vanished")))
        .await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(RefundResponse { success: true, data: data.into() })))
}
