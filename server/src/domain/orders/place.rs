//! Placing an order (docs/orders.md): every line checked against the
//! catalogue in the same transaction that reserves the stock, so a price the
//! buyer did not see is never charged and stock is never sold twice.

use std::collections::BTreeMap;

use crate::db::Connection;
use serde_json::json;
use sync_protocol::{OrderPlace, ShippingInput};

use super::{Notify, adjust_stock};
use crate::db::orders::{self, Address, NewLine, NewOrder, OrderRow};
use crate::db::products::{self, ProductRow};
use crate::db::sync;
use crate::db::users::UserRow;
use crate::domain::is_uuid;
use crate::domain::made_once;
use crate::domain::person::looks_like_email;
use crate::domain::settings;
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::model::order::{Delivery, PaymentMethod};
use crate::model::user::Country;
use crate::platform::clock;

/// An order of more lines than this is refused (a cart is a few products).
pub const MAX_LINES: usize = 50;
const MAX_FIELD_CHARS: usize = 200;

/// The code of a refusal because the catalogue changed under the buyer.
pub const ORDER_CHANGED: &str = "order_changed";

/// The shipping form, checked in its order; the postal code is optional (few
/// addresses in the region have one), and so is the email (a buyer may have
/// signed up with a phone number only: the order's news then come by SMS). What
/// the buyer collects needs no address.
fn check_address(errors: &mut FieldErrors, input: &ShippingInput, delivered: bool) -> Option<Address> {
    let before = errors.codes().len();
    let fields = [
        ("first_name", &input.first_name, Some(("first_name_required", "First name is required"))),
        ("last_name", &input.last_name, Some(("last_name_required", "Last name is required"))),
        ("email", &input.email, None),
        ("phone", &input.phone, Some(("phone_required", "Phone number is required"))),
        ("address", &input.address, delivered.then_some(("address_required", "Address is required"))),
        ("city", &input.city, delivered.then_some(("city_required", "City is required"))),
    ];
    for (field, value, required) in fields {
        let value = value.trim();
        if value.is_empty() {
            if let Some((code, message)) = required {
                errors.add(field, code, message);
            }
        } else if value.chars().count() > MAX_FIELD_CHARS {
            errors.add(field, "too_long", format!("The {} is too long", field.replace('_', " ")));
        } else if field == "email" && !looks_like_email(value) {
            errors.add("email", "email_invalid", "Please enter a valid email address");
        }
    }
    if input.postal_code.trim().chars().count() > 20 {
        errors.add("postal_code", "too_long", "The postal code is too long");
    }
    let country = Country::parse(input.country.trim());
    if country.is_none() {
        errors.add("country", "country_required", "Country is required");
    }
    if errors.codes().len() > before {
        return None;
    }
    Some(Address {
        first_name: input.first_name.trim().to_owned(),
        last_name: input.last_name.trim().to_owned(),
        email: input.email.trim().to_lowercase(),
        phone: input.phone.trim().to_owned(),
        address: input.address.trim().to_owned(),
        city: input.city.trim().to_owned(),
        postal_code: input.postal_code.trim().to_owned(),
        country: country.map(Country::as_str).unwrap_or_default().to_owned(),
    })
}

/// A line the buyer must look at again before the order can be placed.
fn changed_line(product: &ProductRow, seen_cents: i64, reason: &str) -> serde_json::Value {
    json!({
        "product_id": product.id,
        "title": product.listing.title,
        "title_en": product.listing.title_en,
        "title_fr": product.listing.title_fr,
        "title_sw": product.listing.title_sw,
        "reason": reason,
        "seen_price_cents": seen_cents,
        "price_cents": product.listing.current_price,
        "stock": product.listing.quantity,
        "min_order": product.listing.min_order.ceil() as i64,
        "max_order": product.listing.max_order.map(|m| m.floor() as i64),
    })
}

