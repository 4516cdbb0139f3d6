//! What people read of market prices: the board of /prices (each crop's latest week
//! and its last 12), the range shown on a product page and in the listing form,
//! and a crop's figures for USSD, SMS and alerts. All from `price_weeks` but the
//! range, which reads the few observations of a crop in its window.

use std::collections::BTreeMap;

use crate::db::Connection;
use serde::Serialize;
use utoipa::ToSchema;

use super::{CROPS, Crop, today};
use crate::db::prices::{self as rows, MarketRow, WeekRow};
use crate::error::ApiResult;
use crate::model::price::{PriceUnit, week_of};
use crate::model::product::fold;

/// Weeks a board shows.
pub const WEEKS: usize = 12;
/// Prices a range needs before a product page or a form shows it.
pub const RANGE_MIN: usize = 5;
/// The windows a range looks back over, shortest first; nothing older than the last.
pub const RANGE_DAYS: [i64; 3] = [30, 90, 400];

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BoardFilter {
    pub crop: Option<&'static Crop>,
    pub market: Option<MarketRow>,
    pub territory: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Board {
    /// The weeks shown (Mondays, YYYY-MM-DD), oldest first.
    pub weeks: Vec<String>,
    /// Congolese francs to a US dollar at the rate in use, if one is set.
    pub francs_per_usd: Option<i64>,
    pub crops: Vec<CropPrices>,
}

/// Figures of one week: prices per unit in millionths of a US dollar.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Figures {
    pub median_usd_micros: i64,
    pub low_usd_micros: i64,
    pub high_usd_micros: i64,
    /// Prices behind the figures (outliers left out).
    pub observations: i64,
}

impl From<&WeekRow> for Figures {
    fn from(row: &WeekRow) -> Figures {
        Figures {
            median_usd_micros: row.median_micros,
            low_usd_micros: row.low_micros,
            high_usd_micros: row.high_micros,
            observations: row.observations,
        }
    }
}

