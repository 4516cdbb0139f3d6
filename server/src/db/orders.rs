//! The `orders`, `order_parts`, `order_lines` and `order_events` tables.

use crate::db::{Connection, OptionalExtension, Row, params};

use crate::model::order::{Delivery, PartStatus, PaymentMethod};
use crate::model::payment::PaymentStatus;

/// Where and to whom an order goes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Address {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: String,
    pub address: String,
    pub city: String,
    pub postal_code: String,
    pub country: String,
}

/// What placing an order writes, before it has ids.
pub struct NewOrder<'a> {
    pub uid: &'a str,
    pub buyer_id: i64,
    pub subtotal_cents: i64,
    pub shipping_cents: i64,
    pub payment_method: PaymentMethod,
    pub delivery: Delivery,
    pub address: &'a Address,
    pub version: i64,
    pub now: &'a str,
    /// The platform fee in force (hundredths of a percent), taken when a part is delivered.
    pub platform_fee_bp: i64,
}

pub struct NewLine<'a> {
    pub product_id: i64,
    pub title: &'a str,
    /// Its names in English, French and Kiswahili, when the product has them.
    pub names: [&'a Option<String>; 3],
    pub unit: &'a str,
    pub quantity: i64,
    pub unit_price_cents: i64,
}

#[derive(Debug, Clone)]
pub struct LineRow {
    pub product_id: i64,
    pub product_uid: String,
    pub title: String,
    /// The product's names in English, French and Kiswahili when the order was placed.
    pub title_en: Option<String>,
    pub title_fr: Option<String>,
    pub title_sw: Option<String>,
    pub unit: String,
    pub quantity: i64,
    pub unit_price_cents: i64,
    pub line_total_cents: i64,
}

impl LineRow {
    /// Its product's name in the language `code` when the order was placed.
    pub fn title_in(&self, code: &str) -> &str {
        crate::model::product::title_in(&self.title, [&self.title_en, &self.title_fr, &self.title_sw], code)
    }
}

#[derive(Debug, Clone)]
pub struct PartRow {
    pub id: i64,
    pub farmer_id: i64,
    pub farmer_name: String,
    pub farmer_location: Option<String>,
    pub farmer_phone: Option<String>,
    /// The farmer's rating (the mean of their reviewed products), 0 when none.
    pub farmer_rating: f64,
    pub status: PartStatus,
    pub subtotal_cents: i64,
    pub shipping_cents: i64,
    pub cancel_reason: Option<String>,
    /// When its farmer accepted it (a new part may be accepted before it is prepared).
    pub accepted_at: Option<String>,
    pub lines: Vec<LineRow>,
}

#[derive(Debug, Clone)]
pub struct EventRow {
    pub part_id: Option<i64>,
    pub kind: String,
    pub actor_id: Option<i64>,
    pub note: Option<String>,
    pub at: String,
}

#[derive(Debug, Clone)]
pub struct OrderRow {
    pub id: i64,
    pub uid: String,
    pub buyer_id: i64,
    pub currency: String,
    pub subtotal_cents: i64,
    pub shipping_cents: i64,
    pub total_cents: i64,
    pub payment_method: PaymentMethod,
    pub delivery: Delivery,
    pub address: Address,
    pub version: i64,
    pub created_at: String,
    pub updated_at: String,
    /// The platform fee it was placed with (hundredths of a percent of each part).
    pub platform_fee_bp: i64,
    pub parts: Vec<PartRow>,
    pub events: Vec<EventRow>,
    /// Where its latest mobile-money payment stands; none before the first.
    pub payment_status: Option<PaymentStatus>,
    /// When the latest payment last changed (a refusal starts the order's grace).
    pub payment_updated_at: Option<String>,
}

