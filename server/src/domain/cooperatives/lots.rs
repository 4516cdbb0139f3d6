//! A cooperative's lots (docs/cooperatives.md, Lots): a manager draws a lot from the
//! unsold stock of one crop and grade, oldest entries first, and it goes on sale as a
//! product of the cooperative's seller account, so buyers order it through the usual
//! checkout, payments and stock reservations. When a part of an order for it is
//! delivered, what the buyer paid, less the platform's fee and the cooperative's, is
//! shared between the members who put into it (`share_part`).

use sync_protocol::{ListingInput, Loose};

use crate::db::Connection;
use crate::db::cooperatives::{self as coop_rows, CooperativeRow};
use crate::db::lots::{self as rows, LotRow, NewLot};
use crate::db::orders::{OrderRow, PartRow};
use crate::db::users::{self, NewUser, UserRow};
use crate::domain::made_once;
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::labels::{LANGUAGES, Lang};
use crate::model::cooperative::{Grade, STORE_DAYS, kilograms, week_days};
use crate::model::user::{Country, Role, Status};
use crate::platform::{clock, gsm7};

use super::split;

/// A lot is at most 1,000 tonnes (a product's stock bound is far above).
pub const MAX_LOT_KG: i64 = 1_000_000;
pub const MAX_PICKUP_CHARS: usize = 60;

pub fn not_found() -> AppError {
    AppError::not_found("lot_not_found", "This lot does not exist")
}

/// What a manager sends to make a lot.
pub struct LotInput<'a> {
    /// Made by the client: the same uid again answers the lot made first.
    pub uid: &'a str,
    pub crop: &'a str,
    pub grade: &'a str,
    /// Whole kilograms.
    pub kilograms: Option<i64>,
    /// US dollars per kg, as typed ("0.85").
    pub price: Option<Loose>,
    /// The smallest order, in kg (1 when not given).
    pub min_order: Option<i64>,
    pub pickup: &'a str,
    /// The days it is collected on (`WEEKDAYS`); Monday to Saturday when not given.
    pub pickup_days: Option<&'a [String]>,
    /// US dollars: the cooperative delivers it too, for this cost (0: free). Not given:
    /// it is only collected.
    pub delivery_cost: Option<Loose>,
}

/// Where a cooperative sells: "Kavumu, Kabare"; "Walungu" where the market is named
/// after its territory.
fn place_of(cooperative: &CooperativeRow) -> String {
    if cooperative.market_name == cooperative.territory {
        cooperative.market_name.clone()
    } else {
        format!("{}, {}", cooperative.market_name, cooperative.territory)
    }
}

/// An admin changed a cooperative: its seller account follows (its name and place, and
/// suspended, its lots leave the marketplace; phones learn it as for any farmer).
pub fn follow(conn: &Connection, cooperative: &CooperativeRow) -> ApiResult<()> {
    let Some(seller) = cooperative.seller_id else { return Ok(()) };
    let now = clock::now();
    let changes = users::ProfileChanges {
        first_name: Some(cooperative.name.clone()),
        location: Some(place_of(cooperative)),
        ..Default::default()
    };
    users::update_profile(conn, seller, &changes, &now)?;
    let status = match cooperative.status {
        crate::model::cooperative::Status::Active => Status::Active,
        crate::model::cooperative::Status::Suspended => Status::Inactive,
    };
    users::set_role_and_status(conn, seller, Role::Farmer, status, &now)?;
    crate::db::product_search::touch_farmer(conn, seller)?;
    Ok(())
}

