//! SMS commands (docs/ussd.md): Africa's Talking posts each message people send
//! to our short code (`from`, `text`, `id`, ...) to `/sms/incoming/{token}`; the
//! answer, one GSM-7 segment in the number's language, goes through the SMS
//! outbox. Keywords are read in any of the three languages: `PRICE maize`,
//! `PRIX mais`, `BEI mahindi` (at a market or in a territory: `PRICE beans kadutu`);
//! `SELLERS`; `STOCK <product> <stock> <PIN>`; `LANGUAGE fr`; `SUBSCRIBE maize
//! [market]` (`ABONNER`, `FUATA`) for the weekly price SMS and `STOP` to end it
//! (docs/prices.md); `DELIVERIES` (`LIVRAISONS`, `MIZIGO`) for a cooperative member's
//! latest deliveries, `DISPUTE D12 what is wrong` (`LITIGE`, `MZOZO`) for one of them
//! and `MONEY` (`ARGENT`, `PESA`) for what their cooperatives owe and paid them
//! (docs/cooperatives.md); anything else answers the help.

use axum::extract::rejection::FormRejection;
use axum::extract::{Path, State};
use axum::{Form, Json};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{screens, token_is_ours};
use crate::db::users::UserRow;
use crate::db::{phone_settings, products as product_rows, sms, ussd_memos};
use crate::domain::basic_phones::{self as rules, PinState};
use crate::domain::cooperatives::{deliveries, payouts};
use crate::domain::prices;
use crate::domain::products::{self, ProductRef};
use crate::error::{ApiResult, AppError, ErrorBody};
use crate::labels::{LANGUAGES, Lang};
use crate::model::user::{Role, Status};
use crate::state::AppState;
use crate::{platform::clock, platform::gsm7};

/// The fields of an incoming message that are read (Africa's Talking sends `to`,
/// `date`, `linkId` and `networkCode` too).
#[derive(Deserialize, ToSchema)]
pub struct IncomingSms {
    /// The sender's number, E.164.
    from: String,
    text: String,
    /// Africa's Talking's id of the message: a message posted again is answered once.
    id: Option<String>,
}

#[derive(Serialize, ToSchema)]
pub struct IncomingAnswer {
    success: bool,
    /// `answered`, `repeated` (already answered) or `throttled` (too many from this number).
    effect: &'static str,
}

/// A message sent to the platform's short code. 404 unless the address's token is this server's.
#[utoipa::path(post, path = "/sms/incoming/{token}", tag = "sms", params(("token" = String, Path)),
    request_body(content = IncomingSms, content_type = "application/x-www-form-urlencoded"),
    responses((status = 200, body = IncomingAnswer), (status = 404, body = ErrorBody),
              (status = 400, description = "invalid_body: not an incoming message", body = ErrorBody)))]
pub async fn incoming(
    State(state): State<AppState>,
    Path(token): Path<String>,
    form: Result<Form<IncomingSms>, FormRejection>,
) -> ApiResult<Json<IncomingAnswer>> {
    if !token_is_ours(&state, &token) {
        return Err(AppError::not_found("not_found", "Not found"));
    }
    let Form(message) = form
        .map_err(|err| AppError::bad_request("invalid_body", format!("This is not a message: {}", err.body_text())))?;
    let phone = super::international(&message.from)
        .ok_or_else(|| AppError::bad_request("invalid_body", "The sender is not an international number"))?;
    let answered = |effect| Ok(Json(IncomingAnswer { success: true, effect }));
    // The gateway's id, kept in the database with the answer: a message posted again
    // (a retry, also after a restart or on another node) is answered once.
    let id = message.id.as_deref().filter(|id| !id.is_empty()).map(|id| gsm7::cut(id, 100));
    if let Some(id) = id.clone() {
        if state.db.read(move |conn| Ok(ussd_memos::sms_seen(conn, &id)?)).await? {
            return answered("repeated");
        }
    }
    // Each answer costs an SMS: a number (or a loop of auto-replies) gets a few an hour.
    if state.throttles.sms_asked.reserve(&[&phone]).await?.is_err() {
        state.db.metrics().sms_budget_refused.inc();
        return answered("throttled");
    }
    let text: String = message.text.chars().take(320).collect();
    let reply = answer(&state, &phone, &text).await?;
    let to = phone.clone();
    let first = state
        .db
        .write(move |tx| {
            let now = clock::now();
            if let Some(id) = &id {
                if !ussd_memos::first_sight_of_sms(tx, id, &now)? {
                    return Ok(false);
                }
            }
            sms::enqueue(tx, &to, &reply, &now)?;
            Ok(true)
        })
        .await?;
    if !first {
        return answered("repeated");
    }
    answered("answered")
}