pub fn insert(conn: &Connection, order: &NewOrder<'_>) -> crate::db::Result<i64> {
    let a = order.address;
    conn.insert(
        "INSERT INTO orders (uid, buyer_id, subtotal_cents, shipping_cents, total_cents, payment_method, delivery,
                             first_name, last_name, email, phone, address, city, postal_code, country,
                             version, created_at, updated_at, platform_fee_bp)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?17, ?18)",
        params![
            order.uid,
            order.buyer_id,
            order.subtotal_cents,
            order.shipping_cents,
            order.subtotal_cents + order.shipping_cents,
            order.payment_method,
            order.delivery,
            a.first_name,
            a.last_name,
            a.email,
            a.phone,
            a.address,
            a.city,
            a.postal_code,
            a.country,
            order.version,
            order.now,
            order.platform_fee_bp,
        ],
    )
}

pub fn insert_part(
    conn: &Connection,
    order_id: i64,
    farmer_id: i64,
    subtotal_cents: i64,
    shipping_cents: i64,
    now: &str,
) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO order_parts (order_id, farmer_id, status, subtotal_cents, shipping_cents, created_at, updated_at)
         VALUES (?1, ?2, 'processing', ?3, ?4, ?5, ?5)",
        params![order_id, farmer_id, subtotal_cents, shipping_cents, now],
    )
}

pub fn insert_line(conn: &Connection, part_id: i64, line: &NewLine<'_>) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO order_lines (part_id, product_id, title, title_en, title_fr, title_sw, unit, quantity,
                                  unit_price_cents, line_total_cents)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
    )?
    .execute(params![
        part_id,
        line.product_id,
        line.title,
        line.names[0],
        line.names[1],
        line.names[2],
        line.unit,
        line.quantity,
        line.unit_price_cents,
        line.quantity * line.unit_price_cents
    ])?;
    Ok(())
}

pub fn add_event(
    conn: &Connection,
    order_id: i64,
    part_id: Option<i64>,
    kind: &str,
    actor_id: Option<i64>,
    note: Option<&str>,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO order_events (order_id, part_id, kind, actor_id, note, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
    )?
    .execute(params![order_id, part_id, kind, actor_id, note, now])?;
    Ok(())
}

pub fn set_part_status(
    conn: &Connection,
    part_id: i64,
    status: PartStatus,
    reason: Option<&str>,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE order_parts SET status = ?2, cancel_reason = COALESCE(?3, cancel_reason), updated_at = ?4 WHERE id = ?1",
    )?
    .execute(params![part_id, status, reason, now])?;
    Ok(())
}

/// The farmer accepted a new part (once: a second acceptance keeps the first time).
pub fn accept_part(conn: &Connection, part_id: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE order_parts SET accepted_at = COALESCE(accepted_at, ?2), updated_at = ?2 WHERE id = ?1",
    )?
    .execute(params![part_id, now])?;
    Ok(())
}

/// The buyer pays another way (cash on delivery after a refused mobile-money payment).
pub fn set_payment_method(conn: &Connection, order_id: i64, method: PaymentMethod) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE orders SET payment_method = ?2 WHERE id = ?1")?.execute(params![order_id, method])?;
    Ok(())
}

/// The order changed (a part's status): a new version, so phones pull it again.
pub fn touch(conn: &Connection, order_id: i64, version: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE orders SET version = ?2, updated_at = ?3 WHERE id = ?1")?
        .execute(params![order_id, version, now])?;
    Ok(())
}

const ORDER_COLUMNS: &str = "id, uid, buyer_id, currency, subtotal_cents, shipping_cents, total_cents, payment_method,
    delivery, first_name, last_name, email, phone, address, city, postal_code, country, version, created_at, updated_at,
    platform_fee_bp";