/// The account a cooperative's lots are sold under, made with its first lot: a farmer
/// account named after it, at its market (so its sales count as that market's prices),
/// with no password anyone knows, no phone and an address nobody receives mail at.
fn seller(conn: &Connection, cooperative: &CooperativeRow) -> ApiResult<UserRow> {
    if let Some(id) = cooperative.seller_id {
        return users::find(conn, id)?.ok_or_else(|| AppError::internal("a cooperative's seller account is gone"));
    }
    let now = clock::now();
    let account = NewUser {
        email: Some(format!("cooperative-{}@sellers.mavuno.invalid", cooperative.id)),
        password_hash: "!".to_owned(),
        first_name: cooperative.name.clone(),
        last_name: String::new(),
        phone_number: None,
        country: Some(Country::Drc),
        role: Role::Farmer,
        status: Status::Active,
        location: Some(place_of(cooperative)),
        avatar: None,
    };
    let id = users::insert(conn, &account, &now)?
        .ok_or_else(|| AppError::conflict("seller_taken", "The cooperative's seller account is already in use"))?;
    coop_rows::set_seller(conn, cooperative.id, id)?;
    users::find(conn, id)?.ok_or_else(|| AppError::internal("a seller account just made is gone"))
}

/// The cooperative a seller account sells for, if it is one's.
pub fn selling_as(conn: &Connection, seller_id: i64) -> ApiResult<Option<CooperativeRow>> {
    Ok(coop_rows::selling_as(conn, seller_id)?)
}

/// The sellers a person acts for: themself, and the cooperatives they manage.
pub fn sells_for(conn: &Connection, user_id: i64) -> ApiResult<Vec<i64>> {
    let mut sellers = vec![user_id];
    sellers.extend(coop_rows::managed_sellers(conn, user_id)?);
    Ok(sellers)
}

/// Whether `user` may act as the seller `seller_id`: it is them, or a cooperative's
/// account and they are one of its active managers.
pub fn acts_for(conn: &Connection, user: &UserRow, seller_id: i64) -> ApiResult<bool> {
    if user.id == seller_id {
        return Ok(true);
    }
    match selling_as(conn, seller_id)? {
        Some(cooperative) => super::manages(conn, user, cooperative.id),
        None => Ok(false),
    }
}

fn price_cents(price: Option<&Loose>) -> Option<i64> {
    cents_within(price?, 1..=1_000_000)
}

/// US dollars ("1,10", 1.1) as cents, when they fall within `range`.
fn cents_within(dollars: &Loose, range: std::ops::RangeInclusive<i64>) -> Option<i64> {
    let dollars = match dollars {
        Loose::Number(n) => *n,
        Loose::Text(t) => t.trim().replace(',', ".").parse::<f64>().ok()?,
        Loose::Bool(_) => return None,
    };
    let cents = (dollars * 100.0).round();
    (dollars.is_finite() && cents >= *range.start() as f64 && cents <= *range.end() as f64).then_some(cents as i64)
}

