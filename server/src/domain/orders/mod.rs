//! Orders (docs/orders.md): placing one (`place`), and moving each farmer's
//! part along processing → shipped → delivered, or cancelled, by the people
//! allowed to (`change_part`). Stock is reserved when an order is placed and
//! released when a part is cancelled. Functions run over a transaction, for
//! the REST API and the `order.*` mutations alike.

mod email;
mod place;

pub use place::{MAX_LINES, ORDER_CHANGED, place};

/// Whether an order's steps are written to the people concerned (the demo
/// content is made without writing to anyone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notify {
    People,
    Nobody,
}

use crate::db::Connection;

use super::cooperatives::lots;
use super::merge::stamp;
use crate::db::orders::{self, OrderRow, PartRow};
use crate::db::sync;
use crate::db::users::UserRow;
use crate::db::{earnings, products};
use crate::error::{ApiResult, AppError};
use crate::model::order::{Delivery, PartStatus};
use crate::platform::clock;

const MAX_REASON_CHARS: usize = 500;

/// Changes a product's stock by `delta` units (negative reserves, positive
/// releases) as the farmer's own increments do: a new version for the
/// product, so phones see the new stock, and its `quantity` stamped.
pub(super) fn adjust_stock(conn: &Connection, product_id: i64, delta: i64) -> ApiResult<()> {
    let Some(current) = products::find(conn, product_id)? else { return Ok(()) };
    if current.deleted_at.is_some() {
        return Ok(());
    }
    let mut listing = current.listing.clone();
    listing.quantity = (listing.quantity + delta).max(0);
    let version = sync::next_version(conn)?;
    let mut versions = current.field_versions.clone();
    stamp(&mut versions, &["quantity"], version);
    products::update(conn, current.id, &listing, &versions, version, &clock::now())?;
    Ok(())
}

fn not_found() -> AppError {
    AppError::not_found("order_not_found", "Order not found")
}

/// Which order: by its id (REST) or its uid (sync).
#[derive(Debug, Clone, Copy)]
pub enum OrderRef<'a> {
    Id(i64),
    Uid(&'a str),
}

/// An order its buyer, one of its farmers or an admin may see; "not found"
/// for anyone else, so ids reveal nothing.
pub fn visible(conn: &Connection, viewer: &UserRow, target: OrderRef<'_>) -> ApiResult<OrderRow> {
    let found = match target {
        OrderRef::Id(id) => orders::find(conn, id)?,
        OrderRef::Uid(uid) => orders::find_by_uid(conn, &uid.to_lowercase())?,
    };
    let order = found.ok_or_else(not_found)?;
    if order.buyer_id == viewer.id || viewer.role.is_admin() {
        return Ok(order);
    }
    for part in &order.parts {
        // A cooperative's managers see (and move) the parts it sells.
        if lots::acts_for(conn, viewer, part.farmer_id)? {
            return Ok(order);
        }
    }
    Err(not_found())
}

/// Who is asking to move a part.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Actor {
    Buyer,
    Farmer,
    Admin,
}

/// Whether `actor` may move a part from `from` to `to` (docs/orders.md):
/// the buyer only cancels while it is processing; the farmer ships, delivers
/// (a pickup may go straight to delivered) and cancels until delivered; an
/// admin may do what either may.
fn allowed(actor: Actor, delivery: Delivery, from: PartStatus, to: PartStatus) -> bool {
    use PartStatus::*;
    let farmer = matches!((from, to), (Processing, Shipped) | (Shipped, Delivered) | (Processing | Shipped, Cancelled))
        || (delivery == Delivery::Pickup && (from, to) == (Processing, Delivered));
    let buyer = (from, to) == (Processing, Cancelled);
    match actor {
        Actor::Buyer => buyer,
        Actor::Farmer => farmer,
        Actor::Admin => buyer || farmer,
    }
}

/// What a farmer asks for to accept a new part, beside the statuses a part moves to.
pub const ACCEPTED: &str = "accepted";

