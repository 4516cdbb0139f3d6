//! Paying an order by mobile money (docs/payments.md):
//! `POST /orders/{id}/payments` starts it (a tap on "Pay now", online),
//! `GET /orders/{id}/payments` follows it, the providers' callbacks arrive at
//! `POST /payments/callbacks/{provider}`, and in the demo an admin answers
//! the simulator's prompts (`GET /admin/payments/prompts`,
//! `POST /admin/payments/prompts/{payment_id}`). Paying for a course and
//! its refunds: `courses.rs`.

mod courses;

use axum::Json;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::extract::{ApiJson, ClientIp};
use crate::auth::{AdminUser, AuthUser};
use crate::db::payments::{self as rows, PaymentRow};
use crate::domain::orders::{self, OrderRef};
use crate::domain::payments::{self, Outcome};
use crate::domain::settings;
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::model::payment::{PaymentStatus, operators, prefixes};
use crate::model::user::Country;
use crate::outbound::providers::Collection;
use crate::platform::clock;
use crate::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(start_payment, list_payments))
        .routes(routes!(callback))
        .routes(routes!(prompts))
        .routes(routes!(list_operators))
        .routes(routes!(answer_prompt))
        .merge(courses::routes())
}

/// One step of a payment's history.
#[derive(Serialize, ToSchema)]
pub struct PaymentEventJson {
    status: PaymentStatus,
    /// start, callback, check or expiry.
    source: String,
    note: Option<String>,
    at: String,
}

#[derive(Serialize, ToSchema)]
pub struct PaymentJson {
    /// Our payment id, the provider's idempotency key.
    id: String,
    /// What is paid for: an order or a course.
    order_id: Option<i64>,
    course_id: Option<i64>,
    provider: String,
    /// Taken by the built-in simulator: no real money moved (docs/payments.md).
    simulated: bool,
    /// The provider's name of the operator (MTN_MOMO_RWA) and the brand people know (MTN MoMo).
    operator: String,
    operator_name: String,
    phone: String,
    amount_cents: i64,
    currency: String,
    status: PaymentStatus,
    failure_reason: Option<String>,
    expires_at: String,
    created_at: String,
    events: Vec<PaymentEventJson>,
}

fn json(conn: &crate::db::Connection, p: PaymentRow) -> ApiResult<PaymentJson> {
    let events = rows::events(conn, p.id)?
        .into_iter()
        .map(|e| PaymentEventJson { status: e.status, source: e.source, note: e.note, at: e.at })
        .collect();
    Ok(PaymentJson {
        id: p.uid,
        order_id: p.order_id,
        course_id: p.course_id,
        simulated: p.provider == crate::outbound::providers::simulator::NAME,
        provider: p.provider,
        operator_name: crate::model::payment::operator_name(&p.operator).to_owned(),
        operator: p.operator,
        phone: p.phone,
        amount_cents: p.amount_cents,
        currency: p.currency,
        status: p.status,
        failure_reason: p.failure_reason,
        expires_at: p.expires_at,
        created_at: p.created_at,
        events,
    })
}

#[derive(Deserialize, ToSchema)]
struct PayRequest {
    /// The mobile-money operator, e.g. VODACOM_MPESA_COD (the order's country's).
    operator: String,
    /// The number that pays, with its country code.
    phone: String,
}

#[derive(Serialize, ToSchema)]
struct PaymentResponse {
    success: bool,
    data: PaymentJson,
}

#[derive(Serialize, ToSchema)]
struct PaymentList {
    success: bool,
    data: Vec<PaymentJson>,
}

/// Pay an order by mobile money: the payer's phone shows a prompt; the
/// answer arrives by callback (or the server's own status checks). A payment
/// already under way is answered instead of a second one. A timeout with
/// the provider leaves the payment pending, never failed.
#[utoipa::path(post, path = "/orders/{id}/payments", tag = "payments", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = PayRequest,
    responses(
        (status = 201, body = PaymentResponse), (status = 200, description = "A payment already under way", body = PaymentResponse),
        (status = 404, body = ErrorBody), (status = 409, description = "not_mobile_money, already_paid, order_cancelled", body = ErrorBody),
        (status = 422, description = "operator_invalid, phone_invalid, phone_other_country", body = ErrorBody),
    ))]
async fn start_payment(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<PayRequest>,
) -> ApiResult<(StatusCode, Json<PaymentResponse>)> {
    let buyer = auth.user.clone();
    let provider = state.payments.name();
    let (payment, created) =
        state.db.write(move |tx| payments::begin(tx, &buyer, id, &request.operator, &request.phone, provider)).await?;
    ask_provider(&state, payment, created).await
}