/// What a message asks.
#[derive(Debug, PartialEq, Eq)]
enum Command {
    Help,
    Price(String),
    Sellers(String),
    Stock(Vec<String>),
    Language(String),
    Subscribe(String),
    Stop,
    /// A delivery's reference from its receipt, and what is wrong.
    Dispute(Vec<String>),
    Deliveries,
    /// What the member's cooperatives owe and paid them.
    Money,
}

impl Command {
    /// Its name, as a metric's label.
    fn name(&self) -> &'static str {
        match self {
            Command::Help => "help",
            Command::Price(_) => "price",
            Command::Sellers(_) => "sellers",
            Command::Stock(_) => "stock",
            Command::Language(_) => "language",
            Command::Subscribe(_) => "subscribe",
            Command::Stop => "stop",
            Command::Dispute(_) => "dispute",
            Command::Deliveries => "deliveries",
            Command::Money => "money",
        }
    }
}

/// The keyword `key` (`ussd.commands.<key>`) in every language, and the English word.
fn keywords(key: &str, english: &str) -> Vec<String> {
    let mut words: Vec<String> = LANGUAGES
        .iter()
        .map(|code| gsm7::fold(&Lang::parse(Some(code)).text(&format!("ussd.commands.{key}"))))
        .collect();
    words.push(english.to_owned());
    words.iter().map(|w| crate::model::product::fold(w).to_uppercase()).collect()
}

fn parse(text: &str) -> Command {
    let folded = crate::model::product::fold(text);
    let mut words = folded.split_whitespace();
    let Some(first) = words.next().map(str::to_uppercase) else { return Command::Help };
    let rest: Vec<String> = words.map(str::to_owned).collect();
    let is = |key: &str, english: &str| keywords(key, english).contains(&first);
    if is("price", "PRICE") && !rest.is_empty() {
        Command::Price(rest.join(" "))
    } else if is("sellers", "SELLERS") && !rest.is_empty() {
        Command::Sellers(rest.join(" "))
    } else if is("stock", "STOCK") {
        Command::Stock(rest)
    } else if ["LANGUAGE", "LANGUE", "LUGHA"].contains(&first.as_str()) && rest.len() == 1 {
        Command::Language(rest[0].clone())
    } else if is("subscribe", "SUBSCRIBE") && !rest.is_empty() {
        Command::Subscribe(rest.join(" "))
    } else if is("stop", "STOP") && rest.is_empty() {
        Command::Stop
    } else if is("dispute", "DISPUTE") {
        Command::Dispute(rest)
    } else if is("deliveries", "DELIVERIES") && rest.is_empty() {
        Command::Deliveries
    } else if is("money", "MONEY") && rest.is_empty() {
        Command::Money
    } else {
        Command::Help
    }
}