fn order_from_row(row: &Row<'_>) -> crate::db::Result<OrderRow> {
    Ok(OrderRow {
        id: row.get(0)?,
        uid: row.get(1)?,
        buyer_id: row.get(2)?,
        currency: row.get(3)?,
        subtotal_cents: row.get(4)?,
        shipping_cents: row.get(5)?,
        total_cents: row.get(6)?,
        payment_method: row.get(7)?,
        delivery: row.get(8)?,
        address: Address {
            first_name: row.get(9)?,
            last_name: row.get(10)?,
            email: row.get(11)?,
            phone: row.get(12)?,
            address: row.get(13)?,
            city: row.get(14)?,
            postal_code: row.get(15)?,
            country: row.get(16)?,
        },
        version: row.get(17)?,
        created_at: row.get(18)?,
        updated_at: row.get(19)?,
        platform_fee_bp: row.get(20)?,
        parts: Vec::new(),
        events: Vec::new(),
        payment_status: None,
        payment_updated_at: None,
    })
}

/// The order with its parts, lines and events.
fn complete(conn: &Connection, mut order: OrderRow) -> crate::db::Result<OrderRow> {
    let mut parts = conn.prepare_cached(
        "SELECT p.id, p.farmer_id, trim(f.first_name || ' ' || f.last_name), f.location, f.phone_number, p.status,
                p.subtotal_cents, p.shipping_cents, p.cancel_reason,
                COALESCE((SELECT fr.rating FROM farmer_ratings fr WHERE fr.farmer_id = f.id), 0), p.accepted_at
         FROM order_parts p JOIN users f ON f.id = p.farmer_id WHERE p.order_id = ?1 ORDER BY p.id",
    )?;
    order.parts = parts
        .query_map([order.id], |r| {
            Ok(PartRow {
                id: r.get(0)?,
                farmer_id: r.get(1)?,
                farmer_name: r.get(2)?,
                farmer_location: r.get(3)?,
                farmer_phone: r.get(4)?,
                status: r.get(5)?,
                subtotal_cents: r.get(6)?,
                shipping_cents: r.get(7)?,
                cancel_reason: r.get(8)?,
                farmer_rating: r.get(9)?,
                accepted_at: r.get(10)?,
                lines: Vec::new(),
            })
        })?
        .collect::<Result<_, _>>()?;
    let mut lines = conn.prepare_cached(
        "SELECT l.product_id, pr.uid, l.title, l.unit, l.quantity, l.unit_price_cents, l.line_total_cents,
                l.title_en, l.title_fr, l.title_sw
         FROM order_lines l JOIN products pr ON pr.id = l.product_id WHERE l.part_id = ?1 ORDER BY l.id",
    )?;
    for part in &mut order.parts {
        part.lines = lines
            .query_map([part.id], |r| {
                Ok(LineRow {
                    product_id: r.get(0)?,
                    product_uid: r.get(1)?,
                    title: r.get(2)?,
                    unit: r.get(3)?,
                    quantity: r.get(4)?,
                    unit_price_cents: r.get(5)?,
                    line_total_cents: r.get(6)?,
                    title_en: r.get(7)?,
                    title_fr: r.get(8)?,
                    title_sw: r.get(9)?,
                })
            })?
            .collect::<Result<_, _>>()?;
    }
    let mut events = conn
        .prepare_cached("SELECT part_id, kind, actor_id, note, at FROM order_events WHERE order_id = ?1 ORDER BY id")?;
    order.events = events
        .query_map([order.id], |r| {
            Ok(EventRow { part_id: r.get(0)?, kind: r.get(1)?, actor_id: r.get(2)?, note: r.get(3)?, at: r.get(4)? })
        })?
        .collect::<Result<_, _>>()?;
    let latest: Option<(PaymentStatus, String)> = conn
        .prepare_cached("SELECT status, updated_at FROM payments WHERE order_id = ?1 ORDER BY id DESC LIMIT 1")?
        .query_row([order.id], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    (order.payment_status, order.payment_updated_at) = latest.map_or((None, None), |(s, at)| (Some(s), Some(at)));
    Ok(order)
}

pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<OrderRow>> {
    let found = conn
        .prepare_cached(&format!("SELECT {ORDER_COLUMNS} FROM orders WHERE id = ?1"))?
        .query_row([id], order_from_row)
        .optional()?;
    found.map(|order| complete(conn, order)).transpose()
}

pub fn find_by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<OrderRow>> {
    let found = conn
        .prepare_cached(&format!("SELECT {ORDER_COLUMNS} FROM orders WHERE uid = ?1"))?
        .query_row([uid], order_from_row)
        .optional()?;
    found.map(|order| complete(conn, order)).transpose()
}

/// Person `?1` sells in order `o`: a part is theirs, or a cooperative's they manage.
const SELLS_IN: &str = "EXISTS (SELECT 1 FROM order_parts p WHERE p.order_id = o.id AND (p.farmer_id = ?1
    OR p.farmer_id IN (SELECT c.seller_id FROM cooperatives c JOIN cooperative_members m ON m.cooperative_id = c.id
                       WHERE m.user_id = ?1 AND m.role = 'manager' AND m.status = 'active')))";

