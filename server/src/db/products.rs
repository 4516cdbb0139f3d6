//! The `products` table: farmers' listings and the public catalogue.

use crate::db::Value;
use crate::db::{Connection, OptionalExtension, Row, params, params_from_iter};

use super::product_search::{farmer_name, search_text};
use crate::model::FieldVersions;
use crate::model::product::{Listing, ProductStatus};
use crate::model::user::{Role, Status};

/// The farmer as the marketplace shows them.
#[derive(Debug, Clone)]
pub struct FarmerCard {
    pub name: String,
    pub location: Option<String>,
    pub status: Status,
    pub role: Role,
    /// Their farmer application was approved.
    pub verified: bool,
    /// The mean rating of their reviewed products, 0 when none.
    pub rating: f64,
}

#[derive(Debug, Clone)]
pub struct ProductRow {
    pub id: i64,
    pub uid: String,
    pub farmer_id: i64,
    pub listing: Listing,
    pub rating: f64,
    pub review_count: i64,
    pub version: i64,
    pub field_versions: FieldVersions,
    pub created_at: String,
    pub updated_at: String,
    pub deleted_at: Option<String>,
    pub farmer: FarmerCard,
    /// Hidden from the marketplace by an admin: the reason and when.
    pub hidden: Option<Hidden>,
    /// A cooperative's lot (docs/cooperatives.md), not a single farmer's product.
    pub lot: Option<crate::model::cooperative::LotCard>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hidden {
    pub reason: String,
    pub at: String,
}

impl ProductRow {
    /// On sale: not deleted, active, not hidden, from an active farmer.
    pub fn is_listed(&self) -> bool {
        self.deleted_at.is_none()
            && self.hidden.is_none()
            && self.listing.status == ProductStatus::Active
            && self.farmer.status == Status::Active
            && self.farmer.role == Role::Farmer
    }
}

/// On sale: not deleted, active, not hidden, from an active farmer (`listed` is kept by
/// triggers, migrations 0020 and 0029).
pub(super) const LISTED: &str = "p.listed = 1";

pub(super) fn select(filter: &str) -> String {
    select_with("", filter)
}

/// [`select`] with `more` columns after the product's, from [`COLUMNS`] on.
pub(super) fn select_with(more: &str, filter: &str) -> String {
    format!(
        "SELECT p.id, p.uid, p.farmer_id, p.title, p.description, p.category, p.unit, p.quantity, p.price_cents,
                p.current_price_cents, p.status, p.harvest_date, p.expiry_date, p.certifications, p.tags,
                p.shipping_available, p.shipping_cost_cents, p.shipping_days, p.min_order, p.max_order, p.images,
                p.title_en, p.title_fr, p.title_sw,
                p.description_en, p.description_fr, p.description_sw,
                p.rating, p.review_count, p.version, p.field_versions, p.created_at, p.updated_at, p.deleted_at,
                trim(f.first_name || ' ' || f.last_name), f.location, f.status, f.role,
                EXISTS (SELECT 1 FROM surveys s WHERE s.user_id = f.id AND s.status = 'approved' AND s.deleted_at IS NULL),
                COALESCE((SELECT fr.rating FROM farmer_ratings fr WHERE fr.farmer_id = f.id), 0),
                p.hidden_reason, p.hidden_at,
                l.id, l.cooperative_id, lc.name, l.crop, l.grade, l.members, l.collected_from, l.collected_to, l.pickup, l.pickup_days{more}
         FROM products p JOIN users f ON f.id = p.farmer_id
              LEFT JOIN cooperative_lots l ON l.product_id = p.id LEFT JOIN cooperatives lc ON lc.id = l.cooperative_id
         WHERE {filter}"
    )
}

fn json_list(text: String) -> Vec<String> {
    serde_json::from_str(&text).unwrap_or_default()
}

/// How many columns [`select`] reads (and [`from_row`] takes).
pub(super) const COLUMNS: usize = 52;

pub(super) fn from_row(row: &Row<'_>) -> crate::db::Result<ProductRow> {
    Ok(ProductRow {
        id: row.get(0)?,
        uid: row.get(1)?,
        farmer_id: row.get(2)?,
        listing: Listing {
            title: row.get(3)?,
            description: row.get(4)?,
            category: row.get(5)?,
            unit: row.get(6)?,
            quantity: row.get(7)?,
            price: row.get(8)?,
            current_price: row.get(9)?,
            status: row.get(10)?,
            harvest_date: row.get(11)?,
            expiry_date: row.get(12)?,
            certifications: json_list(row.get(13)?),
            tags: json_list(row.get(14)?),
            shipping_available: row.get(15)?,
            shipping_cost: row.get(16)?,
            shipping_days: row.get(17)?,
            min_order: row.get(18)?,
            max_order: row.get(19)?,
            images: json_list(row.get(20)?),
            title_en: row.get(21)?,
            title_fr: row.get(22)?,
            title_sw: row.get(23)?,
            description_en: row.get(24)?,
            description_fr: row.get(25)?,
            description_sw: row.get(26)?,
        },
        rating: row.get(27)?,
        review_count: row.get(28)?,
        version: row.get(29)?,
        field_versions: serde_json::from_str(&row.get::<_, String>(30)?).unwrap_or_default(),
        created_at: row.get(31)?,
        updated_at: row.get(32)?,
        deleted_at: row.get(33)?,
        farmer: FarmerCard {
            name: row.get(34)?,
            location: row.get(35)?,
            status: row.get(36)?,
            role: row.get(37)?,
            verified: row.get(38)?,
            rating: row.get(39)?,
        },
        hidden: match (row.get::<_, Option<String>>(40)?, row.get::<_, Option<String>>(41)?) {
            (Some(reason), Some(at)) => Some(Hidden { reason, at }),
            _ => None,
        },
        lot: match row.get::<_, Option<i64>>(42)? {
            Some(id) => Some(crate::model::cooperative::LotCard {
                id,
                cooperative_id: row.get(43)?,
                cooperative_name: row.get(44)?,
                crop: row.get(45)?,
                grade: row.get(46)?,
                members: row.get(47)?,
                collected_from: row.get(48)?,
                collected_to: row.get(49)?,
                pickup: row.get(50)?,
                pickup_days: row.get(51)?,
            }),
            None => None,
        },
    })
}

fn listing_values(listing: &Listing) -> Vec<Value> {
    let list = |items: &[String]| Value::Text(serde_json::to_string(items).unwrap_or_else(|_| "[]".into()));
    vec![
        listing.title.clone().into(),
        listing.description.clone().into(),
        listing.category.as_str().to_owned().into(),
        listing.unit.as_str().to_owned().into(),
        listing.quantity.into(),
        listing.price.into(),
        listing.current_price.into(),
        listing.status.as_str().to_owned().into(),
        listing.harvest_date.clone().map_or(Value::Null, Value::Text),
        listing.expiry_date.clone().map_or(Value::Null, Value::Text),
        list(&listing.certifications),
        list(&listing.tags),
        Value::Integer(listing.shipping_available.into()),
        listing.shipping_cost.into(),
        listing.shipping_days.clone().map_or(Value::Null, Value::Text),
        listing.min_order.into(),
        listing.max_order.map_or(Value::Null, Value::Real),
        list(&listing.images),
        listing.title_en.clone().map_or(Value::Null, Value::Text),
        listing.title_fr.clone().map_or(Value::Null, Value::Text),
        listing.title_sw.clone().map_or(Value::Null, Value::Text),
        listing.description_en.clone().map_or(Value::Null, Value::Text),
        listing.description_fr.clone().map_or(Value::Null, Value::Text),
        listing.description_sw.clone().map_or(Value::Null, Value::Text),
    ]
}

const LISTING_COLUMNS: [&str; 24] = [
    "title",
    "description",
    "category",
    "unit",
    "quantity",
    "price_cents",
    "current_price_cents",
    "status",
    "harvest_date",
    "expiry_date",
    "certifications",
    "tags",
    "shipping_available",
    "shipping_cost_cents",
    "shipping_days",
    "min_order",
    "max_order",
    "images",
    "title_en",
    "title_fr",
    "title_sw",
    "description_en",
    "description_fr",
    "description_sw",
];

#[allow(clippy::too_many_arguments)]
pub fn insert(
    conn: &Connection,
    uid: &str,
    farmer_id: i64,
    listing: &Listing,
    versions: &FieldVersions,
    version: i64,
    now: &str,
) -> crate::db::Result<i64> {
    let columns = LISTING_COLUMNS.join(", ");
    let marks = (1..=LISTING_COLUMNS.len() + 6).map(|i| format!("?{i}")).collect::<Vec<_>>().join(", ");
    let sql = format!(
        "INSERT INTO products ({columns}, uid, farmer_id, search_text, version, field_versions, created_at, updated_at)
         VALUES ({marks}, ?{})",
        LISTING_COLUMNS.len() + 6
    );
    let mut values = listing_values(listing);
    values.extend([
        Value::Text(uid.to_owned()),
        Value::Integer(farmer_id),
        Value::Text(search_text(listing, &farmer_name(conn, farmer_id)?)),
        Value::Integer(version),
        Value::Text(serde_json::to_string(versions).unwrap_or_else(|_| "{}".into())),
        Value::Text(now.to_owned()),
    ]);
    conn.insert(&sql, params_from_iter(values))
}

pub fn update(
    conn: &Connection,
    id: i64,
    listing: &Listing,
    versions: &FieldVersions,
    version: i64,
    now: &str,
) -> crate::db::Result<()> {
    let sets =
        LISTING_COLUMNS.iter().enumerate().map(|(i, c)| format!("{c} = ?{}", i + 1)).collect::<Vec<_>>().join(", ");
    let n = LISTING_COLUMNS.len();
    let sql = format!(
        "UPDATE products SET {sets}, search_text = ?{}, version = ?{}, field_versions = ?{}, updated_at = ?{} WHERE id = ?{}",
        n + 1,
        n + 2,
        n + 3,
        n + 4,
        n + 5
    );
    let farmer_id: i64 =
        conn.prepare_cached("SELECT farmer_id FROM products WHERE id = ?1")?.query_row([id], |r| r.get(0))?;
    let mut values = listing_values(listing);
    values.extend([
        Value::Text(search_text(listing, &farmer_name(conn, farmer_id)?)),
        Value::Integer(version),
        Value::Text(serde_json::to_string(versions).unwrap_or_else(|_| "{}".into())),
        Value::Text(now.to_owned()),
        Value::Integer(id),
    ]);
    conn.prepare_cached(&sql)?.execute(params_from_iter(values))?;
    Ok(())
}

pub fn tombstone(conn: &Connection, id: i64, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE products SET deleted_at = ?2, updated_at = ?2, version = ?3 WHERE id = ?1")?
        .execute(params![id, now, version])?;
    refresh_farmer_rating(conn, id)
}

/// A product's rating and review count from its reviews, and its farmer's
/// rating after it; the product takes `version`, so phones pull the new figures.
pub fn refresh_rating(conn: &Connection, id: i64, version: i64) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE products SET rating = COALESCE((SELECT AVG(rating) FROM reviews WHERE product_id = ?1), 0),
                             review_count = (SELECT COUNT(*) FROM reviews WHERE product_id = ?1),
                             version = ?2
         WHERE id = ?1",
    )?
    .execute(params![id, version])?;
    refresh_farmer_rating(conn, id)
}