/// Makes a lot (or answers the one made with this uid already).
pub fn make(
    conn: &Connection,
    manager: &UserRow,
    cooperative_id: i64,
    input: &LotInput<'_>,
) -> ApiResult<(LotRow, bool)> {
    let cooperative = super::must_manage(conn, manager, cooperative_id, false)?;
    let uid = input.uid.trim().to_lowercase();
    if !crate::domain::is_uuid(&uid) {
        return Err(AppError::bad_request("invalid_uid", "uid must be a UUID"));
    }
    let known = rows::by_uid(conn, &uid)?;
    if let Some(known) = made_once(known, |k| k.cooperative_id == cooperative.id, "This uid names another lot")? {
        return Ok((known, false));
    }
    super::active(conn, cooperative.id)?;
    let mut errors = FieldErrors::default();
    let crop = crate::domain::prices::crop(input.crop.trim());
    if crop.is_none() {
        errors.add("crop", "crop_unknown", "Choose a crop of the list");
    }
    let grade = Grade::parse(input.grade.trim());
    if grade.is_none() {
        errors.add("grade", "invalid_option", "The grade is A, B or C");
    }
    let kg = input.kilograms.filter(|kg| (1..=MAX_LOT_KG).contains(kg));
    if kg.is_none() {
        errors.add("kilograms", "lot_size_invalid", "The lot is a whole number of kilograms, at least 1");
    }
    let price = price_cents(input.price.as_ref());
    if price.is_none() {
        errors.add("price", "market_price_invalid", "The price per kg is a positive amount in US dollars");
    }
    let min_order = input.min_order.unwrap_or(1);
    if min_order < 1 || kg.is_some_and(|kg| min_order > kg) {
        errors.add("min_order", "lot_min_order_invalid", "The smallest order is at least 1 kg and at most the lot");
    }
    let pickup = input.pickup.trim();
    if pickup.is_empty() {
        errors.add("pickup", "required", "Say where the buyer collects the lot");
    } else if pickup.chars().count() > MAX_PICKUP_CHARS {
        errors.add("pickup", "too_long", format!("The place is at most {MAX_PICKUP_CHARS} characters"));
    }
    let pickup_days = input.pickup_days.map_or_else(|| Some(STORE_DAYS.to_owned()), week_days);
    if pickup_days.is_none() {
        errors.add("pickup_days", "pickup_days_invalid", "Choose at least one day buyers can collect it (mon to sun)");
    }
    // A delivery cost is at most a lot's price bound: 10,000 US dollars.
    let delivery_cents = input.delivery_cost.as_ref().map(|cost| cents_within(cost, 0..=1_000_000));
    if delivery_cents.is_some_and(|cents| cents.is_none()) {
        errors.add("delivery_cost", "delivery_cost_invalid", "The delivery cost is an amount in US dollars, 0 or more");
    }
    let unsold = match (crop, grade) {
        (Some(crop), Some(grade)) => rows::unsold(conn, cooperative.id, crop.key, grade)?,
        _ => Vec::new(),
    };
    let held: i64 = unsold.iter().map(|u| u.grams).sum();
    if let (Some(crop), Some(grade), Some(kg)) = (crop, grade, kg) {
        if kg * 1000 > held {
            errors.add(
                "kilograms",
                "more_than_stock",
                format!("Only {} kg of {} grade {grade} are held and not in a lot", kilograms(held), crop.key),
            );
        }
    }
    errors.finish()?;
    let (Some(crop), Some(grade), Some(kg), Some(price), Some(pickup_days)) = (crop, grade, kg, price, pickup_days)
    else {
        return Err(AppError::internal("a checked lot lost a field"));
    };

    // Oldest entries first; the last one drawn may be split with a later lot.
    let mut wanted = kg * 1000;
    let mut drawn = Vec::new();
    for entry in unsold {
        if wanted == 0 {
            break;
        }
        let take = entry.grams.min(wanted);
        wanted -= take;
        drawn.push((entry, take));
    }
    let mut members: Vec<i64> = drawn.iter().map(|(e, _)| e.member_id).collect();
    members.sort_unstable();
    members.dedup();
    let collected_from = drawn.iter().map(|(e, _)| e.delivered_on.clone()).min().unwrap_or_default();
    let collected_to = drawn.iter().map(|(e, _)| e.delivered_on.clone()).max().unwrap_or_default();

    let seller = seller(conn, &cooperative)?;
    // Lots are numbered in each cooperative, so two lots of one crop and grade differ.
    let number = coop_rows::next_lot_number(conn, cooperative.id)?;
    let text = |lang: Lang, key: &str| {
        lang.plural(
            key,
            members.len() as i64,
            &[
                ("crop", &crop.name(lang)),
                ("grade", grade.as_str()),
                ("number", &number.to_string()),
                ("coop", &cooperative.name),
                ("kg", &lang.whole(kg)),
                ("from", &lang.long_date(&collected_from)),
                ("to", &lang.long_date(&collected_to)),
                ("pickup", pickup),
            ],
        )
    };
    let in_each = |key: &str| LANGUAGES.map(|code| Some(text(Lang::parse(Some(code)), key)));
    let [title_en, title_fr, title_sw] = in_each("cooperative.lot_title");
    let [description_en, description_fr, description_sw] = in_each("cooperative.lot_description");
    let dollars = Loose::Text(format!("{}.{:02}", price / 100, price % 100));
    let listing = ListingInput {
        title: title_en.clone(),
        title_en,
        title_fr,
        title_sw,
        description: description_en.clone(),
        description_en,
        description_fr,
        description_sw,
        category: Some(crop.category.as_str().to_owned()),
        unit: Some("kg".to_owned()),
        quantity: Some(Loose::Number(kg as f64)),
        price: Some(dollars.clone()),
        current_price: Some(dollars),
        status: Some("active".to_owned()),
        harvest_date: Some(collected_to.clone()),
        shipping_available: Some(Loose::Bool(delivery_cents.is_some())),
        shipping_cost: Some(Loose::Number(delivery_cents.flatten().unwrap_or(0) as f64 / 100.0)),
        min_order: Some(Loose::Number(min_order as f64)),
        tags: Some(vec![crop.key.to_owned(), format!("grade-{}", grade.as_str().to_lowercase())]),
        ..ListingInput::default()
    };
    let (product, _) = crate::domain::products::create(conn, &seller, None, &listing)?;
    let id = rows::insert(
        conn,
        &NewLot {
            uid: &uid,
            cooperative_id: cooperative.id,
            number,
            product_id: product.id,
            crop: crop.key,
            grade,
            grams: kg * 1000,
            members: members.len() as i64,
            collected_from: &collected_from,
            collected_to: &collected_to,
            pickup,
            pickup_days: &pickup_days,
            created_by: manager.id,
        },
        &clock::now(),
    )?;
    for (entry, grams) in &drawn {
        rows::add_source(conn, id, entry.delivery_id, *grams)?;
    }
    Ok((rows::find(conn, id)?.ok_or_else(not_found)?, true))
}

