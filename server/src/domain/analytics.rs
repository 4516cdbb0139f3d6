//! The admin's analytics (docs/analytics.md): the numbers a program manager needs for
//! the platform's goals (SPEC section 1), one chart at a time, for a period: time series
//! in days, weeks or months (every bucket present, zeros too), a table, and key figures.

use std::collections::HashMap;

use crate::db::Connection;
use serde::Serialize;
use time::{Date, Duration, Month, OffsetDateTime};
use utoipa::ToSchema;

use crate::db::analytics::{self as rows, Cells, Grain, Ranked};
use crate::error::{ApiResult, AppError};
use crate::model::user::Role;

/// How many rows the top lists have.
const TOP: i64 = 10;

/// The charts, by their name in the address.
pub const CHARTS: &[&str] =
    &["goals", "signups", "applications", "listings", "orders", "top_products", "top_farmers", "courses"];

/// The periods a chart can show, by their name in the address.
pub const PERIODS: &[&str] = &["30d", "90d", "12m", "all"];

/// A line of a time series; `values` follow the chart's buckets.
#[derive(Debug, Serialize, ToSchema)]
pub struct Series {
    pub key: String,
    /// `count` or `cents` (US dollar cents).
    pub unit: &'static str,
    pub values: Vec<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Column {
    pub key: &'static str,
    pub unit: &'static str,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Row {
    /// A country, status, category or role word, or an id (products, farmers, courses).
    pub key: String,
    /// The name, for products, farmers and courses.
    pub label: Option<String>,
    pub values: Vec<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Table {
    /// What the rows are: `country`, `status`, `category`, `product`, `farmer` or `course`.
    pub rows_are: &'static str,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Figure {
    pub key: &'static str,
    /// `count`, `cents`, `hours` or `percent`.
    pub unit: &'static str,
    /// `null`: the platform does not record it.
    pub value: Option<f64>,
    /// The 2030 goal, where the spec states one.
    pub target: Option<i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Chart {
    pub chart: &'static str,
    pub period: &'static str,
    /// `day`, `week` or `month`; the buckets' first days (months as `YYYY-MM`).
    pub grain: &'static str,
    /// The first day counted (UTC); none for all time.
    pub since: Option<String>,
    pub buckets: Vec<String>,
    pub series: Vec<Series>,
    pub table: Option<Table>,
    pub figures: Vec<Figure>,
}

fn figure(key: &'static str, unit: &'static str, value: impl Into<f64>) -> Figure {
    Figure { key, unit, value: Some(value.into()), target: None }
}

/// The period's first day and its buckets, up to `today`.
fn buckets(period: &str, today: Date, first: Option<Date>) -> (Grain, Option<Date>, Vec<String>) {
    let month_start = |d: Date| d.replace_day(1).expect("every month has a first day");
    let (grain, start) = match period {
        "30d" => (Grain::Day, today - Duration::days(29)),
        "90d" => {
            let start = today - Duration::days(89);
            (Grain::Week, start - Duration::days(i64::from(start.weekday().number_days_from_monday())))
        }
        "12m" => {
            let mut start = month_start(today);
            for _ in 0..11 {
                start = month_start(start - Duration::days(1));
            }
            (Grain::Month, start)
        }
        _ => (Grain::Month, month_start(first.unwrap_or(today).min(today))),
    };
    let mut names = Vec::new();
    let mut at = start;
    while at <= today {
        names.push(match grain {
            Grain::Month => format!("{:04}-{:02}", at.year(), u8::from(at.month())),
            _ => at.to_string(),
        });
        at = match grain {
            Grain::Day => at + Duration::days(1),
            Grain::Week => at + Duration::days(7),
            Grain::Month => {
                let next = if at.month() == Month::December { at.year() + 1 } else { at.year() };
                Date::from_calendar_date(next, at.month().next(), 1).expect("a month's first day")
            }
        };
    }
    (grain, (period != "all").then_some(start), names)
}

/// The series of `keys` from `(bucket, key, value)` cells, zeros where nothing happened.
fn series(cells: &Cells, buckets: &[String], keys: &[(&str, &'static str)]) -> Vec<Series> {
    let found: HashMap<(&str, &str), i64> = cells.iter().map(|(b, k, v)| ((b.as_str(), k.as_str()), *v)).collect();
    keys.iter()
        .map(|(key, unit)| Series {
            key: (*key).to_owned(),
            unit,
            values: buckets.iter().map(|b| found.get(&(b.as_str(), *key)).copied().unwrap_or(0)).collect(),
        })
        .collect()
}

fn ranked(rows_are: &'static str, columns: [(&'static str, &'static str); 2], list: Vec<Ranked>) -> Option<Table> {
    Some(Table {
        rows_are,
        columns: columns.iter().map(|(key, unit)| Column { key, unit }).collect(),
        rows: list
            .into_iter()
            .map(|(id, label, count, value)| Row {
                key: id.to_string(),
                label: Some(label),
                values: vec![count, value],
            })
            .collect(),
    })
}

fn median(sorted: &[f64]) -> Option<f64> {
    let n = sorted.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(sorted[n / 2]),
        _ => Some((sorted[n / 2 - 1] + sorted[n / 2]) / 2.0),
    }
}

fn tenth(value: f64) -> f64 {
    (value * 10.0).round() / 10.0
}

fn total(series: &Series) -> f64 {
    series.values.iter().sum::<i64>() as f64
}

/// One chart for one period.
pub fn chart(conn: &Connection, chart: &str, period: &str) -> ApiResult<Chart> {
    let chart = CHARTS
        .iter()
        .find(|c| **c == chart)
        .ok_or_else(|| AppError::not_found("chart_not_found", format!("No chart named {chart:?}")))?;
    let period = PERIODS
        .iter()
        .find(|p| **p == period)
        .ok_or_else(|| AppError::invalid("period", "invalid_filter", "The period is 30d, 90d, 12m or all"))?;
    let first = rows::first_day(conn)?.and_then(|at| Date::parse(at.get(..10)?, &DAY).ok());
    let (grain, start, buckets) = buckets(period, OffsetDateTime::now_utc().date(), first);
    let since = start.map(|d| d.to_string());
    let from = since.as_deref();
    let mut out = Chart {
        chart,
        period,
        grain: match grain {
            Grain::Day => "day",
            Grain::Week => "week",
            Grain::Month => "month",
        },
        since: since.clone(),
        buckets: Vec::new(),
        series: Vec::new(),
        table: None,
        figures: Vec::new(),
    };
    match *chart {
        "goals" => {
            let found: HashMap<String, i64> = rows::goals(conn, from)?.into_iter().collect();
            let count = |key: &str| found.get(key).copied().unwrap_or(0) as f64;
            // The spec's 2030 goals; women and youth are not recorded (no gender or age is asked).
            out.figures = vec![
                Figure { target: Some(10_000), ..figure("farmers", "count", count("farmers")) },
                Figure { target: Some(50_000), ..figure("trained", "count", count("trained")) },
                Figure { key: "women_youth", unit: "count", value: None, target: Some(10_000) },
                figure("countries", "count", count("countries")),
                Figure { target: Some(10), ..figure("places", "count", count("places")) },
            ];
        }
        "signups" => {
            let roles: Vec<(&str, &'static str)> = Role::ALL.iter().map(|r| (r.as_str(), "count")).collect();
            out.series = series(&rows::signups_by_role(conn, grain, from)?, &buckets, &roles);
            out.series.retain(|s| s.values.iter().any(|v| *v > 0));
            out.figures = vec![figure("signups", "count", out.series.iter().map(total).sum::<f64>())];
            let by_country = rows::signups_by_country(conn, from)?;
            out.table = Some(Table {
                rows_are: "country",
                columns: vec![Column { key: "signups", unit: "count" }],
                rows: by_country.into_iter().map(|(key, n)| Row { key, label: None, values: vec![n] }).collect(),
            });
        }
        "applications" => {
            let statuses = [("pending", "count"), ("approved", "count"), ("rejected", "count")];
            out.series = series(&rows::applications_by_status(conn, grain, from)?, &buckets, &statuses);
            let hours = rows::decision_hours(conn, from)?;
            let average = (!hours.is_empty()).then(|| hours.iter().sum::<f64>() / hours.len() as f64);
            out.figures = vec![
                figure("applications", "count", out.series.iter().map(total).sum::<f64>()),
                figure("decided", "count", hours.len() as f64),
                Figure { key: "median_decision_hours", unit: "hours", value: median(&hours).map(tenth), target: None },
                Figure { key: "average_decision_hours", unit: "hours", value: average.map(tenth), target: None },
            ];
            out.table = Some(Table {
                rows_are: "status",
                columns: vec![Column { key: "applications", unit: "count" }],
                rows: out
                    .series
                    .iter()
                    .map(|s| Row { key: s.key.clone(), label: None, values: vec![total(s) as i64] })
                    .collect(),
            });
        }
        "listings" => {
            let by_category = rows::listings_by_category(conn, from)?;
            let (made, on_sale) = by_category.iter().fold((0, 0), |(m, s), (_, n, l)| (m + n, s + l));
            out.figures = vec![figure("listings", "count", made as f64), figure("on_sale", "count", on_sale as f64)];
            out.table = Some(Table {
                rows_are: "category",
                columns: vec![Column { key: "listings", unit: "count" }, Column { key: "on_sale", unit: "count" }],
                rows: by_category.into_iter().map(|(key, n, l)| Row { key, label: None, values: vec![n, l] }).collect(),
            });
        }
        "orders" => {
            let keys = [("orders", "count"), ("revenue_cents", "cents")];
            out.series = series(&rows::orders_and_revenue(conn, grain, from)?, &buckets, &keys);
            out.figures = vec![
                figure("orders", "count", total(&out.series[0])),
                figure("revenue_cents", "cents", total(&out.series[1])),
            ];
        }
        "top_products" => {
            out.table = ranked(
                "product",
                [("quantity", "count"), ("revenue_cents", "cents")],
                rows::top_products(conn, from, TOP)?,
            );
        }
        "top_farmers" => {
            out.table = ranked(
                "farmer",
                [("orders", "count"), ("revenue_cents", "cents")],
                rows::top_farmers(conn, from, TOP)?,
            );
        }
        _ => {
            let keys = [("enrolments", "count"), ("completions", "count")];
            out.series = series(&rows::enrolments_and_completions(conn, grain, from)?, &buckets, &keys);
            let (enrolled, completed) = (total(&out.series[0]), total(&out.series[1]));
            out.figures = vec![figure("enrolments", "count", enrolled), figure("completions", "count", completed)];
            out.table = ranked(
                "course",
                [("enrolments", "count"), ("completions", "count")],
                rows::top_courses(conn, from, TOP)?,
            );
        }
    }
    if !out.series.is_empty() {
        out.buckets = buckets;
    }
    Ok(out)
}

const DAY: &[time::format_description::BorrowedFormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]");

#[cfg(test)]
mod tests {
    use super::*;
    use time::macros::date;

    #[test]
    fn every_bucket_of_the_period_is_there() {
        let today = date!(2026 - 03 - 04);
        let (_, start, days) = buckets("30d", today, None);
        assert_eq!(
            (start, days.len(), days.last().map(String::as_str)),
            (Some(date!(2026 - 02 - 03)), 30, Some("2026-03-04"))
        );
        let (_, start, weeks) = buckets("90d", today, None);
        assert_eq!(start, Some(date!(2025 - 12 - 01)), "the Monday of the week 89 days ago");
        assert_eq!(weeks.last().map(String::as_str), Some("2026-03-02"));
        let (_, start, months) = buckets("12m", today, None);
        assert_eq!((start, months.len()), (Some(date!(2025 - 04 - 01)), 12));
        assert_eq!((months[0].as_str(), months[11].as_str()), ("2025-04", "2026-03"));
        let (_, start, all) = buckets("all", today, Some(date!(2025 - 11 - 20)));
        assert_eq!(
            (start, all),
            (None, vec!["2025-11".to_owned(), "2025-12".into(), "2026-01".into(), "2026-02".into(), "2026-03".into()])
        );
    }

    #[test]
    fn the_median_of_an_even_count_is_between_the_middle_two() {
        assert_eq!(median(&[1.0, 2.0, 10.0, 20.0]), Some(6.0));
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[]), None);
    }
}