/// Moves one farmer's part of an order, or accepts it (`ACCEPTED`). Asking for
/// the status it already has changes nothing (a resent offline change); a
/// cancellation by a farmer or an admin needs a reason, and puts the reserved
/// stock back.
pub fn change_part(
    conn: &Connection,
    actor: &UserRow,
    target: OrderRef<'_>,
    part_id: i64,
    status: &str,
    reason: Option<&str>,
    notify: Notify,
) -> ApiResult<OrderRow> {
    let order = visible(conn, actor, target)?;
    let Some(part) = order.parts.iter().find(|p| p.id == part_id) else { return Err(not_found()) };
    if status.trim() == ACCEPTED {
        return accept(conn, actor, &order, part, notify);
    }
    let Some(to) = PartStatus::parse(status.trim()) else {
        return Err(AppError::invalid(
            "status",
            "invalid_option",
            "The status is accepted, shipped, delivered or cancelled",
        ));
    };
    if part.status == to {
        return Ok(order);
    }
    let who = if lots::acts_for(conn, actor, part.farmer_id)? {
        Actor::Farmer
    } else if actor.role.is_admin() {
        Actor::Admin
    } else if order.buyer_id == actor.id {
        Actor::Buyer
    } else {
        // Another farmer of the same order sees it, but not this part's controls.
        return Err(AppError::forbidden("not_your_part", "Only this part's farmer can change it"));
    };
    if !allowed(who, order.delivery, part.status, to) {
        return Err(AppError::conflict(
            "invalid_transition",
            format!("This part is {} and cannot become {to}", part.status),
        ));
    }
    let reason = reason.map(str::trim).filter(|r| !r.is_empty());
    if to == PartStatus::Cancelled && who != Actor::Buyer && reason.is_none() {
        return Err(AppError::invalid("reason", "reason_required", "Please say why the order is cancelled"));
    }
    if reason.is_some_and(|r| r.chars().count() > MAX_REASON_CHARS) {
        return Err(AppError::invalid("reason", "too_long", "The reason is too long"));
    }
    let now = clock::now();
    orders::set_part_status(conn, part.id, to, reason, &now)?;
    orders::add_event(conn, order.id, Some(part.id), to.as_str(), Some(actor.id), reason, &now)?;
    if to == PartStatus::Cancelled {
        for line in &part.lines {
            adjust_stock(conn, line.product_id, line.quantity)?;
        }
    }
    if to == PartStatus::Delivered {
        // The farmer earned the part: an entry in the ledger, never an edited balance.
        let amount = part.subtotal_cents + part.shipping_cents;
        earnings::record_sale(conn, part.farmer_id, order.id, part.id, amount, &order.currency, &now)?;
        // A cooperative's lot: each member's share, in the ledger too.
        lots::share_part(conn, &order, part, &now)?;
        // What the buyer paid is a market price (docs/prices.md).
        crate::domain::prices::sales::observe(conn)?;
    }
    orders::touch(conn, order.id, sync::next_version(conn)?, &now)?;
    if notify == Notify::People {
        email::part_moved(conn, actor, &order, part, to, reason)?;
    }
    orders::find(conn, order.id)?.ok_or_else(not_found)
}

/// The farmer accepts a new part: it stays `processing` (being prepared), the buyer
/// hears it will be filled. Accepting again changes nothing; a part already shipped,
/// delivered or cancelled cannot be.
fn accept(conn: &Connection, actor: &UserRow, order: &OrderRow, part: &PartRow, notify: Notify) -> ApiResult<OrderRow> {
    if !lots::acts_for(conn, actor, part.farmer_id)? {
        return Err(AppError::forbidden("not_your_part", "Only this part's farmer can accept it"));
    }
    if part.accepted_at.is_some() {
        return Ok(order.clone());
    }
    if part.status != PartStatus::Processing {
        return Err(AppError::conflict(
            "invalid_transition",
            format!("This part is {} and cannot be accepted", part.status),
        ));
    }
    let now = clock::now();
    orders::accept_part(conn, part.id, &now)?;
    orders::add_event(conn, order.id, Some(part.id), ACCEPTED, Some(actor.id), None, &now)?;
    orders::touch(conn, order.id, sync::next_version(conn)?, &now)?;
    if notify == Notify::People {
        email::part_accepted(conn, order, part)?;
    }
    orders::find(conn, order.id)?.ok_or_else(not_found)
}

/// The payment of an order failed or expired: every part still processing
/// is cancelled with `reason` and its stock goes back on sale. Nobody made
/// the change, so the events name no one.
pub fn cancel_unpaid(conn: &Connection, order_id: i64, reason: &str) -> ApiResult<()> {
    let order = orders::find(conn, order_id)?.ok_or_else(not_found)?;
    let now = clock::now();
    let mut changed = false;
    for part in order.parts.iter().filter(|p| p.status == PartStatus::Processing) {
        orders::set_part_status(conn, part.id, PartStatus::Cancelled, Some(reason), &now)?;
        orders::add_event(conn, order.id, Some(part.id), PartStatus::Cancelled.as_str(), None, Some(reason), &now)?;
        for line in &part.lines {
            adjust_stock(conn, line.product_id, line.quantity)?;
        }
        changed = true;
    }
    if changed {
        orders::touch(conn, order.id, sync::next_version(conn)?, &now)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use PartStatus::*;

    #[test]
    fn who_moves_a_part_where() {
        let d = Delivery::Delivery;
        assert!(allowed(Actor::Farmer, d, Processing, Shipped));
        assert!(allowed(Actor::Farmer, d, Shipped, Delivered));
        assert!(!allowed(Actor::Farmer, d, Processing, Delivered), "a delivery is shipped first");
        assert!(allowed(Actor::Farmer, Delivery::Pickup, Processing, Delivered));
        assert!(!allowed(Actor::Farmer, d, Delivered, Cancelled));
        assert!(allowed(Actor::Buyer, d, Processing, Cancelled));
        assert!(!allowed(Actor::Buyer, d, Shipped, Cancelled));
        assert!(!allowed(Actor::Buyer, d, Processing, Shipped));
        assert!(allowed(Actor::Admin, d, Shipped, Delivered));
        assert!(!allowed(Actor::Admin, d, Cancelled, Processing));
    }
}
