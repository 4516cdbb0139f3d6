//! The `ussd_memos` table: what a USSD session learned, by slot (docs/ussd.md), and
//! `sms_incoming`: the gateway's ids of SMS already answered.

use crate::db::{Connection, params};

/// Every memo of a session: (slot, memo as JSON).
pub fn of_session(conn: &Connection, phone: &str, session: &str) -> crate::db::Result<Vec<(String, String)>> {
    conn.prepare_cached("SELECT slot, memo FROM ussd_memos WHERE phone = ?1 AND session = ?2")?
        .query_map([phone, session], |r| Ok((r.get(0)?, r.get(1)?)))?
        .collect()
}

/// Keeps a memo; a slot already kept keeps its first memo (a replay learns nothing new).
pub fn keep(conn: &Connection, phone: &str, session: &str, slot: &str, memo: &str, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO ussd_memos (phone, session, slot, memo, at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (phone, session, slot) DO NOTHING",
    )?
    .execute(params![phone, session, slot, memo, now])?;
    Ok(())
}

/// Replaces a memo (a PIN's try taken, then known right or wrong).
pub fn replace(
    conn: &Connection,
    phone: &str,
    session: &str,
    slot: &str,
    memo: &str,
    now: &str,
) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO ussd_memos (phone, session, slot, memo, at) VALUES (?1, ?2, ?3, ?4, ?5)
         ON CONFLICT (phone, session, slot) DO UPDATE SET memo = ?4, at = ?5",
    )?
    .execute(params![phone, session, slot, memo, now])?;
    Ok(())
}

/// Forgets memos kept before `before`; answers how many.
pub fn prune(conn: &Connection, before: &str) -> crate::db::Result<usize> {
    let memos = conn.prepare_cached("DELETE FROM ussd_memos WHERE at < ?1")?.execute([before])?;
    conn.prepare_cached("DELETE FROM sms_incoming WHERE at < ?1")?.execute([before])?;
    Ok(memos)
}

/// Records an incoming message's id; false when it was recorded before (answered already).
pub fn first_sight_of_sms(conn: &Connection, id: &str, now: &str) -> crate::db::Result<bool> {
    Ok(conn
        .prepare_cached("INSERT INTO sms_incoming (id, at) VALUES (?1, ?2) ON CONFLICT (id) DO NOTHING")?
        .execute([id, now])?
        == 1)
}

/// Whether an incoming message with this id was answered already.
pub fn sms_seen(conn: &Connection, id: &str) -> crate::db::Result<bool> {
    conn.prepare_cached("SELECT EXISTS (SELECT 1 FROM sms_incoming WHERE id = ?1)")?.query_row([id], |r| r.get(0))
}
