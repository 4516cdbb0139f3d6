//! Paying members their shares (docs/cooperatives.md, Payouts). A member is owed their
//! shares of the cooperative's lots' sales less what was paid or is being paid; a
//! manager pays by mobile money (the payment provider's payout call, our uid its
//! idempotency key, settled by its answer or by status checks) or in cash (the member
//! gets a code by SMS and gives it to the manager once the money is in their hand).
//! A payout is never made twice: its uid makes a retried request the same payout, and
//! what is being paid already is not owed any more, in one write transaction.

use sha2::{Digest, Sha256};

use crate::db::Connection;
use crate::db::cooperatives as coop_rows;
use crate::db::payouts::{self as rows, Account, NewPayout, PayoutRow};
use crate::db::users::{self, UserRow};
use crate::domain::made_once;
use crate::domain::payments::Outcome;
use crate::error::{ApiResult, AppError};
use crate::model::cooperative::MemberStatus;
use crate::model::user::Country;
use crate::platform::{clock, gsm7};

/// Shares are in the orders' currency.
pub const CURRENCY: &str = "USD";
/// Wrong codes before a cash payout can only be cancelled (and made again).
pub const MAX_CODE_ATTEMPTS: i64 = 5;

pub fn not_found() -> AppError {
    AppError::not_found("payout_not_found", "This payout does not exist")
}

/// What a manager sends to pay a member.
pub struct PayoutInput<'a> {
    /// Made by the client: the same uid again answers the payout made first.
    pub uid: &'a str,
    pub member_id: i64,
    /// Cents; everything owed when not given.
    pub amount_cents: Option<i64>,
    /// `mobile_money` or `cash`.
    pub method: &'a str,
    /// Mobile money: the operator (GET /settings, payments) and the wallet's number
    /// (the member's own when not given).
    pub operator: Option<&'a str>,
    pub phone: Option<&'a str>,
}

fn code_hash(uid: &str, code: &str) -> String {
    hex::encode(Sha256::digest(format!("payout:{uid}:{code}").as_bytes()))
}

fn money(lang: crate::labels::Lang, cents: i64) -> String {
    format!("{} {CURRENCY}", lang.amount(cents))
}

/// Starts paying a member (or answers the payout made with this uid already). The
/// caller asks the provider for a mobile-money payout after the transaction commits.
pub fn begin(
    conn: &Connection,
    manager: &UserRow,
    cooperative_id: i64,
    input: &PayoutInput<'_>,
) -> ApiResult<(PayoutRow, bool)> {
    let cooperative = super::must_manage(conn, manager, cooperative_id, false)?;
    let uid = input.uid.trim().to_lowercase();
    if !crate::domain::is_uuid(&uid) {
        return Err(AppError::bad_request("invalid_uid", "uid must be a UUID"));
    }
    let known = rows::by_uid(conn, &uid)?;
    if let Some(known) = made_once(known, |k| k.cooperative_id == cooperative.id, "This uid names another payout")? {
        return Ok((known, false));
    }
    let member = users::find(conn, input.member_id)?;
    let membership = coop_rows::membership(conn, cooperative.id, input.member_id)?;
    let (Some(member), Some(_)) = (member, membership.filter(|m| m.status != MemberStatus::Asked)) else {
        return Err(AppError::invalid("member_id", "not_a_member", "This person is not a member of the cooperative"));
    };
    let owed = rows::account_of(conn, cooperative.id, member.id)?.map_or(0, |a| a.owed_cents());
    if owed <= 0 {
        return Err(AppError::conflict("nothing_owed", "Nothing is owed to this member"));
    }
    let amount = input.amount_cents.unwrap_or(owed);
    if amount < 1 || amount > owed {
        return Err(AppError::invalid("amount", "more_than_owed", "Pay at least a cent and no more than is owed"));
    }
    let now = clock::now();
    let lang = crate::domain::sms::lang_of(conn, &member)?;
    let coop = gsm7::cut(&cooperative.name, super::deliveries::COOP_SMS_CHARS);
    match input.method.trim() {
        "mobile_money" => {
            let operator = input.operator.map(str::trim).unwrap_or_default();
            let mut country = None;
            for candidate in Country::ALL.iter() {
                if crate::domain::settings::payments_in(conn, *candidate)?.operators.iter().any(|id| id == operator) {
                    country = Some(*candidate);
                    break;
                }
            }
            let Some(country) = country else {
                return Err(AppError::invalid(
                    "operator",
                    "operator_invalid",
                    "Choose the member's mobile money operator",
                ));
            };
            let phone = input.phone.or(member.phone_number.as_deref()).unwrap_or_default();
            let wallet = crate::domain::payments::payer_number(phone, country, operator)?;
            let next = crate::domain::payments::next_check(&now, 0);
            let id = rows::insert(
                conn,
                &NewPayout {
                    uid: &uid,
                    cooperative_id: cooperative.id,
                    member_id: member.id,
                    amount_cents: amount,
                    currency: CURRENCY,
                    method: "mobile_money",
                    operator: Some(operator),
                    phone: Some(&wallet),
                    code_hash: None,
                    next_check_at: Some(&next),
                    created_by: manager.id,
                },
                &now,
            )?;
            Ok((rows::find(conn, id)?.ok_or_else(not_found)?, true))
        }
        "cash" => {
            if member.phone_number.is_none() {
                return Err(AppError::conflict(
                    "phone_required",
                    "The member has no phone number to receive the confirmation code",
                ));
            }
            let code = format!("{:06}", u128::from_le_bytes(*uuid::Uuid::new_v4().as_bytes()) % 1_000_000);
            let hash = code_hash(&uid, &code);
            let id = rows::insert(
                conn,
                &NewPayout {
                    uid: &uid,
                    cooperative_id: cooperative.id,
                    member_id: member.id,
                    amount_cents: amount,
                    currency: CURRENCY,
                    method: "cash",
                    operator: None,
                    phone: None,
                    code_hash: Some(&hash),
                    next_check_at: None,
                    created_by: manager.id,
                },
                &now,
            )?;
            let amount = money(lang, amount);
            crate::domain::sms::send(
                conn,
                &member,
                "coop_cash_code",
                &[("coop", &coop), ("amount", &amount), ("code", &code)],
            )?;
            Ok((rows::find(conn, id)?.ok_or_else(not_found)?, true))
        }
        _ => Err(AppError::invalid("method", "invalid_option", "The method is mobile_money or cash")),
    }
}