/// Asks the provider for a payment just written (`created`), and answers it
/// as it then stands: 201, or 200 for one that was already under way.
async fn ask_provider(
    state: &AppState,
    payment: PaymentRow,
    created: bool,
) -> ApiResult<(StatusCode, Json<PaymentResponse>)> {
    let uid = payment.uid.clone();
    if created {
        let collection = Collection {
            uid: payment.uid.clone(),
            amount_cents: payment.amount_cents,
            currency: payment.currency.clone(),
            operator: payment.operator.clone(),
            phone: payment.phone.clone(),
        };
        let outcome = match state.payments.start(&collection).await {
            // Not knowing is not failing: the provider may have it; checks will tell.
            Outcome::Unknown => Outcome::Pending { provider_ref: None },
            known => known,
        };
        let (settling, reached) = (uid.clone(), outcome.state());
        let (_, moved) = state.db.write(move |tx| payments::settle(tx, &settling, &outcome, "start")).await?;
        if moved {
            state.db.metrics().payment_moved(state.payments.name(), reached);
        }
    }
    let data = state
        .db
        .read(move |conn| {
            let row = rows::find_by_uid(conn, &uid)?.ok_or_else(|| AppError::internal("payment vanished"))?;
            json(conn, row)
        })
        .await?;
    let status = if created { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(PaymentResponse { success: true, data })))
}

/// An order's payments, oldest first, with their history (its buyer and admins).
#[utoipa::path(get, path = "/orders/{id}/payments", tag = "payments", security(("bearer" = [])),
    params(("id" = i64, Path)), responses((status = 200, body = PaymentList), (status = 404, body = ErrorBody)))]
async fn list_payments(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
) -> ApiResult<Json<PaymentList>> {
    let viewer = auth.user.clone();
    let data = state
        .db
        .read(move |conn| {
            let order = orders::visible(conn, &viewer, OrderRef::Id(id))?;
            if order.buyer_id != viewer.id && !viewer.role.is_admin() {
                return Err(AppError::not_found("order_not_found", "Order not found"));
            }
            rows::of_order(conn, order.id)?.into_iter().map(|p| json(conn, p)).collect::<ApiResult<Vec<_>>>()
        })
        .await?;
    Ok(Json(PaymentList { success: true, data }))
}

/// A provider's callback: verified (the simulator checks its signature; pawaPay is
/// asked how the deposit stands), applied only when it moves the payment forward,
/// and its first 2 KB kept. A repeat about a payment already settled is answered
/// without asking the provider; checks are throttled per address and per payment
/// before anyone is asked (docs/security.md).
#[utoipa::path(post, path = "/payments/callbacks/{provider}", tag = "payments",
    params(("provider" = String, Path)),
    responses((status = 200, description = "Taken (applied or a duplicate)"), (status = 400, body = ErrorBody),
              (status = 401, body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 429, description = "too_many_callbacks", body = ErrorBody)))]
async fn callback(
    State(state): State<AppState>,
    ClientIp(from): ClientIp,
    Path(provider): Path<String>,
    headers: HeaderMap,
    body: Bytes,
) -> ApiResult<Json<serde_json::Value>> {
    if provider != state.payments.name() {
        return Err(AppError::not_found("not_found", "No such payment provider"));
    }
    let name = state.payments.name();
    // Whatever arrives, at most its start is kept (docs/security.md, Disk).
    let start: String = String::from_utf8_lossy(&body).chars().take(MAX_CALLBACK_CHARS).collect();
    let claimed = state.payments.claimed(&body).map(|id| id.chars().take(64).collect::<String>());
    let throttled =
        |wait| AppError::too_many_requests("too_many_callbacks", "Too many callbacks; try again later", wait);
    state.throttles.callback_checks.reserve(&[&format!("ip:{from}")]).await?.map_err(throttled)?;
    if let Some(uid) = claimed.clone() {
        state.throttles.callback_payment.reserve(&[&uid]).await?.map_err(throttled)?;
        let settled =
            state.db.read(move |conn| Ok(rows::find_by_uid(conn, &uid)?.is_some_and(|p| p.status.is_final()))).await?;
        if settled {
            return Ok(Json(serde_json::json!({ "success": true, "effect": "duplicate" })));
        }
    }
    match state.payments.callback(&headers, &body).await {
        Ok((uid, outcome)) => {
            let reached = outcome.state();
            let effect = state
                .db
                .write(move |tx| {
                    let effect = match payments::settle(tx, &uid, &outcome, "callback") {
                        Ok((_, true)) => "applied",
                        Ok((_, false)) => "duplicate",
                        Err(AppError::Client { .. }) => "unknown_payment",
                        Err(other) => return Err(other),
                    };
                    rows::store_callback(tx, name, Some(&uid), &start, true, effect, &clock::now())?;
                    Ok(effect)
                })
                .await?;
            if effect == "applied" {
                state.db.metrics().payment_moved(name, reached);
            }
            Ok(Json(serde_json::json!({ "success": true, "effect": effect })))
        }
        Err(why) => {
            tracing::warn!(provider = name, %why, "payment callback refused");
            // Kept for an operator to look at, but anyone can send these: a few an hour from one address.
            if state.throttles.callbacks.reserve(&[&format!("ip:{from}")]).await?.is_ok() {
                state
                    .db
                    .write(move |tx| {
                        Ok(rows::store_callback(tx, name, None, &start, false, "unverified", &clock::now())?)
                    })
                    .await?;
            }
            Err(AppError::unauthorized("callback_unverified", "This callback could not be verified"))
        }
    }
}

