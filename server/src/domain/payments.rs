//! Mobile-money payments of orders and courses (docs/payments.md), over a
//! transaction: starting one (the row is written before any provider is
//! called), and settling it from whatever says how it went (the provider's
//! first answer, a callback, a status check, or the clock). Statuses only
//! move forward; a failed or expired payment cancels what the order still
//! holds, so the stock goes back on sale; a course payment that succeeds
//! enrols the payer. Refunds of course payments (an admin's, within 30
//! days) follow the same shape: written first, then asked for, then checked.

use crate::db::Connection;
use time::OffsetDateTime;

use super::courses::learning;
use super::orders::{self, OrderRef};
use crate::db::courses::CourseRow;
use crate::db::orders::OrderRow;
use crate::db::payments::{self, NewPayment, PaymentRow};
use crate::db::refunds::{self, RefundRow};
use crate::db::users::UserRow;
use crate::error::{ApiResult, AppError};
use crate::model::order::{PartStatus, PaymentMethod};
use crate::model::payment::{PaymentStatus, operator_name, operator_of_number};
use crate::model::user::Country;
use crate::platform::clock;

/// How long a payer has to answer the prompt on their phone.
pub const PAYMENT_WINDOW: time::Duration = time::Duration::minutes(10);
/// The first status check, then doubling up to `MAX_CHECK_GAP`.
const FIRST_CHECK: time::Duration = time::Duration::seconds(15);
const MAX_CHECK_GAP: time::Duration = time::Duration::minutes(5);
/// How long after paying for a course its payer can be refunded.
pub const REFUND_WINDOW: time::Duration = time::Duration::days(30);
/// What paid courses cost in (their prices are in US cents).
pub const COURSE_CURRENCY: &str = "USD";

/// What a provider (or the clock) says about a payment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Taken, waiting for the payer.
    Pending {
        provider_ref: Option<String>,
    },
    Succeeded {
        provider_ref: Option<String>,
    },
    Failed {
        reason: String,
    },
    Expired,
    /// Nothing known yet (a timeout, an unknown payment at the provider).
    Unknown,
}

impl Outcome {
    /// The state it moves a payment to, as a metric's label (none: nothing known).
    pub fn state(&self) -> Option<&'static str> {
        match self {
            Outcome::Pending { .. } => Some("pending"),
            Outcome::Succeeded { .. } => Some("succeeded"),
            Outcome::Failed { .. } => Some("failed"),
            Outcome::Expired => Some("expired"),
            Outcome::Unknown => None,
        }
    }
}

fn parse(at: &str) -> OffsetDateTime {
    clock::parse(at).unwrap_or_else(OffsetDateTime::now_utc)
}

fn plus(now: &str, gap: time::Duration) -> String {
    clock::format(parse(now) + gap)
}

/// After `checks` status checks that settled nothing: 15 s, 30 s, 1 min ... up to 5 min.
pub(crate) fn next_check(now: &str, checks: i64) -> String {
    let gap = FIRST_CHECK * 2_i32.pow(checks.clamp(0, 10) as u32);
    plus(now, gap.min(MAX_CHECK_GAP))
}

/// The amount still to pay: what the parts that are not cancelled cost.
fn amount_due(order: &OrderRow) -> i64 {
    order.parts.iter().filter(|p| p.status != PartStatus::Cancelled).map(|p| p.subtotal_cents + p.shipping_cents).sum()
}

/// The number that pays, as operators want it: digits with the country code ("+243 99 000
/// 0001" or "099 000 0001" for the DRC → "243990000001"). An operator moves money only
/// for numbers of its own country: another country's number is refused, not sent; and
/// where the country's plan says which operator a number is of, only for its own.
pub(crate) fn payer_number(phone: &str, country: Country, operator: &str) -> ApiResult<String> {
    let Some(e164) = super::phone::to_e164(phone, country) else {
        return Err(AppError::invalid(
            "phone",
            "phone_invalid",
            "Enter the phone number that pays, with its country code",
        ));
    };
    let digits = e164.trim_start_matches('+');
    if !digits.starts_with(super::phone::calling_code(country)) {
        return Err(AppError::invalid(
            "phone",
            "phone_other_country",
            "This number is from another country than the operator: choose the operator of the number's country",
        ));
    }
    let national = &digits[super::phone::calling_code(country).len()..];
    if let Some(owner) = operator_of_number(country, national).filter(|owner| *owner != operator) {
        return Err(AppError::invalid(
            "operator",
            "operator_not_of_number",
            format!("This number is a {} number: choose that operator", operator_name(owner)),
        ));
    }
    Ok(digits.to_owned())
}