/// The orders a person bought or has a part of (as its farmer, or for a cooperative), newest
/// first, at most `limit`.
pub fn list_for(conn: &Connection, user_id: i64, limit: i64) -> crate::db::Result<Vec<OrderRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ORDER_COLUMNS} FROM orders o
         WHERE o.buyer_id = ?1 OR {SELLS_IN}
         ORDER BY o.id DESC LIMIT ?2"
    ))?;
    let orders: Vec<OrderRow> = stmt.query_map(params![user_id, limit], order_from_row)?.collect::<Result<_, _>>()?;
    orders.into_iter().map(|order| complete(conn, order)).collect()
}

/// The orders a person bought or sells in, changed after version `after`,
/// oldest change first, at most `limit`.
pub fn changes_visible_to(
    conn: &Connection,
    user_id: i64,
    after: i64,
    limit: usize,
) -> crate::db::Result<Vec<OrderRow>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ORDER_COLUMNS} FROM orders o
         WHERE o.version > ?2
           AND (o.buyer_id = ?1 OR {SELLS_IN})
         ORDER BY o.version LIMIT ?3"
    ))?;
    let orders: Vec<OrderRow> =
        stmt.query_map(params![user_id, after, limit as i64], order_from_row)?.collect::<Result<_, _>>()?;
    orders.into_iter().map(|order| complete(conn, order)).collect()
}

/// The order's status from its parts, in SQL: the least advanced live part,
/// or cancelled when every part is (as `PartStatus::of_order`).
const ORDER_STATUS: &str = "CASE
    WHEN EXISTS (SELECT 1 FROM order_parts p WHERE p.order_id = o.id AND p.status = 'processing') THEN 'processing'
    WHEN EXISTS (SELECT 1 FROM order_parts p WHERE p.order_id = o.id AND p.status = 'shipped') THEN 'shipped'
    WHEN EXISTS (SELECT 1 FROM order_parts p WHERE p.order_id = o.id AND p.status = 'delivered') THEN 'delivered'
    ELSE 'cancelled' END";

/// What the admin's order list is narrowed to.
#[derive(Debug, Default, Clone)]
pub struct AdminFilter {
    /// Part of the buyer's name, email or phone, or of a farmer's name.
    pub search: Option<String>,
    pub status: Option<PartStatus>,
    pub payment_method: Option<PaymentMethod>,
    /// Where the latest mobile-money payment stands; `None` inside means
    /// "mobile money, not paid yet" (no payment started).
    pub payment_status: Option<Option<PaymentStatus>>,
    /// Placed at or after this instant (RFC 3339, UTC).
    pub placed_from: Option<String>,
}

