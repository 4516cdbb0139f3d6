//! Leases: work one server does for all (docs/operations.md, Several nodes). The
//! holder renews its lease each time it works; another server takes it over once it
//! has run out (the holder stopped, or lost the database).

use crate::db::{Connection, Db, Engine, OptionalExtension, Result, params, throttles};
use crate::error::ApiResult;

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

impl Db {
    /// Whether this server holds the lease `name` now, taken or renewed for `hold`:
    /// work one server does for all the nodes on the database (`take`, below). SQLite is
    /// served by one process (the data dir's lock): it holds every lease.
    pub async fn lease(&self, name: &'static str, hold: std::time::Duration) -> ApiResult<bool> {
        if self.engine() == Engine::Sqlite {
            return Ok(true);
        }
        let holder = self.node().to_owned();
        self.write_together(move |tx| {
            let now = crate::platform::clock::now_ms();
            Ok(take(tx, name, &holder, now, now.saturating_add(throttles::ms(hold)))?)
        })
        .await
    }
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