#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Sources {
    pub sales: i64,
    pub agents: i64,
    pub imports: i64,
    /// Prices of the week left out as outliers.
    pub outliers: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct CropPrices {
    /// The crop's key (`crops.<key>` names it).
    pub crop: String,
    pub unit: PriceUnit,
    /// The newest week with prices (a Monday).
    pub week: String,
    #[serde(flatten)]
    pub figures: Figures,
    pub sources: Sources,
    /// The change of the median on the week before, in percent, when it had prices.
    pub change_percent: Option<i64>,
    /// Each week's median (of `Board::weeks`), none where nothing was recorded.
    pub series: Vec<Option<i64>>,
    /// The week's figures by market.
    pub markets: Vec<MarketPrices>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MarketPrices {
    pub market_id: i64,
    pub name: String,
    pub territory: String,
    #[serde(flatten)]
    pub figures: Figures,
}

/// The Mondays of the last `WEEKS` weeks, oldest first.
pub fn board_weeks() -> Vec<String> {
    let this = week_of(today());
    (0..WEEKS as i64).rev().map(|back| (this - time::Duration::weeks(back)).to_string()).collect()
}

fn scope_of(filter: &BoardFilter) -> String {
    match (&filter.market, &filter.territory) {
        (Some(m), _) => format!("m:{}", m.id),
        (None, Some(t)) => format!("t:{t}"),
        (None, None) => String::new(),
    }
}

fn change(now: i64, before: i64) -> i64 {
    // In i128: prices are bounded, but a change of one against the other need not fit.
    let (now, before) = (i128::from(now), i128::from(before.max(1)));
    i64::try_from(((now - before) * 100 + before / 2).div_euclid(before)).unwrap_or(i64::MAX)
}

pub fn board(conn: &Connection, filter: &BoardFilter) -> ApiResult<Board> {
    let weeks = board_weeks();
    let crop = filter.crop.map(|c| c.key);
    let scope = scope_of(filter);
    let mut series: BTreeMap<(String, PriceUnit), Vec<WeekRow>> = BTreeMap::new();
    for row in rows::weeks(conn, &scope, crop, &weeks[0])? {
        series.entry((row.crop.clone(), row.unit)).or_default().push(row);
    }
    let markets = rows::markets(conn)?;
    let mut by_market: BTreeMap<(String, PriceUnit, String), Vec<MarketPrices>> = BTreeMap::new();
    if filter.market.is_none() {
        for row in rows::market_weeks(conn, crop, &weeks[0])? {
            let Some(market) = markets.iter().find(|m| format!("m:{}", m.id) == row.scope) else { continue };
            if filter.territory.as_ref().is_some_and(|t| !t.eq_ignore_ascii_case(&market.territory)) {
                continue;
            }
            by_market.entry((row.crop.clone(), row.unit, row.week.clone())).or_default().push(MarketPrices {
                market_id: market.id,
                name: market.name.clone(),
                territory: market.territory.clone(),
                figures: Figures::from(&row),
            });
        }
    }
    let mut crops: Vec<CropPrices> = series
        .into_iter()
        .filter_map(|((crop, unit), rows)| {
            let last = rows.last()?;
            let before = rows.iter().rev().nth(1).filter(|r| r.week == previous_week(&last.week));
            let mut markets = by_market.remove(&(crop.clone(), unit, last.week.clone())).unwrap_or_default();
            markets.sort_by(|a, b| a.name.cmp(&b.name));
            Some(CropPrices {
                series: weeks.iter().map(|w| rows.iter().find(|r| &r.week == w).map(|r| r.median_micros)).collect(),
                change_percent: before.map(|b| change(last.median_micros, b.median_micros)),
                week: last.week.clone(),
                figures: Figures::from(last),
                sources: Sources {
                    sales: last.sales,
                    agents: last.agents,
                    imports: last.imports,
                    outliers: last.outliers,
                },
                markets,
                crop,
                unit,
            })
        })
        .collect();
    // The crops in the order the menus offer them; within a crop, the most priced unit first.
    crops.sort_by_key(|c| (CROPS.iter().position(|k| k.key == c.crop).unwrap_or(usize::MAX), -c.figures.observations));
    let francs_per_usd = crate::db::exchange_rates::current(conn, "CDF")?.map(|r| r.francs_per_usd);
    Ok(Board { weeks, francs_per_usd, crops })
}

fn previous_week(week: &str) -> String {
    super::day(week).map(|w| (w - time::Duration::weeks(1)).to_string()).unwrap_or_default()
}

/// Where someone asked for prices by SMS: a market or a territory, by its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    Market(MarketRow),
    Territory(String),
}

impl Place {
    pub fn name(&self) -> &str {
        match self {
            Place::Market(market) => &market.name,
            Place::Territory(territory) => territory,
        }
    }
}

/// Words that say a place is a market ("PRIX haricots marché Bukavu").
const MARKET_WORDS: [&str; 4] = ["market", "marche", "soko", "sokoni"];
/// Words people put between a crop, a market word and a place: "haricots à Kadutu",
/// "beans at Kadutu", "maharage kwa Kadutu", "au marché de Bukavu" (folded: "à" is "a").
pub const JOINING_WORDS: [&str; 10] = ["a", "au", "at", "de", "du", "en", "in", "kwa", "ya", "huko"];

/// The place `words` name (case and accents aside): the territory of that name, else
/// the market. WFP names markets by their town, so a market and a territory can share
/// a name ("Bukavu"): the territory is meant, unless a market word comes first
/// ("marché Bukavu", "market Bukavu", "soko Bukavu").
pub fn place_named(conn: &Connection, words: &str) -> ApiResult<Option<Place>> {
    let mut said_market = false;
    let folded = fold(words.trim());
    let mut rest: Vec<&str> = folded.split_whitespace().collect();
    while let Some(first) = rest.first() {
        if MARKET_WORDS.contains(first) {
            said_market = true;
        } else if !(JOINING_WORDS.contains(first) && rest.len() > 1) {
            break;
        }
        rest.remove(0);
    }
    let name = rest.join(" ");
    let markets = rows::markets(conn)?;
    let market = markets.iter().find(|m| fold(&m.name) == name).cloned().map(Place::Market);
    let territory = markets.iter().map(|m| &m.territory).find(|t| fold(t) == name).cloned().map(Place::Territory);
    Ok(if said_market { market.or(territory) } else { territory.or(market) })
}