/// How much of a callback is kept, verified or not.
const MAX_CALLBACK_CHARS: usize = 2048;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct OperatorQuery {
    /// A country code (DRC, BDI, RWA, UGA, TZA, KEN).
    #[param(value_type = crate::model::user::Country)]
    country: String,
}

#[derive(Serialize, ToSchema)]
struct OperatorJson {
    /// What `POST /orders/{id}/payments` takes.
    id: &'static str,
    /// The brand people know.
    name: &'static str,
    /// How the national numbers it gives out start (after the country code and the trunk
    /// 0), where the country's plan tells operators apart; empty where it cannot.
    prefixes: &'static [&'static str],
}

#[derive(Serialize, ToSchema)]
struct OperatorList {
    success: bool,
    data: Vec<OperatorJson>,
}

/// The mobile-money operators of a country, most used first.
#[utoipa::path(get, path = "/payments/operators", tag = "payments", params(OperatorQuery),
    responses((status = 200, body = OperatorList), (status = 422, body = ErrorBody)))]
async fn list_operators(
    State(state): State<AppState>,
    axum::extract::Query(query): axum::extract::Query<OperatorQuery>,
) -> ApiResult<Json<OperatorList>> {
    let Some(country) = Country::parse(query.country.trim()) else {
        return Err(AppError::invalid("country", "country_invalid", "Unknown country"));
    };
    // Those the settings offer there, most used first.
    let offered = state.db.read(move |conn| Ok(settings::payments_in(conn, country)?.operators)).await?;
    let data: Vec<OperatorJson> = operators(country)
        .iter()
        .filter(|(id, _)| offered.iter().any(|o| o == id))
        .map(|(id, name)| OperatorJson { id, name, prefixes: prefixes(id) })
        .collect();
    Ok(Json(OperatorList { success: true, data }))
}

/// The simulator's prompts nobody has answered (the demo: an admin plays the payer's phone).
#[utoipa::path(get, path = "/admin/payments/prompts", tag = "payments", security(("bearer" = [])),
    responses((status = 200, description = "{success, data: [{payment_id, phone, operator (as people know it), amount_cents, currency}]}"), (status = 403, body = ErrorBody)))]
async fn prompts(State(state): State<AppState>, _admin: AdminUser) -> ApiResult<Json<serde_json::Value>> {
    let mut waiting = state.payments.simulator().map(|s| s.waiting()).unwrap_or_default();
    for prompt in &mut waiting {
        prompt.operator = crate::model::payment::operator_name(&prompt.operator).to_owned();
    }
    Ok(Json(serde_json::json!({ "success": true, "data": waiting })))
}

#[derive(Deserialize, ToSchema)]
struct PromptAnswer {
    /// True to pay, false to refuse.
    approve: bool,
}

/// Answer a simulated prompt as the payer would; the callback follows.
#[utoipa::path(post, path = "/admin/payments/prompts/{payment_id}", tag = "payments", security(("bearer" = [])),
    params(("payment_id" = String, Path)), request_body = PromptAnswer,
    responses((status = 200, description = "Answered"), (status = 403, body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn answer_prompt(
    State(state): State<AppState>,
    _admin: AdminUser,
    Path(payment_id): Path<String>,
    ApiJson(answer): ApiJson<PromptAnswer>,
) -> ApiResult<Json<serde_json::Value>> {
    let answered = match state.payments.simulator() {
        Some(simulator) => simulator.answer(&payment_id, answer.approve).await,
        None => false,
    };
    if !answered {
        return Err(AppError::not_found("prompt_not_found", "No waiting prompt for this payment"));
    }
    Ok(Json(serde_json::json!({ "success": true })))
}
