//! Market prices' first screen (`features/prices/prices-page.tsx`): the filters as a
//! form the server answers (`GET /prices?crop=&market=&territory=`), and each crop's
//! card with its line of 12 weeks, from the same board the API serves.

use super::{escape, t, usd};
use crate::db::prices as rows;
use crate::domain::prices::board::{self, Board, BoardFilter, CropPrices};
use crate::domain::prices::{CROPS, crop_named, usd_cents};
use crate::labels::Lang;
use crate::state::AppState;

pub async fn board(state: &AppState, query: &super::Query, lang: Lang) -> Option<String> {
    let crop = query.crop.as_deref().and_then(crop_named);
    let (market, territory) = (query.market, query.territory.clone());
    let (board, markets) = state
        .db
        .read_versioned(move |conn| {
            let markets = rows::markets(conn)?;
            let filter = BoardFilter {
                crop,
                market: market.and_then(|id| markets.iter().find(|m| m.id == id).cloned()),
                territory: territory
                    .and_then(|t| markets.iter().map(|m| &m.territory).find(|m| m.eq_ignore_ascii_case(&t)).cloned()),
            };
            Ok((board::board(conn, &filter)?, markets))
        })
        .await
        .ok()?;
    let option = |value: &str, label: &str, current: bool| {
        let selected = if current { " selected" } else { "" };
        format!("<option value=\"{}\"{selected}>{}</option>", escape(value), escape(label))
    };
    let select = |name: &str, all: &str, options: String| {
        format!(
            "<div class=\"field\"><label for=\"first-{name}\">{}</label><select id=\"first-{name}\" name=\"{name}\">{}{options}</select></div>",
            t(lang, &format!("prices.{name}")),
            option("", &lang.text(&format!("prices.{all}")), false),
        )
    };
    let crops: String =
        CROPS.iter().map(|c| option(c.key, &c.name(lang), crop.is_some_and(|k| k.key == c.key))).collect();
    let mut territories: Vec<&str> = markets.iter().map(|m| m.territory.as_str()).collect();
    territories.sort_unstable();
    territories.dedup();
    let territory_options: String = territories
        .iter()
        .map(|name| option(name, name, query.territory.as_deref().is_some_and(|t| t.eq_ignore_ascii_case(name))))
        .collect();
    let market_options: String = markets
        .iter()
        .map(|m| option(&m.id.to_string(), &format!("{} ({})", m.name, m.territory), query.market == Some(m.id)))
        .collect();
    let cards = if board.crops.is_empty() {
        format!(
            "<div class=\"card coming-soon\"><h2>{}</h2><p>{}</p></div>",
            t(lang, "prices.empty_title"),
            t(lang, "prices.empty_body")
        )
    } else {
        format!(
            "<ul class=\"cards-grid price-cards\">{}</ul>",
            board.crops.iter().map(|c| format!("<li>{}</li>", card(c, &board, lang))).collect::<String>()
        )
    };
    // What the filters hold, as the summary of their fold says it (the app's `chosen`).
    let chosen = [
        crop.map_or_else(|| lang.text("prices.all_crops"), |c| c.name(lang)),
        match (query.market.and_then(|id| markets.iter().find(|m| m.id == id)), query.territory.as_deref()) {
            (Some(market), _) => market.name.clone(),
            (None, Some(territory)) if !territory.is_empty() => territory.to_owned(),
            _ => lang.text("prices.all_markets"),
        },
    ]
    .join(" · ");
    // The prices first, the filters folded under the heading (a phone's first screen held
    // the intro and three cut selects, and no price).
    Some(format!(
        "<section class=\"page prices\" aria-labelledby=\"prices-title\"><header><h1 id=\"prices-title\">{}</h1>\
         </header><details class=\"price-filters\"><summary>{}: <span class=\"muted\">{}</span></summary>\
         <form class=\"filter-bar\" action=\"/prices\" aria-label=\"{}\">{}{}{}\
         <button type=\"submit\" class=\"button secondary small\">{}</button></form></details>{cards}\
         <p class=\"lead\">{}</p><p class=\"muted\">{}</p></section>",
        t(lang, "prices.title"),
        t(lang, "prices.filters"),
        escape(&chosen),
        t(lang, "prices.filters"),
        select("crop", "all_crops", crops),
        select("territory", "all_territories", territory_options),
        select("market", "all_markets", market_options),
        t(lang, "prices.show"),
        t(lang, "prices.intro"),
        t(lang, "prices.how"),
    ))
}

fn money(lang: Lang, micros: i64) -> String {
    usd(lang, usd_cents(micros))
}

/// Whole francs as the app's `formatFrancs` writes them for the DRC, grouped as the
/// language's other numbers are ("FC 4,076" beside "US$ 1.43" in Kiswahili).
fn francs(lang: Lang, amount: i64) -> String {
    let grouped = lang.whole(amount);
    match lang.code() {
        "fr" => format!("{grouped}\u{a0}FC"),
        "sw" => format!("FC\u{a0}{grouped}"),
        _ => format!("CDF\u{a0}{grouped}"),
    }
}

