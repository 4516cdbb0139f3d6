//! The demo's cooperatives (docs/cooperatives.md), made once through the domain's own
//! functions as their people would: a coffee cooperative in Kabare managed by the field
//! agent, a beans cooperative in Walungu managed by a farmer, their members, and three
//! weeks of deliveries with one disputed and corrected; a coffee lot sold to the demo
//! buyer and delivered (its members paid their shares), and a lot of each on sale.
//! Admins edit or suspend them like any.

use crate::db::users::UserRow;
use crate::db::{Connection, meta, users};
use crate::domain::cooperatives::deliveries::{self, DeliveryInput};
use crate::domain::cooperatives::lots::{self, LotInput};
use crate::domain::cooperatives::{self, CooperativeInput, MemberChange};
use crate::domain::orders::{self, Notify, OrderRef};
use crate::error::{ApiResult, AppError};
use crate::state::AppState;

const SEEDED_KEY: &str = "demo_cooperatives_seeded";

struct DemoCooperative {
    name: &'static str,
    territory: &'static str,
    market: &'static str,
    description: &'static str,
    fee_percent: f64,
    manager: &'static str,
    members: &'static [&'static str],
    crop: &'static str,
    place: &'static str,
    /// (member, grade, kilograms, days ago)
    deliveries: &'static [(&'static str, &'static str, &'static str, i64)],
}

const COOPERATIVES: &[DemoCooperative] = &[
    DemoCooperative {
        name: "Kabare Coffee Growers",
        territory: "Kabare",
        market: "Kavumu",
        description: "Washed arabica from the hills above Lake Kivu, weighed in at Kavumu every Saturday.",
        fee_percent: 3.0,
        manager: "agent@mavuno.demo",
        members: &["farmer@mavuno.demo", "esther@mavuno.demo"],
        crop: "coffee",
        place: "Kavumu station",
        deliveries: &[
            ("farmer@mavuno.demo", "A", "62.5", 20),
            ("esther@mavuno.demo", "A", "41", 20),
            ("farmer@mavuno.demo", "B", "18", 13),
            ("esther@mavuno.demo", "A", "55.5", 13),
            ("farmer@mavuno.demo", "A", "70", 6),
        ],
    },
    DemoCooperative {
        name: "Walungu Bean Cooperative",
        territory: "Walungu",
        market: "Walungu",
        description: "Red and yellow beans from Walungu's farms, sold by the tonne to schools and traders.",
        fee_percent: 2.0,
        manager: "esther@mavuno.demo",
        members: &["farmer@mavuno.demo", "habimana@mavuno.demo"],
        crop: "bean",
        place: "Walungu centre",
        deliveries: &[
            ("habimana@mavuno.demo", "A", "120", 19),
            ("farmer@mavuno.demo", "B", "85", 12),
            ("habimana@mavuno.demo", "A", "96.5", 5),
        ],
    },
];

fn person(tx: &Connection, email: &str) -> ApiResult<UserRow> {
    users::find_by_email(tx, email)?.ok_or_else(|| AppError::internal(format!("demo account {email} missing")))
}

fn seed_one(tx: &Connection, admin: &UserRow, demo: &DemoCooperative, first_uid: u32) -> ApiResult<()> {
    let market = crate::db::prices::market_named(tx, demo.market)?;
    let made = cooperatives::create(
        tx,
        admin,
        &CooperativeInput {
            name: Some(demo.name),
            territory: Some(demo.territory),
            market_id: market.map(|m| m.id),
            description: Some(demo.description),
            fee_percent: Some(demo.fee_percent),
            status: None,
        },
    )?;
    let manager = person(tx, demo.manager)?;
    let name_manager = MemberChange { status: Some("active"), role: Some("manager") };
    cooperatives::change_member(tx, admin, made.id, manager.id, &name_manager)?;
    for email in demo.members {
        let farmer = person(tx, email)?;
        cooperatives::ask_to_join(tx, &farmer, made.id)?;
        cooperatives::change_member(
            tx,
            &manager,
            made.id,
            farmer.id,
            &MemberChange { status: Some("active"), role: None },
        )?;
    }
    let today = crate::domain::prices::today();
    for (n, (email, grade, kilograms, days_ago)) in demo.deliveries.iter().enumerate() {
        let member = person(tx, email)?;
        let uid = format!("de000000-0000-4000-8000-{:012}", first_uid as usize + n);
        let day = (today - time::Duration::days(*days_ago)).to_string();
        deliveries::record(
            tx,
            &manager,
            &DeliveryInput {
                uid: &uid,
                cooperative_id: made.id,
                member_id: member.id,
                crop: demo.crop,
                grade,
                quantity: kilograms,
                unit: "kg",
                delivered_on: &day,
                place: demo.place,
                ..Default::default()
            },
        )?;
    }
    Ok(())
}

