//! A farmer's orders and earnings on the USSD menu (docs/ussd.md), behind the PIN: their
//! parts of orders (ship, deliver, cancel with a reason) through the REST API's own
//! order rules, and this month's earnings with the last sales.

use super::farmer::{PER_PAGE, me};
use super::menu::{Ctx, Next, Picked, Screen, Show, amount, choice, money, page_of, pick};
use crate::db::orders::{OrderRow, PartRow};
use crate::db::{earnings, orders};
use crate::domain::orders::{Notify, OrderRef};
use crate::domain::prices;
use crate::error::{ApiResult, AppError};
use crate::model::order::{Delivery, PartStatus};
use crate::outbound::gsm7;

/// The farmer's parts of orders: new ones first, then shipped, then the rest; newest first in each.
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
        PartStatus::Processing => 0,
        PartStatus::Shipped => 1,
        _ => 2,
    });
    Ok(parts)
}

fn status_word(ctx: &Ctx<'_>, status: PartStatus) -> String {
    ctx.text(&format!("status.{}", status.as_str()))
}

pub fn orders_show(ctx: &mut Ctx<'_>, page: usize) -> ApiResult<Show> {
    let all = own_parts(ctx)?;
    if all.is_empty() {
        return Ok(Show::ask(ctx.text("orders.none")));
    }
    let (shown, more) = page_of(&all, page, PER_PAGE);
    let choices = shown
        .iter()
        .map(|(order, part)| {
            let total = money(part.subtotal_cents + part.shipping_cents);
            ctx.format(
                "orders.item",
                &[("number", &order.id.to_string()), ("status", &status_word(ctx, part.status)), ("total", &total)],
            )
        })
        .collect();
    Ok(Show { text: ctx.text("orders.title"), choices, more })
}

pub fn orders_answer(ctx: &mut Ctx<'_>, page: usize, answer: &str) -> ApiResult<Next> {
    Ok(match pick(ctx, answer, &own_parts(ctx)?, page, PER_PAGE) {
        Picked::NextPage => Next::Open(Screen::Orders { page: page + 1 }),
        Picked::Item((order, part)) => Next::Open(Screen::Order { order_id: order.id, part_id: part.id }),
        Picked::Wrong(why) => Next::Again(why),
    })
}

fn own_part(ctx: &Ctx<'_>, order_id: i64, part_id: i64) -> ApiResult<(OrderRow, PartRow)> {
    let order = crate::domain::orders::visible(ctx.conn, &me(ctx)?, OrderRef::Id(order_id))?;
    let part = order.parts.iter().find(|p| p.id == part_id && Some(p.farmer_id) == ctx.person.as_ref().map(|p| p.id));
    let part = part.cloned().ok_or_else(|| AppError::not_found("order_not_found", "Order not found"))?;
    Ok((order, part))
}

/// What the farmer may do next with a part, in the menu's order.
fn moves(order: &OrderRow, part: &PartRow) -> Vec<PartStatus> {
    match part.status {
        PartStatus::Processing if order.delivery == Delivery::Pickup => {
            vec![PartStatus::Delivered, PartStatus::Cancelled]
        }
        PartStatus::Processing => vec![PartStatus::Shipped, PartStatus::Cancelled],
        PartStatus::Shipped => vec![PartStatus::Delivered, PartStatus::Cancelled],
        _ => Vec::new(),
    }
}

pub fn order_show(ctx: &mut Ctx<'_>, order_id: i64, part_id: i64) -> ApiResult<Show> {
    let (order, part) = own_part(ctx, order_id, part_id)?;
    let lines: Vec<String> = part
        .lines
        .iter()
        .map(|l| format!("{} {}", gsm7::cut(l.title_in(ctx.lang.code()), 18), amount(ctx.lang, l.quantity, &l.unit)))
        .collect();
    let mut text = ctx.format(
        "order.title",
        &[
            ("number", &order.id.to_string()),
            ("status", &status_word(ctx, part.status)),
            ("place", &gsm7::cut(&order.address.city, 20)),
            ("lines", &lines.join(", ")),
        ],
    );
    let moves = moves(&order, &part);
    if moves.is_empty() {
        text = format!("{text}\n{}", ctx.text("order.nothing"));
    }
    let choices = moves
        .iter()
        .map(|m| {
            ctx.text(match m {
                PartStatus::Shipped => "order.ship",
                PartStatus::Delivered => "order.deliver",
                _ => "order.cancel",
            })
        })
        .collect();
    Ok(Show { text, choices, more: false })
}

fn move_part(ctx: &mut Ctx<'_>, order_id: i64, part_id: i64, to: PartStatus, reason: Option<&str>) -> ApiResult<Next> {
    let farmer = me(ctx)?;
    crate::domain::orders::change_part(
        ctx.conn,
        &farmer,
        OrderRef::Id(order_id),
        part_id,
        to.as_str(),
        reason,
        Notify::People,
    )?;
    Ok(Next::End(ctx.format("order.done", &[("number", &order_id.to_string()), ("status", &status_word(ctx, to))])))
}

pub fn order_answer(ctx: &mut Ctx<'_>, order_id: i64, part_id: i64, answer: &str) -> ApiResult<Next> {
    let (order, part) = own_part(ctx, order_id, part_id)?;
    let moves = moves(&order, &part);
    match choice(ctx, answer, moves.len()) {
        Ok(i) if moves[i] == PartStatus::Cancelled => Ok(Next::Open(Screen::CancelReason { order_id, part_id })),
        Ok(i) => ctx.write_once(|ctx| move_part(ctx, order_id, part_id, moves[i], None), || Next::End(String::new())),
        Err(_) if moves.is_empty() => Ok(Next::Again(ctx.text("order.nothing"))),
        Err(why) => Ok(Next::Again(why)),
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
    ctx.write_once(
        |ctx| move_part(ctx, order_id, part_id, PartStatus::Cancelled, Some(&reason)),
        || Next::End(String::new()),
    )
}

/// This month's earnings, what waits for delivery and the last three sales, on one screen.
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
        .filter(|e| e.kind == "sale")
        .take(3)
        .map(|e| {
            // The day in South Kivu: a sale at 23:00 UTC was made the next morning there.
            let day = prices::local_day(&e.at).map_or_else(|| e.at.clone(), |d| d.to_string());
            format!("{} {} #{}", prices::short_day(&day), money(e.amount_cents), e.order_id)
        })
        .collect();
    let summary = ctx.format(
        "earnings.summary",
        &[("month", &format!("{} USD", money(month))), ("pending", &format!("{} USD", money(pending)))],
    );
    let last = if sales.is_empty() {
        ctx.text("earnings.none")
    } else {
        ctx.format("earnings.last", &[("sales", &sales.join(", "))])
    };
    Ok(format!("{summary}\n{last}"))
}
