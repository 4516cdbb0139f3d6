//! A farmer's screens (docs/ussd.md), behind the PIN: their products (stock,
//! price, on or off sale) and selling something new; their orders and earnings are
//! `sales.rs`.
//! Every write is the REST API's own domain function, so the same rules,
//! versions and messages to buyers apply, and the farmer's app sees it at its
//! next pull.

use sha2::{Digest, Sha256};
use sync_protocol::{ListingInput, Loose};

use super::menu::{
    Chosen, Ctx, Next, Picked, Screen, Show, amount, choice, chosen, listed, money, page_of, per_unit, pick,
};
use crate::db::products as product_rows;
use crate::db::products::ProductRow;
use crate::domain::prices::{self, CROPS};
use crate::domain::products::{self, ProductRef, parse_cents};
use crate::error::{ApiResult, AppError};
use crate::labels::{LANGUAGES, Lang};
use crate::model::price::PriceUnit;
use crate::model::product::{ProductStatus, Unit};
use crate::model::user::Role;
use crate::platform::gsm7;

/// Products or orders on one screen.
pub(super) const PER_PAGE: usize = 4;
/// The largest stock or quantity typed on a keypad (the app's own limit is higher).
const MAX_UNITS: i64 = 1_000_000;
/// The largest price typed on a keypad, in cents.
const MAX_PRICE_CENTS: i64 = 10_000_000;

pub(super) fn me(ctx: &Ctx<'_>) -> ApiResult<crate::db::users::UserRow> {
    ctx.person
        .clone()
        .filter(|p| p.role == Role::Farmer)
        .ok_or_else(|| AppError::forbidden("farmers_only", "Only farmers sell"))
}

fn unit_word(ctx: &Ctx<'_>, unit: Unit) -> String {
    ctx.text(&format!("units.{}", unit.as_str()))
}

fn own_products(ctx: &Ctx<'_>) -> ApiResult<Vec<ProductRow>> {
    Ok(product_rows::list_for_farmer(ctx.conn, me(ctx)?.id)?)
}

/// One of the farmer's products, by id; never anyone else's; `None` once it is gone.
fn own_product(ctx: &Ctx<'_>, id: i64) -> ApiResult<Option<ProductRow>> {
    Ok(own_products(ctx)?.into_iter().find(|p| p.id == id))
}

pub fn listings_show(ctx: &mut Ctx<'_>, page: usize) -> ApiResult<Show> {
    let all = own_products(ctx)?;
    let (shown, more) = listed(ctx, &all, |p| p.id.to_string(), page, PER_PAGE);
    if shown.is_empty() {
        return Ok(Show::ask(ctx.text("listings.none")));
    }
    let choices = shown
        .iter()
        .map(|p| {
            let Some(p) = p else { return ctx.text("gone") };
            let off = if p.listing.status == ProductStatus::Active {
                String::new()
            } else {
                format!(" ({})", ctx.text("listings.off"))
            };
            let stock = amount(ctx.lang, p.listing.quantity, p.listing.unit.as_str());
            format!("{} {stock}{off}", gsm7::shorten(p.listing.title_in(ctx.lang.code()), 20))
        })
        .collect();
    Ok(Show { text: ctx.text("listings.title"), choices, more })
}

pub fn listings_answer(ctx: &mut Ctx<'_>, page: usize, answer: &str) -> ApiResult<Next> {
    Ok(match chosen(ctx, answer) {
        Chosen::NextPage => Next::Open(Screen::Listings { page: page + 1 }),
        Chosen::Key(key) => match key.parse::<i64>().ok().map(|id| own_product(ctx, id)).transpose()?.flatten() {
            Some(product) => Next::Open(Screen::Listing { id: product.id }),
            None => Next::Again(ctx.text("listing.gone")),
        },
        Chosen::Wrong(why) => Next::Again(why),
        Chosen::Unknown => Next::Again(ctx.text("list_changed")),
    })
}

fn listing_values(ctx: &Ctx<'_>, p: &ProductRow) -> Vec<(&'static str, String)> {
    vec![
        ("title", gsm7::shorten(p.listing.title_in(ctx.lang.code()), 30)),
        ("stock", p.listing.quantity.to_string()),
        ("unit", unit_word(ctx, p.listing.unit)),
        ("one", per_unit(ctx.lang, p.listing.unit.as_str())),
        ("price", ctx.lang.amount(p.listing.current_price)),
    ]
}

fn format_with(ctx: &Ctx<'_>, key: &str, values: &[(&'static str, String)]) -> String {
    let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    ctx.format(key, &values)
}

