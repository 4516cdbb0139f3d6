//! A change a phone sends again after the server was restored (docs/sync.md, Push) whose
//! answer now is the other way from what the phone was told before: an order the buyer
//! was told was placed and is now refused (its stock went to orders that came back
//! first), or one refused then and placed now. The person hears it in their language (a
//! notification, which opens their orders), and the farmers of a lost order, who may have
//! been told of it, by SMS: they are not to prepare it.

use sync_protocol::{Mutation, MutationArgs, MutationResult, ResultStatus};

use crate::db::Connection;
use crate::db::users::{self, UserRow};
use crate::domain::notifications::{notify, section};
use crate::error::ApiResult;
use crate::platform::clock;

/// Whether an answer kept the change (`applied`, `merged`), refused it (`rejected`), or
/// says neither (`retry`, `forgotten`: nothing to compare).
fn kept(status: ResultStatus) -> Option<bool> {
    match status {
        ResultStatus::Applied | ResultStatus::Merged => Some(true),
        ResultStatus::Rejected => Some(false),
        ResultStatus::Retry | ResultStatus::Forgotten => None,
    }
}

/// The hour of the change as the person saw it (South Kivu's clock), "14:02"; the
/// server's time when the phone did not say.
fn hour_of(mutation: &Mutation) -> String {
    let at = mutation.client_time.as_deref().and_then(clock::parse).unwrap_or_else(time::OffsetDateTime::now_utc);
    let at = at.to_offset(crate::domain::prices::SOUTH_KIVU);
    format!("{:02}:{:02}", at.hour(), at.minute())
}

/// Tells `user` (and a lost order's farmers) when `result` differs from what the phone
/// was told the first time (`mutation.told`). In the push's transaction.
pub fn tell(conn: &Connection, user: &UserRow, mutation: &Mutation, result: &MutationResult) -> ApiResult<()> {
    let (Some(told), Some(now)) = (mutation.told.and_then(kept), kept(result.status)) else { return Ok(()) };
    if told == now {
        return Ok(());
    }
    let time = hour_of(mutation);
    let order = match mutation.parse() {
        Ok(MutationArgs::OrderPlace(order)) => Some(order),
        _ => None,
    };
    let Some(order) = order else {
        let kind = if now { "restored_change_kept" } else { "restored_change_lost" };
        return notify(conn, user.id, kind, &section("home"), &[("time", &time)]);
    };
    if now {
        let number = crate::db::orders::find_by_uid(conn, &order.uid.to_lowercase())?.map(|o| o.id.to_string());
        let number = number.unwrap_or_default();
        return notify(
            conn,
            user.id,
            "restored_order_placed",
            &section("orders"),
            &[("time", &time), ("number", &number)],
        );
    }
    notify(conn, user.id, "restored_order_lost", &section("orders"), &[("time", &time)])?;
    let buyer = crate::platform::gsm7::cut(
        &crate::platform::gsm7::fold(&format!("{} {}", user.first_name, user.last_name)),
        crate::domain::sms::NAME_CHARS,
    );
    let mut farmers: Vec<i64> = Vec::new();
    for line in &order.lines {
        if let Some(product) = crate::db::products::find(conn, line.product_id)? {
            if !farmers.contains(&product.farmer_id) {
                farmers.push(product.farmer_id);
            }
        }
    }
    for farmer in farmers {
        let Some(farmer) = users::find(conn, farmer)? else { continue };
        crate::domain::sms::text_person(
            conn,
            &farmer,
            "order_lost_after_restore",
            &[("time", &time), ("buyer", &buyer)],
        )?;
    }
    Ok(())
}