/// The buyer's own order to be paid by mobile money and not paid yet, with its payments
/// (anyone else's order is "not found").
fn unpaid_order(conn: &Connection, buyer: &UserRow, order_id: i64) -> ApiResult<(OrderRow, Vec<PaymentRow>)> {
    let order = orders::visible(conn, buyer, OrderRef::Id(order_id))?;
    if order.buyer_id != buyer.id {
        return Err(AppError::not_found("order_not_found", "Order not found"));
    }
    if order.payment_method != PaymentMethod::MobileMoney {
        return Err(AppError::conflict("not_mobile_money", "This order is paid on delivery"));
    }
    let existing = payments::of_order(conn, order.id)?;
    if existing.iter().any(|p| p.status == PaymentStatus::Succeeded) {
        return Err(AppError::conflict("already_paid", "This order is already paid"));
    }
    Ok((order, existing))
}

/// Starts paying `order` from `phone` with `operator` through `provider`:
/// the row is written (initiating) and returned; the caller asks the provider.
/// A payment already under way for the order is answered instead of a second.
pub fn begin(
    conn: &Connection,
    buyer: &UserRow,
    order_id: i64,
    operator: &str,
    phone: &str,
    provider: &str,
) -> ApiResult<(PaymentRow, bool)> {
    let (order, existing) = unpaid_order(conn, buyer, order_id)?;
    if let Some(under_way) = existing.into_iter().find(|p| !p.status.is_final()) {
        return Ok((under_way, false));
    }
    if PartStatus::of_order(order.parts.iter().map(|p| p.status)) == PartStatus::Cancelled {
        return Err(AppError::conflict("order_cancelled", "This order was cancelled"));
    }
    // Products may be free; there is nothing to collect then.
    if amount_due(&order) == 0 {
        return Err(AppError::conflict("nothing_to_pay", "There is nothing to pay for this order"));
    }
    let country = Country::parse(&order.address.country).unwrap_or(Country::Drc);
    let payment = Payment {
        order_id: Some(order.id),
        course_id: None,
        payer_id: buyer.id,
        amount_cents: amount_due(&order),
        currency: &order.currency,
    };
    open(conn, &payment, country, operator, phone, provider)
}

/// Starts paying for `course` (the learner's own payment; the enrolment
/// follows when it succeeds). A payment already under way is answered again.
pub fn begin_course(
    conn: &Connection,
    learner: &UserRow,
    course: &CourseRow,
    operator: &str,
    phone: &str,
    provider: &str,
) -> ApiResult<(PaymentRow, bool)> {
    if course.fields.price == 0 {
        return Err(AppError::conflict("course_free", "This course is free: enrol without paying"));
    }
    if learning::is_active_learner(conn, learner.id, course.id)? {
        return Err(AppError::conflict("already_enrolled", "You are already enrolled in this course"));
    }
    if let Some(under_way) =
        payments::of_course(conn, course.id, learner.id)?.into_iter().find(|p| !p.status.is_final())
    {
        return Ok((under_way, false));
    }
    let payment = Payment {
        order_id: None,
        course_id: Some(course.id),
        payer_id: learner.id,
        amount_cents: course.fields.price,
        currency: COURSE_CURRENCY,
    };
    open(conn, &payment, learner.country.unwrap_or(Country::Drc), operator, phone, provider)
}

/// What a new payment is for, who pays and how much.
struct Payment<'a> {
    order_id: Option<i64>,
    course_id: Option<i64>,
    payer_id: i64,
    amount_cents: i64,
    currency: &'a str,
}

/// The served countries, the payer's own first: where an operator is looked for.
const COUNTRIES: [Country; 6] = [Country::Drc, Country::Bdi, Country::Rwa, Country::Uga, Country::Tza, Country::Ken];