/// Recomputes the rating of the farmer of product `id` from their reviewed products.
fn refresh_farmer_rating(conn: &Connection, id: i64) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO farmer_ratings (farmer_id, rating)
         SELECT p.farmer_id, COALESCE((SELECT AVG(r.rating) FROM products r
                                       WHERE r.farmer_id = p.farmer_id AND r.review_count > 0 AND r.deleted_at IS NULL), 0)
         FROM products p WHERE p.id = ?1
         ON CONFLICT (farmer_id) DO UPDATE SET rating = excluded.rating",
    )?
    .execute([id])?;
    Ok(())
}

/// Includes tombstones; callers decide what a deleted row means to them.
pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<ProductRow>> {
    conn.prepare_cached(&select("p.id = ?1"))?.query_row([id], from_row).optional()
}

pub fn find_by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<ProductRow>> {
    conn.prepare_cached(&select("p.uid = ?1"))?.query_row([uid], from_row).optional()
}

/// A listed product by id, for the public detail page.
pub fn find_listed(conn: &Connection, id: i64) -> crate::db::Result<Option<ProductRow>> {
    conn.prepare_cached(&select(&format!("p.id = ?1 AND {LISTED}")))?.query_row([id], from_row).optional()
}

/// A farmer's own products (active or not), newest first.
pub fn list_for_farmer(conn: &Connection, farmer_id: i64) -> crate::db::Result<Vec<ProductRow>> {
    let mut stmt =
        conn.prepare_cached(&format!("{} ORDER BY p.id DESC", select("p.farmer_id = ?1 AND p.deleted_at IS NULL")))?;
    stmt.query_map([farmer_id], from_row)?.collect()
}

/// Products changed after `after`, oldest change first, at most `limit`:
/// every product, listed or not (the caller sends what a viewer may not see as
/// a deletion). A snapshot (`snapshot`: the version it was taken at) leaves out,
/// of the rows at or below that version, what is not listed unless it is `owner`'s.
pub fn changes_after(
    conn: &Connection,
    after: i64,
    limit: usize,
    snapshot: Option<i64>,
    owner: Option<i64>,
) -> crate::db::Result<Vec<ProductRow>> {
    let filter = format!(
        "p.version > ?1 AND (CAST(?4 AS BIGINT) IS NULL OR p.version > ?4 OR ({LISTED}) OR (p.farmer_id IS NOT DISTINCT FROM CAST(?3 AS BIGINT) AND p.deleted_at IS NULL))"
    );
    let mut stmt = conn.prepare_cached(&format!("{} ORDER BY p.version LIMIT ?2", select(&filter)))?;
    stmt.query_map(params![after, limit as i64, owner, snapshot], from_row)?.collect()
}