/// A payout of a cooperative `manager` manages.
fn managed(conn: &Connection, manager: &UserRow, cooperative_id: i64, id: i64) -> ApiResult<PayoutRow> {
    super::must_manage(conn, manager, cooperative_id, false)?;
    rows::find(conn, id)?.filter(|p| p.cooperative_id == cooperative_id).ok_or_else(not_found)
}

/// The member's code confirms a cash payout: it is paid. A wrong code counts against the
/// payout (the outer result is the database's, so the count commits with the refusal);
/// after `MAX_CODE_ATTEMPTS` the payout can only be cancelled.
pub fn confirm_cash(
    conn: &Connection,
    manager: &UserRow,
    cooperative_id: i64,
    id: i64,
    code: &str,
) -> ApiResult<Result<PayoutRow, AppError>> {
    let payout = managed(conn, manager, cooperative_id, id)?;
    if payout.method != "cash" || payout.status != "pending" {
        return Ok(Err(AppError::conflict("not_pending", "This payout is not a cash payout waiting for its code")));
    }
    if payout.code_attempts >= MAX_CODE_ATTEMPTS {
        return Ok(Err(AppError::conflict("code_locked", "Too many wrong codes: cancel this payout and pay again")));
    }
    let now = clock::now();
    if payout.code_hash.as_deref() != Some(code_hash(&payout.uid, code.trim()).as_str()) {
        rows::count_attempt(conn, payout.id, &now)?;
        return Ok(Err(AppError::invalid("code", "payout_code_wrong", "This is not the code the member received")));
    }
    rows::settle(conn, payout.id, true, None, &now)?;
    paid_receipt(conn, &payout)?;
    Ok(Ok(rows::find(conn, id)?.ok_or_else(not_found)?))
}

/// A cash payout the member did not receive is cancelled: it counts for nothing.
/// A mobile-money payout cannot be: the money may be on its way.
pub fn cancel(conn: &Connection, manager: &UserRow, cooperative_id: i64, id: i64) -> ApiResult<PayoutRow> {
    let payout = managed(conn, manager, cooperative_id, id)?;
    if payout.method != "cash" || payout.status != "pending" {
        return Err(AppError::conflict("not_pending", "Only a cash payout waiting for its code can be cancelled"));
    }
    rows::settle(conn, payout.id, false, Some("cancelled"), &clock::now())?;
    rows::find(conn, id)?.ok_or_else(not_found)
}

