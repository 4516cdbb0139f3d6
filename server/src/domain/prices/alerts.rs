//! SMS price alerts (docs/prices.md): a number follows crops, at a market or
//! everywhere (from the app's profile, the USSD menu or an SMS `SUBSCRIBE maize
//! kadutu`); every Monday morning the housekeeping sends each number one SMS with
//! its crops' medians and their change on the week before, one GSM-7 segment in the
//! number's language. `STOP` ends them all.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::db::Connection;
use time::{OffsetDateTime, Weekday};

use super::board::{BoardFilter, CropPrices, board};
use super::{Crop, SOUTH_KIVU, crop};
use crate::db::prices::{self as rows, MarketRow};
use crate::error::{ApiResult, AppError};
use crate::labels::Lang;
use crate::model::price::week_of;
use crate::{platform::clock, platform::gsm7};

/// What one number may follow.
pub const MAX_ALERTS: usize = 5;
/// Alerts go out from this hour on Mondays, South Kivu time (UTC+2).
pub const SEND_HOUR: u8 = 7;

/// A crop a number follows, at a market (none: every market).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Alert {
    pub crop: &'static Crop,
    pub market: Option<MarketRow>,
}

pub fn of_phone(conn: &Connection, phone: &str) -> ApiResult<Vec<Alert>> {
    let mut alerts = Vec::new();
    for (key, market_id) in rows::alerts_of(conn, phone)? {
        let Some(crop) = crop(&key) else { continue };
        let market = if market_id == 0 { None } else { rows::market(conn, market_id)? };
        alerts.push(Alert { crop, market });
    }
    // In the order the menus offer crops (the most grown first), each crop's markets by name.
    alerts.sort_by_key(|a| {
        (super::CROPS.iter().position(|c| c.key == a.crop.key), a.market.as_ref().map(|m| m.name.clone()))
    });
    Ok(alerts)
}

/// Follows a crop (at a market); following it again changes nothing.
pub fn subscribe(conn: &Connection, phone: &str, crop: &Crop, market: Option<&MarketRow>) -> ApiResult<()> {
    let market_id = market.map_or(0, |m| m.id);
    let followed = rows::alerts_of(conn, phone)?;
    if followed.iter().any(|(c, m)| c == crop.key && *m == market_id) {
        return Ok(());
    }
    if followed.len() >= MAX_ALERTS {
        return Err(AppError::conflict("alerts_full", format!("A number follows at most {MAX_ALERTS} crops")));
    }
    rows::add_alert(conn, phone, crop.key, market_id, &clock::now())?;
    Ok(())
}

/// Stops following one crop (at a market), or everything.
pub fn unsubscribe(conn: &Connection, phone: &str, which: Option<(&Crop, Option<&MarketRow>)>) -> ApiResult<usize> {
    Ok(rows::remove_alerts(conn, phone, which.map(|(crop, market)| (crop.key, market.map_or(0, |m| m.id))))?)
}

/// A crop's newest week (at a market, or every market), read once per round of SMS
/// however many numbers follow it.
#[derive(Default)]
pub struct Newest(HashMap<(&'static str, i64), Option<CropPrices>>);

impl Newest {
    fn of(&mut self, conn: &Connection, alert: &Alert) -> ApiResult<Option<&CropPrices>> {
        let key = (alert.crop.key, alert.market.as_ref().map_or(0, |m| m.id));
        Ok(match self.0.entry(key) {
            Entry::Occupied(known) => known.into_mut().as_ref(),
            Entry::Vacant(slot) => {
                let filter = BoardFilter { crop: Some(alert.crop), market: alert.market.clone(), territory: None };
                let newest = board(conn, &filter)?.crops.into_iter().find(|c| c.unit == alert.crop.base_unit());
                slot.insert(newest).as_ref()
            }
        })
    }
}

/// Prices older than this are not news: a crop whose newest week is older is left out.
const FRESH_DAYS: i64 = 14;

/// The SMS for `alerts`, in `lang`: each crop's newest week of the last two, with its
/// change on the week before; at most one segment (crops that do not fit are left for
/// the app), `None` when none of them has fresh prices.
pub fn compose(conn: &Connection, lang: Lang, alerts: &[Alert], newest: &mut Newest) -> ApiResult<Option<String>> {
    let mut items = Vec::new();
    let oldest = (super::today() - time::Duration::days(FRESH_DAYS)).to_string();
    for alert in alerts {
        let Some(prices) = newest.of(conn, alert)?.filter(|p| p.week >= oldest) else { continue };
        let change = match prices.change_percent {
            Some(p) if p > 0 => format!(" +{p}%"),
            Some(p) if p < 0 => format!(" {p}%"),
            Some(_) => " =".to_owned(),
            None => String::new(),
        };
        let place = alert.market.as_ref().map(|m| format!(" {}", gsm7::cut(&m.name, 14))).unwrap_or_default();
        let unit = lang.text(&format!("price_units.{}", prices.unit.as_str()));
        items.push(format!(
            "{}{place} {}$/{unit}{change}",
            gsm7::cut(&alert.crop.name(lang), 14),
            lang.amount(super::usd_cents(prices.figures.median_usd_micros))
        ));
    }
    if items.is_empty() {
        return Ok(None);
    }
    let frame = |list: &str| gsm7::fold(&lang.format("ussd.alerts.sms", &[("list", list)]));
    let mut text = frame(&items[0]);
    for count in 2..=items.len() {
        let longer = frame(&items[..count].join(", "));
        if gsm7::units(&longer).is_none_or(|units| units > gsm7::SEGMENT) {
            break;
        }
        text = longer;
    }
    Ok(Some(gsm7::cut(&text, gsm7::SEGMENT)))
}

/// The Monday whose alerts are due at `now`, if it is Monday morning or later that day.
pub fn due_week(now: OffsetDateTime) -> Option<String> {
    let local = now.to_offset(SOUTH_KIVU);
    (local.weekday() == Weekday::Monday && local.hour() >= SEND_HOUR).then(|| week_of(local.date()).to_string())
}

/// Sends the week's alerts not yet sent (each number once a week); answers how many.
pub fn send_due(conn: &Connection, now: OffsetDateTime) -> ApiResult<usize> {
    let Some(week) = due_week(now) else { return Ok(0) };
    let phones = rows::alert_phones_due(conn, &week)?;
    let at = clock::format(now);
    let (mut sent, mut newest) = (0, Newest::default());
    for phone in phones {
        let person = crate::db::users::find_by_phones(conn, std::slice::from_ref(&phone))?.into_iter().next();
        let lang = crate::domain::basic_phones::language(conn, &phone, person.and_then(|p| p.country))?;
        if let Some(text) = compose(conn, lang, &of_phone(conn, &phone)?, &mut newest)? {
            crate::db::sms::enqueue(conn, &phone, &text, &at)?;
            sent += 1;
        }
        rows::alert_sent(conn, &phone, &week, &at)?;
    }
    Ok(sent)
}