/// What a manager changes of a lot on sale: its price, or taking it off sale.
pub struct LotChange {
    /// US dollars per kg.
    pub price: Option<Loose>,
    /// `false` takes it off sale; what was not ordered goes back to the stock.
    pub on_sale: Option<bool>,
}

/// Changes a lot's price, or takes it off sale: its kilograms not ordered go back to the
/// stock, the latest deliveries first (what was ordered stays in the lot, and is shared by
/// what each member still has in it). A lot nothing was ordered from goes altogether
/// (`None`). A lot off sale is not put back: make a new one.
pub fn change(
    conn: &Connection,
    manager: &UserRow,
    cooperative_id: i64,
    lot_id: i64,
    change: &LotChange,
) -> ApiResult<Option<LotRow>> {
    let cooperative = super::must_manage(conn, manager, cooperative_id, false)?;
    let lot = rows::find(conn, lot_id)?.filter(|l| l.cooperative_id == cooperative.id).ok_or_else(not_found)?;
    if lot.withdrawn {
        return Err(AppError::conflict("lot_withdrawn", "This lot is off sale: make a new one"));
    }
    let seller = seller(conn, &cooperative)?;
    let product = crate::domain::products::ProductRef::Id(lot.product_id);
    if let Some(price) = &change.price {
        let Some(cents) = price_cents(Some(price)) else {
            return Err(AppError::invalid("price", "market_price_invalid", "The price per kg is a positive amount"));
        };
        let dollars = Loose::Text(format!("{}.{:02}", cents / 100, cents % 100));
        let input = ListingInput { price: Some(dollars.clone()), current_price: Some(dollars), ..Default::default() };
        crate::domain::products::update(conn, &seller, product, &input, None)?;
    }
    if change.on_sale == Some(false) {
        let left = lot.on_sale_kg;
        if left * 1000 >= lot.grams {
            // Nothing was ordered: the lot goes, its product too.
            crate::domain::products::delete(conn, &seller, product)?;
            rows::delete(conn, lot.id)?;
            return Ok(None);
        }
        crate::domain::products::adjust_stock(conn, &seller, product, -left)?;
        let off = ListingInput { status: Some("inactive".to_owned()), ..Default::default() };
        crate::domain::products::update(conn, &seller, product, &off, None)?;
        let mut giving = left * 1000;
        for (delivery, grams) in rows::sources_latest_first(conn, lot.id)? {
            if giving == 0 {
                break;
            }
            let back = grams.min(giving);
            rows::set_source(conn, lot.id, delivery, grams - back)?;
            giving -= back;
        }
        rows::reshape(conn, lot.id)?;
    }
    Ok(rows::find(conn, lot.id)?)
}