/// A product's screen: its stock, price and state, and what can be done, each action
/// named for the state it sets ("Take off sale" sets off sale, also when repeated).
pub fn listing_show(ctx: &mut Ctx<'_>, id: i64) -> ApiResult<Show> {
    let Some(p) = own_product(ctx, id)? else { return Ok(Show::ask(ctx.text("listing.gone"))) };
    let on_sale = p.listing.status == ProductStatus::Active;
    let mut values = listing_values(ctx, &p);
    values.push(("state", ctx.text(if on_sale { "listing.on_sale" } else { "listing.off_sale" })));
    let fresh = ["stock", "price", if on_sale { "off" } else { "on" }].map(String::from).to_vec();
    let (keys, _) = ctx.choices_shown(fresh, false);
    Ok(Show {
        text: format_with(ctx, "listing.title", &values),
        choices: keys.iter().map(|k| ctx.text(&format!("listing.{k}"))).collect(),
        more: false,
    })
}

pub fn listing_answer(ctx: &mut Ctx<'_>, id: i64, answer: &str) -> ApiResult<Next> {
    let key = match chosen(ctx, answer) {
        Chosen::Key(key) => key,
        Chosen::Wrong(why) => return Ok(Next::Again(why)),
        Chosen::NextPage | Chosen::Unknown => return Ok(Next::Again(ctx.text("list_changed"))),
    };
    let status = match key.as_str() {
        "stock" => return Ok(Next::Open(Screen::AskStock { id })),
        "price" => return Ok(Next::Open(Screen::AskPrice { id })),
        "off" => ProductStatus::Inactive,
        _ => ProductStatus::Active,
    };
    ctx.write_once(
        |ctx| {
            let Some(p) = own_product(ctx, id)? else { return Ok(Next::End(ctx.text("listing.gone"))) };
            let input = ListingInput { status: Some(status.as_str().to_owned()), ..ListingInput::default() };
            products::update(ctx.conn, &me(ctx)?, ProductRef::Id(id), &input, None)?;
            let done = if status == ProductStatus::Active { "listing.on_done" } else { "listing.off_done" };
            Ok(Next::End(format_with(ctx, done, &listing_values(ctx, &p))))
        },
        || Next::End(String::new()),
    )
}

pub fn ask_stock_show(ctx: &mut Ctx<'_>, id: i64) -> ApiResult<Show> {
    let Some(p) = own_product(ctx, id)? else { return Ok(Show::ask(ctx.text("listing.gone"))) };
    Ok(Show::ask(format_with(ctx, "listing.ask_stock", &listing_values(ctx, &p))))
}

pub fn ask_price_show(ctx: &mut Ctx<'_>, id: i64) -> ApiResult<Show> {
    let Some(p) = own_product(ctx, id)? else { return Ok(Show::ask(ctx.text("listing.gone"))) };
    Ok(Show::ask(format_with(ctx, "listing.ask_price", &listing_values(ctx, &p))))
}

/// "None left?": a stock of 0 asked to be confirmed (`0` is "back" on every other screen).
pub fn zero_show(ctx: &mut Ctx<'_>, id: i64) -> ApiResult<Show> {
    let Some(p) = own_product(ctx, id)? else { return Ok(Show::ask(ctx.text("listing.gone"))) };
    Ok(Show {
        text: format_with(ctx, "listing.zero", &listing_values(ctx, &p)),
        choices: vec![ctx.text("listing.zero_yes"), ctx.text("no")],
        more: false,
    })
}

pub fn zero_answer(ctx: &mut Ctx<'_>, id: i64, answer: &str) -> ApiResult<Next> {
    match choice(ctx, answer, 2) {
        Ok(0) => set_stock(ctx, id, 0),
        Ok(_) => Ok(Next::Back),
        Err(why) => Ok(Next::Again(why)),
    }
}

/// A whole number typed on a keypad, from `min` to `MAX_UNITS`, or why not.
fn whole(ctx: &Ctx<'_>, answer: &str, min: i64) -> Result<i64, String> {
    let why = || ctx.format("number.whole", &[("min", &min.to_string()), ("max", &MAX_UNITS.to_string())]);
    if answer.is_empty() || answer.len() > 7 || !answer.chars().all(|c| c.is_ascii_digit()) {
        return Err(why());
    }
    answer.parse::<i64>().ok().filter(|n| (min..=MAX_UNITS).contains(n)).ok_or_else(why)
}

/// A price typed on a keypad (`1.25`; `*` cannot be typed inside an answer, so `1#25` is read too).
fn price(ctx: &Ctx<'_>, answer: &str) -> Result<i64, String> {
    let why = || ctx.format("number.price", &[("max", &ctx.lang.amount(MAX_PRICE_CENTS))]);
    let typed = answer.replace(['#', ','], ".");
    parse_cents(&Loose::Text(typed)).filter(|c| (1..=MAX_PRICE_CENTS).contains(c)).ok_or_else(why)
}

