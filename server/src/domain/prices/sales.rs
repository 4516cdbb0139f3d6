//! The platform's own sales as prices: each delivered order line of a crop is an
//! observation of the day it was delivered, where its farmer is (a market or a
//! territory their place names). Delivery is final (a delivered part cannot be
//! cancelled), so a cancelled line never becomes one.

use std::collections::BTreeSet;

use crate::db::Connection;

use super::{crop_of_names, local_day};
use crate::db::market;
use crate::db::prices::{self as rows, MarketRow, ObservationRow};
use crate::error::ApiResult;
use crate::model::price::{Currency, PriceUnit, Source, base_quantity, week_of};
use crate::model::product::fold;
use crate::platform::clock;

const PAGE: i64 = 500;

/// The market a place names, else only the territory it names.
fn whereabouts<'a>(markets: &'a [MarketRow], place: Option<&str>) -> (Option<&'a MarketRow>, Option<String>) {
    let Some(place) = place.map(fold) else { return (None, None) };
    let named = |word: &str| !word.is_empty() && place.contains(&fold(word));
    match markets.iter().find(|m| named(&m.name)) {
        Some(m) => (Some(m), Some(m.territory.clone())),
        None => (None, markets.iter().find(|m| named(&m.territory)).map(|m| m.territory.clone())),
    }
}

/// Turns every delivery not yet seen into observations; answers how many were made.
/// Runs where a part is delivered, and in the housekeeping for deliveries made
/// before prices existed.
pub fn observe(conn: &Connection) -> ApiResult<usize> {
    let markets = rows::markets(conn)?;
    let mut weeks = BTreeSet::new();
    let mut made = 0;
    loop {
        let sales = market::unobserved_sales(conn, market::sales_mark(conn)?, PAGE)?;
        let Some(last) = sales.last().map(|s| s.event_id) else { break };
        // A full page may end inside a delivery's lines: that delivery is read again
        // (its lines already made are not), unless it fills the page alone.
        let done = match sales.len() as i64 {
            PAGE => sales.iter().map(|s| s.event_id).filter(|&e| e < last).max().unwrap_or(last),
            _ => last,
        };
        let now = clock::now();
        for sale in &sales {
            let (Some(crop), Some(unit), Some(on)) =
                (crop_of_names(&sale.names), PriceUnit::parse(&sale.unit), local_day(&sale.delivered_at))
            else {
                continue;
            };
            // Orders are in US dollars; a line given away has no price to learn from.
            if sale.currency != "USD" || sale.unit_price_cents <= 0 {
                continue;
            }
            let usd_micros = sale.unit_price_cents * 10_000;
            let (base_unit, per_base) = match base_quantity(crop.key, crop.base_unit(), unit) {
                Some(quantity) => (crop.base_unit(), quantity),
                None => (unit, 1),
            };
            let (market, territory) = whereabouts(&markets, sale.farmer_location.as_deref());
            let new = ObservationRow {
                id: 0,
                uid: format!("sale:{}", sale.line_id),
                source: Source::Sale,
                crop: crop.key.to_owned(),
                market_id: market.map(|m| m.id),
                market_name: None,
                territory,
                place: sale.farmer_location.clone(),
                unit,
                price_cents: sale.unit_price_cents,
                currency: Currency::Usd,
                usd_micros,
                base_unit,
                base_usd_micros: (usd_micros / per_base).max(1),
                observed_on: on.to_string(),
                week: week_of(on).to_string(),
                note: None,
                outlier: false,
                recorded_by: None,
                deleted: false,
            };
            rows::insert(conn, &new, Some(sale.line_id), &now)?;
            weeks.insert((new.crop, new.week));
            made += 1;
        }
        market::set_sales_mark(conn, done)?;
        if done == last && (sales.len() as i64) < PAGE {
            break;
        }
    }
    for (crop, week) in &weeks {
        super::stats::recompute(conn, crop, week)?;
    }
    if made > 0 {
        rows::touch(conn)?;
    }
    Ok(made)
}