/// The answer to `text` from `phone`, at most one segment.
async fn answer(state: &AppState, phone: &str, text: &str) -> ApiResult<String> {
    let command = parse(text);
    let name = command.name();
    state.db.metrics().sms_incoming.get_or_create(&crate::platform::metrics::Command { command: name }).inc();
    let number = phone.to_owned();
    let (person, lang) = state
        .db
        .read(move |conn| {
            let person = super::account_of(conn, &number)?.filter(|p| p.status == Status::Active);
            let lang = rules::language(conn, &number, person.as_ref().and_then(|p| p.country))?;
            Ok((person, lang))
        })
        .await?;
    let words = |key: &str| lang.text(&format!("ussd.commands.{key}"));
    let text = match command {
        Command::Help => words("help"),
        Command::Price(asked) => {
            let home = person.as_ref().and_then(|p| p.location.clone());
            price(state, lang, &asked, home).await?
        }
        Command::Sellers(asked) => sellers(state, lang, &asked).await?,
        Command::Subscribe(asked) => subscribe(state, phone, lang, &asked).await?,
        Command::Stop => {
            let number = phone.to_owned();
            state.db.write(move |tx| prices::alerts::unsubscribe(tx, &number, None)).await?;
            words("stop_done")
        }
        Command::Language(code) => match LANGUAGES.iter().find(|l| **l == code.to_lowercase()) {
            Some(code) => {
                let (number, code) = (phone.to_owned(), *code);
                state.db.write(move |tx| Ok(phone_settings::set_language(tx, &number, code, &clock::now())?)).await?;
                Lang::parse(Some(code)).text("ussd.commands.language_done")
            }
            None => words("help"),
        },
        Command::Deliveries => match person {
            Some(member) => state.db.read(move |conn| deliveries::latest(conn, &member, lang, gsm7::SEGMENT)).await?,
            None => words("deliveries_none"),
        },
        Command::Money => match person {
            Some(member) => {
                let statement = state.db.read(move |conn| payouts::statement(conn, &member, lang)).await?;
                gsm7::cut(&statement.replace('\n', "; "), gsm7::SEGMENT)
            }
            None => lang.text("ussd.coop.money_none"),
        },
        Command::Dispute(args) => match person {
            Some(member) => dispute(state, member, lang, &args).await?,
            None => words("dispute_usage"),
        },
        Command::Stock(args) => match person {
            None => match state.db.read(crate::domain::sms::dial_code).await? {
                Some(dial) => lang.format("ussd.commands.no_account", &[("dial", &dial)]),
                None => lang.text("ussd.commands.no_account_no_code"),
            },
            Some(person) => stock(state, person, lang, &args).await?,
        },
    };
    Ok(gsm7::cut(&gsm7::fold(&text), gsm7::SEGMENT))
}

/// The crop the longest start of `asked` names (up to three words), and the rest (the
/// place), without a word that only joins them.
fn crop_and_rest(asked: &str) -> Option<(&'static prices::Crop, String)> {
    let words: Vec<&str> = asked.split_whitespace().collect();
    (1..=words.len().min(3)).rev().find_map(|n| {
        let crop = prices::crop_named(&words[..n].join(" "))?;
        let rest = match &words[n..] {
            [joining, place @ ..] if !place.is_empty() && prices::board::JOINING_WORDS.contains(joining) => place,
            rest => rest,
        };
        Some((crop, rest.join(" ")))
    })
}

/// `PRICE beans kadutu`: the crop's prices in a territory or at a market it names (the
/// territory when both share the name, unless a market word is said); else in the
/// sender's territory (`home`) when it has prices, else across every market.
async fn price(state: &AppState, lang: Lang, asked: &str, home: Option<String>) -> ApiResult<String> {
    let Some((crop, place)) = crop_and_rest(asked) else { return Ok(lang.text("ussd.commands.unknown_crop")) };
    state
        .db
        .read(move |conn| {
            let place = match place.trim() {
                "" => None,
                name => match prices::board::place_named(conn, name)? {
                    Some(found) => Some(found),
                    None => return unknown_market(conn, lang),
                },
            };
            screens::prices_text(conn, lang, crop, place.as_ref(), home.as_deref())
        })
        .await
}

/// The answer to a market nobody knows: the markets there are.
fn unknown_market(conn: &crate::db::Connection, lang: Lang) -> ApiResult<String> {
    let known: Vec<String> = crate::db::prices::markets(conn)?.into_iter().map(|m| m.name).collect();
    Ok(lang.format("ussd.commands.unknown_market", &[("list", &known.join(", "))]))
}

/// `SELLERS maize kabare`: the crop, then the place.
async fn sellers(state: &AppState, lang: Lang, asked: &str) -> ApiResult<String> {
    let Some((crop, place)) = crop_and_rest(asked) else { return Ok(lang.text("ussd.commands.unknown_crop")) };
    state
        .db
        .read(move |conn| {
            let place = Some(place.as_str()).filter(|p| !p.is_empty());
            Ok(screens::sellers_text(conn, lang, crop, place)?
                .unwrap_or_else(|| lang.format("ussd.sellers.none", &[("crop", &crop.name(lang))])))
        })
        .await
}

