//! The admin's Products section: every listing that is not deleted (on sale or not),
//! filtered, a page at a time; hiding one with a reason and restoring it.

use crate::db::Value;
use crate::db::{Connection, params, params_from_iter};

use super::products::{ProductRow, from_row, select};
use crate::model::product::{Category, fold};

/// Where a listing stands for the admin's filter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// On the marketplace.
    OnSale,
    /// Not on the marketplace, for any reason (the farmer's choice, hidden, an inactive farmer).
    OffSale,
    /// Hidden by an admin.
    Hidden,
}

#[derive(Debug, Default, Clone)]
pub struct Filter {
    /// Part of the title, description or farmer's name (any case or accents).
    pub search: Option<String>,
    pub farmer_id: Option<i64>,
    pub category: Option<Category>,
    pub standing: Option<Standing>,
    /// At or under this many units.
    pub low_stock: Option<i64>,
}

impl Filter {
    fn sql(&self) -> (String, Vec<Value>) {
        let mut sql = String::from("p.deleted_at IS NULL");
        let mut values: Vec<Value> = Vec::new();
        let mut add = |clause: &str, value: Value| {
            values.push(value);
            sql.push_str(&clause.replace('?', &format!("?{}", values.len())));
        };
        if let Some(search) = self.search.as_deref() {
            add(" AND p.search_text LIKE ? ESCAPE '\\'", super::like_pattern(&fold(search)).into());
        }
        if let Some(farmer) = self.farmer_id {
            add(" AND p.farmer_id = ?", farmer.into());
        }
        if let Some(category) = self.category {
            add(" AND p.category = ?", category.as_str().to_owned().into());
        }
        if let Some(units) = self.low_stock {
            add(" AND p.quantity <= ?", units.into());
        }
        sql.push_str(match self.standing {
            Some(Standing::OnSale) => " AND p.listed = 1",
            Some(Standing::OffSale) => " AND p.listed = 0",
            Some(Standing::Hidden) => " AND p.hidden_at IS NOT NULL",
            None => "",
        });
        (sql, values)
    }
}

/// A page of the listings matching `filter`, newest first, and how many match.
pub fn list(conn: &Connection, filter: &Filter, limit: i64, offset: i64) -> crate::db::Result<(Vec<ProductRow>, i64)> {
    let (sql, mut values) = filter.sql();
    let total = conn
        .prepare_cached(&format!("SELECT COUNT(*) FROM products p WHERE {sql}"))?
        .query_row(params_from_iter(values.clone()), |r| r.get(0))?;
    let page = format!("{} ORDER BY p.id DESC LIMIT ?{} OFFSET ?{}", select(&sql), values.len() + 1, values.len() + 2);
    values.extend([Value::Integer(limit), Value::Integer(offset)]);
    let rows = conn.prepare_cached(&page)?.query_map(params_from_iter(values), from_row)?.collect::<Result<_, _>>()?;
    Ok((rows, total))
}

/// Hides a listing (or changes the reason of a hidden one) under a new `version`.
pub fn hide(conn: &Connection, id: i64, reason: &str, by: i64, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE products SET hidden_reason = ?2, hidden_by = ?3, hidden_at = ?4, version = ?5, updated_at = ?4
         WHERE id = ?1",
    )?
    .execute(params![id, reason, by, now, version])?;
    Ok(())
}

/// Puts a hidden listing back under a new `version` (on sale again if the farmer has it active).
pub fn restore(conn: &Connection, id: i64, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE products SET hidden_reason = NULL, hidden_by = NULL, hidden_at = NULL, version = ?2, updated_at = ?3
         WHERE id = ?1",
    )?
    .execute(params![id, version, now])?;
    Ok(())
}
