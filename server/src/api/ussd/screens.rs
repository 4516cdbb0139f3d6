//! The screens everyone reaches (docs/ussd.md): the main menus (tables, one per
//! kind of person), settings and the language, prices and sellers by crop, and an
//! application's status. Joining is in `join`, the PIN in `pin`, a farmer's own
//! screens in `farmer`, the application's questions in `apply`, courses in `learning`.

use super::join::JoinDraft;
use super::menu::{Ctx, Next, Picked, Screen, Show, choice, page_of, per_unit, pick};
use super::pin::PinStage;
use super::session::Memo;
use crate::db::{phone_settings, sms, surveys};
use crate::domain::basic_phones::{self as rules, PinState};
use crate::domain::password_reset;
use crate::domain::prices::board::Place;
use crate::domain::prices::{self, CROPS};
use crate::error::ApiResult;
use crate::labels::{LANGUAGES, Lang};
use crate::model::survey::SurveyStatus;
use crate::model::user::Role;
use crate::platform::clock;
use crate::platform::gsm7;

/// Where a main-menu choice leads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Go {
    Join,
    Prices,
    Sellers,
    Language,
    Listings,
    Sell,
    Orders,
    Earnings,
    Training,
    Application,
    Settings,
    PinReset,
    Alerts,
    Cooperative,
}

/// The main menu of a number with no account: `ussd.menu.<label>` and where it leads.
pub const VISITOR: &[(&str, Go)] = &[
    ("join", Go::Join),
    ("prices", Go::Prices),
    ("sellers", Go::Sellers),
    ("alerts", Go::Alerts),
    ("language", Go::Language),
];
/// An approved farmer's.
pub const FARMER: &[(&str, Go)] = &[
    ("listings", Go::Listings),
    ("sell", Go::Sell),
    ("orders", Go::Orders),
    ("earnings", Go::Earnings),
    ("prices", Go::Prices),
    ("training", Go::Training),
    ("sellers", Go::Sellers),
    ("settings", Go::Settings),
    ("cooperative", Go::Cooperative),
];

/// A farmer's settings: `ussd.menu.<label>` and where it leads (the second is a
/// switch, labelled by its state; the last says their application's decision and the
/// admin's comment, "an agent will come to Kabare").
const SETTINGS: &[(&str, Go)] = &[
    ("language", Go::Language),
    ("share", Go::Settings),
    ("pin_reset", Go::PinReset),
    ("alerts", Go::Alerts),
    ("application", Go::Application),
];
/// Anyone else with an account (buyers, applicants, agents).
pub const MEMBER: &[(&str, Go)] = &[
    ("application", Go::Application),
    ("prices", Go::Prices),
    ("sellers", Go::Sellers),
    ("training", Go::Training),
    ("alerts", Go::Alerts),
    ("language", Go::Language),
];

/// Steps that need the PIN first: a farmer's products, orders and money (a
/// cooperative's screens show their deliveries and what it owes them).
fn guarded(go: Go) -> bool {
    matches!(go, Go::Listings | Go::Sell | Go::Orders | Go::Earnings | Go::Cooperative)
}

