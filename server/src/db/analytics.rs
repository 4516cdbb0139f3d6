//! The admin's analytics (docs/analytics.md): counts and sums from the tables as they
//! are, since a moment (`since`, an RFC 3339 time; `None`: since the beginning). Time
//! series are grouped in buckets of a day, a week (from Monday) or a month.

use crate::db::{Connection, params};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grain {
    Day,
    Week,
    Month,
}

impl Grain {
    /// The SQL that names the bucket of a time column: `2026-11-24`, the week's Monday, or `2026-11`.
    fn bucket(self, engine: crate::db::Engine, column: &str) -> String {
        match self {
            Grain::Day => format!("substr({column}, 1, 10)"),
            Grain::Week => super::dialect::week_of(engine, column),
            Grain::Month => format!("substr({column}, 1, 7)"),
        }
    }
}

/// `(bucket, key, value)` rows.
pub type Cells = Vec<(String, String, i64)>;

fn since(since: Option<&str>) -> &str {
    since.unwrap_or("")
}

fn cells(conn: &Connection, sql: &str, from: Option<&str>) -> crate::db::Result<Cells> {
    conn.prepare_cached(sql)?.query_map([since(from)], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect()
}

fn pairs(conn: &Connection, sql: &str, from: Option<&str>) -> crate::db::Result<Vec<(String, i64)>> {
    conn.prepare_cached(sql)?.query_map([since(from)], |r| Ok((r.get(0)?, r.get(1)?)))?.collect()
}

/// When the first account was made: where "all time" starts.
pub fn first_day(conn: &Connection) -> crate::db::Result<Option<String>> {
    conn.query_row("SELECT MIN(created_at) FROM users", [], |r| r.get(0))
}

/// Sign-ups per bucket and role.
pub fn signups_by_role(conn: &Connection, grain: Grain, from: Option<&str>) -> crate::db::Result<Cells> {
    let b = grain.bucket(conn.engine(), "created_at");
    cells(conn, &format!("SELECT {b}, role, COUNT(*) FROM users WHERE created_at >= ?1 GROUP BY 1, 2"), from)
}

/// Sign-ups per country (`none` without one).
pub fn signups_by_country(conn: &Connection, from: Option<&str>) -> crate::db::Result<Vec<(String, i64)>> {
    pairs(
        conn,
        "SELECT COALESCE(country, 'none'), COUNT(*) FROM users WHERE created_at >= ?1 GROUP BY 1 ORDER BY 2 DESC, 1",
        from,
    )
}

/// Applications sent (not drafts) per bucket and where they stand now.
pub fn applications_by_status(conn: &Connection, grain: Grain, from: Option<&str>) -> crate::db::Result<Cells> {
    let b = grain.bucket(conn.engine(), "created_at");
    cells(
        conn,
        &format!(
            "SELECT {b}, CASE status WHEN 're-submitted' THEN 'pending' ELSE status END, COUNT(*) FROM surveys
             WHERE deleted_at IS NULL AND status != 'draft' AND created_at >= ?1 GROUP BY 1, 2"
        ),
        from,
    )
}

/// Hours from sending to decision of each application decided in the period.
pub fn decision_hours(conn: &Connection, from: Option<&str>) -> crate::db::Result<Vec<f64>> {
    conn.prepare_cached(&format!(
        "SELECT {} FROM surveys
         WHERE deleted_at IS NULL AND status IN ('approved', 'rejected') AND reviewed_at >= ?1
         ORDER BY 1",
        super::dialect::hours_between(conn.engine(), "created_at", "reviewed_at")
    ))?
    .query_map([since(from)], |r| r.get(0))?
    .collect()
}

/// Listings made in the period per category, and how many of those are on sale now.
pub fn listings_by_category(conn: &Connection, from: Option<&str>) -> crate::db::Result<Vec<(String, i64, i64)>> {
    conn.prepare_cached(
        "SELECT category, COUNT(*), SUM(listed) FROM products
         WHERE deleted_at IS NULL AND created_at >= ?1 GROUP BY 1 ORDER BY 2 DESC, 1",
    )?
    .query_map([since(from)], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
    .collect()
}

/// Orders placed per bucket, and their value without cancelled parts (cents).
pub fn orders_and_revenue(conn: &Connection, grain: Grain, from: Option<&str>) -> crate::db::Result<Cells> {
    let b = grain.bucket(conn.engine(), "o.created_at");
    cells(
        conn,
        &format!(
            "SELECT {b}, 'orders', COUNT(*) FROM orders o WHERE o.created_at >= ?1 GROUP BY 1
             UNION ALL
             SELECT {b}, 'revenue_cents', SUM(p.subtotal_cents + p.shipping_cents)
             FROM orders o JOIN order_parts p ON p.order_id = o.id
             WHERE o.created_at >= ?1 AND p.status != 'cancelled' GROUP BY 1"
        ),
        from,
    )
}

/// A top list's row: id, name, how many, and their value in cents.
pub type Ranked = (i64, String, i64, i64);

/// The products that sold the most (value) in orders of the period, cancelled parts aside.
pub fn top_products(conn: &Connection, from: Option<&str>, limit: i64) -> crate::db::Result<Vec<Ranked>> {
    conn.prepare_cached(
        "SELECT l.product_id, MAX(l.title), SUM(l.quantity), SUM(l.line_total_cents)
         FROM order_lines l JOIN order_parts p ON p.id = l.part_id JOIN orders o ON o.id = p.order_id
         WHERE o.created_at >= ?1 AND p.status != 'cancelled'
         GROUP BY l.product_id ORDER BY 4 DESC, 1 LIMIT ?2",
    )?
    .query_map(params![since(from), limit], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
    .collect()
}

/// The farmers who sold the most (value): their parts of the period's orders, cancelled ones aside.
pub fn top_farmers(conn: &Connection, from: Option<&str>, limit: i64) -> crate::db::Result<Vec<Ranked>> {
    conn.prepare_cached(
        "SELECT p.farmer_id, trim(u.first_name || ' ' || u.last_name), COUNT(*),
                SUM(p.subtotal_cents + p.shipping_cents)
         FROM order_parts p JOIN orders o ON o.id = p.order_id JOIN users u ON u.id = p.farmer_id
         WHERE o.created_at >= ?1 AND p.status != 'cancelled'
         GROUP BY p.farmer_id, u.first_name, u.last_name ORDER BY 4 DESC, 1 LIMIT ?2",
    )?
    .query_map(params![since(from), limit], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
    .collect()
}

/// Enrolments (by when they began) and completions (by when they were completed) per bucket.
pub fn enrolments_and_completions(conn: &Connection, grain: Grain, from: Option<&str>) -> crate::db::Result<Cells> {
    let (b, c) = (grain.bucket(conn.engine(), "created_at"), grain.bucket(conn.engine(), "completed_at"));
    cells(
        conn,
        &format!(
            "SELECT {b}, 'enrolments', COUNT(*) FROM enrolments WHERE status = 'active' AND created_at >= ?1 GROUP BY 1
             UNION ALL
             SELECT {c}, 'completions', COUNT(*) FROM enrolments
             WHERE status = 'active' AND completed_at >= ?1 GROUP BY 1"
        ),
        from,
    )
}

/// The courses with the most enrolments of the period: id, title, enrolments, completions.
pub fn top_courses(conn: &Connection, from: Option<&str>, limit: i64) -> crate::db::Result<Vec<Ranked>> {
    conn.prepare_cached(
        "SELECT c.id, c.title, COUNT(*), COUNT(e.completed_at)
         FROM enrolments e JOIN courses c ON c.id = e.course_id
         WHERE e.status = 'active' AND e.created_at >= ?1
         GROUP BY c.id ORDER BY 3 DESC, 1 LIMIT ?2",
    )?
    .query_map(params![since(from), limit], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
    .collect()
}

/// The platform's goals (SPEC section 1) as far as the data says: farmers connected,
/// people trained (a course completed), countries and places where farmers are (a
/// cooperative's seller account is no farmer of its own).
pub fn goals(conn: &Connection, from: Option<&str>) -> crate::db::Result<Vec<(String, i64)>> {
    pairs(
        conn,
        "SELECT 'farmers', COUNT(*) FROM users WHERE role = 'farmer' AND status = 'active' AND created_at >= ?1
           AND NOT EXISTS (SELECT 1 FROM cooperatives c WHERE c.seller_id = users.id)
         UNION ALL
         SELECT 'trained', COUNT(DISTINCT user_id) FROM enrolments WHERE status = 'active' AND completed_at >= ?1
         UNION ALL
         SELECT 'countries', COUNT(DISTINCT country) FROM users
         WHERE role = 'farmer' AND status = 'active' AND country IS NOT NULL AND created_at >= ?1
           AND NOT EXISTS (SELECT 1 FROM cooperatives c WHERE c.seller_id = users.id)
         UNION ALL
         SELECT 'places', COUNT(DISTINCT lower(trim(location))) FROM users
         WHERE role = 'farmer' AND status = 'active' AND trim(COALESCE(location, '')) != '' AND created_at >= ?1
           AND NOT EXISTS (SELECT 1 FROM cooperatives c WHERE c.seller_id = users.id)",
        from,
    )
}
