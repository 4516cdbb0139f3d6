//! The markets agents record prices at, with their territory, kept by admins.

use crate::db::Connection;

use crate::db::prices::{self as rows, MarketRow};
use crate::error::{ApiResult, AppError, FieldErrors};
use crate::platform::clock;

pub const MAX_NAME_CHARS: usize = 60;

fn checked<'a>(conn: &Connection, id: Option<i64>, name: &'a str, territory: &'a str) -> ApiResult<(&'a str, &'a str)> {
    let (name, territory) = (name.trim(), territory.trim());
    let mut errors = FieldErrors::default();
    for (field, value) in [("name", name), ("territory", territory)] {
        if value.is_empty() {
            errors.add(field, "required", "This field is required");
        } else if value.chars().count() > MAX_NAME_CHARS || super::super::input::has_hidden_characters(value, false) {
            errors.add(field, "too_long", format!("At most {MAX_NAME_CHARS} characters on one line"));
        }
    }
    if !name.is_empty() && rows::market_named(conn, name)?.is_some_and(|m| Some(m.id) != id) {
        errors.add("name", "market_taken", "A market of this name is already on the list");
    }
    errors.finish()?;
    Ok((name, territory))
}

pub fn create(conn: &Connection, name: &str, territory: &str) -> ApiResult<MarketRow> {
    let (name, territory) = checked(conn, None, name, territory)?;
    let id = rows::insert_market(conn, name, territory, &clock::now())?;
    rows::touch(conn)?;
    rows::market(conn, id)?.ok_or_else(not_found)
}

fn not_found() -> AppError {
    AppError::not_found("market_not_found", "This market is not on the list")
}

/// Renames a market; its observations' territory follows, and their figures.
/// Renames a market or moves it: a field left out keeps its value.
pub fn update(conn: &Connection, id: i64, name: Option<&str>, territory: Option<&str>) -> ApiResult<MarketRow> {
    let current = rows::market(conn, id)?.ok_or_else(not_found)?;
    let name = name.unwrap_or(&current.name);
    let territory = territory.unwrap_or(&current.territory);
    let (name, territory) = checked(conn, Some(id), name, territory)?;
    rows::update_market(conn, id, name, territory, &clock::now())?;
    for (crop, week) in rows::retag_market(conn, id)? {
        super::stats::recompute(conn, &crop, &week)?;
    }
    rows::touch(conn)?;
    rows::market(conn, id)?.ok_or_else(not_found)
}

/// Takes a market off the list; what was recorded there stays.
pub fn remove(conn: &Connection, id: i64) -> ApiResult<()> {
    rows::market(conn, id)?.ok_or_else(not_found)?;
    rows::remove_market(conn, id, &clock::now())?;
    rows::touch(conn)?;
    Ok(())
}
