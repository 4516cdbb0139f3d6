//! The emails an order sends through the outbox (written in the order's
//! transaction, sent after the commit), each in its reader's language: the
//! buyer's confirmation, each farmer's new order, and each step of a part to
//! the other side (shipped, delivered, cancelled); each with a short SMS
//! (docs/sms.md).

use crate::db::Connection;

use crate::db::orders::{OrderRow, PartRow};
use crate::db::outbox;
use crate::db::users::{self, UserRow};
use crate::domain::settings::lang_for;
use crate::error::ApiResult;
use crate::labels::Lang;
use crate::model::order::{Delivery, PartStatus};
use crate::platform::clock;

/// "16.40 USD", "16,40 USD": amounts in mail (and its SMS) in the reader's way, as the app says them.
fn money(lang: Lang, cents: i64, currency: &str) -> String {
    format!("{} {currency}", lang.amount(cents))
}

fn lines(lang: Lang, order: &OrderRow, part: &PartRow) -> String {
    part.lines
        .iter()
        .map(|l| {
            let unit = lang.text(&format!("market.units.{}", l.unit));
            format!(
                "- {} × {} {unit}: {}",
                l.title_in(lang.code()),
                l.quantity,
                money(lang, l.line_total_cents, &order.currency)
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn send(conn: &Connection, to: &UserRow, lang: Lang, kind: &str, values: &[(&str, &str)]) -> ApiResult<()> {
    // What a cooperative sells is followed by its managers.
    if let Some(cooperative) = crate::domain::cooperatives::lots::selling_as(conn, to.id)? {
        for manager in crate::domain::cooperatives::managers(conn, cooperative.id)? {
            let lang = lang_for(conn, manager.country)?;
            send_one(conn, &manager, lang, kind, values)?;
        }
        return Ok(());
    }
    send_one(conn, to, lang, kind, values)
}

fn send_one(conn: &Connection, to: &UserRow, lang: Lang, kind: &str, values: &[(&str, &str)]) -> ApiResult<()> {
    let subject = lang.format(&format!("email.order.{kind}_subject"), values);
    let body =
        format!("{}\n\n{}", lang.format(&format!("email.order.{kind}_body"), values), lang.text("email.signature"));
    if let Some(email) = &to.email {
        outbox::enqueue(conn, email, &subject, &body, &clock::now())?;
    }
    let short: Vec<(&str, &str)> = values.iter().copied().filter(|(k, _)| ["number", "total"].contains(k)).collect();
    let link = crate::domain::notifications::section("orders");
    crate::domain::notifications::notify(conn, to.id, &format!("order_{kind}"), &link, &short)?;
    crate::domain::sms::text_person(conn, to, &format!("order_{kind}"), &short)
}

/// The buyer's confirmation, and a new order to each farmer.
pub(super) fn placed(conn: &Connection, buyer: &UserRow, order: &OrderRow) -> ApiResult<()> {
    let number = order.id.to_string();
    let lang = lang_for(conn, buyer.country)?;
    let all = order.parts.iter().map(|p| lines(lang, order, p)).collect::<Vec<_>>().join("\n");
    let total = money(lang, order.total_cents, &order.currency);
    let payment = lang.text(&format!("checkout.{}", order.payment_method));
    let values = [
        ("name", buyer.greeting_name()),
        ("number", number.clone()),
        ("total", total),
        ("lines", all),
        ("payment", payment),
    ];
    send(conn, buyer, lang, "placed", &values.iter().map(|(k, v)| (*k, v.as_str())).collect::<Vec<_>>())?;
    for part in &order.parts {
        let Some(farmer) = users::find(conn, part.farmer_id)? else { continue };
        let lang = lang_for(conn, farmer.country)?;
        let a = &order.address;
        let delivery = match order.delivery {
            Delivery::Pickup => lang.text("sales.pickup"),
            Delivery::Delivery => {
                format!("{}, {}, {}", a.address, a.city, lang.text(&format!("countries.{}", a.country)))
            }
        };
        let values = [
            ("name", farmer.greeting_name()),
            ("number", number.clone()),
            ("buyer", format!("{} {} ({})", a.first_name, a.last_name, a.phone)),
            ("lines", lines(lang, order, part)),
            ("delivery", delivery),
        ];
        send(conn, &farmer, lang, "new", &values.iter().map(|(k, v)| (*k, v.as_str())).collect::<Vec<_>>())?;
    }
    Ok(())
}

/// The farmer accepted a part: the buyer hears that it is being prepared.
pub(super) fn part_accepted(conn: &Connection, order: &OrderRow, part: &PartRow) -> ApiResult<()> {
    let Some(buyer) = users::find(conn, order.buyer_id)? else { return Ok(()) };
    let lang = lang_for(conn, buyer.country)?;
    let values = [
        ("name", buyer.greeting_name()),
        ("number", order.id.to_string()),
        ("farmer", part.farmer_name.clone()),
        ("lines", lines(lang, order, part)),
    ];
    send(conn, &buyer, lang, "accepted", &values.iter().map(|(k, v)| (*k, v.as_str())).collect::<Vec<_>>())
}

/// A part moved: the buyer hears of the farmer's steps; the farmer hears
/// when the buyer cancels.
pub(super) fn part_moved(
    conn: &Connection,
    actor: &UserRow,
    order: &OrderRow,
    part: &PartRow,
    status: PartStatus,
    reason: Option<&str>,
) -> ApiResult<()> {
    let (Some(buyer), Some(farmer)) = (users::find(conn, order.buyer_id)?, users::find(conn, part.farmer_id)?) else {
        return Ok(());
    };
    let (reader, kind) = match status {
        PartStatus::Cancelled if actor.id == buyer.id => (&farmer, "cancelled_by_buyer"),
        PartStatus::Shipped => (&buyer, "shipped"),
        PartStatus::Delivered => (&buyer, "delivered"),
        PartStatus::Cancelled => (&buyer, "cancelled"),
        PartStatus::Processing => return Ok(()),
    };
    let lang = lang_for(conn, reader.country)?;
    let reason = reason.map(|r| lang.format("email.order.reason", &[("reason", r)])).unwrap_or_default();
    let values = [
        ("name", reader.greeting_name()),
        ("number", order.id.to_string()),
        ("farmer", part.farmer_name.clone()),
        ("buyer", format!("{} {}", order.address.first_name, order.address.last_name)),
        ("lines", lines(lang, order, part)),
        ("reason", reason),
    ];
    send(conn, reader, lang, kind, &values.iter().map(|(k, v)| (*k, v.as_str())).collect::<Vec<_>>())
}
