//! The demo's market prices: our sample series in WFP VAM's layout
//! (`server/demo/prices-sample.csv`, 12 weeks at six South Kivu markets, made by us),
//! imported once by the demo admin through the admin's import, its days moved so
//! that its last week is this week. An admin can correct or remove them like any.

use crate::db::{meta, users};
use crate::domain::prices::{self, import};
use crate::error::ApiResult;
use crate::model::price::week_of;
use crate::state::AppState;

pub const SAMPLE: &str = include_str!("../../demo/prices-sample.csv");
const SEEDED_KEY: &str = "demo_prices_seeded";

/// The sample with every day moved by the days between its last week and this one.
pub fn sample_moved_to_now() -> String {
    let day_of = |line: &str| line.get(..10).and_then(prices::day);
    let last = SAMPLE.lines().filter_map(day_of).max();
    let Some(last) = last else { return SAMPLE.to_owned() };
    let shift = week_of(prices::today()) - week_of(last);
    SAMPLE
        .lines()
        .map(|line| match day_of(line) {
            Some(day) => format!("{}{}\n", day + shift, &line[10..]),
            None => format!("{line}\n"),
        })
        .collect()
}

pub async fn seed(state: &AppState) -> ApiResult<bool> {
    let text = sample_moved_to_now();
    state
        .db
        .write(move |tx| {
            if meta::get(tx, SEEDED_KEY)?.is_some() {
                return Ok(false);
            }
            let Some(admin) = users::find_by_email(tx, "admin@mavuno.demo")? else { return Ok(false) };
            import::import(tx, &admin, &text)?;
            meta::set(tx, SEEDED_KEY, &crate::platform::clock::now())?;
            Ok(true)
        })
        .await
}
