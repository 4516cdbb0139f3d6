//! Admins load price series in the layout of WFP's VAM food prices on HDX (date,
//! admin1, admin2, market, category, commodity, unit, priceflag, pricetype,
//! currency, price, usdprice; columns found by name, the HXL tag row skipped). Each
//! row is checked on its own: good rows are written together, bad rows are listed
//! with their line and reasons, and a row already imported adds nothing.

use std::collections::BTreeSet;

use crate::db::Connection;
use serde::Serialize;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::{PriceFields, check, crop_named, observation};
use crate::db::prices as rows;
use crate::db::users::UserRow;
use crate::error::{ApiResult, AppError};
use crate::model::price::Source;
use crate::platform::clock;
use crate::platform::csv;

/// The most rows one file may hold, and refusals an answer lists.
pub const MAX_ROWS: usize = 100_000;
pub const MAX_REFUSALS_LISTED: usize = 200;
const REQUIRED: [&str; 6] = ["date", "market", "commodity", "unit", "currency", "price"];

#[derive(Debug, Serialize, ToSchema, PartialEq, Eq)]
pub struct Refusal {
    /// The file's line the row starts on (the header is line 1).
    pub line: usize,
    /// `field: code` of each failure, e.g. `market: market_unknown`.
    pub reasons: Vec<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct ImportReport {
    pub imported: usize,
    /// Rows that were imported before (the same market, day, commodity, unit, type and price).
    pub already: usize,
    pub refused: usize,
    /// The first `MAX_REFUSALS_LISTED` refused rows.
    pub refusals: Vec<Refusal>,
}

/// WFP's units, as the markets' own.
fn unit_of(wfp: &str) -> Option<&'static str> {
    let unit = wfp.trim().to_lowercase().replace(' ', "");
    Some(match unit.as_str() {
        "kg" | "1kg" => "kg",
        "50kg" => "bag_50kg",
        "100kg" => "bag_100kg",
        "unit" | "piece" | "1unit" => "piece",
        "bunch" => "bunch",
        "basin" => "basin",
        _ => return None,
    })
}

/// The crop a WFP commodity names: "Maize (white)" is maize, "Beans (dry)" beans.
fn crop_of(commodity: &str) -> Option<&'static str> {
    let name = commodity.split(['(', '-', ',']).next().unwrap_or_default().trim();
    crop_named(name).or_else(|| crop_named(name.split_whitespace().next()?)).map(|c| c.key)
}

fn uid_of(cells: &[&str]) -> String {
    let digest = Sha256::digest(cells.join("\u{1f}").to_lowercase().as_bytes());
    format!("import:{}", hex::encode(&digest[..16]))
}

/// A row that is not a price: HXL's tag row (#date, #adm1+name, ...) or a blank line.
fn skipped(row: &[String]) -> bool {
    row.first().is_some_and(|c| c.starts_with('#')) || row.iter().all(|c| c.trim().is_empty())
}

fn too_long(refused: csv::TooLong) -> AppError {
    AppError::bad_request(
        "import_line_too_long",
        format!("Line {} is longer than a row of prices can be: is this the right file?", refused.line),
    )
}

pub fn import(conn: &Connection, admin: &UserRow, text: &str) -> ApiResult<ImportReport> {
    // A first reading counts the rows (after the tag row) and finds an overlong one,
    // holding one row at a time, before anything is written.
    let mut rows = 0;
    for record in csv::records(text).skip(1) {
        if !skipped(&record.map_err(too_long)?.1) {
            rows += 1;
        }
    }
    let mut records = csv::records(text);
    let Some(header) = records.next() else {
        return Err(AppError::bad_request("import_empty", "The file holds no rows"));
    };
    let (_, header) = header.map_err(too_long)?;
    let column = |name: &str| header.iter().position(|h| h.trim().eq_ignore_ascii_case(name));
    let missing: Vec<&str> = REQUIRED.into_iter().filter(|name| column(name).is_none()).collect();
    if !missing.is_empty() {
        return Err(AppError::bad_request(
            "import_columns",
            format!(
                "The file lacks the column(s) {}: use WFP's layout (date, market, commodity, unit, currency, price, ...)",
                missing.join(", ")
            ),
        ));
    }
    if rows > MAX_ROWS {
        return Err(AppError::bad_request("import_too_long", format!("A file holds at most {MAX_ROWS} rows")));
    }
    let cell = |row: &'_ [String], name: &str| -> String {
        column(name).and_then(|i| row.get(i)).map(|c| c.trim().to_owned()).unwrap_or_default()
    };
    let mut report = ImportReport { imported: 0, already: 0, refused: 0, refusals: Vec::new() };
    let mut weeks = BTreeSet::new();
    let now = clock::now();
    for record in records {
        let (line, row) = record.map_err(too_long)?;
        if skipped(&row) {
            continue;
        }
        let [date, market, commodity, unit, currency, price, usd, kind, flag] =
            ["date", "market", "commodity", "unit", "currency", "price", "usdprice", "pricetype", "priceflag"]
                .map(|name| cell(&row, name));
        let mut reasons = Vec::new();
        if !kind.is_empty() && !kind.eq_ignore_ascii_case("retail") {
            reasons.push("pricetype: retail_only".to_owned());
        }
        if flag.to_lowercase().contains("forecast") {
            reasons.push("priceflag: forecast".to_owned());
        }
        let uid = uid_of(&[&date, &market, &commodity, &unit, &kind, &currency, &price]);
        if reasons.is_empty() && rows::by_uid(conn, &uid)?.is_some() {
            report.already += 1;
            continue;
        }
        let market_id = rows::market_named(conn, &market)?.map(|m| m.id);
        let crop = crop_of(&commodity).unwrap_or("?");
        let fields = PriceFields {
            market: market_id,
            crop,
            unit: unit_of(&unit).unwrap_or("?"),
            price: &price,
            currency: &currency,
            observed_on: &date,
            note: None,
            usd: Some(&usd),
        };
        match check(conn, &fields) {
            Ok(checked) if reasons.is_empty() => {
                let new = observation(uid, Source::Import, checked, Some(admin.id));
                rows::insert(conn, &new, None, &now)?;
                weeks.insert((new.crop, new.week));
                report.imported += 1;
                continue;
            }
            Ok(_) => {}
            Err(AppError::Validation(errors)) => reasons.extend(errors.fields_and_codes()),
            Err(other) => return Err(other),
        }
        report.refused += 1;
        if report.refusals.len() < MAX_REFUSALS_LISTED {
            report.refusals.push(Refusal { line, reasons });
        }
    }
    for (crop, week) in &weeks {
        super::stats::recompute(conn, crop, week)?;
    }
    if report.imported > 0 {
        rows::touch(conn)?;
    }
    Ok(report)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wfp_commodities_and_units_are_read_as_ours() {
        assert_eq!(crop_of("Maize (white)"), Some("maize"));
        assert_eq!(crop_of("Beans (dry)"), Some("bean"));
        assert_eq!(crop_of("Cassava (flour)"), Some("cassava"));
        assert_eq!(crop_of("Rice (imported)"), Some("rice"));
        assert_eq!(crop_of("Fuel (diesel)"), None);
        assert_eq!(unit_of("KG"), Some("kg"));
        assert_eq!(unit_of("50 KG"), Some("bag_50kg"));
        assert_eq!(unit_of("L"), None);
    }
}