/// Places `input` for `buyer`. The same `uid` again answers the order it
/// already made (`false`: not created now), so a resent order is never two.
pub fn place(conn: &Connection, buyer: &UserRow, input: &OrderPlace, notify: Notify) -> ApiResult<(OrderRow, bool)> {
    let uid = input.uid.to_lowercase();
    if !is_uuid(&uid) {
        return Err(AppError::invalid("uid", "invalid_uid", "The order id must be a UUID"));
    }
    let known = orders::find_by_uid(conn, &uid)?;
    if let Some(known) = made_once(known, |k| k.buyer_id == buyer.id, "This order id is already in use")? {
        return Ok((known, false));
    }
    let mut errors = FieldErrors::default();
    let payment_method = PaymentMethod::parse(input.payment_method.trim());
    if payment_method.is_none() {
        errors.add("payment_method", "payment_method_invalid", "Choose mobile money or cash on delivery");
    }
    let delivery = Delivery::parse(input.delivery.trim());
    if delivery.is_none() {
        errors.add("delivery", "delivery_invalid", "Choose delivery or pickup");
    }
    if input.lines.is_empty() {
        errors.add("lines", "cart_empty", "Your cart is empty");
    } else if input.lines.len() > MAX_LINES {
        errors.add("lines", "too_many_lines", format!("At most {MAX_LINES} products in one order"));
    }
    let mut seen = std::collections::HashSet::new();
    if input.lines.iter().any(|l| l.quantity < 1 || l.unit_price_cents < 0 || !seen.insert(l.product_id)) {
        errors.add("lines", "lines_invalid", "Each product once, with a quantity of at least 1");
    }
    let address = check_address(&mut errors, &input.shipping, delivery != Some(Delivery::Pickup));
    if let (Some(method), Some(country)) = (payment_method, address.as_ref().and_then(|a| Country::parse(&a.country))) {
        let offered = settings::payments_in(conn, country)?;
        let available = match method {
            PaymentMethod::CashOnDelivery => offered.cash_on_delivery,
            PaymentMethod::MobileMoney => !offered.operators.is_empty(),
        };
        if !available {
            errors.add(
                "payment_method",
                "payment_method_unavailable",
                "This way of paying is not offered in that country",
            );
        }
    }
    errors.finish()?;
    let (Some(payment_method), Some(delivery), Some(address)) = (payment_method, delivery, address) else {
        return Err(AppError::internal("checked order fields missing"));
    };

    // Every line against the catalogue as it is now.
    let mut changes = Vec::new();
    let mut lines: Vec<(ProductRow, i64)> = Vec::with_capacity(input.lines.len());
    for line in &input.lines {
        let Some(product) = products::find(conn, line.product_id)? else {
            changes.push(json!({"product_id": line.product_id, "reason": "off_sale"}));
            continue;
        };
        if product.farmer_id == buyer.id {
            return Err(AppError::invalid("lines", "own_product", "You cannot order your own product"));
        }
        if product.lot.is_some() && delivery == Delivery::Delivery && !product.listing.shipping_available {
            return Err(AppError::invalid(
                "delivery",
                "lot_pickup_only",
                "This cooperative's lot is collected at its store: choose pickup",
            ));
        }
        let listing = &product.listing;
        let reason = if !product.is_listed() {
            Some("off_sale")
        } else if listing.current_price != line.unit_price_cents {
            Some("price_changed")
        } else if line.quantity > listing.quantity {
            Some("short_stock")
        } else if (line.quantity as f64) < listing.min_order.ceil() {
            Some("below_min_order")
        } else if listing.max_order.is_some_and(|max| line.quantity as f64 > max.floor()) {
            Some("above_max_order")
        } else {
            None
        };
        match reason {
            Some(reason) => changes.push(changed_line(&product, line.unit_price_cents, reason)),
            None => lines.push((product, line.quantity)),
        }
    }
    if !changes.is_empty() {
        return Err(AppError::conflict_with(
            ORDER_CHANGED,
            "Some products changed since you added them. Please check your order again.",
            json!({ "lines": changes }),
        ));
    }

    // One part per farmer, in the order the buyer listed them; shipping as the
    // cart shows it: per farmer, the highest shipping price of their products.
    let mut by_farmer: BTreeMap<i64, Vec<(ProductRow, i64)>> = BTreeMap::new();
    for (product, quantity) in lines {
        by_farmer.entry(product.farmer_id).or_default().push((product, quantity));
    }
    let shipping_of = |items: &[(ProductRow, i64)]| match delivery {
        Delivery::Pickup => 0,
        Delivery::Delivery => items
            .iter()
            .filter(|(p, _)| p.listing.shipping_available)
            .map(|(p, _)| p.listing.shipping_cost)
            .max()
            .unwrap_or(0),
    };
    let subtotal_of = |items: &[(ProductRow, i64)]| items.iter().map(|(p, q)| p.listing.current_price * q).sum::<i64>();
    let subtotal: i64 = by_farmer.values().map(|items| subtotal_of(items)).sum();
    let shipping: i64 = by_farmer.values().map(|items| shipping_of(items)).sum();

    let now = clock::now();
    let order_id = orders::insert(
        conn,
        &NewOrder {
            uid: &uid,
            buyer_id: buyer.id,
            subtotal_cents: subtotal,
            shipping_cents: shipping,
            payment_method,
            delivery,
            address: &address,
            version: sync::next_version(conn)?,
            now: &now,
            platform_fee_bp: settings::platform_fee_bp(conn)?,
        },
    )?;
    for (farmer_id, items) in &by_farmer {
        let part_id = orders::insert_part(conn, order_id, *farmer_id, subtotal_of(items), shipping_of(items), &now)?;
        for (product, quantity) in items {
            orders::insert_line(
                conn,
                part_id,
                &NewLine {
                    product_id: product.id,
                    title: &product.listing.title,
                    names: [&product.listing.title_en, &product.listing.title_fr, &product.listing.title_sw],
                    unit: product.listing.unit.as_str(),
                    quantity: *quantity,
                    unit_price_cents: product.listing.current_price,
                },
            )?;
            adjust_stock(conn, product.id, -*quantity)?;
        }
    }
    orders::add_event(conn, order_id, None, "placed", Some(buyer.id), None, &now)?;
    let order = orders::find(conn, order_id)?.ok_or_else(|| AppError::internal("placed order vanished"))?;
    if notify == Notify::People {
        super::email::placed(conn, buyer, &order)?;
    }
    Ok((order, true))
}