/// A cooperative's lots, for its managers (and admins).
pub fn of_cooperative(conn: &Connection, viewer: &UserRow, cooperative_id: i64) -> ApiResult<Vec<LotRow>> {
    super::must_manage(conn, viewer, cooperative_id, true)?;
    Ok(rows::of_cooperative(conn, cooperative_id)?)
}

/// A lot anyone may read about (its origin report): one on sale or sold, of a
/// cooperative that is not suspended.
pub fn public(conn: &Connection, id: i64) -> ApiResult<LotRow> {
    let lot = rows::find(conn, id)?.ok_or_else(not_found)?;
    let cooperative = coop_rows::find(conn, lot.cooperative_id)?.ok_or_else(not_found)?;
    if cooperative.status != crate::model::cooperative::Status::Active {
        return Err(not_found());
    }
    Ok(lot)
}

/// One member's line of a lot's origin, as a buyer reads it: named only when the member
/// agreed; the plot's place only when recorded.
pub struct Origin {
    pub lot: LotRow,
    pub territory: String,
    pub members: Vec<rows::OriginRow>,
}

pub fn origin(conn: &Connection, id: i64) -> ApiResult<Origin> {
    let lot = public(conn, id)?;
    let cooperative = coop_rows::find(conn, lot.cooperative_id)?.ok_or_else(not_found)?;
    let mut members = rows::origin(conn, id)?;
    for member in members.iter_mut().filter(|m| !m.named) {
        member.name = String::new();
    }
    Ok(Origin { lot, territory: cooperative.territory, members })
}

/// A part of an order was delivered: when its seller is a cooperative, what the buyer
/// paid for each lot in it (its share of the part's amount, which includes delivery,
/// less the platform's fee the order was placed with and the cooperative's own fee) is
/// shared between the members by the grams each put into that lot, and written to the
/// ledger: a `share` entry per member and a `shared` entry (the sum, negative) for the
/// cooperative, whose balance is then its fee. Each member is told by SMS. Writing it
/// twice changes nothing.
pub fn share_part(conn: &Connection, order: &OrderRow, part: &PartRow, now: &str) -> ApiResult<()> {
    let Some(cooperative) = selling_as(conn, part.farmer_id)? else { return Ok(()) };
    let lots = rows::in_part(conn, part.id)?;
    if lots.is_empty() {
        return Ok(());
    }
    let amount = part.subtotal_cents + part.shipping_cents;
    let platform = split::fee(amount, order.platform_fee_bp);
    let own = split::fee(amount, cooperative.fee_bp);
    let pot = (amount - platform - own).max(0);
    // The pot by what was paid for each lot (any other line of the part weighs in too).
    let other = part.subtotal_cents - lots.iter().map(|(_, c)| c).sum::<i64>();
    let mut weights = lots;
    weights.push((0, other.max(0)));
    let by_lot = split::shares(pot, &weights);
    let mut per_member: std::collections::BTreeMap<i64, i64> = std::collections::BTreeMap::new();
    for (lot_id, cents) in by_lot.into_iter().filter(|(lot, _)| *lot != 0) {
        for (member, share) in split::shares(cents, &rows::contributions(conn, lot_id)?) {
            *per_member.entry(member).or_default() += share;
        }
    }
    let given: i64 = per_member.values().sum();
    let earnings =
        crate::db::earnings::Ledger { order_id: order.id, part_id: part.id, currency: &order.currency, at: now };
    if !earnings.add(conn, part.farmer_id, "shared", -given)? {
        return Ok(()); // shared already
    }
    let coop = gsm7::cut(&cooperative.name, super::deliveries::COOP_SMS_CHARS);
    for (member_id, cents) in per_member {
        earnings.add(conn, member_id, "share", cents)?;
        if let Some(member) = users::find(conn, member_id)? {
            let lang = crate::domain::sms::lang_of(conn, &member)?;
            let amount = format!("{} {}", lang.amount(cents), order.currency);
            let reference = format!("{}", order.id);
            crate::domain::sms::send(
                conn,
                &member,
                "coop_share",
                &[("coop", &coop), ("amount", &amount), ("order", &reference)],
            )?;
        }
    }
    Ok(())
}