/// Checks the operator and the number, and writes the payment (initiating). The operator
/// is one the settings offer (docs/settings.md) in `country` (the payer's) or another
/// served country (a Rwandan account paying from a Congolese number, with a Congolese
/// operator); the number is read as the operator's country's and must be one of it.
fn open(
    conn: &Connection,
    p: &Payment<'_>,
    country: Country,
    operator: &str,
    phone: &str,
    provider: &str,
) -> ApiResult<(PaymentRow, bool)> {
    let mut countries = vec![country];
    countries.extend(COUNTRIES.into_iter().filter(|c| *c != country));
    let mut operator_country = None;
    for candidate in countries {
        if crate::domain::settings::payments_in(conn, candidate)?.operators.iter().any(|id| id == operator) {
            operator_country = Some(candidate);
            break;
        }
    }
    let Some(operator_country) = operator_country else {
        return Err(AppError::invalid("operator", "operator_invalid", "Choose your mobile money operator"));
    };
    let phone = payer_number(phone, operator_country, operator)?;
    let now = clock::now();
    let uid = uuid::Uuid::new_v4().to_string();
    let id = payments::insert(
        conn,
        &NewPayment {
            uid: &uid,
            order_id: p.order_id,
            course_id: p.course_id,
            payer_id: p.payer_id,
            provider,
            operator,
            phone: &phone,
            amount_cents: p.amount_cents,
            currency: p.currency,
            next_check_at: &plus(&now, FIRST_CHECK),
            expires_at: &plus(&now, PAYMENT_WINDOW),
            now: &now,
        },
    )?;
    payments::add_event(conn, id, PaymentStatus::Initiating, "start", None, &now)?;
    let row = payments::find_by_uid(conn, &uid)?.ok_or_else(|| AppError::internal("payment vanished"))?;
    Ok((row, true))
}

/// Applies what is known of payment `uid`. Only a forward move applies
/// (a duplicate or late callback changes nothing); answers the payment as it
/// now stands, and whether it moved.
pub fn settle(conn: &Connection, uid: &str, outcome: &Outcome, source: &str) -> ApiResult<(PaymentRow, bool)> {
    let Some(payment) = payments::find_by_uid(conn, uid)? else {
        return Err(AppError::not_found("payment_not_found", "Payment not found"));
    };
    let (to, provider_ref, reason) = match outcome {
        Outcome::Pending { provider_ref } => (PaymentStatus::Pending, provider_ref.as_deref(), None),
        Outcome::Succeeded { provider_ref } => (PaymentStatus::Succeeded, provider_ref.as_deref(), None),
        Outcome::Failed { reason } => (PaymentStatus::Failed, None, Some(reason.as_str())),
        Outcome::Expired => (PaymentStatus::Expired, None, Some("expired")),
        Outcome::Unknown => return Ok((payment, false)),
    };
    let now = clock::now();
    if !payment.status.may_become(to)
        || !payments::set_status(conn, payment.id, payment.status, to, provider_ref, reason, &now)?
    {
        return Ok((payment, false));
    }
    payments::add_event(conn, payment.id, to, source, reason, &now)?;
    if let Some(order_id) = payment.order_id {
        // A refused or expired payment keeps the order (and its stock) for `UNPAID_GRACE`:
        // the buyer may pay again or switch to cash on delivery (`release_unpaid` ends it).
        // Phones pull the order again to see where its payment stands.
        crate::db::orders::touch(conn, order_id, crate::db::sync::next_version(conn)?, &now)?;
    }
    if let (Some(course_id), PaymentStatus::Succeeded) = (payment.course_id, to) {
        learning::grant_paid(conn, payment.payer_id, course_id, payment.amount_cents)?;
    }
    if to == PaymentStatus::Succeeded {
        if let Some(payer) = crate::db::users::find(conn, payment.payer_id)? {
            let lang = super::sms::lang_of(conn, &payer)?;
            let total = format!("{} {}", lang.amount(payment.amount_cents), payment.currency);
            super::sms::text_person(conn, &payer, "payment_received", &[("total", &total)])?;
            let link = match payment.course_id {
                Some(course) => format!("/course/{course}"),
                None => super::notifications::section("orders"),
            };
            super::notifications::notify(conn, payer.id, "payment_received", &link, &[("total", &total)])?;
        }
    }
    let row = payments::find_by_uid(conn, uid)?.ok_or_else(|| AppError::internal("payment vanished"))?;
    Ok((row, true))
}

