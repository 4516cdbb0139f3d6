//! What cooperatives pay their members (docs/cooperatives.md, Payouts), and what each
//! member is owed: their shares of lots' sales less what was paid or is being paid.

use crate::db::{Connection, OptionalExtension, params};

#[derive(Debug, Clone)]
pub struct PayoutRow {
    pub id: i64,
    pub uid: String,
    pub cooperative_id: i64,
    pub cooperative_name: String,
    pub member_id: i64,
    pub member_name: String,
    pub amount_cents: i64,
    pub currency: String,
    /// `mobile_money` or `cash`.
    pub method: String,
    pub operator: Option<String>,
    pub phone: Option<String>,
    /// `pending`, `paid` or `failed`.
    pub status: String,
    pub failure_reason: Option<String>,
    pub code_hash: Option<String>,
    pub code_attempts: i64,
    pub checks: i64,
    pub created_by: i64,
    pub created_at: String,
    pub paid_at: Option<String>,
}

const SELECT: &str =
    "SELECT p.id, p.uid, p.cooperative_id, c.name, p.member_id, trim(u.first_name || ' ' || u.last_name),
        p.amount_cents, p.currency, p.method, p.operator, p.phone, p.status, p.failure_reason, p.code_hash,
        p.code_attempts, p.checks, p.created_by, p.created_at, p.paid_at
    FROM cooperative_payouts p JOIN cooperatives c ON c.id = p.cooperative_id JOIN users u ON u.id = p.member_id";

fn row(r: &crate::db::Row<'_>) -> crate::db::Result<PayoutRow> {
    Ok(PayoutRow {
        id: r.get(0)?,
        uid: r.get(1)?,
        cooperative_id: r.get(2)?,
        cooperative_name: r.get(3)?,
        member_id: r.get(4)?,
        member_name: r.get(5)?,
        amount_cents: r.get(6)?,
        currency: r.get(7)?,
        method: r.get(8)?,
        operator: r.get(9)?,
        phone: r.get(10)?,
        status: r.get(11)?,
        failure_reason: r.get(12)?,
        code_hash: r.get(13)?,
        code_attempts: r.get(14)?,
        checks: r.get(15)?,
        created_by: r.get(16)?,
        created_at: r.get(17)?,
        paid_at: r.get(18)?,
    })
}

pub fn find(conn: &Connection, id: i64) -> crate::db::Result<Option<PayoutRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE p.id = ?1"))?.query_row([id], row).optional()
}

pub fn by_uid(conn: &Connection, uid: &str) -> crate::db::Result<Option<PayoutRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE p.uid = ?1"))?.query_row([uid], row).optional()
}

/// A cooperative's payouts, newest first.
pub fn of_cooperative(conn: &Connection, cooperative_id: i64, limit: i64) -> crate::db::Result<Vec<PayoutRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE p.cooperative_id = ?1 ORDER BY p.id DESC LIMIT ?2"))?
        .query_map(params![cooperative_id, limit], row)?
        .collect()
}

/// A member's payouts from every cooperative, newest first.
pub fn of_member(conn: &Connection, member_id: i64, limit: i64) -> crate::db::Result<Vec<PayoutRow>> {
    conn.prepare_cached(&format!("{SELECT} WHERE p.member_id = ?1 ORDER BY p.id DESC LIMIT ?2"))?
        .query_map(params![member_id, limit], row)?
        .collect()
}

pub struct NewPayout<'a> {
    pub uid: &'a str,
    pub cooperative_id: i64,
    pub member_id: i64,
    pub amount_cents: i64,
    pub currency: &'a str,
    pub method: &'a str,
    pub operator: Option<&'a str>,
    pub phone: Option<&'a str>,
    pub code_hash: Option<&'a str>,
    pub next_check_at: Option<&'a str>,
    pub created_by: i64,
}

pub fn insert(conn: &Connection, p: &NewPayout<'_>, now: &str) -> crate::db::Result<i64> {
    conn.insert(
        "INSERT INTO cooperative_payouts (uid, cooperative_id, member_id, amount_cents, currency, method, operator, phone,
                                          status, code_hash, next_check_at, created_by, created_at, updated_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'pending', ?9, ?10, ?11, ?12, ?12)",
        params![
            p.uid,
            p.cooperative_id,
            p.member_id,
            p.amount_cents,
            p.currency,
            p.method,
            p.operator,
            p.phone,
            p.code_hash,
            p.next_check_at,
            p.created_by,
            now
        ],
    )
}

