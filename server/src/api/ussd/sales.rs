//! A farmer's orders and earnings on the USSD menu (docs/ussd.md), behind the PIN: their
//! parts of orders (ship, deliver, cancel with a reason) through the REST API's own
//! order rules, and this month's earnings with the last sales.

use super::farmer::{PER_PAGE, me};
use super::menu::{Chosen, Ctx, Next, Screen, Show, amount, choice, chosen, listed};
use crate::db::orders::{OrderRow, PartRow};
use crate::db::{earnings, orders};
use crate::domain::orders::{ACCEPTED, Notify, OrderRef};
use crate::domain::prices;
use crate::error::{ApiResult, AppError};
use crate::model::order::{Delivery, PartStatus};
use crate::platform::gsm7;

/// The farmer's parts of orders: new ones first (to accept or decline), then accepted,
/// then shipped, then the rest; newest first in each.
fn own_parts(ctx: &Ctx<'_>) -> ApiResult<Vec<(OrderRow, PartRow)>> {
    let farmer = me(ctx)?;
    let mut parts: Vec<(OrderRow, PartRow)> = orders::list_for(ctx.conn, farmer.id, 200)?
        .into_iter()
        .flat_map(|order| {
            let mine: Vec<PartRow> = order.parts.iter().filter(|p| p.farmer_id == farmer.id).cloned().collect();
            mine.into_iter().map(move |part| (order.clone(), part))
        })
        .collect();
    parts.sort_by_key(|(_, part)| match part.status {
        PartStatus::Processing if part.accepted_at.is_none() => 0,
        PartStatus::Processing => 1,
        PartStatus::Shipped => 2,
        _ => 3,
    });
    Ok(parts)
}

/// A part's state in a word: new, accepted (being prepared), shipped, ...
fn status_word(ctx: &Ctx<'_>, part: &PartRow) -> String {
    match part.status {
        PartStatus::Processing if part.accepted_at.is_some() => ctx.text(&format!("status.{ACCEPTED}")),
        status => ctx.text(&format!("status.{}", status.as_str())),
    }
}

fn part_key(order: &OrderRow, part: &PartRow) -> String {
    format!("{}:{}", order.id, part.id)
}

/// What a part holds, in a few words: its first line ("Haricots 25kg") and how many more.
fn part_words(ctx: &Ctx<'_>, part: &PartRow) -> String {
    let Some(first) = part.lines.first() else { return String::new() };
    let more = if part.lines.len() > 1 { format!(" +{}", part.lines.len() - 1) } else { String::new() };
    format!(
        "{} {}{more}",
        gsm7::shorten(first.title_in(ctx.lang.code()), 14),
        amount(ctx.lang, first.quantity, &first.unit)
    )
}

pub fn orders_show(ctx: &mut Ctx<'_>, page: usize) -> ApiResult<Show> {
    let all = own_parts(ctx)?;
    let (shown, more) = listed(ctx, &all, |(order, part)| part_key(order, part), page, PER_PAGE);
    if shown.is_empty() {
        return Ok(Show::ask(ctx.text("orders.none")));
    }
    let choices = shown
        .iter()
        .map(|item| {
            let Some((order, part)) = item else { return ctx.text("gone") };
            let total = ctx.lang.amount(part.subtotal_cents + part.shipping_cents);
            ctx.format(
                "orders.item",
                &[
                    ("number", &order.id.to_string()),
                    ("status", &status_word(ctx, part)),
                    ("what", &part_words(ctx, part)),
                    ("total", &total),
                ],
            )
        })
        .collect();
    Ok(Show { text: ctx.text("orders.title"), choices, more })
}