/// `SUBSCRIBE maize kadutu`: the crop's prices at that market (or every market) each Monday.
async fn subscribe(state: &AppState, phone: &str, lang: Lang, asked: &str) -> ApiResult<String> {
    let Some((crop, market)) = crop_and_rest(asked) else { return Ok(lang.text("ussd.commands.unknown_crop")) };
    let number = phone.to_owned();
    state
        .db
        .write(move |tx| {
            let found = match market.trim() {
                "" => None,
                name => match crate::db::prices::market_named(tx, name)? {
                    Some(found) => Some(found),
                    None => return unknown_market(tx, lang),
                },
            };
            let place = found.as_ref().map(|m| format!(" ({})", m.name)).unwrap_or_default();
            Ok(match prices::alerts::subscribe(tx, &number, crop, found.as_ref()) {
                Ok(()) => lang.format("ussd.alerts.done", &[("crop", &format!("{}{place}", crop.name(lang)))]),
                Err(refusal) if refusal.code() == "alerts_full" => {
                    lang.format("ussd.alerts.full", &[("max", &prices::alerts::MAX_ALERTS.to_string())])
                }
                Err(other) => return Err(other),
            })
        })
        .await
}

/// `DISPUTE D12 it was 46 kg`: the member disputes an entry of theirs (the words after
/// the reference say what is wrong; none, and the message says it came by SMS).
async fn dispute(state: &AppState, member: UserRow, lang: Lang, args: &[String]) -> ApiResult<String> {
    let Some((reference, why)) = args.split_first() else { return Ok(lang.text("ussd.commands.dispute_usage")) };
    let Ok(id) = reference.trim_start_matches(['d', 'D']).parse::<i64>() else {
        return Ok(lang.text("ussd.commands.dispute_usage"));
    };
    let reference = deliveries::reference(id);
    let reason = if why.is_empty() { lang.text("ussd.commands.dispute") } else { why.join(" ") };
    let said = move |key: &str, coop: &str| {
        lang.format(&format!("ussd.commands.{key}"), &[("ref", reference.as_str()), ("coop", coop)])
    };
    state
        .db
        .write(move |tx| match deliveries::dispute(tx, &member, id, &reason) {
            Ok(entry) => Ok(said("dispute_done", &gsm7::cut(&entry.cooperative_name, deliveries::COOP_SMS_CHARS))),
            Err(refusal) => Ok(match refusal.code() {
                "delivery_not_found" => said("dispute_not_found", ""),
                "dispute_too_late" => said("dispute_too_late", ""),
                "already_disputed" | "already_corrected" => said("dispute_already", ""),
                _ => return Err(refusal),
            }),
        })
        .await
}

