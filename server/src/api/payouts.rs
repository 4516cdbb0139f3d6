//! A cooperative's money (docs/cooperatives.md, Payouts): its managers see what its
//! lots brought and each member's account (shares, paid, being paid, owed), pay a
//! member by mobile money or in cash (confirmed by the member's SMS code), and export
//! the accounts; a member sees their own accounts and payouts.

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
use crate::auth::AuthUser;
use crate::db::payouts::{Account, PayoutRow};
use crate::domain::cooperatives::payouts::{self, PayoutInput};
use crate::domain::payments::Outcome;
use crate::error::{ApiResult, ErrorBody};
use crate::model::decimal_amount;
use crate::outbound::providers::Payout;
use crate::platform::csv::Csv;
use crate::state::AppState;

/// The newest payouts listed.
const LISTED: i64 = 200;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, pay))
        .routes(routes!(confirm))
        .routes(routes!(cancel))
        .routes(routes!(accounts))
        .routes(routes!(export))
        .routes(routes!(mine))
}

#[derive(Serialize, ToSchema)]
struct PayoutJson {
    id: i64,
    uid: String,
    cooperative_id: i64,
    cooperative_name: String,
    member_id: i64,
    member_name: String,
    amount_cents: i64,
    currency: String,
    /// mobile_money or cash.
    method: String,
    operator: Option<String>,
    /// pending, paid or failed.
    status: String,
    failure_reason: Option<String>,
    created_at: String,
    paid_at: Option<String>,
}

impl From<PayoutRow> for PayoutJson {
    fn from(p: PayoutRow) -> Self {
        PayoutJson {
            id: p.id,
            uid: p.uid,
            cooperative_id: p.cooperative_id,
            cooperative_name: p.cooperative_name,
            member_id: p.member_id,
            member_name: p.member_name,
            amount_cents: p.amount_cents,
            currency: p.currency,
            method: p.method,
            operator: p.operator,
            status: p.status,
            failure_reason: p.failure_reason,
            created_at: p.created_at,
            paid_at: p.paid_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
struct PayoutResponse {
    success: bool,
    data: PayoutJson,
}

#[derive(Serialize, ToSchema)]
struct PayoutList {
    success: bool,
    data: Vec<PayoutJson>,
}

/// A cooperative's payouts, newest first (managers and admins).
#[utoipa::path(get, path = "/cooperatives/{id}/payouts", operation_id = "list_payouts", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = PayoutList), (status = 403, description = "managers_only", body = ErrorBody),
              (status = 404, body = ErrorBody)))]
async fn list(State(state): State<AppState>, auth: AuthUser, Path(id): Path<i64>) -> ApiResult<Json<PayoutList>> {
    let found = state
        .db
        .read(move |conn| {
            crate::domain::cooperatives::must_manage(conn, &auth.user, id, true)?;
            Ok(crate::db::payouts::of_cooperative(conn, id, LISTED)?)
        })
        .await?;
    Ok(Json(PayoutList { success: true, data: found.into_iter().map(Into::into).collect() }))
}

#[derive(Deserialize, ToSchema)]
struct PayoutRequest {
    /// Made by the client: the same uid again answers the payout made first.
    uid: String,
    member_id: i64,
    /// Cents; everything owed when not given.
    amount_cents: Option<i64>,
    /// mobile_money or cash.
    method: String,
    /// Mobile money: the operator and the wallet's number (the member's own when not given).
    operator: Option<String>,
    phone: Option<String>,
}

/// A manager pays a member what they are owed (or part of it): by mobile money through
/// the payment provider, or in cash (the member receives a code by SMS to give back).
#[utoipa::path(post, path = "/cooperatives/{id}/payouts", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)), request_body = PayoutRequest,
    responses((status = 201, body = PayoutResponse), (status = 200, description = "made already with this uid", body = PayoutResponse),
              (status = 403, description = "managers_only", body = ErrorBody), (status = 404, body = ErrorBody),
              (status = 409, description = "nothing_owed, phone_required", body = ErrorBody),
              (status = 422, description = "more_than_owed and others", body = ErrorBody)))]