/// One entry disputed by its member and corrected by the manager, as the book shows them.
fn dispute_and_correct(tx: &Connection) -> ApiResult<()> {
    let (Some(entry), Some(farmer), Some(agent)) = (
        crate::db::deliveries::by_uid(tx, "de000000-0000-4000-8000-000000000102")?,
        users::find_by_email(tx, "farmer@mavuno.demo")?,
        users::find_by_email(tx, "agent@mavuno.demo")?,
    ) else {
        return Ok(());
    };
    deliveries::dispute(tx, &farmer, entry.id, "It was 20 kg: one bag was not counted")?;
    deliveries::record(
        tx,
        &agent,
        &DeliveryInput {
            uid: "de000000-0000-4000-8000-000000000199",
            cooperative_id: entry.cooperative_id,
            member_id: farmer.id,
            crop: &entry.crop,
            grade: entry.grade.as_str(),
            quantity: "20",
            unit: "kg",
            delivered_on: &entry.delivered_on,
            place: &entry.place,
            replaces: Some(&entry.uid),
            note: Some("The second bag was weighed after the book closed"),
            ..Default::default()
        },
    )?;
    Ok(())
}

/// (cooperative, lot uid's number, crop, grade, kg, price, kg the demo buyer took and received)
/// The demo's lots, all grade A: the coffee is collected Monday to Saturday, the beans on
/// market days or delivered for 5 US dollars.
struct DemoLot {
    cooperative: &'static str,
    n: u32,
    crop: &'static str,
    kg: i64,
    price: &'static str,
    /// Kilograms a buyer ordered and was delivered.
    bought: i64,
    days: Option<&'static [&'static str]>,
    delivery_cost: Option<&'static str>,
}

const LOTS: &[DemoLot] = &[
    DemoLot {
        cooperative: "Kabare Coffee Growers",
        n: 1,
        crop: "coffee",
        kg: 80,
        price: "4.20",
        bought: 80,
        days: None,
        delivery_cost: None,
    },
    DemoLot {
        cooperative: "Kabare Coffee Growers",
        n: 2,
        crop: "coffee",
        kg: 120,
        price: "4.50",
        bought: 0,
        days: None,
        delivery_cost: None,
    },
    DemoLot {
        cooperative: "Walungu Bean Cooperative",
        n: 3,
        crop: "bean",
        kg: 200,
        price: "0.95",
        bought: 0,
        days: Some(&["tue", "thu", "sat"]),
        delivery_cost: Some("5"),
    },
];

fn lots(tx: &Connection) -> ApiResult<()> {
    let Some(buyer) = users::find_by_email(tx, "buyer@mavuno.demo")? else { return Ok(()) };
    for demo in LOTS {
        let days = demo.days.map(|days| days.iter().map(|d| (*d).to_owned()).collect::<Vec<_>>());
        let Some(cooperative) =
            crate::db::cooperatives::list(tx, true)?.into_iter().find(|c| c.name == demo.cooperative)
        else {
            continue;
        };
        let Some(manager) = cooperatives::managers(tx, cooperative.id)?.into_iter().next() else { continue };
        let input = LotInput {
            uid: &format!("de100000-0000-4000-8000-{:012}", demo.n),
            crop: demo.crop,
            grade: "A",
            kilograms: Some(demo.kg),
            price: Some(sync_protocol::Loose::Text(demo.price.to_owned())),
            min_order: Some(20),
            pickup: &format!("{} store", cooperative.market_name),
            pickup_days: days.as_deref(),
            delivery_cost: demo.delivery_cost.map(|cost| sync_protocol::Loose::Text(cost.to_owned())),
        };
        let (lot, _) = lots::make(tx, &manager, cooperative.id, &input)?;
        if demo.bought == 0 {
            continue;
        }
        let order = sync_protocol::OrderPlace {
            uid: format!("de200000-0000-4000-8000-{:012}", demo.n),
            lines: vec![sync_protocol::OrderLineInput {
                product_id: lot.product_id,
                quantity: demo.bought,
                unit_price_cents: lot.price_cents,
            }],
            delivery: "pickup".into(),
            payment_method: "cash_on_delivery".into(),
            shipping: sync_protocol::ShippingInput {
                first_name: buyer.first_name.clone(),
                last_name: buyer.last_name.clone(),
                email: buyer.email.clone().unwrap_or_default(),
                phone: buyer.phone_number.clone().unwrap_or_default(),
                address: "Avenue du Port 4".into(),
                city: "Bukavu".into(),
                postal_code: String::new(),
                country: "DRC".into(),
            },
        };
        let (placed, _) = orders::place(tx, &buyer, &order, Notify::Nobody)?;
        for part in &placed.parts {
            orders::change_part(tx, &manager, OrderRef::Id(placed.id), part.id, "delivered", None, Notify::Nobody)?;
        }
    }
    Ok(())
}

pub async fn seed(state: &AppState) -> ApiResult<bool> {
    state
        .db
        .write(|tx| {
            if meta::get(tx, SEEDED_KEY)?.is_some() {
                return Ok(false);
            }
            let Some(admin) = users::find_by_email(tx, "admin@mavuno.demo")? else { return Ok(false) };
            for (n, demo) in COOPERATIVES.iter().enumerate() {
                seed_one(tx, &admin, demo, 100 * (n as u32 + 1))?;
            }
            dispute_and_correct(tx)?;
            lots(tx)?;
            meta::set(tx, SEEDED_KEY, &crate::platform::clock::now())?;
            Ok(true)
        })
        .await
}