pub fn orders_answer(ctx: &mut Ctx<'_>, page: usize, answer: &str) -> ApiResult<Next> {
    Ok(match chosen(ctx, answer) {
        Chosen::NextPage => Next::Open(Screen::Orders { page: page + 1 }),
        Chosen::Key(key) => {
            let ids = key.split_once(':').and_then(|(o, p)| Some((o.parse().ok()?, p.parse().ok()?)));
            match ids.map(|(order_id, part_id)| own_part(ctx, order_id, part_id)).transpose()?.flatten() {
                Some((order, part)) => Next::Open(Screen::Order { order_id: order.id, part_id: part.id }),
                None => Next::Again(ctx.text("order.gone")),
            }
        }
        Chosen::Wrong(why) => Next::Again(why),
        Chosen::Unknown => Next::Again(ctx.text("list_changed")),
    })
}

/// One of the farmer's own parts of an order, or `None` when it is not (or no longer) theirs.
fn own_part(ctx: &Ctx<'_>, order_id: i64, part_id: i64) -> ApiResult<Option<(OrderRow, PartRow)>> {
    let order = match crate::domain::orders::visible(ctx.conn, &me(ctx)?, OrderRef::Id(order_id)) {
        Ok(order) => order,
        Err(AppError::Client { code: "order_not_found", .. }) => return Ok(None),
        Err(other) => return Err(other),
    };
    let mine = |p: &&PartRow| p.id == part_id && Some(p.farmer_id) == ctx.person.as_ref().map(|p| p.id);
    Ok(order.parts.iter().find(mine).cloned().map(|part| (order, part)))
}

/// What the farmer may do next with a part, in the menu's order: a new part is
/// accepted or declined first (as in the app), then shipped (delivered, for a pickup)
/// or cancelled.
fn moves(order: &OrderRow, part: &PartRow) -> Vec<&'static str> {
    match part.status {
        PartStatus::Processing if part.accepted_at.is_none() => vec![ACCEPTED, DECLINED],
        PartStatus::Processing if order.delivery == Delivery::Pickup => vec!["delivered", "cancelled"],
        PartStatus::Processing => vec!["shipped", "cancelled"],
        PartStatus::Shipped => vec!["delivered", "cancelled"],
        _ => Vec::new(),
    }
}

/// Declining a new part: a cancellation with a reason, offered before it is accepted.
const DECLINED: &str = "declined";

pub fn order_show(ctx: &mut Ctx<'_>, order_id: i64, part_id: i64) -> ApiResult<Show> {
    let Some((order, part)) = own_part(ctx, order_id, part_id)? else {
        return Ok(Show::ask(ctx.text("order.gone")));
    };
    let lines: Vec<String> = part
        .lines
        .iter()
        .map(|l| {
            format!("{} {}", gsm7::shorten(l.title_in(ctx.lang.code()), 18), amount(ctx.lang, l.quantity, &l.unit))
        })
        .collect();
    let mut text = ctx.format(
        "order.title",
        &[
            ("number", &order.id.to_string()),
            ("status", &status_word(ctx, &part)),
            ("place", &gsm7::shorten(&order.address.city, 20)),
            ("lines", &lines.join(", ")),
        ],
    );
    let fresh: Vec<String> = moves(&order, &part).iter().map(|m| (*m).to_owned()).collect();
    let (keys, _) = ctx.choices_shown(fresh, false);
    if keys.is_empty() {
        text = format!("{text}\n{}", ctx.text("order.nothing"));
    }
    let choices = keys.iter().map(|key| ctx.text(&format!("order.{key}"))).collect();
    Ok(Show { text, choices, more: false })
}

/// Moves the part to `to` (or accepts it) when that is still a move it can make: an
/// order that changed since the farmer saw it (the buyer cancelled it, it was shipped
/// from the app) is said as it is now, with nothing done; asked again, a move already
/// made changes nothing.
fn move_part(ctx: &mut Ctx<'_>, order_id: i64, part_id: i64, to: &str, reason: Option<&str>) -> ApiResult<Next> {
    let farmer = me(ctx)?;
    let Some((order, part)) = own_part(ctx, order_id, part_id)? else { return Ok(Next::End(ctx.text("order.gone"))) };
    let done_already = part.status.as_str() == to || (to == ACCEPTED && part.accepted_at.is_some());
    let possible = moves(&order, &part).into_iter().map(|m| if m == DECLINED { "cancelled" } else { m });
    if !done_already && !possible.collect::<Vec<_>>().contains(&to) {
        let now = status_word(ctx, &part);
        return Ok(Next::End(ctx.format("order.changed", &[("number", &order_id.to_string()), ("status", &now)])));
    }
    crate::domain::orders::change_part(ctx.conn, &farmer, OrderRef::Id(order_id), part_id, to, reason, Notify::People)?;
    let word = ctx.text(&format!("status.{to}"));
    Ok(Next::End(ctx.format("order.done", &[("number", &order_id.to_string()), ("status", &word)])))
}

