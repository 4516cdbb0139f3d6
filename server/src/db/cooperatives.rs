//! Cooperatives and their members (docs/cooperatives.md).

use crate::db::{Connection, OptionalExtension, params};
use crate::model::cooperative::{MemberRole, MemberStatus, Status};

#[derive(Debug, Clone)]
pub struct CooperativeRow {
    pub id: i64,
    pub name: String,
    pub territory: String,
    pub market_id: i64,
    pub market_name: String,
    pub description: String,
    pub fee_bp: i64,
    pub status: Status,
    /// Active members, managers included.
    pub members: i64,
    /// The crops weighed in, most first.
    pub crops: Vec<String>,
    /// The account its lots are sold under, once it made one.
    pub seller_id: Option<i64>,
    pub created_at: String,
    pub updated_at: String,
}

const COLUMNS: &str = "c.id, c.name, c.territory, c.market_id, m.name, c.description, c.fee_bp, c.status,
    (SELECT COUNT(*) FROM cooperative_members cm WHERE cm.cooperative_id = c.id AND cm.status = 'active'),
    c.created_at, c.updated_at, c.seller_id";

const SELECT: &str = "SELECT {COLUMNS} FROM cooperatives c JOIN markets m ON m.id = c.market_id";

fn row(r: &crate::db::Row<'_>) -> crate::db::Result<CooperativeRow> {
    Ok(CooperativeRow {
        id: r.get(0)?,
        name: r.get(1)?,
        territory: r.get(2)?,
        market_id: r.get(3)?,
        market_name: r.get(4)?,
        description: r.get(5)?,
        fee_bp: r.get(6)?,
        status: r.get(7)?,
        members: r.get(8)?,
        crops: Vec::new(),
        created_at: r.get(9)?,
        updated_at: r.get(10)?,
        seller_id: r.get(11)?,
    })
}

fn with_crops(conn: &Connection, mut found: CooperativeRow) -> crate::db::Result<CooperativeRow> {
    found.crops = conn
        .prepare_cached(
            "SELECT crop FROM cooperative_deliveries WHERE cooperative_id = ?1
             GROUP BY crop ORDER BY SUM(grams) DESC, crop",
        )?
        .query_map([found.id], |r| r.get(0))?
        .collect::<crate::db::Result<_>>()?;
    Ok(found)
}

fn select() -> String {
    SELECT.replace("{COLUMNS}", COLUMNS)
}

pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<CooperativeRow>> {
    let found = conn.prepare_cached(&format!("{} WHERE c.id = ?1", select()))?.query_row([id], row).optional()?;
    found.map(|c| with_crops(conn, c)).transpose()
}

/// Cooperatives by name; only active ones unless `all` (an admin's list).
pub fn list(conn: &Connection, all: bool) -> crate::db::Result<Vec<CooperativeRow>> {
    let found: Vec<CooperativeRow> = conn
        .prepare_cached(&format!("{} WHERE ?1 = 1 OR c.status = 'active' ORDER BY c.name, c.id", select()))?
        .query_map([i64::from(all)], row)?
        .collect::<crate::db::Result<_>>()?;
    found.into_iter().map(|c| with_crops(conn, c)).collect()
}

/// The number of the cooperative's next lot: one more than every lot it ever made.
pub fn next_lot_number(conn: &Connection, id: i64) -> crate::db::Result<i64> {
    conn.prepare_cached("UPDATE cooperatives SET lots_made = lots_made + 1 WHERE id = ?1")?.execute([id])?;
    conn.prepare_cached("SELECT lots_made FROM cooperatives WHERE id = ?1")?.query_row([id], |r| r.get(0))
}

/// Whether another cooperative has this name, whatever its case.
pub fn name_taken(conn: &Connection, name: &str, other_than: i64) -> crate::db::Result<bool> {
    conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM cooperatives WHERE lower(name) = lower(?1) AND id <> ?2)")?
        .query_row(params![name, other_than], |r| r.get(0))
}

/// The cooperative that sells under this account, if it is one's.
pub fn selling_as(conn: &Connection, seller_id: i64) -> crate::db::Result<Option<CooperativeRow>> {
    let found =
        conn.prepare_cached(&format!("{} WHERE c.seller_id = ?1", select()))?.query_row([seller_id], row).optional()?;
    found.map(|c| with_crops(conn, c)).transpose()
}

/// The seller accounts of the cooperatives `user_id` manages (they act for them).
pub fn managed_sellers(conn: &Connection, user_id: i64) -> crate::db::Result<Vec<i64>> {
    conn.prepare_cached(
        "SELECT c.seller_id FROM cooperatives c JOIN cooperative_members m ON m.cooperative_id = c.id
         WHERE m.user_id = ?1 AND m.role = 'manager' AND m.status = 'active' AND c.seller_id IS NOT NULL
         ORDER BY c.seller_id",
    )?
    .query_map([user_id], |r| r.get(0))?
    .collect()
}

pub fn set_seller(conn: &Connection, id: i64, seller_id: i64) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE cooperatives SET seller_id = ?2 WHERE id = ?1 AND seller_id IS NULL")?
        .execute([id, seller_id])?;
    Ok(())
}