async fn pay(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    ApiJson(request): ApiJson<PayoutRequest>,
) -> ApiResult<(StatusCode, Json<PayoutResponse>)> {
    let (row, made) = state
        .db
        .write(move |tx| {
            let input = PayoutInput {
                uid: &request.uid,
                member_id: request.member_id,
                amount_cents: request.amount_cents,
                method: &request.method,
                operator: request.operator.as_deref(),
                phone: request.phone.as_deref(),
            };
            payouts::begin(tx, &auth.user, id, &input)
        })
        .await?;
    let uid = row.uid.clone();
    if made && row.method == "mobile_money" {
        let payout = Payout {
            uid: uid.clone(),
            amount_cents: row.amount_cents,
            currency: row.currency.clone(),
            operator: row.operator.clone().unwrap_or_default(),
            phone: row.phone.clone().unwrap_or_default(),
        };
        let outcome = state.payments.payout(&payout).await;
        if outcome != Outcome::Unknown {
            let (settling, paid) = (uid.clone(), matches!(outcome, Outcome::Succeeded { .. }));
            let (_, moved) = state.db.write(move |tx| payouts::settle(tx, &settling, &outcome)).await?;
            if moved {
                state.db.metrics().payout_moved(paid);
            }
        }
    }
    let data =
        state.db.read(move |conn| crate::db::payouts::by_uid(conn, &uid)?.ok_or_else(payouts::not_found)).await?;
    let status = if made { StatusCode::CREATED } else { StatusCode::OK };
    Ok((status, Json(PayoutResponse { success: true, data: data.into() })))
}

#[derive(Deserialize, ToSchema)]
struct CodeRequest {
    /// The code the member received by SMS.
    code: String,
}

/// The member's code confirms a cash payout (they have the money). Five wrong codes
/// lock it: cancel it and pay again.
#[utoipa::path(post, path = "/cooperatives/{id}/payouts/{payout_id}/confirm", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path), ("payout_id" = i64, Path)), request_body = CodeRequest,
    responses((status = 200, body = PayoutResponse), (status = 403, description = "managers_only", body = ErrorBody),
              (status = 404, description = "payout_not_found", body = ErrorBody),
              (status = 409, description = "not_pending, code_locked", body = ErrorBody),
              (status = 422, description = "payout_code_wrong", body = ErrorBody)))]
async fn confirm(
    State(state): State<AppState>,
    auth: AuthUser,
    Path((id, payout_id)): Path<(i64, i64)>,
    ApiJson(request): ApiJson<CodeRequest>,
) -> ApiResult<Json<PayoutResponse>> {
    let confirmed =
        state.db.write(move |tx| payouts::confirm_cash(tx, &auth.user, id, payout_id, &request.code)).await??;
    state.db.metrics().payout_moved(true);
    Ok(Json(PayoutResponse { success: true, data: confirmed.into() }))
}

/// A cash payout the member did not receive is cancelled (it counts for nothing).
#[utoipa::path(post, path = "/cooperatives/{id}/payouts/{payout_id}/cancel", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path), ("payout_id" = i64, Path)),
    responses((status = 200, body = PayoutResponse), (status = 403, description = "managers_only", body = ErrorBody),
              (status = 404, description = "payout_not_found", body = ErrorBody),
              (status = 409, description = "not_pending", body = ErrorBody)))]
async fn cancel(
    State(state): State<AppState>,
    auth: AuthUser,
    Path((id, payout_id)): Path<(i64, i64)>,
) -> ApiResult<Json<PayoutResponse>> {
    let cancelled = state.db.write(move |tx| payouts::cancel(tx, &auth.user, id, payout_id)).await?;
    Ok(Json(PayoutResponse { success: true, data: cancelled.into() }))
}

#[derive(Serialize, ToSchema)]
struct AccountJson {
    member_id: i64,
    member_name: String,
    /// Their shares of the lots' sales.
    shares_cents: i64,
    paid_cents: i64,
    /// Being paid (a mobile-money payout not settled, a cash one waiting for its code).
    pending_cents: i64,
    owed_cents: i64,
}

impl From<Account> for AccountJson {
    fn from(a: Account) -> Self {
        AccountJson {
            owed_cents: a.owed_cents(),
            member_id: a.member_id,
            member_name: a.member_name,
            shares_cents: a.shares_cents,
            paid_cents: a.paid_cents,
            pending_cents: a.pending_cents,
        }
    }
}

#[derive(Serialize, ToSchema)]
struct BooksJson {
    success: bool,
    currency: &'static str,
    /// What buyers paid for the lots' delivered orders.
    sales_cents: i64,
    platform_fees_cents: i64,
    /// Shared between the members.
    shared_cents: i64,
    /// The cooperative's own fees.
    kept_cents: i64,
    /// Every member's account (removed members too), by name.
    data: Vec<AccountJson>,
}

