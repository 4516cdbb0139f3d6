//! A crop's week of figures (docs/prices.md, Rules): outliers are prices beyond
//! `OUTLIER_MADS` median absolute deviations of the week's median in their unit,
//! kept but left out; medians, lows and highs are per unit and per scope (every
//! market, a territory, a market), counted by source.

use std::collections::BTreeMap;

use crate::db::Connection;

use crate::db::prices::{self as rows, WeekRow};
use crate::error::ApiResult;
use crate::model::price::{PriceUnit, Source};

pub const OUTLIER_MADS: i64 = 3;
/// The least deviation counted as one MAD, as a share of the median (1/20): a week
/// of equal prices does not make every other price an outlier.
const MAD_FLOOR_DIVISOR: i64 = 20;

/// The median of sorted values (the upper one's mean with the lower, rounded).
pub fn median(sorted: &[i64]) -> Option<i64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2] + 1) / 2),
    }
}

/// Which of `values` are outliers of their group.
pub fn outliers(values: &[i64]) -> Vec<bool> {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let Some(middle) = median(&sorted) else { return Vec::new() };
    let mut deviations: Vec<i64> = values.iter().map(|v| (v - middle).abs()).collect();
    deviations.sort_unstable();
    let mad = median(&deviations).unwrap_or(0).max(middle / MAD_FLOOR_DIVISOR).max(1);
    values.iter().map(|v| (v - middle).abs() > OUTLIER_MADS * mad).collect()
}

/// Rewrites the outlier flags and figures of `crop`'s `week` from its observations.
pub fn recompute(conn: &Connection, crop: &str, week: &str) -> ApiResult<()> {
    let observations = rows::of_week(conn, crop, week)?;
    let mut by_unit: BTreeMap<PriceUnit, Vec<usize>> = BTreeMap::new();
    for (index, o) in observations.iter().enumerate() {
        by_unit.entry(o.base_unit).or_default().push(index);
    }
    let mut flagged = vec![false; observations.len()];
    for indexes in by_unit.values() {
        let values: Vec<i64> = indexes.iter().map(|&i| observations[i].base_usd_micros).collect();
        for (&i, outlier) in indexes.iter().zip(outliers(&values)) {
            flagged[i] = outlier;
        }
    }
    let mut groups: BTreeMap<(String, PriceUnit), Vec<usize>> = BTreeMap::new();
    for (index, o) in observations.iter().enumerate() {
        if o.outlier != flagged[index] {
            rows::set_outlier(conn, o.id, flagged[index])?;
        }
        let mut scopes = vec![String::new()];
        scopes.extend(o.territory.as_ref().map(|t| format!("t:{t}")));
        scopes.extend(o.market_id.map(|m| format!("m:{m}")));
        for scope in scopes {
            groups.entry((scope, o.base_unit)).or_default().push(index);
        }
    }
    let figures: Vec<WeekRow> = groups
        .into_iter()
        .filter_map(|((scope, unit), indexes)| {
            let kept: Vec<usize> = indexes.iter().copied().filter(|&i| !flagged[i]).collect();
            let mut values: Vec<i64> = kept.iter().map(|&i| observations[i].base_usd_micros).collect();
            values.sort_unstable();
            let count = |source| kept.iter().filter(|&&i| observations[i].source == source).count() as i64;
            Some(WeekRow {
                crop: crop.to_owned(),
                scope,
                unit,
                week: week.to_owned(),
                observations: values.len() as i64,
                median_micros: median(&values)?,
                low_micros: values[0],
                high_micros: values[values.len() - 1],
                sales: count(Source::Sale),
                agents: count(Source::Agent),
                imports: count(Source::Import),
                outliers: (indexes.len() - kept.len()) as i64,
            })
        })
        .collect();
    rows::replace_week(conn, crop, week, &figures)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_an_even_count_is_between_the_middle_two() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[5]), Some(5));
        assert_eq!(median(&[1, 2, 9]), Some(2));
        assert_eq!(median(&[1, 2, 3, 9]), Some(3));
    }

    #[test]
    fn a_price_far_from_the_week_is_an_outlier_and_equal_prices_flag_nothing_near() {
        let prices = [1_100_000, 1_200_000, 1_150_000, 1_300_000, 1_250_000, 12_000_000];
        assert_eq!(outliers(&prices), [false, false, false, false, false, true]);
        // All equal: MAD 0, floored at 5% of the median, so 3 MADs is 15%.
        assert_eq!(
            outliers(&[1_000_000, 1_000_000, 1_000_000, 1_100_000, 1_200_000]),
            [false, false, false, false, true]
        );
        assert_eq!(outliers(&[1_000_000, 50_000_000]), [false, false], "two prices cannot tell which is wrong");
    }
}