impl AdminFilter {
    fn sql(&self) -> (String, Vec<crate::db::Value>) {
        use crate::db::Value;
        let mut sql = String::from("1 = 1");
        let mut values: Vec<Value> = Vec::new();
        if let Some(search) = self.search.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            values.push(Value::Text(super::like_pattern(search)));
            let n = values.len();
            sql.push_str(&format!(
                " AND (lower((o.first_name || ' ' || o.last_name)) LIKE lower(?{n}) ESCAPE '\\' OR lower(o.email) LIKE lower(?{n}) ESCAPE '\\'
                       OR lower(o.phone) LIKE lower(?{n}) ESCAPE '\\'
                       OR EXISTS (SELECT 1 FROM order_parts p JOIN users f ON f.id = p.farmer_id
                                  WHERE p.order_id = o.id AND lower((f.first_name || ' ' || f.last_name)) LIKE lower(?{n}) ESCAPE '\\'))"
            ));
        }
        if let Some(status) = self.status {
            values.push(Value::Text(status.as_str().to_owned()));
            sql.push_str(&format!(" AND ({ORDER_STATUS}) = ?{}", values.len()));
        }
        if let Some(method) = self.payment_method {
            values.push(Value::Text(method.as_str().to_owned()));
            sql.push_str(&format!(" AND o.payment_method = ?{}", values.len()));
        }
        match self.payment_status {
            None => {}
            Some(None) => sql.push_str(
                " AND o.payment_method = 'mobile_money' AND NOT EXISTS (SELECT 1 FROM payments y WHERE y.order_id = o.id)",
            ),
            Some(Some(status)) => {
                values.push(Value::Text(status.as_str().to_owned()));
                sql.push_str(&format!(
                    " AND (SELECT y.status FROM payments y WHERE y.order_id = o.id ORDER BY y.id DESC LIMIT 1) = ?{}",
                    values.len()
                ));
            }
        }
        if let Some(from) = &self.placed_from {
            values.push(Value::Text(from.clone()));
            sql.push_str(&format!(" AND o.created_at >= ?{}", values.len()));
        }
        (sql, values)
    }
}

/// One page of every order matching the filter, newest first, and how many match.
pub fn search(
    conn: &Connection,
    filter: &AdminFilter,
    limit: i64,
    offset: i64,
) -> crate::db::Result<(Vec<OrderRow>, i64)> {
    let (sql, mut values) = filter.sql();
    let total: i64 = conn
        .prepare_cached(&format!("SELECT COUNT(*) FROM orders o WHERE {sql}"))?
        .query_row(crate::db::params_from_iter(values.clone()), |r| r.get(0))?;
    let page = format!(
        "SELECT {ORDER_COLUMNS} FROM orders o WHERE {sql} ORDER BY o.id DESC LIMIT ?{} OFFSET ?{}",
        values.len() + 1,
        values.len() + 2
    );
    values.extend([limit.into(), offset.into()]);
    let orders: Vec<OrderRow> = conn
        .prepare_cached(&page)?
        .query_map(crate::db::params_from_iter(values), order_from_row)?
        .collect::<Result<_, _>>()?;
    Ok((orders.into_iter().map(|order| complete(conn, order)).collect::<Result<_, _>>()?, total))
}

/// Calls `each` with every match, newest first, one order at a time (exports).
pub fn for_each_match(conn: &Connection, filter: &AdminFilter, each: impl FnMut(OrderRow)) -> crate::db::Result<usize> {
    let (sql, values) = filter.sql();
    let sql = format!("SELECT {ORDER_COLUMNS} FROM orders o WHERE {sql} ORDER BY o.id DESC");
    let read = |row: &crate::db::Row<'_>| complete(conn, order_from_row(row)?);
    super::for_each_row(conn, &sql, crate::db::params_from_iter(values), read, each)
}

/// How many orders there are in each status (over all orders).
pub fn count_by_status(conn: &Connection) -> crate::db::Result<Vec<(PartStatus, i64)>> {
    let mut stmt =
        conn.prepare_cached(&format!("SELECT {ORDER_STATUS} AS status, COUNT(*) FROM orders o GROUP BY status"))?;
    stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?.collect()
}