/// `STOCK 2 40 1234`: product 2 of the farmer's list (as the USSD menu numbers it) now has 40, with the PIN.
async fn stock(state: &AppState, farmer: UserRow, lang: Lang, args: &[String]) -> ApiResult<String> {
    let usage = || lang.text("ussd.commands.stock_usage");
    let [number, stock, pin] = args else { return Ok(usage()) };
    let (Ok(number), Ok(stock)) = (number.parse::<usize>(), stock.parse::<i64>()) else { return Ok(usage()) };
    if farmer.role != Role::Farmer || number == 0 || !(0..=1_000_000).contains(&stock) {
        return Ok(usage());
    }
    let Some(phone) = farmer.phone_number.clone() else { return Ok(usage()) };
    let number_phone = phone.clone();
    let state_now = state.db.read(move |conn| rules::pin_state(conn, &number_phone)).await?;
    let hash = match state_now {
        PinState::None => return Ok(lang.text("ussd.commands.no_pin")),
        PinState::Locked => return Ok(lang.text("ussd.pin.locked")),
        PinState::Set { hash, .. } => hash,
    };
    // The try is taken before argon2 runs (as in the menu): messages sent at once get
    // only the tries left.
    let number_phone = phone.clone();
    let Some(left) = state.db.write(move |tx| rules::take_pin_try(tx, &number_phone)).await? else {
        return Ok(lang.text("ussd.pin.locked"));
    };
    let typed = pin.clone();
    if !crate::auth::verify_password_async(Some(hash), rules::pin_secret(&typed)).await? {
        return Ok(if left == 0 {
            lang.text("ussd.pin.locked")
        } else {
            lang.plural("ussd.commands.pin_wrong", left, &[])
        });
    }
    state
        .db
        .write(move |tx| {
            rules::right_pin(tx, &phone)?;
            let mine = product_rows::list_for_farmer(tx, farmer.id)?;
            let Some(product) = mine.get(number - 1) else {
                let list: Vec<String> = mine
                    .iter()
                    .take(5)
                    .enumerate()
                    .map(|(i, p)| format!("{} {}", i + 1, gsm7::cut(p.listing.title_in(lang.code()), 16)))
                    .collect();
                return Ok(lang.format(
                    "ussd.commands.no_product",
                    &[("number", &number.to_string()), ("list", &list.join(", "))],
                ));
            };
            let delta = stock - product.listing.quantity;
            let after = products::adjust_stock(tx, &farmer, ProductRef::Id(product.id), delta)?;
            Ok(lang.format(
                "ussd.listing.stock_done",
                &[
                    ("title", &gsm7::cut(after.listing.title_in(lang.code()), 30)),
                    ("stock", &after.listing.quantity.to_string()),
                    ("unit", &lang.text(&format!("ussd.units.{}", after.listing.unit.as_str()))),
                ],
            ))
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_place_follows_the_crop_with_or_without_a_word_between() {
        let place = |asked: &str| crop_and_rest(asked).map(|(crop, place)| (crop.key, place));
        assert_eq!(place("haricots a kadutu"), Some(("bean", "kadutu".into())));
        assert_eq!(place("beans at beach muhanzi"), Some(("bean", "beach muhanzi".into())));
        assert_eq!(place("maharage kwa kadutu"), Some(("bean", "kadutu".into())));
        assert_eq!(place("pomme de terre kadutu"), Some(("potato", "kadutu".into())), "a crop of three words");
        assert_eq!(place("haricots"), Some(("bean", String::new())));
        assert_eq!(place("haricots a"), Some(("bean", "a".into())), "a joining word alone is the place asked");
        assert_eq!(place("chocolat a kadutu"), None);
    }

    #[test]
    fn keywords_are_read_in_each_language_and_anything_else_is_help() {
        assert_eq!(parse("PRIX mais"), Command::Price("mais".into()));
        assert_eq!(parse("bei Mahindi"), Command::Price("mahindi".into()));
        assert_eq!(parse("Price maize"), Command::Price("maize".into()));
        assert_eq!(parse("vendeurs haricots Kabare"), Command::Sellers("haricots kabare".into()));
        assert_eq!(parse("AKIBA 1 40 2580"), Command::Stock(vec!["1".into(), "40".into(), "2580".into()]));
        assert_eq!(parse("stock 1 40 2580"), Command::Stock(vec!["1".into(), "40".into(), "2580".into()]));
        assert_eq!(parse("langue fr"), Command::Language("fr".into()));
        assert_eq!(parse("ABONNER MAIS KADUTU"), Command::Subscribe("mais kadutu".into()));
        assert_eq!(parse("fuata mahindi"), Command::Subscribe("mahindi".into()));
        assert_eq!(parse("subscribe beans"), Command::Subscribe("beans".into()));
        assert_eq!(parse("STOP"), Command::Stop);
        assert_eq!(
            parse("litige D12 c'etait 46 kg"),
            Command::Dispute(vec!["d12".into(), "c'etait".into(), "46".into(), "kg".into()])
        );
        assert_eq!(parse("MZOZO d12"), Command::Dispute(vec!["d12".into()]));
        assert_eq!(parse("dispute"), Command::Dispute(vec![]));
        assert_eq!(parse("LIVRAISONS"), Command::Deliveries);
        assert_eq!(parse("mizigo"), Command::Deliveries);
        assert_eq!(parse("ARGENT"), Command::Money);
        assert_eq!(parse("pesa"), Command::Money);
        assert_eq!(parse("money"), Command::Money);
        assert_eq!(parse("stop"), Command::Stop);
        assert_eq!(parse("MSAADA"), Command::Help);
        assert_eq!(parse("hello"), Command::Help);
        assert_eq!(parse(""), Command::Help);
        assert_eq!(parse("PRIX"), Command::Help, "a keyword alone is answered with the help");
    }
}