pub fn stock_answer(ctx: &mut Ctx<'_>, id: i64, answer: &str) -> ApiResult<Next> {
    if answer == "0" {
        return Ok(Next::Swap(Screen::ConfirmZero { id }, None));
    }
    match whole(ctx, answer, 0) {
        Ok(stock) => set_stock(ctx, id, stock),
        Err(why) => Ok(Next::Again(why)),
    }
}

/// Sets the stock to what was typed (a replay sets it again to the same).
fn set_stock(ctx: &mut Ctx<'_>, id: i64, stock: i64) -> ApiResult<Next> {
    ctx.write_once(
        |ctx| {
            let Some(p) = own_product(ctx, id)? else { return Ok(Next::End(ctx.text("listing.gone"))) };
            // Stock is a counter (docs/products.md): the difference is added, as the app's edits are.
            let after = products::adjust_stock(ctx.conn, &me(ctx)?, ProductRef::Id(id), stock - p.listing.quantity)?;
            Ok(Next::End(format_with(ctx, "listing.stock_done", &listing_values(ctx, &after))))
        },
        || Next::End(String::new()),
    )
}

pub fn price_answer(ctx: &mut Ctx<'_>, id: i64, answer: &str) -> ApiResult<Next> {
    let cents = match price(ctx, answer) {
        Ok(c) => c,
        Err(why) => return Ok(Next::Again(why)),
    };
    ctx.write_once(
        |ctx| {
            let typed = Some(Loose::Text(money(cents)));
            let input = ListingInput { price: typed.clone(), current_price: typed, ..ListingInput::default() };
            let (after, _) = products::update(ctx.conn, &me(ctx)?, ProductRef::Id(id), &input, None)?;
            Ok(Next::End(format_with(ctx, "listing.price_done", &listing_values(ctx, &after))))
        },
        || Next::End(String::new()),
    )
}

/// A new product's answers so far: the crop, how much, the price. Its unit is the
/// crop's usual one, and the rest (smallest order, delivery) the farmer's own last
/// listing's (`defaults`): four answers after the PIN.
#[derive(Debug, Clone, Default)]
pub struct SellDraft {
    /// An index of `CROPS`.
    crop: Option<usize>,
    page: usize,
    quantity: Option<i64>,
    price: Option<i64>,
}

use super::screens::CROPS_PER_PAGE;

/// What a new listing of `crop` takes from the farmer's own listings: the newest of the
/// same crop, else the newest at all (its delivery only).
struct Defaults {
    min_order: i64,
    shipping: Option<ProductRow>,
}

fn defaults(ctx: &Ctx<'_>, crop: &prices::Crop) -> ApiResult<Defaults> {
    let own = own_products(ctx)?;
    let same = own.iter().find(|p| crop.names(&p.listing.all_names()));
    let min_order = same.map_or(1, |p| p.listing.min_order.ceil() as i64).max(1);
    Ok(Defaults { min_order, shipping: same.or(own.first()).cloned() })
}

pub fn sell_show(ctx: &Ctx<'_>, d: &SellDraft) -> ApiResult<Show> {
    let Some(crop) = d.crop.map(|i| &CROPS[i]) else {
        let (shown, more) = page_of(CROPS, d.page, CROPS_PER_PAGE);
        return Ok(Show {
            text: ctx.text("sell.crop"),
            choices: shown.iter().map(|c| c.name(ctx.lang)).collect(),
            more,
        });
    };
    let unit = unit_word(ctx, crop.unit);
    let one = per_unit(ctx.lang, crop.unit.as_str());
    Ok(match d {
        SellDraft { quantity: None, .. } => Show::ask(ctx.format("sell.quantity", &[("unit", &unit)])),
        SellDraft { price: None, .. } => match price_range(ctx, crop, crop.unit) {
            Some((low, high)) => {
                Show::ask(ctx.format("sell.price_range", &[("one", &one), ("low", &low), ("high", &high)]))
            }
            None => Show::ask(ctx.format("sell.price", &[("one", &one)])),
        },
        SellDraft { quantity: Some(q), price: Some(p), .. } => Show {
            text: ctx.format(
                "sell.confirm",
                &[
                    ("title", &crop.name(ctx.lang)),
                    ("quantity", &q.to_string()),
                    ("unit", &unit),
                    ("one", &one),
                    ("price", &ctx.lang.amount(*p)),
                    ("min", &defaults(ctx, crop)?.min_order.min(*q).to_string()),
                ],
            ),
            choices: vec![ctx.text("yes"), ctx.text("no")],
            more: false,
        },
    })
}

