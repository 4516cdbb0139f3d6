//! The demo buyer's orders and reviews (`demo.rs` loads them after the demo
//! products), one order in each state, through the same domain functions as real
//! orders and payments.

use crate::db::OptionalExtension;

use crate::db::users;
use crate::domain::orders::{self, Notify, OrderRef};
use crate::domain::payments;
use crate::error::{ApiResult, AppError};

/// One demo order: its lines (product title, quantity), how it travels, and
/// the steps each part takes after placement (by its farmer; "cancelled" by the buyer).
struct DemoOrder {
    lines: &'static [(&'static str, i64)],
    delivery: &'static str,
    /// Paid by mobile money (through the simulator, before any step), else on delivery.
    mobile_money: bool,
    steps: &'static [&'static [&'static str]],
}

const DEMO_ORDERS: [DemoOrder; 4] = [
    DemoOrder {
        lines: &[("Fresh tomatoes", 3), ("Arabica coffee beans", 1)],
        delivery: "delivery",
        mobile_money: true,
        steps: &[&["shipped", "delivered"], &["shipped", "delivered"]],
    },
    DemoOrder { lines: &[("Avocados", 6)], delivery: "delivery", mobile_money: true, steps: &[&["shipped"]] },
    DemoOrder { lines: &[("Green beans", 2), ("Sweet corn", 5)], delivery: "pickup", mobile_money: false, steps: &[] },
    DemoOrder { lines: &[("Sweet corn", 10)], delivery: "delivery", mobile_money: false, steps: &[&["cancelled"]] },
];

/// The demo buyer's orders, one in each state, paid on delivery (placed and
/// moved through the same domain functions as real ones, so stock follows), and
/// the buyer's reviews of what was delivered. After the demo products (`demo.rs`).
pub(crate) fn seed(tx: &crate::db::Connection) -> ApiResult<()> {
    let Some(buyer) = users::find_by_email(tx, "buyer@mavuno.demo")? else { return Ok(()) };
    // By the exact title (the search's rules, e.g. what a word does not match, are not the point).
    let by_title = |title: &str| -> ApiResult<Option<crate::db::products::ProductRow>> {
        let id: Option<i64> = tx
            .query_row("SELECT id FROM products WHERE title = ?1 ORDER BY id LIMIT 1", [title], |r| r.get(0))
            .optional()?;
        Ok(match id {
            Some(id) => crate::db::products::find(tx, id)?,
            None => None,
        })
    };
    let shipping = sync_protocol::ShippingInput {
        first_name: buyer.first_name.clone(),
        last_name: buyer.last_name.clone(),
        email: buyer.email.clone().unwrap_or_default(),
        phone: buyer.phone_number.clone().unwrap_or_default(),
        address: "Avenue du Port 4".into(),
        city: buyer.location.clone().unwrap_or_else(|| "Bukavu".into()),
        postal_code: String::new(),
        country: buyer.country.map(|c| c.as_str().to_owned()).unwrap_or_else(|| "DRC".into()),
    };
    for DemoOrder { lines, delivery, mobile_money, steps } in DEMO_ORDERS {
        let mut order_lines = Vec::new();
        for (title, quantity) in lines {
            let Some(product) = by_title(title)? else { return Ok(()) };
            order_lines.push(sync_protocol::OrderLineInput {
                product_id: product.id,
                quantity: *quantity,
                unit_price_cents: product.listing.current_price,
            });
        }
        let input = sync_protocol::OrderPlace {
            uid: uuid::Uuid::new_v4().to_string(),
            lines: order_lines,
            delivery: delivery.into(),
            payment_method: if mobile_money { "mobile_money" } else { "cash_on_delivery" }.into(),
            shipping: shipping.clone(),
        };
        let (order, _) = orders::place(tx, &buyer, &input, Notify::Nobody)?;
        if mobile_money {
            let country = buyer.country.unwrap_or(crate::model::user::Country::Drc);
            let (operator, _) = crate::model::payment::operators(country)[0];
            let (payment, _) = payments::begin(tx, &buyer, order.id, operator, &shipping.phone, "simulator")?;
            let paid = payments::Outcome::Succeeded { provider_ref: Some("DEMO".into()) };
            payments::settle(tx, &payment.uid, &paid, "demo")?;
        }
        for (part, part_steps) in order.parts.iter().zip(steps.iter()) {
            for step in *part_steps {
                // The buyer cancels; the farmer ships and delivers.
                let actor = if *step == "cancelled" {
                    buyer.clone()
                } else {
                    users::find(tx, part.farmer_id)?.ok_or_else(|| AppError::internal("demo farmer vanished"))?
                };
                orders::change_part(tx, &actor, OrderRef::Id(order.id), part.id, step, None, Notify::Nobody)?;
            }
        }
    }
    // The demo buyer reviews what was delivered; these are the demo's only ratings.
    for (title, rating, comment) in [
        ("Fresh tomatoes", 5, "Firm and sweet, and they came the next day."),
        ("Arabica coffee beans", 4, "A lovely aroma; the parcel was a little late."),
    ] {
        if let Some(product) = by_title(title)? {
            crate::domain::reviews::write(tx, &buyer, product.id, rating, comment)?;
        }
    }
    Ok(())
}
