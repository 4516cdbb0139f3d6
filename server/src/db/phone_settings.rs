//! What a number chose on a basic phone (docs/ussd.md): its language and its PIN.

use crate::db::{Connection, OptionalExtension, params};

/// The PIN of a number and where its wrong tries stand.
#[derive(Debug, Clone)]
pub struct Pin {
    pub hash: String,
    pub failures: i64,
    pub locked_until: Option<String>,
}

pub fn language(conn: &Connection, phone: &str) -> crate::db::Result<Option<String>> {
    conn.prepare_cached("SELECT language FROM phone_settings WHERE phone = ?1")?
        .query_row([phone], |r| r.get(0))
        .optional()
        .map(Option::flatten)
}

pub fn set_language(conn: &Connection, phone: &str, language: &str, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO phone_settings (phone, language, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (phone) DO UPDATE SET language = ?2, updated_at = ?3",
    )?
    .execute(params![phone, language, now])?;
    Ok(())
}

pub fn pin(conn: &Connection, phone: &str) -> crate::db::Result<Option<Pin>> {
    conn.prepare_cached("SELECT pin_hash, pin_failures, pin_locked_until FROM phone_settings WHERE phone = ?1")?
        .query_row([phone], |r| {
            let (hash, failures, locked_until): (Option<String>, i64, Option<String>) =
                (r.get(0)?, r.get(1)?, r.get(2)?);
            Ok(hash.map(|hash| Pin { hash, failures, locked_until }))
        })
        .optional()
        .map(Option::flatten)
}

/// Sets a new PIN (already hashed) and forgets the wrong tries.
pub fn set_pin(conn: &Connection, phone: &str, hash: &str, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO phone_settings (phone, pin_hash, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (phone) DO UPDATE SET pin_hash = ?2, pin_failures = 0, pin_locked_until = NULL, updated_at = ?3",
    )?
    .execute(params![phone, hash, now])?;
    Ok(())
}

/// Takes a try at the PIN before it is checked (docs/security.md: counted before the
/// work): counts it as wrong until it proves right, and the `max`-th in a row locks the
/// PIN until `lock_until` at once, so guesses sent together get only the tries left.
/// `None` when the PIN is locked (or there is none): no try is taken.
pub fn take_pin_try(
    conn: &Connection,
    phone: &str,
    max: i64,
    lock_until: &str,
    now: &str,
) -> crate::db::Result<Option<i64>> {
    conn.prepare_cached(
        "UPDATE phone_settings SET pin_failures = pin_failures + 1,
             pin_locked_until = CASE WHEN (pin_failures + 1) % ?2 = 0 THEN ?3 ELSE pin_locked_until END, updated_at = ?4
         WHERE phone = ?1 AND pin_hash IS NOT NULL AND (pin_locked_until IS NULL OR pin_locked_until <= ?4)
         RETURNING pin_failures",
    )?
    .query_row(params![phone, max, lock_until, now], |r| r.get(0))
    .optional()
}

/// A right PIN: the wrong tries start again from nothing.
pub fn right_pin(conn: &Connection, phone: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "UPDATE phone_settings SET pin_failures = 0, pin_locked_until = NULL WHERE phone = ?1 AND pin_failures > 0",
    )?
    .execute([phone])?;
    Ok(())
}

/// Whether the number's owner lets buyers who ask by SMS see it.
pub fn shares_number(conn: &Connection, phone: &str) -> crate::db::Result<bool> {
    Ok(conn
        .prepare_cached("SELECT share_number FROM phone_settings WHERE phone = ?1")?
        .query_row([phone], |r| r.get(0))
        .optional()?
        .unwrap_or(false))
}

pub fn set_share_number(conn: &Connection, phone: &str, share: bool, now: &str) -> crate::db::Result<()> {
    conn.prepare_cached(
        "INSERT INTO phone_settings (phone, share_number, updated_at) VALUES (?1, ?2, ?3)
         ON CONFLICT (phone) DO UPDATE SET share_number = ?2, updated_at = ?3",
    )?
    .execute(params![phone, share, now])?;
    Ok(())
}

/// Forgets what a number chose (its account is erased).
pub fn forget(conn: &Connection, phone: &str) -> crate::db::Result<()> {
    conn.prepare_cached("DELETE FROM phone_settings WHERE phone = ?1")?.execute([phone])?;
    Ok(())
}