/// How long an order whose payment was refused or expired keeps its stock, for the buyer
/// to pay again or to choose cash on delivery (docs/payments.md).
pub const UNPAID_GRACE: std::time::Duration = std::time::Duration::from_secs(30 * 60);

/// Orders whose last payment failed or expired more than `UNPAID_GRACE` ago, and that
/// still wait to be paid by mobile money, are cancelled: their stock goes back on sale.
/// Answers how many.
pub fn release_unpaid(conn: &Connection) -> ApiResult<usize> {
    let lapsed = lapsed_unpaid(conn)?;
    for (order_id, status) in &lapsed {
        orders::cancel_unpaid(conn, *order_id, &format!("payment {status}"))?;
    }
    Ok(lapsed.len())
}

/// The orders `release_unpaid` would cancel now (a read: the poller asks this every 2 s
/// and takes the write lock only when there is something to do). Only the last week's
/// refusals are read, so each look stays small; after a longer stop, older unpaid orders
/// wait for an admin.
pub fn lapsed_unpaid(conn: &Connection) -> ApiResult<Vec<(i64, PaymentStatus)>> {
    let since = clock::before_now(UNPAID_GRACE + std::time::Duration::from_secs(7 * 24 * 3600));
    Ok(payments::lapsed_orders(conn, &since, &clock::before_now(UNPAID_GRACE))?)
}

/// The buyer pays on delivery instead of by mobile money, after a payment was refused or
/// expired (or before any): the order keeps its stock and goes on; no payment may be under
/// way or made.
pub fn pay_on_delivery(conn: &Connection, buyer: &UserRow, order_id: i64) -> ApiResult<OrderRow> {
    let (order, existing) = unpaid_order(conn, buyer, order_id)?;
    if existing.iter().any(|p| !p.status.is_final()) {
        return Err(AppError::conflict("payment_under_way", "A payment of this order is under way"));
    }
    if PartStatus::of_order(order.parts.iter().map(|p| p.status)) == PartStatus::Cancelled {
        return Err(AppError::conflict("order_cancelled", "This order was cancelled"));
    }
    let now = clock::now();
    crate::db::orders::set_payment_method(conn, order.id, PaymentMethod::CashOnDelivery)?;
    crate::db::orders::add_event(conn, order.id, None, "pay_on_delivery", Some(buyer.id), None, &now)?;
    crate::db::orders::touch(conn, order.id, crate::db::sync::next_version(conn)?, &now)?;
    crate::db::orders::find(conn, order.id)?.ok_or_else(|| AppError::internal("order vanished"))
}

/// A status check settled nothing: expire the payment once its window is
/// over, else ask again later (15 s, 30 s, 1 min ... up to 5 min apart).
pub fn after_check(conn: &Connection, payment: &PaymentRow) -> ApiResult<()> {
    let now = clock::now();
    if now >= payment.expires_at {
        settle(conn, &payment.uid, &Outcome::Expired, "expiry")?;
        return Ok(());
    }
    payments::schedule_check(conn, payment.id, &next_check(&now, payment.checks))?;
    Ok(())
}

/// When a payment succeeded (its `succeeded` event), if it did.
fn paid_at(conn: &Connection, payment: &PaymentRow) -> ApiResult<Option<String>> {
    Ok(payments::events(conn, payment.id)?.into_iter().find(|e| e.status == PaymentStatus::Succeeded).map(|e| e.at))
}