pub fn order_answer(ctx: &mut Ctx<'_>, order_id: i64, part_id: i64, answer: &str) -> ApiResult<Next> {
    let key = match chosen(ctx, answer) {
        Chosen::Key(key) => key,
        Chosen::Wrong(_) if ctx.shown_nothing() => return Ok(Next::Again(ctx.text("order.nothing"))),
        Chosen::Wrong(why) => return Ok(Next::Again(why)),
        Chosen::NextPage | Chosen::Unknown => return Ok(Next::Again(ctx.text("list_changed"))),
    };
    if key == DECLINED || key == "cancelled" {
        return Ok(Next::Open(Screen::CancelReason { order_id, part_id }));
    }
    match [ACCEPTED, "shipped", "delivered"].into_iter().find(|to| *to == key) {
        Some(to) => ctx.write_once(|ctx| move_part(ctx, order_id, part_id, to, None), || Next::End(String::new())),
        None => Ok(Next::Again(ctx.text("list_changed"))),
    }
}

const REASONS: [&str; 4] = ["out_of_stock", "cannot_deliver", "price", "buyer"];

pub fn reasons_show(ctx: &Ctx<'_>) -> Show {
    Show {
        text: ctx.text("order.reason"),
        choices: REASONS.iter().map(|r| ctx.text(&format!("reasons.{r}"))).collect(),
        more: false,
    }
}

pub fn reason_answer(ctx: &mut Ctx<'_>, order_id: i64, part_id: i64, answer: &str) -> ApiResult<Next> {
    let reason = match choice(ctx, answer, REASONS.len()) {
        Ok(i) => ctx.text(&format!("reasons.{}", REASONS[i])),
        Err(why) => return Ok(Next::Again(why)),
    };
    ctx.write_once(|ctx| move_part(ctx, order_id, part_id, "cancelled", Some(&reason)), || Next::End(String::new()))
}

/// This month's earnings, what waits for delivery and the last three sales (or shares
/// of a cooperative's lots), on one screen.
pub fn earnings(ctx: &Ctx<'_>) -> ApiResult<String> {
    let farmer = me(ctx)?;
    let this_month = &crate::platform::clock::now()[..7];
    let month: i64 = earnings::by_month(ctx.conn, farmer.id)?
        .iter()
        .filter(|(m, _, _)| m == this_month)
        .map(|(_, cents, _)| cents)
        .sum();
    let pending = earnings::pending(ctx.conn, farmer.id)?;
    let sales: Vec<String> = earnings::entries_of(ctx.conn, farmer.id, 10)?
        .iter()
        // A member's share of a cooperative's lot is a sale of theirs too.
        .filter(|e| e.kind == "sale" || e.kind == "share")
        .take(3)
        .map(|e| {
            // The day in South Kivu: a sale at 23:00 UTC was made the next morning there.
            let day = prices::local_day(&e.at).map_or_else(|| e.at.clone(), |d| d.to_string());
            format!("{} {} #{}", prices::short_day(&day), ctx.lang.amount(e.amount_cents), e.order_id)
        })
        .collect();
    let summary = ctx.format(
        "earnings.summary",
        &[
            ("month", &format!("{} USD", ctx.lang.amount(month))),
            ("pending", &format!("{} USD", ctx.lang.amount(pending))),
        ],
    );
    let last = if sales.is_empty() {
        ctx.text("earnings.none")
    } else {
        ctx.format("earnings.last", &[("sales", &sales.join(", "))])
    };
    Ok(format!("{summary}\n{last}"))
}