/// A crop's card (`PriceCard`).
fn card(p: &CropPrices, board: &Board, lang: Lang) -> String {
    let id = format!("price-{}-{}", p.crop, p.unit.as_str());
    let crop = lang.text(&format!("crops.{}", p.crop));
    let unit = lang.text(&format!("price_units.{}", p.unit.as_str()));
    let median = board
        .francs_per_usd
        .map(|rate| {
            let amount = (p.figures.median_usd_micros as f64 / 1e6 * rate as f64).round() as i64;
            format!("<span class=\"muted\"> ≈ {}</span>", escape(&francs(lang, amount)))
        })
        .unwrap_or_default();
    let change = p
        .change_percent
        .map(|c| {
            let class = match c.signum() {
                1 => "price-change up",
                -1 => "price-change down",
                _ => "price-change ",
            };
            let sign = if c > 0 { "+" } else { "" };
            format!(
                " <span class=\"{class}\">{}</span>",
                escape(&lang.format("prices.change", &[("change", &format!("{sign}{c}"))]))
            )
        })
        .unwrap_or_default();
    let s = &p.sources;
    let sources: Vec<String> =
        [(s.sales, "prices.from_sales"), (s.agents, "prices.from_agents"), (s.imports, "prices.from_imports")]
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, key)| lang.plural(key, *n, &[]))
            .collect();
    let outliers =
        if s.outliers > 0 { format!(" {}", lang.plural("prices.outliers", s.outliers, &[])) } else { String::new() };
    let markets = if p.markets.is_empty() {
        String::new()
    } else {
        let rows: String = p
            .markets
            .iter()
            .map(|m| {
                format!(
                    "<tr><th scope=\"row\">{} <span class=\"muted\">({})</span></th><td>{}</td><td>{}–{}</td></tr>",
                    escape(&m.name),
                    m.figures.observations,
                    money(lang, m.figures.median_usd_micros),
                    money(lang, m.figures.low_usd_micros),
                    money(lang, m.figures.high_usd_micros),
                )
            })
            .collect();
        format!(
            "<details><summary>{}</summary><table class=\"table compact\"><thead><tr><th scope=\"col\">{}</th>\
             <th scope=\"col\">{}</th><th scope=\"col\">{}</th></tr></thead><tbody>{rows}</tbody></table></details>",
            escape(&lang.plural("prices.by_market", p.markets.len() as i64, &[])),
            t(lang, "prices.market"),
            t(lang, "prices.median"),
            t(lang, "prices.low_high"),
        )
    };
    format!(
        "<article class=\"card price-card\" aria-labelledby=\"{id}\"><h2 id=\"{id}\">{} <span class=\"muted\">{}</span></h2>\
         <p class=\"price-median\"><strong>{}</strong>{median}</p><p>{}{change}</p><p>{}</p>{}<p class=\"muted\">{} {}{outliers}</p>{markets}</article>",
        escape(&crop),
        escape(&lang.format("prices.per_unit", &[("unit", &unit)])),
        money(lang, p.figures.median_usd_micros),
        escape(&lang.format("prices.week_of", &[("day", &lang.long_date(&p.week))])),
        escape(&lang.format(
            "prices.range",
            &[("low", &money(lang, p.figures.low_usd_micros)), ("high", &money(lang, p.figures.high_usd_micros))]
        )),
        sparkline(p, board, &crop, lang),
        escape(&lang.plural("prices.behind", p.figures.observations, &[])),
        escape(&sources.join(", ")),
    )
}

/// The app's `Sparkline`: one line per run of weeks with a median, a dot per week.
fn sparkline(p: &CropPrices, board: &Board, crop: &str, lang: Lang) -> String {
    let known: Vec<i64> = p.series.iter().flatten().copied().collect();
    let (Some(&low), Some(&high)) = (known.iter().min(), known.iter().max()) else { return String::new() };
    if known.len() < 2 {
        return String::new();
    }
    let (width, height, pad) = (120.0, 36.0, 3.0);
    let step = (width - 2.0 * pad) / (p.series.len().max(2) - 1) as f64;
    let y = |v: i64| {
        if high == low { height / 2.0 } else { pad + (high - v) as f64 * (height - 2.0 * pad) / (high - low) as f64 }
    };
    let mut runs = Vec::new();
    let mut run = Vec::new();
    for (i, value) in p.series.iter().enumerate() {
        match value {
            Some(v) => run.push(format!("{:.1},{:.1}", pad + i as f64 * step, y(*v))),
            None if !run.is_empty() => runs.push(std::mem::take(&mut run).join(" ")),
            None => {}
        }
    }
    if !run.is_empty() {
        runs.push(run.join(" "));
    }
    let lines: String = runs
        .iter()
        .map(|points| {
            format!(
                "<polyline points=\"{points}\" fill=\"none\" stroke=\"currentColor\" stroke-width=\"2\"></polyline>"
            )
        })
        .collect();
    let dots: String = p
        .series
        .iter()
        .enumerate()
        .filter_map(|(i, v)| {
            v.map(|v| {
                format!(
                    "<circle cx=\"{}\" cy=\"{}\" r=\"2\" fill=\"currentColor\"></circle>",
                    pad + i as f64 * step,
                    y(v)
                )
            })
        })
        .collect();
    format!(
        "<svg class=\"sparkline\" viewBox=\"0 0 120 36\" role=\"img\" aria-labelledby=\"{id}-t\" aria-describedby=\"{id}-d\">\
         <title id=\"{id}-t\">{}</title><desc id=\"{id}-d\">{}</desc>{lines}{dots}</svg>",
        escape(&lang.format("prices.line_title", &[("crop", crop)])),
        escape(&lang.plural(
            "prices.line_description",
            board.weeks.len() as i64,
            &[("low", &money(lang, low)), ("high", &money(lang, high))]
        )),
        id = format!("spark-{}-{}", p.crop, p.unit.as_str()),
    )
}