/// The territory a person's place names ("Kabare, South Kivu" is Kabare), if markets are
/// known there.
pub fn home_territory(conn: &Connection, location: &str) -> ApiResult<Option<String>> {
    let territories: Vec<String> = rows::markets(conn)?.into_iter().map(|m| m.territory).collect();
    Ok(location
        .split(',')
        .map(|part| fold(part.trim()))
        .find_map(|part| territories.iter().find(|t| fold(t) == part).cloned()))
}

/// A crop's newest week in its base unit at a place, or across every market (USSD, SMS).
pub fn latest(conn: &Connection, crop: &'static Crop, place: Option<&Place>) -> ApiResult<Option<CropPrices>> {
    let (market, territory) = match place {
        Some(Place::Market(market)) => (Some(market.clone()), None),
        Some(Place::Territory(territory)) => (None, Some(territory.clone())),
        None => (None, None),
    };
    let filter = BoardFilter { crop: Some(crop), market, territory };
    Ok(board(conn, &filter)?.crops.into_iter().find(|c| c.unit == crop.base_unit()))
}

/// What buyers paid for a crop in a unit lately.
#[derive(Debug, Clone, Serialize, ToSchema, PartialEq, Eq)]
pub struct Range {
    pub crop: String,
    pub unit: PriceUnit,
    pub low_usd_micros: i64,
    pub high_usd_micros: i64,
    pub median_usd_micros: i64,
    pub observations: i64,
    /// How many days back the prices go.
    pub days: i64,
    /// The territory the prices are from; none: every market.
    pub territory: Option<String>,
}

/// The range of `crop` in `unit` near `place` (a territory it names, when that has
/// `RANGE_MIN` prices), else everywhere: over the shortest window that has enough.
pub fn range(conn: &Connection, crop: &Crop, unit: PriceUnit, place: Option<&str>) -> ApiResult<Option<Range>> {
    let territory = match place.map(fold).filter(|p| !p.is_empty()) {
        Some(place) => rows::markets(conn)?.into_iter().map(|m| m.territory).find(|t| place.contains(&fold(t))),
        None => None,
    };
    for days in RANGE_DAYS {
        let since = (today() - time::Duration::days(days)).to_string();
        let prices = rows::recent(conn, crop.key, unit, &since)?;
        let near: Vec<i64> =
            prices.iter().filter(|(_, t)| t.is_some() && *t == territory).map(|(price, _)| *price).collect();
        let (mut chosen, territory) = if territory.is_some() && near.len() >= RANGE_MIN {
            (near, territory.clone())
        } else {
            (prices.iter().map(|(price, _)| *price).collect::<Vec<_>>(), None)
        };
        if chosen.len() < RANGE_MIN {
            continue;
        }
        chosen.sort_unstable();
        return Ok(Some(Range {
            crop: crop.key.to_owned(),
            unit,
            low_usd_micros: chosen[0],
            high_usd_micros: chosen[chosen.len() - 1],
            median_usd_micros: super::stats::median(&chosen).unwrap_or_default(),
            observations: chosen.len() as i64,
            days,
            territory,
        }));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_is_rounded_to_a_whole_percent() {
        assert_eq!(change(110, 100), 10);
        assert_eq!(change(90, 100), -10);
        assert_eq!(change(1_005_000, 1_000_000), 1);
        assert_eq!(change(100, 100), 0);
        assert_eq!(change(i64::MAX, 1), i64::MAX, "a change too large to say is the largest");
    }
}
