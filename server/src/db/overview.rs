//! The admin home's figures and recent activity (docs/product.md, Dashboard): counts
//! over live rows, and the latest events of each kind, newest first. Each kind reads
//! its newest rows by id (ids grow with time), so the list costs the same at any size.

use crate::db::{Connection, params};

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Figures {
    pub users: i64,
    pub users_since: i64,
    pub products_on_sale: i64,
    pub products_low_stock: i64,
    pub orders: i64,
    pub orders_since: i64,
    /// Delivered goods and their shipping, in US cents.
    pub revenue_cents: i64,
    pub applications_waiting: i64,
}

/// The figures; `*_since` count what was created at or after `since` (RFC 3339).
pub fn figures(conn: &Connection, since: &str, low_stock: i64) -> crate::db::Result<Figures> {
    conn.prepare_cached(
        "SELECT (SELECT COUNT(*) FROM users WHERE deleted_at IS NULL),
                (SELECT COUNT(*) FROM users WHERE deleted_at IS NULL AND created_at >= ?1),
                (SELECT COUNT(*) FROM products WHERE listed = 1),
                (SELECT COUNT(*) FROM products WHERE listed = 1 AND quantity <= ?2),
                (SELECT COUNT(*) FROM orders),
                (SELECT COUNT(*) FROM orders WHERE created_at >= ?1),
                (SELECT COALESCE(SUM(subtotal_cents + shipping_cents), 0) FROM order_parts WHERE status = 'delivered'),
                (SELECT COUNT(*) FROM surveys WHERE deleted_at IS NULL AND status IN ('pending', 're-submitted'))",
    )?
    .query_row(params![since, low_stock], |r| {
        Ok(Figures {
            users: r.get(0)?,
            users_since: r.get(1)?,
            products_on_sale: r.get(2)?,
            products_low_stock: r.get(3)?,
            orders: r.get(4)?,
            orders_since: r.get(5)?,
            revenue_cents: r.get(6)?,
            applications_waiting: r.get(7)?,
        })
    })
}

/// Something that happened: `kind` names it; `id` is what it is about (an account,
/// application, order, payment or product); `name` who (or, for a product, its title);
/// `detail` a role, status, operator or farmer; `amount_cents` an order's or payment's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Activity {
    pub kind: String,
    pub at: String,
    pub id: i64,
    pub name: String,
    pub detail: Option<String>,
    pub amount_cents: Option<i64>,
}

/// The `limit` latest events of every kind, newest first.
pub fn activity(conn: &Connection, limit: i64) -> crate::db::Result<Vec<Activity>> {
    let name = |alias: &str| format!("trim({alias}.first_name || ' ' || {alias}.last_name)");
    let sql = format!(
        "SELECT * FROM (SELECT 'signed_up', created_at, id, {u}, role, CAST(NULL AS BIGINT) FROM users u
                        WHERE deleted_at IS NULL ORDER BY id DESC LIMIT ?1) AS e1
         UNION ALL
         SELECT * FROM (SELECT 'application_submitted', s.created_at, s.id, {o}, s.status, CAST(NULL AS BIGINT)
                        FROM surveys s JOIN users o ON o.id = s.user_id
                        WHERE s.deleted_at IS NULL AND s.status <> 'draft' ORDER BY s.id DESC LIMIT ?1) AS e2
         UNION ALL
         SELECT * FROM (SELECT 'application_decided', s.reviewed_at, s.id, {o}, s.status, CAST(NULL AS BIGINT)
                        FROM surveys s JOIN users o ON o.id = s.user_id
                        WHERE s.deleted_at IS NULL AND s.reviewed_at IS NOT NULL
                          AND s.status IN ('approved', 'rejected')
                        ORDER BY s.reviewed_at DESC LIMIT ?1) AS e3
         UNION ALL
         SELECT * FROM (SELECT 'order_placed', created_at, id, trim(first_name || ' ' || last_name), CAST(NULL AS TEXT), total_cents
                        FROM orders ORDER BY id DESC LIMIT ?1) AS e4
         UNION ALL
         SELECT * FROM (SELECT 'payment_received', e.at, p.id, {u}, p.operator, p.amount_cents
                        FROM payment_events e JOIN payments p ON p.id = e.payment_id JOIN users u ON u.id = p.payer_id
                        WHERE e.status = 'succeeded' ORDER BY e.id DESC LIMIT ?1) AS e5
         UNION ALL
         SELECT * FROM (SELECT 'product_listed', p.created_at, p.id, p.title, {f}, CAST(NULL AS BIGINT)
                        FROM products p JOIN users f ON f.id = p.farmer_id
                        WHERE p.deleted_at IS NULL ORDER BY p.id DESC LIMIT ?1) AS e6
         ORDER BY 2 DESC LIMIT ?1",
        u = name("u"),
        o = name("o"),
        f = name("f"),
    );
    conn.prepare_cached(&sql)?
        .query_map([limit], |r| {
            Ok(Activity {
                kind: r.get(0)?,
                at: r.get(1)?,
                id: r.get(2)?,
                name: r.get(3)?,
                detail: r.get(4)?,
                amount_cents: r.get(5)?,
            })
        })?
        .collect()
}
