//! Leases: work one server does for all (docs/operations.md, Several nodes). The
//! holder renews its lease each time it works; another server takes it over once it
//! has run out (the holder stopped, or lost the database).

use crate::db::{Connection, OptionalExtension, Result, params};

/// Takes or renews the lease `name` for `holder` until `until_ms`, unless another
/// holder's lease runs past `now_ms`: answers whether `holder` has it now. In the
/// caller's write, so two servers asking at once cannot both have it.
pub fn take(tx: &Connection, name: &str, holder: &str, now_ms: i64, until_ms: i64) -> Result<bool> {
    let current: Option<(String, i64)> = tx
        .prepare_cached("SELECT holder, until_ms FROM leases WHERE name = ?1")?
        .query_row([name], |row| Ok((row.get(0)?, row.get(1)?)))
        .optional()?;
    if current.is_some_and(|(other, until)| other != holder && until > now_ms) {
        return Ok(false);
    }
    tx.prepare_cached(
        "INSERT INTO leases (name, holder, until_ms) VALUES (?1, ?2, ?3)
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_ms = excluded.until_ms",
    )?
    .execute(params![name, holder, until_ms])?;
    Ok(true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_holder_at_a_time_until_its_lease_runs_out() {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::db::migrate(&mut conn).unwrap();
        assert!(take(&conn, "poller", "a", 1_000, 2_000).unwrap());
        assert!(!take(&conn, "poller", "b", 1_500, 2_500).unwrap(), "a holds it");
        assert!(take(&conn, "housekeeping", "b", 1_500, 2_500).unwrap(), "another lease is free");
        assert!(take(&conn, "poller", "a", 1_900, 2_900).unwrap(), "the holder renews");
        assert!(!take(&conn, "poller", "b", 2_800, 3_800).unwrap());
        assert!(take(&conn, "poller", "b", 2_901, 3_901).unwrap(), "run out: taken over");
        assert!(!take(&conn, "poller", "a", 3_000, 4_000).unwrap(), "and the old holder has lost it");
    }
}