/// Settles a pending payout: `paid` or `failed` (with why). False when it was not
/// pending any more: a payout is settled once.
pub fn settle(conn: &Connection, id: i64, paid: bool, reason: Option<&str>, now: &str) -> crate::db::Result<bool> {
    let changed = conn
        .prepare_cached(
            "UPDATE cooperative_payouts SET status = ?2, failure_reason = ?3, paid_at = CASE WHEN ?2 = 'paid' THEN ?4 END,
                    next_check_at = NULL, updated_at = ?4
             WHERE id = ?1 AND status = 'pending'",
        )?
        .execute(params![id, if paid { "paid" } else { "failed" }, reason, now])?;
    Ok(changed == 1)
}

pub fn count_attempt(conn: &Connection, id: i64, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE cooperative_payouts SET code_attempts = code_attempts + 1, updated_at = ?2 WHERE id = ?1",
    )?
    .execute(params![id, now])?;
    Ok(())
}

pub fn schedule_check(conn: &Connection, id: i64, next: &str) -> crate::db::Result<()> {
    conn.prepare_cached("UPDATE cooperative_payouts SET checks = checks + 1, next_check_at = ?2 WHERE id = ?1")?
        .execute(params![id, next])?;
    Ok(())
}

/// Mobile-money payouts still pending whose status check is due, oldest first.
pub fn due(conn: &Connection, now: &str, limit: i64) -> crate::db::Result<Vec<PayoutRow>> {
    conn.prepare_cached(&format!(
        "{SELECT} WHERE p.status = 'pending' AND p.method = 'mobile_money' AND p.next_check_at <= ?1
         ORDER BY p.next_check_at LIMIT ?2"
    ))?
    .query_map(params![now, limit], row)?
    .collect()
}

/// One member's account with a cooperative: their shares of its lots' sales, what was
/// paid, what is being paid, and so what is still owed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Account {
    pub member_id: i64,
    pub member_name: String,
    pub shares_cents: i64,
    pub paid_cents: i64,
    pub pending_cents: i64,
}

impl Account {
    pub fn owed_cents(&self) -> i64 {
        self.shares_cents - self.paid_cents - self.pending_cents
    }
}

const ACCOUNTS: &str = "SELECT m.user_id, trim(u.first_name || ' ' || u.last_name),
        COALESCE((SELECT SUM(e.amount_cents) FROM earnings e JOIN order_parts op ON op.id = e.part_id
                  WHERE e.kind = 'share' AND e.farmer_id = m.user_id AND op.farmer_id = c.seller_id), 0),
        COALESCE((SELECT SUM(p.amount_cents) FROM cooperative_payouts p
                  WHERE p.cooperative_id = c.id AND p.member_id = m.user_id AND p.status = 'paid'), 0),
        COALESCE((SELECT SUM(p.amount_cents) FROM cooperative_payouts p
                  WHERE p.cooperative_id = c.id AND p.member_id = m.user_id AND p.status = 'pending'), 0)
    FROM cooperative_members m JOIN cooperatives c ON c.id = m.cooperative_id JOIN users u ON u.id = m.user_id";

fn account(r: &crate::db::Row<'_>) -> crate::db::Result<Account> {
    Ok(Account {
        member_id: r.get(0)?,
        member_name: r.get(1)?,
        shares_cents: r.get(2)?,
        paid_cents: r.get(3)?,
        pending_cents: r.get(4)?,
    })
}

/// Every member's account with a cooperative (removed members too: they keep what they are owed), by name.
pub fn accounts(conn: &Connection, cooperative_id: i64) -> crate::db::Result<Vec<Account>> {
    conn.prepare_cached(&format!(
        "{ACCOUNTS} WHERE c.id = ?1 AND m.status <> 'asked' ORDER BY u.first_name, u.last_name, m.user_id"
    ))?
    .query_map([cooperative_id], account)?
    .collect()
}

/// One member's account with one cooperative.
pub fn account_of(conn: &Connection, cooperative_id: i64, member_id: i64) -> crate::db::Result<Option<Account>> {
    conn.prepare_cached(&format!("{ACCOUNTS} WHERE c.id = ?1 AND m.user_id = ?2"))?
        .query_row([cooperative_id, member_id], account)
        .optional()
}

/// What a cooperative's lots brought: what buyers paid for delivered parts, the
/// platform's fees, and what it shared with its members (cents, each as the ledger has it).
pub fn sales(conn: &Connection, cooperative_id: i64) -> crate::db::Result<(i64, i64, i64)> {
    conn.prepare_cached(
        "SELECT COALESCE(SUM(CASE WHEN e.kind = 'sale' THEN e.amount_cents ELSE 0 END), 0),
                COALESCE(SUM(CASE WHEN e.kind = 'fee' THEN -e.amount_cents ELSE 0 END), 0),
                COALESCE(SUM(CASE WHEN e.kind = 'shared' THEN -e.amount_cents ELSE 0 END), 0)
         FROM earnings e JOIN cooperatives c ON c.seller_id = e.farmer_id WHERE c.id = ?1",
    )?
    .query_row([cooperative_id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
}