/// What the cooperative's lots brought, and what each member is owed and was paid
/// (managers and admins).
#[utoipa::path(get, path = "/cooperatives/{id}/accounts", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path)),
    responses((status = 200, body = BooksJson), (status = 403, description = "managers_only", body = ErrorBody),
              (status = 404, body = ErrorBody)))]
async fn accounts(State(state): State<AppState>, auth: AuthUser, Path(id): Path<i64>) -> ApiResult<Json<BooksJson>> {
    let books = state.db.read(move |conn| payouts::books(conn, &auth.user, id)).await?;
    Ok(Json(BooksJson {
        success: true,
        currency: payouts::CURRENCY,
        kept_cents: books.sales_cents - books.platform_fees_cents - books.shared_cents,
        sales_cents: books.sales_cents,
        platform_fees_cents: books.platform_fees_cents,
        shared_cents: books.shared_cents,
        data: books.accounts.into_iter().map(Into::into).collect(),
    }))
}

#[derive(Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
struct LangQuery {
    /// The language of the column names: en, fr or sw.
    #[param(value_type = Option<String>, schema_with = crate::api::document::languages)]
    lang: Option<String>,
}

/// The members' accounts as a spreadsheet (managers and admins).
#[utoipa::path(get, path = "/cooperatives/{id}/accounts/export", operation_id = "export_accounts", tag = "cooperatives", security(("bearer" = [])),
    params(("id" = i64, Path), LangQuery),
    responses((status = 200, content_type = "text/csv", body = String),
              (status = 403, description = "managers_only", body = ErrorBody), (status = 404, body = ErrorBody)))]
async fn export(
    State(state): State<AppState>,
    auth: AuthUser,
    Path(id): Path<i64>,
    Query(query): Query<LangQuery>,
) -> ApiResult<impl IntoResponse> {
    let lang = super::export_lang(query.lang.as_deref())?;
    let books = state.db.read(move |conn| payouts::books(conn, &auth.user, id)).await?;
    let mut csv = Csv::new();
    csv.row(ACCOUNT_COLUMNS.iter().map(|key| lang.text(&format!("cooperative.account_columns.{key}"))));
    for a in &books.accounts {
        csv.row([
            a.member_name.clone(),
            decimal_amount(a.shares_cents),
            decimal_amount(a.paid_cents),
            decimal_amount(a.pending_cents),
            decimal_amount(a.owed_cents()),
            payouts::CURRENCY.to_owned(),
        ]);
    }
    Ok(csv_download("accounts", csv))
}

/// The accounts export's columns (`cooperative.account_columns.<key>`).
const ACCOUNT_COLUMNS: [&str; 6] = ["member", "shares", "paid", "pending", "owed", "currency"];

#[derive(Serialize, ToSchema)]
struct MyAccountJson {
    cooperative_id: i64,
    cooperative_name: String,
    shares_cents: i64,
    paid_cents: i64,
    pending_cents: i64,
    owed_cents: i64,
}

#[derive(Serialize, ToSchema)]
struct MinePayouts {
    success: bool,
    currency: &'static str,
    /// With each cooperative the person belongs or belonged to.
    accounts: Vec<MyAccountJson>,
    /// Their payouts, newest first.
    data: Vec<PayoutJson>,
}

/// The signed-in member's accounts with their cooperatives and their payouts.
#[utoipa::path(get, path = "/me/payouts", operation_id = "my_payouts", tag = "cooperatives", security(("bearer" = [])),
    responses((status = 200, body = MinePayouts), (status = 401, body = ErrorBody)))]
async fn mine(State(state): State<AppState>, auth: AuthUser) -> ApiResult<Json<MinePayouts>> {
    let (accounts, found) = state
        .db
        .read(move |conn| {
            Ok((payouts::my_accounts(conn, &auth.user)?, crate::db::payouts::of_member(conn, auth.user.id, LISTED)?))
        })
        .await?;
    Ok(Json(MinePayouts {
        success: true,
        currency: payouts::CURRENCY,
        accounts: accounts
            .into_iter()
            .map(|(cooperative_id, cooperative_name, a)| MyAccountJson {
                cooperative_id,
                cooperative_name,
                owed_cents: a.owed_cents(),
                shares_cents: a.shares_cents,
                paid_cents: a.paid_cents,
                pending_cents: a.pending_cents,
            })
            .collect(),
        data: found.into_iter().map(Into::into).collect(),
    }))
}