/// An admin gives back a course payment, within `REFUND_WINDOW` of paying:
/// the refund is written (pending) and returned; the caller asks the
/// provider. A refund under way is answered again; a failed one may be
/// tried again.
pub fn begin_refund(conn: &Connection, admin: &UserRow, payment_uid: &str) -> ApiResult<(RefundRow, bool)> {
    let payment = payments::find_by_uid(conn, payment_uid)?
        .filter(|p| p.course_id.is_some())
        .ok_or_else(|| AppError::not_found("payment_not_found", "Payment not found"))?;
    let Some(paid_at) = paid_at(conn, &payment)?.filter(|_| payment.status == PaymentStatus::Succeeded) else {
        return Err(AppError::conflict("not_refundable", "Only a course payment that went through can be refunded"));
    };
    match refunds::latest(conn, payment.id)? {
        Some(r) if r.status == PaymentStatus::Pending => return Ok((r, false)),
        Some(r) if r.status == PaymentStatus::Succeeded => {
            return Err(AppError::conflict("already_refunded", "This payment was already refunded"));
        }
        _ => {}
    }
    let now = clock::now();
    if parse(&now) > parse(&paid_at) + REFUND_WINDOW {
        return Err(AppError::conflict("refund_window_over", "Refunds are possible within 30 days of paying"));
    }
    let uid = uuid::Uuid::new_v4().to_string();
    refunds::insert(conn, &uid, &payment, admin.id, &plus(&now, FIRST_CHECK), &now)?;
    let row = refunds::find_by_uid(conn, &uid)?.ok_or_else(|| AppError::internal("refund vanished"))?;
    Ok((row, true))
}

/// Applies what the provider says of refund `uid`; a refund that went
/// through ends the enrolment it paid for. Answers whether it moved.
pub fn settle_refund(conn: &Connection, uid: &str, outcome: &Outcome) -> ApiResult<(RefundRow, bool)> {
    let refund = refunds::find_by_uid(conn, uid)?.ok_or_else(|| AppError::internal("refund vanished"))?;
    let (to, reason) = match outcome {
        Outcome::Succeeded { .. } => (PaymentStatus::Succeeded, None),
        Outcome::Failed { reason } => (PaymentStatus::Failed, Some(reason.as_str())),
        Outcome::Pending { .. } | Outcome::Unknown | Outcome::Expired => return Ok((refund, false)),
    };
    if !refunds::set_status(conn, refund.id, to, reason, &clock::now())? {
        return Ok((refund, false));
    }
    if to == PaymentStatus::Succeeded {
        let payment = payments::find(conn, refund.payment_id)?.ok_or_else(|| AppError::internal("payment vanished"))?;
        if let Some(course_id) = payment.course_id {
            learning::end_refunded(conn, payment.payer_id, course_id)?;
        }
    }
    let row = refunds::find_by_uid(conn, uid)?.ok_or_else(|| AppError::internal("refund vanished"))?;
    Ok((row, true))
}

/// A refund check settled nothing: ask again later.
pub fn after_refund_check(conn: &Connection, refund: &RefundRow) -> ApiResult<()> {
    refunds::schedule_check(conn, refund.id, &next_check(&clock::now(), refund.checks))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payer_numbers_are_digits_with_the_country_code() {
        assert_eq!(payer_number("+243 99 000 0001", Country::Drc, "AIRTEL_COD").unwrap(), "243990000001");
        assert_eq!(payer_number("099 000 0001", Country::Drc, "AIRTEL_COD").unwrap(), "243990000001");
        assert_eq!(payer_number("0781234567", Country::Rwa, "MTN_MOMO_RWA").unwrap(), "250781234567");
        let code = |r: ApiResult<String>| match r {
            Err(AppError::Validation(errors)) => errors.codes(),
            _ => vec![],
        };
        assert_eq!(code(payer_number("12345", Country::Drc, "AIRTEL_COD")), ["phone_invalid"]);
        // A DRC number with a Rwandan operator: no operator would take it.
        assert_eq!(code(payer_number("+243 99 000 0001", Country::Rwa, "MTN_MOMO_RWA")), ["phone_other_country"]);
        assert_eq!(
            code(payer_number("+243 99 000 0001", Country::Drc, "VODACOM_MPESA_COD")),
            ["operator_not_of_number"]
        );
        assert_eq!(payer_number("+243 90 123 4567", Country::Drc, "VODACOM_MPESA_COD").unwrap(), "243901234567");
    }
}