fn menu(ctx: &Ctx<'_>) -> &'static [(&'static str, Go)] {
    match &ctx.person {
        None => VISITOR,
        Some(person) if person.role == Role::Farmer => FARMER,
        Some(_) => MEMBER,
    }
}

pub fn main_show(ctx: &mut Ctx<'_>) -> ApiResult<Show> {
    let text = match &ctx.person {
        None => ctx.text("main.visitor"),
        Some(person) => ctx.format("main.title", &[("name", &gsm7::cut(&person.first_name, 20))]),
    };
    let choices = menu(ctx).iter().map(|(label, _)| ctx.text(&format!("menu.{label}"))).collect();
    Ok(Show { text, choices, more: false })
}

pub fn main_answer(ctx: &mut Ctx<'_>, answer: &str) -> ApiResult<Next> {
    let items = menu(ctx);
    let go = match choice(ctx, answer, items.len()) {
        Ok(i) => items[i].1,
        Err(why) => return Ok(Next::Again(why)),
    };
    if guarded(go) && !ctx.unlocked {
        // The PIN screen this answer opened, the same on a repeat after the session set one.
        if let Some(Memo::PinAsked { new }) = ctx.memo() {
            let stage = if *new { PinStage::New } else { PinStage::Enter };
            return Ok(Next::Open(Screen::Pin { stage, then: go }));
        }
        let new = match rules::pin_state(ctx.conn, ctx.phone)? {
            PinState::Locked => return Ok(Next::End(ctx.text("pin.locked"))),
            PinState::None => true,
            PinState::Set { .. } => false,
        };
        ctx.remember(Memo::PinAsked { new });
        let stage = if new { PinStage::New } else { PinStage::Enter };
        return Ok(Next::Open(Screen::Pin { stage, then: go }));
    }
    arrive(ctx, go)
}

/// Where `go` leads once any PIN it needs was given.
pub(super) fn arrive(ctx: &mut Ctx<'_>, go: Go) -> ApiResult<Next> {
    Ok(match go {
        Go::Join if ctx.person.is_some() => Next::End(ctx.text("join.exists")),
        Go::Join => Next::Open(Screen::Join(JoinDraft::for_number(ctx.phone))),
        Go::Prices => Next::Open(Screen::Crops { purpose: Purpose::Prices, page: 0 }),
        Go::Sellers => Next::Open(Screen::Crops { purpose: Purpose::Sellers, page: 0 }),
        Go::Alerts => Next::Open(Screen::Crops { purpose: Purpose::Alerts, page: 0 }),
        Go::Language => Next::Open(Screen::Language),
        Go::Settings => Next::Open(Screen::Settings),
        Go::Listings => Next::Open(Screen::Listings { page: 0 }),
        Go::Sell => Next::Open(Screen::Sell(Default::default())),
        Go::Orders => Next::Open(Screen::Orders { page: 0 }),
        Go::Earnings => Next::End(super::sales::earnings(ctx)?),
        Go::Cooperative => Next::Open(Screen::Coop),
        Go::Training => super::learning::arrive(ctx)?,
        Go::Application => match super::apply::arrive(ctx)? {
            Some(next) => next,
            None => Next::End(application(ctx)?),
        },
        Go::PinReset => ctx.write_once(
            |ctx| {
                Ok(if password_reset::request_code(ctx.conn, ctx.phone)? {
                    Next::Open(Screen::Pin { stage: PinStage::Code, then: Go::PinReset })
                } else {
                    Next::End(ctx.text("pin.reset_none"))
                })
            },
            || Next::Open(Screen::Pin { stage: PinStage::Code, then: Go::PinReset }),
        )?,
    })
}

pub fn settings_show(ctx: &mut Ctx<'_>) -> ApiResult<Show> {
    let shared = phone_settings::shares_number(ctx.conn, ctx.phone)?;
    let choices = SETTINGS
        .iter()
        .map(|(label, _)| match *label {
            "share" => ctx.text(if shared { "settings.share_on" } else { "settings.share_off" }),
            label => ctx.text(&format!("menu.{label}")),
        })
        .collect();
    Ok(Show { text: ctx.text("settings.title"), choices, more: false })
}

pub fn settings_answer(ctx: &mut Ctx<'_>, answer: &str) -> ApiResult<Next> {
    match choice(ctx, answer, SETTINGS.len()) {
        Ok(i) if SETTINGS[i].1 == Go::Settings => ctx.write_once(
            |ctx| {
                let share = !phone_settings::shares_number(ctx.conn, ctx.phone)?;
                phone_settings::set_share_number(ctx.conn, ctx.phone, share, &clock::now())?;
                Ok(Next::End(ctx.text(if share { "settings.shared" } else { "settings.not_shared" })))
            },
            || Next::End(String::new()),
        ),
        Ok(i) => arrive(ctx, SETTINGS[i].1),
        Err(why) => Ok(Next::Again(why)),
    }
}

pub fn language_show(ctx: &Ctx<'_>) -> Show {
    Show {
        text: ctx.text("language"),
        choices: ["English", "Français", "Kiswahili"].map(String::from).to_vec(),
        more: false,
    }
}

pub fn language_answer(ctx: &mut Ctx<'_>, answer: &str) -> ApiResult<Next> {
    let code = match choice(ctx, answer, LANGUAGES.len()) {
        Ok(i) => LANGUAGES[i],
        Err(why) => return Ok(Next::Again(why)),
    };
    ctx.lang = Lang::parse(Some(code));
    ctx.write_once(
        |ctx| {
            phone_settings::set_language(ctx.conn, ctx.phone, code, &clock::now())?;
            Ok(Next::Swap(Screen::Main, None))
        },
        || Next::Swap(Screen::Main, None),
    )
}

/// What a list of crops is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    Prices,
    Sellers,
    /// A weekly price SMS.
    Alerts,
}

/// Crops on one screen (names of up to 15 characters, and the ways out).
pub const CROPS_PER_PAGE: usize = 7;

pub fn crops_show(ctx: &Ctx<'_>, purpose: Purpose, page: usize) -> Show {
    let title = ctx.text(match purpose {
        Purpose::Prices => "prices.crop",
        Purpose::Sellers => "sellers.crop",
        Purpose::Alerts => "alerts.crop",
    });
    let (shown, more) = page_of(CROPS, page, CROPS_PER_PAGE);
    Show { text: title, choices: shown.iter().map(|crop| crop.name(ctx.lang)).collect(), more }
}

pub fn crops_answer(ctx: &mut Ctx<'_>, purpose: Purpose, page: usize, answer: &str) -> ApiResult<Next> {
    let crop = match pick(ctx, answer, CROPS, page, CROPS_PER_PAGE) {
        Picked::NextPage => return Ok(Next::Open(Screen::Crops { purpose, page: page + 1 })),
        Picked::Item(crop) => crop,
        Picked::Wrong(why) => return Ok(Next::Again(why)),
    };
    match purpose {
        Purpose::Prices => {
            let home = ctx.person.as_ref().and_then(|p| p.location.clone());
            Ok(Next::End(prices_text(ctx.conn, ctx.lang, crop, None, home.as_deref())?))
        }
        Purpose::Alerts => ctx.write_once(
            |ctx| {
                let name = crop.name(ctx.lang);
                Ok(Next::End(match prices::alerts::subscribe(ctx.conn, ctx.phone, crop, None) {
                    Ok(()) => ctx.format("alerts.done", &[("crop", &name)]),
                    Err(refusal) if refusal.code() == "alerts_full" => {
                        ctx.format("alerts.full", &[("max", &prices::alerts::MAX_ALERTS.to_string())])
                    }
                    Err(other) => return Err(other),
                }))
            },
            || Next::End(String::new()),
        ),
        Purpose::Sellers => ctx.write_once(
            |ctx| {
                let name = crop.name(ctx.lang);
                let Some(text) = sellers_text(ctx.conn, ctx.lang, crop, None)? else {
                    return Ok(Next::End(ctx.format("sellers.none", &[("crop", &name)])));
                };
                if let Err(refused) = ctx.ask_for_sms()? {
                    return Ok(refused);
                }
                sms::enqueue(ctx.conn, ctx.phone, &text, &clock::now())?;
                Ok(Next::End(ctx.format("sellers.sent", &[("crop", &name)])))
            },
            || Next::End(String::new()),
        ),
    }
}

/// What `crop` sells for: its newest week of prices at `place`; with no place named,
/// in the person's own territory (`home`, their account's place) when it has prices,
/// else across every market, and the answer says which. The median in francs too when
/// a rate is in use; an answer resting on one or two prices says so. One SMS or screen.
pub fn prices_text(
    conn: &crate::db::Connection,
    lang: Lang,
    crop: &'static prices::Crop,
    place: Option<&Place>,
    home: Option<&str>,
) -> ApiResult<String> {
    let place = match place {
        Some(place) => Some(place.clone()),
        None => match home.map(|h| prices::board::home_territory(conn, h)).transpose()?.flatten() {
            Some(territory) => Some(Place::Territory(territory))
                .filter(|t| prices::board::latest(conn, crop, Some(t)).is_ok_and(|found| found.is_some())),
            None => None,
        },
    };
    let label = place.as_ref().map_or_else(|| lang.text("ussd.prices.everywhere"), |p| p.name().to_owned());
    let name = crop.name(lang);
    let Some(p) = prices::board::latest(conn, crop, place.as_ref())? else {
        return Ok(lang.format("ussd.prices.none", &[("crop", &name), ("place", &label)]));
    };
    let key = match p.figures.observations {
        1 => "ussd.prices.found_one",
        2 => "ussd.prices.found_two",
        _ => "ussd.prices.found",
    };
    Ok(lang.format(
        key,
        &[
            ("crop", &name),
            ("place", &label),
            ("count", &p.figures.observations.to_string()),
            ("francs", &in_francs(conn, lang, p.figures.median_usd_micros)?),
            ("week", &prices::short_day(&p.week)),
            ("low", &lang.amount(prices::usd_cents(p.figures.low_usd_micros))),
            ("high", &lang.amount(prices::usd_cents(p.figures.high_usd_micros))),
            ("median", &lang.amount(prices::usd_cents(p.figures.median_usd_micros))),
            ("unit", &lang.text(&format!("price_units.{}", p.unit.as_str()))),
        ],
    ))
}

/// A price in Congolese francs at the rate in use, as the board shows it beside the
/// dollars (South Kivu's markets are paid in both): " (4 100 FC)"; nothing without a rate.
fn in_francs(conn: &crate::db::Connection, lang: Lang, usd_micros: i64) -> ApiResult<String> {
    let Some(rate) = crate::db::exchange_rates::current(conn, "CDF")? else { return Ok(String::new()) };
    let amount = (usd_micros as f64 / 1e6 * rate.francs_per_usd as f64).round() as i64;
    let amount = lang.whole(amount);
    Ok(format!(" ({})", lang.format("ussd.prices.francs", &[("amount", &amount)])))
}

/// An SMS naming three sellers of `crop` (near `place` first), or `None` when nobody sells it.
pub fn sellers_text(
    conn: &crate::db::Connection,
    lang: Lang,
    crop: &prices::Crop,
    place: Option<&str>,
) -> ApiResult<Option<String>> {
    let offers = rules::sellers(conn, crop, place, 3)?;
    if offers.is_empty() {
        return Ok(None);
    }
    let list: Vec<String> = offers
        .iter()
        .map(|o| {
            // The place's first part ("Kabare" of "Kabare, South Kivu"): three sellers with
            // their numbers fit one segment.
            let place = o
                .farmer_location
                .as_deref()
                .and_then(|l| l.split(',').map(str::trim).find(|part| !part.is_empty()))
                .map(|l| format!(" ({})", gsm7::cut(l, 18)))
                .unwrap_or_default();
            let call = o.farmer_phone.as_deref().map(|n| format!(" {n}")).unwrap_or_default();
            let unit = per_unit(lang, &o.unit);
            format!("{}{place} {}/{unit}{call}", gsm7::cut(&o.farmer_first_name, 14), lang.amount(o.price_cents))
        })
        .collect();
    let text = lang.format("ussd.sellers.sms", &[("crop", &crop.name(lang)), ("list", &list.join("; "))]);
    Ok(Some(gsm7::cut(&gsm7::fold(&text), gsm7::SEGMENT)))
}

fn application(ctx: &Ctx<'_>) -> ApiResult<String> {
    let Some(person) = &ctx.person else { return Ok(ctx.text("application.none")) };
    let own = surveys::list_visible_to(ctx.conn, person.id)?.into_iter().find(|s| s.user_id == person.id);
    Ok(match own {
        None => ctx.text("application.none"),
        Some(s) => match s.status {
            SurveyStatus::Draft => ctx.text("application.draft"),
            SurveyStatus::Pending | SurveyStatus::Resubmitted => ctx.text("application.submitted"),
            SurveyStatus::Approved => match s.admin_comment.as_deref().filter(|c| !c.trim().is_empty()) {
                Some(comment) => {
                    ctx.format("application.approved_comment", &[("comment", &gsm7::shorten(comment, 90))])
                }
                None => ctx.text("application.approved"),
            },
            SurveyStatus::Rejected => ctx.format(
                "application.rejected",
                &[("comment", &gsm7::shorten(s.admin_comment.as_deref().unwrap_or("-"), 90))],
            ),
        },
    })
}