/// Where a member's plot is and whether they may be named in a lot's origin.
pub fn set_origin(
    conn: &Connection,
    cooperative_id: i64,
    user_id: i64,
    plot: Option<(f64, f64)>,
    named: bool,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE cooperative_members SET plot_latitude = ?3, plot_longitude = ?4, named_in_origin = ?5, updated_at = ?6
         WHERE cooperative_id = ?1 AND user_id = ?2",
    )?
    .execute(params![cooperative_id, user_id, plot.map(|p| p.0), plot.map(|p| p.1), named, now])?;
    Ok(())
}

/// What an admin writes of a cooperative.
pub struct Fields<'a> {
    pub name: &'a str,
    pub territory: &'a str,
    pub market_id: i64,
    pub description: &'a str,
    pub fee_bp: i64,
    pub status: Status,
}

pub fn insert(conn: &Connection, f: &Fields<'_>, now: &str) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO cooperatives (name, territory, market_id, description, fee_bp, status, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?7)",
        params![f.name, f.territory, f.market_id, f.description, f.fee_bp, f.status, now],
    )
}

pub fn update(conn: &Connection, id: i64, f: &Fields<'_>, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE cooperatives SET name = ?2, territory = ?3, market_id = ?4, description = ?5, fee_bp = ?6,
         status = ?7, updated_at = ?8 WHERE id = ?1",
    )?
    .execute(params![id, f.name, f.territory, f.market_id, f.description, f.fee_bp, f.status, now])?;
    Ok(())
}

#[derive(Debug, Clone)]
pub struct MemberRow {
    pub cooperative_id: i64,
    pub user_id: i64,
    pub first_name: String,
    pub last_name: String,
    pub phone_number: Option<String>,
    pub location: Option<String>,
    /// The person's role on the platform (only farmers bring deliveries).
    pub person_role: crate::model::user::Role,
    pub role: MemberRole,
    pub status: MemberStatus,
    /// Where their plot is (latitude, longitude), when they recorded it.
    pub plot: Option<(f64, f64)>,
    /// They agree to be named in their lots' public origin reports.
    pub named_in_origin: bool,
    pub created_at: String,
    pub updated_at: String,
}

const MEMBER: &str = "SELECT cm.cooperative_id, cm.user_id, u.first_name, u.last_name, u.phone_number, u.location,
    u.role, cm.role, cm.status, cm.created_at, cm.updated_at, cm.plot_latitude, cm.plot_longitude, cm.named_in_origin
    FROM cooperative_members cm JOIN users u ON u.id = cm.user_id";

fn member(r: &crate::db::Row<'_>) -> crate::db::Result<MemberRow> {
    Ok(MemberRow {
        cooperative_id: r.get(0)?,
        user_id: r.get(1)?,
        first_name: r.get(2)?,
        last_name: r.get(3)?,
        phone_number: r.get(4)?,
        location: r.get(5)?,
        person_role: r.get(6)?,
        role: r.get(7)?,
        status: r.get(8)?,
        created_at: r.get(9)?,
        updated_at: r.get(10)?,
        plot: match (r.get::<_, Option<f64>>(11)?, r.get::<_, Option<f64>>(12)?) {
            (Some(lat), Some(lon)) => Some((lat, lon)),
            _ => None,
        },
        named_in_origin: r.get(13)?,
    })
}

pub fn membership(conn: &Connection, cooperative_id: i64, user_id: i64) -> crate::db::Result<Option<MemberRow>> {
    conn.prepare_cached(&format!("{MEMBER} WHERE cm.cooperative_id = ?1 AND cm.user_id = ?2"))?
        .query_row([cooperative_id, user_id], member)
        .optional()
}

/// A cooperative's people: those who asked first, then managers, then members, by name.
pub fn members(conn: &Connection, cooperative_id: i64) -> crate::db::Result<Vec<MemberRow>> {
    conn.prepare_cached(&format!(
        "{MEMBER} WHERE cm.cooperative_id = ?1
         ORDER BY CASE cm.status WHEN 'asked' THEN 0 WHEN 'active' THEN 1 ELSE 2 END,
                  CASE cm.role WHEN 'manager' THEN 0 ELSE 1 END, u.first_name, u.last_name, u.id"
    ))?
    .query_map([cooperative_id], member)?
    .collect()
}

/// The cooperatives a person belongs to or asked to join (removed ones too: their history stays).
pub fn of_person(conn: &Connection, user_id: i64) -> crate::db::Result<Vec<MemberRow>> {
    conn.prepare_cached(&format!("{MEMBER} WHERE cm.user_id = ?1 ORDER BY cm.cooperative_id"))?
        .query_map([user_id], member)?
        .collect()
}

/// Writes a person's place in a cooperative (a new one, or a changed role or status).
pub fn set_member(
    conn: &Connection,
    cooperative_id: i64,
    user_id: i64,
    role: MemberRole,
    status: MemberStatus,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO cooperative_members (cooperative_id, user_id, role, status, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?5)
         ON CONFLICT (cooperative_id, user_id) DO UPDATE SET role = excluded.role, status = excluded.status,
             updated_at = excluded.updated_at",
    )?
    .execute(params![cooperative_id, user_id, role, status, now])?;
    Ok(())
}