/// What buyers paid lately for the crop in this unit near the farmer (docs/prices.md),
/// as a hint while pricing; a hint that cannot be read is left out.
fn price_range(ctx: &Ctx<'_>, crop: &prices::Crop, unit: Unit) -> Option<(String, String)> {
    let unit = PriceUnit::parse(unit.as_str())?;
    let place = ctx.person.as_ref().and_then(|p| p.location.as_deref());
    let range = prices::board::range(ctx.conn, crop, unit, place).ok()??;
    let amount = |micros| ctx.lang.amount(prices::usd_cents(micros));
    Some((amount(range.low_usd_micros), amount(range.high_usd_micros)))
}

pub fn sell_answer(ctx: &mut Ctx<'_>, d: &SellDraft, answer: &str) -> ApiResult<Next> {
    let mut next = d.clone();
    let refused = |why: String| Ok(Next::Again(why));
    match d {
        SellDraft { crop: None, page, .. } => match pick(ctx, answer, CROPS, *page, CROPS_PER_PAGE) {
            Picked::NextPage => {
                next.page += 1;
                return Ok(Next::Open(Screen::Sell(next)));
            }
            Picked::Item(crop) => next.crop = CROPS.iter().position(|c| c.key == crop.key),
            Picked::Wrong(why) => return refused(why),
        },
        SellDraft { quantity: None, .. } => match whole(ctx, answer, 1) {
            Ok(n) => next.quantity = Some(n),
            Err(why) => return refused(why),
        },
        SellDraft { price: None, .. } => match price(ctx, answer) {
            Ok(c) => next.price = Some(c),
            Err(why) => return refused(why),
        },
        _ => {
            return match choice(ctx, answer, 2) {
                Ok(0) => ctx.write_once(|ctx| list(ctx, d), || Next::End(String::new())),
                Ok(_) => Ok(Next::End(ctx.text("join.cancelled"))),
                Err(why) => refused(why),
            };
        }
    }
    Ok(Next::Open(Screen::Sell(next)))
}

/// Puts the draft on sale, under an id made from the session and the answer, so
/// that the same confirmation sent again finds the product it made.
fn list(ctx: &mut Ctx<'_>, d: &SellDraft) -> ApiResult<Next> {
    let farmer = me(ctx)?;
    let crop = &CROPS[d.crop.unwrap_or(0)];
    let title = crop.name(ctx.lang);
    let names: Vec<String> = LANGUAGES.iter().map(|code| crop.name(Lang::parse(Some(code)))).collect();
    let place = farmer.location.clone().unwrap_or_else(|| "-".to_owned());
    let Defaults { min_order, shipping } = defaults(ctx, crop)?;
    let text = |n: i64| Some(Loose::Text(n.to_string()));
    let described = |n: usize| {
        let lang = Lang::parse(Some(LANGUAGES[n]));
        lang.format("ussd.sell.description", &[("title", &names[n]), ("place", &lang.place(&place))])
    };
    let mut input = ListingInput {
        title: Some(title.clone()),
        title_en: Some(names[0].clone()),
        title_fr: Some(names[1].clone()),
        title_sw: Some(names[2].clone()),
        // Written in the farmer's language, the place too ("Kabare, Sud-Kivu"), and in
        // the platform's others for buyers reading them.
        description: Some(ctx.format("sell.description", &[("title", &title), ("place", &ctx.lang.place(&place))])),
        description_en: Some(described(0)),
        description_fr: Some(described(1)),
        description_sw: Some(described(2)),
        category: Some(crop.category.as_str().to_owned()),
        unit: Some(crop.unit.as_str().to_owned()),
        quantity: d.quantity.and_then(text),
        price: d.price.map(|c| Loose::Text(money(c))),
        current_price: d.price.map(|c| Loose::Text(money(c))),
        min_order: text(min_order.min(d.quantity.unwrap_or(1))),
        status: Some(ProductStatus::Active.as_str().to_owned()),
        ..ListingInput::default()
    };
    // Delivered as the farmer's last listing is (the app's defaults when there is none).
    if let Some(last) = shipping {
        input.shipping_available = Some(Loose::Bool(last.listing.shipping_available));
        input.shipping_cost = Some(Loose::Text(money(last.listing.shipping_cost)));
        input.shipping_days = last.listing.shipping_days.clone();
    }
    let digest = Sha256::digest(format!("ussd:{}:{}:{}", ctx.phone, ctx.session, ctx.step));
    let uid = uuid::Builder::from_random_bytes(digest[..16].try_into().unwrap_or_default()).into_uuid().to_string();
    products::create(ctx.conn, &farmer, Some(uid), &input)?;
    Ok(Next::End(ctx.format("sell.done", &[("title", &title)])))
}