fn paid_receipt(conn: &Connection, payout: &PayoutRow) -> ApiResult<()> {
    let Some(member) = users::find(conn, payout.member_id)? else { return Ok(()) };
    let lang = crate::domain::sms::lang_of(conn, &member)?;
    let coop = gsm7::cut(&payout.cooperative_name, super::deliveries::COOP_SMS_CHARS);
    let owed = rows::account_of(conn, payout.cooperative_id, payout.member_id)?.map_or(0, |a| a.owed_cents());
    let (amount, owed) = (money(lang, payout.amount_cents), money(lang, owed));
    crate::domain::sms::send(conn, &member, "coop_paid", &[("coop", &coop), ("amount", &amount), ("owed", &owed)])
}

/// The provider's answer about a mobile-money payout: paid or failed, once; anything
/// else changes nothing (the status checks go on).
pub fn settle(conn: &Connection, uid: &str, outcome: &Outcome) -> ApiResult<(PayoutRow, bool)> {
    let payout = rows::by_uid(conn, uid)?.ok_or_else(not_found)?;
    let (paid, reason) = match outcome {
        Outcome::Succeeded { .. } => (true, None),
        Outcome::Failed { reason } => (false, Some(reason.as_str())),
        Outcome::Pending { .. } | Outcome::Unknown | Outcome::Expired => return Ok((payout, false)),
    };
    if !rows::settle(conn, payout.id, paid, reason, &clock::now())? {
        return Ok((payout, false));
    }
    if paid {
        paid_receipt(conn, &payout)?;
    }
    Ok((rows::by_uid(conn, uid)?.ok_or_else(not_found)?, true))
}

/// A status check settled nothing: ask again later (15 s, 30 s, ... up to 5 minutes).
pub fn after_check(conn: &Connection, payout: &PayoutRow) -> ApiResult<()> {
    rows::schedule_check(conn, payout.id, &crate::domain::payments::next_check(&clock::now(), payout.checks + 1))?;
    Ok(())
}

/// A cooperative's money: what its lots brought, and each member's account.
pub struct Books {
    pub sales_cents: i64,
    pub platform_fees_cents: i64,
    pub shared_cents: i64,
    pub accounts: Vec<Account>,
}

pub fn books(conn: &Connection, viewer: &UserRow, cooperative_id: i64) -> ApiResult<Books> {
    super::must_manage(conn, viewer, cooperative_id, true)?;
    let (sales_cents, platform_fees_cents, shared_cents) = rows::sales(conn, cooperative_id)?;
    Ok(Books { sales_cents, platform_fees_cents, shared_cents, accounts: rows::accounts(conn, cooperative_id)? })
}

/// A member's accounts with each cooperative they belong or belonged to: (cooperative id, name, account).
pub fn my_accounts(conn: &Connection, member: &UserRow) -> ApiResult<Vec<(i64, String, Account)>> {
    let mut out = Vec::new();
    for m in coop_rows::of_person(conn, member.id)?.into_iter().filter(|m| m.status != MemberStatus::Asked) {
        if let (Some(account), Some(cooperative)) =
            (rows::account_of(conn, m.cooperative_id, member.id)?, coop_rows::find(conn, m.cooperative_id)?)
        {
            out.push((cooperative.id, cooperative.name, account));
        }
    }
    Ok(out)
}

/// What each of a member's cooperatives owes and paid them, a line each (the USSD menu's
/// "My money" and the SMS command `MONEY`).
pub fn statement(conn: &Connection, member: &UserRow, lang: crate::labels::Lang) -> ApiResult<String> {
    let usd = |cents: i64| format!("{} {CURRENCY}", lang.amount(cents));
    let lines: Vec<String> = my_accounts(conn, member)?
        .into_iter()
        .filter(|(_, _, a)| a.shares_cents > 0)
        .map(|(_, name, a)| {
            lang.format(
                "ussd.coop.money_line",
                &[("coop", &gsm7::shorten(&name, 24)), ("owed", &usd(a.owed_cents())), ("paid", &usd(a.paid_cents))],
            )
        })
        .collect();
    Ok(if lines.is_empty() { lang.text("ussd.coop.money_none") } else { lines.join("\n") })
}
