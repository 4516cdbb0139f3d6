//! Throttles and budgets (docs/security.md, Throttles), kept in the database so that
//! every server counts against the same limits and a restart forgets none
//! (docs/operations.md, Several nodes). Each check is one write, made one at a time
//! with every other write (the database's write lock), so attempts sent at once, to one
//! server or several, cannot all pass a check none of them has been counted against.
//!
//! [`Throttle`]: at most N events per key within a sliding window. An event is counted
//! *before* the work it guards (`reserve`), in the same write as the check; work that
//! turns out fine gives its event back (`release`).
//!
//! [`Pacer`]: spaces attempts on one key at least `spacing` apart, each waiting for its
//! turn: a slow-down instead of a lock-out.
//!
//! [`KnownPlaces`]: addresses each account recently signed in from, where its owner is
//! slowed down rather than blocked.

use std::net::IpAddr;
use std::time::Duration;

use crate::Config;
use crate::db::{Connection, Db, OptionalExtension, Result, params};
use crate::error::ApiResult;
use crate::platform::clock::now_ms;

/// Every throttle of the server, sized by the configuration.
pub struct Throttles {
    /// Failed sign-ins per (account, address).
    pub login_pair: Throttle,
    /// Failed sign-ins per address, on any accounts.
    pub login_address: Limit,
    /// Failed sign-ins per account, from anywhere: past a few, attempts are paced.
    pub login_account: Limit,
    pub login_pace: Pacer,
    pub known_places: KnownPlaces,
    /// Sign-ups per address.
    pub signup: Throttle,
    /// Contact messages per address (counted in the write that stores one).
    pub contact: Limit,
    /// Password reset requests per address and per email.
    pub password_reset: Throttle,
    /// Unverified payment callbacks kept per address.
    pub callbacks: Throttle,
    /// Payment callbacks checked with the provider, per address and per payment
    /// (each check is a call on the merchant's API quota).
    pub callback_checks: Throttle,
    pub callback_payment: Throttle,
    /// USSD requests per number (docs/ussd.md).
    pub ussd: Throttle,
    /// SMS a number asked for, per number: answers to its SMS commands and what
    /// the USSD menu texts it on request (sellers, a lesson). Each costs us an SMS.
    pub sms_asked: Throttle,
}

/// Known places are remembered this long.
const PLACES_KEPT: Duration = Duration::from_secs(30 * 24 * 3600);
/// Events are kept at most this long, whatever a window is configured to.
const EVENTS_KEPT: Duration = Duration::from_secs(7 * 24 * 3600);

impl Throttles {
    pub fn new(config: &Config, db: &Db) -> Throttles {
        let window = config.login_window;
        let throttle = |name, max_events, window| Throttle::new(name, max_events, window, db);
        Throttles {
            login_pair: throttle("login_pair", config.login_max_failures, window),
            login_address: Limit { name: "login_address", max_events: config.login_address_max_failures, window },
            login_account: Limit { name: "login_account", max_events: usize::MAX, window },
            login_pace: Pacer { spacing: config.login_spacing, max_wait: 6 * config.login_spacing },
            known_places: KnownPlaces { remember: PLACES_KEPT },
            signup: throttle("signup", config.signup_max, config.signup_window),
            contact: Limit { name: "contact", max_events: config.contact_max_messages, window: config.contact_window },
            password_reset: throttle("password_reset", 5, Duration::from_secs(15 * 60)),
            callbacks: throttle("callbacks", 60, Duration::from_secs(3600)),
            callback_checks: throttle("callback_checks", 3600, Duration::from_secs(3600)),
            callback_payment: throttle("callback_payment", 10, Duration::from_secs(3600)),
            ussd: throttle("ussd", config.ussd_max_requests, Duration::from_secs(60)),
            sms_asked: throttle("sms_asked", 10, Duration::from_secs(3600)),
        }
    }
}

pub(crate) fn ms(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Whole seconds to wait for `ms` milliseconds, at least one.
fn seconds(ms: i64) -> u64 {
    u64::try_from(ms.max(1)).unwrap_or(1).div_ceil(1000)
}

pub struct Throttle {
    limit: Limit,
    db: Db,
}

/// A throttle's rule: its name (its rows' mark), at most `max_events` per `window`.
#[derive(Clone, Copy)]
pub struct Limit {
    name: &'static str,
    max_events: usize,
    window: Duration,
}

impl Limit {
    /// `Throttle::reserve` in the caller's write transaction (what it counts is undone
    /// with the transaction).
    pub fn reserve(self, tx: &Connection, keys: &[&str]) -> Result<std::result::Result<(), u64>> {
        let (name, window) = (self.name, ms(self.window));
        let max = i64::try_from(self.max_events).unwrap_or(i64::MAX);
        let now = now_ms();
        let mut wait = 0;
        for key in keys {
            tx.prepare_cached("DELETE FROM throttle_events WHERE throttle = ?1 AND key = ?2 AND at_ms <= ?3")?
                .execute(params![name, key, now - window])?;
            // The event that leaves the window first once the key is at its limit.
            let at_limit: Option<i64> = tx
                .prepare_cached(
                    "SELECT at_ms FROM throttle_events WHERE throttle = ?1 AND key = ?2
                     ORDER BY at_ms DESC LIMIT 1 OFFSET ?3",
                )?
                .query_row(params![name, key, max - 1], |row| row.get(0))
                .optional()?;
            if let Some(at) = at_limit {
                wait = wait.max(at + window - now);
            }
        }
        if wait > 0 {
            return Ok(Err(seconds(wait)));
        }
        for key in keys {
            tx.prepare_cached("INSERT INTO throttle_events (throttle, key, at_ms) VALUES (?1, ?2, ?3)")?
                .execute(params![name, key, now])?;
        }
        Ok(Ok(()))
    }

    /// Gives back the newest event of each key.
    pub fn release(self, tx: &Connection, keys: &[&str]) -> Result<()> {
        for key in keys {
            tx.prepare_cached(
                "DELETE FROM throttle_events WHERE id = (SELECT id FROM throttle_events
                 WHERE throttle = ?1 AND key = ?2 ORDER BY at_ms DESC, id DESC LIMIT 1)",
            )?
            .execute(params![self.name, key])?;
        }
        Ok(())
    }

    /// Forgets every event of `key`.
    pub fn clear(self, tx: &Connection, key: &str) -> Result<()> {
        tx.prepare_cached("DELETE FROM throttle_events WHERE throttle = ?1 AND key = ?2")?
            .execute(params![self.name, key])?;
        Ok(())
    }

    /// Events of `key` within the window.
    pub fn count(self, conn: &Connection, key: &str) -> Result<usize> {
        let count: i64 = conn
            .prepare_cached("SELECT COUNT(*) FROM throttle_events WHERE throttle = ?1 AND key = ?2 AND at_ms > ?3")?
            .query_row(params![self.name, key, now_ms() - ms(self.window)], |row| row.get(0))?;
        Ok(usize::try_from(count).unwrap_or(0))
    }
}

impl Throttle {
    fn new(name: &'static str, max_events: usize, window: Duration, db: &Db) -> Throttle {
        Throttle { limit: Limit { name, max_events, window }, db: db.clone() }
    }

    /// The rule, for a check inside a write of the caller's.
    pub fn limit(&self) -> Limit {
        self.limit
    }

    /// Counts one event for every key, unless any key is at its limit: then nothing is
    /// counted and the inner answer is how many seconds to wait.
    pub async fn reserve(&self, keys: &[&str]) -> ApiResult<std::result::Result<(), u64>> {
        let limit = self.limit;
        let keys: Vec<String> = keys.iter().map(|k| (*k).to_owned()).collect();
        self.db
            .write_together(move |tx| Ok(limit.reserve(tx, &keys.iter().map(String::as_str).collect::<Vec<_>>())?))
            .await
    }

    /// Gives back the newest event of each key.
    pub async fn release(&self, keys: &[&str]) -> ApiResult<()> {
        let limit = self.limit;
        let keys: Vec<String> = keys.iter().map(|k| (*k).to_owned()).collect();
        self.db
            .write_together(move |tx| Ok(limit.release(tx, &keys.iter().map(String::as_str).collect::<Vec<_>>())?))
            .await
    }
}

/// Gives attempts on a key turns at least `spacing` apart.
#[derive(Clone, Copy)]
pub struct Pacer {
    spacing: Duration,
    max_wait: Duration,
}

impl Pacer {
    /// How long this attempt must wait for its turn (its turn is then taken), or in the
    /// inner answer the seconds to come back after when the queue is longer than
    /// `max_wait` (no turn taken).
    pub fn turn(self, tx: &Connection, key: &str) -> Result<std::result::Result<Duration, u64>> {
        let now = now_ms();
        let next: Option<i64> = tx
            .prepare_cached("SELECT next_ms FROM throttle_turns WHERE key = ?1")?
            .query_row([key], |row| row.get(0))
            .optional()?;
        let at = next.unwrap_or(now).max(now);
        if at - now > ms(self.max_wait) {
            return Ok(Err(seconds(at - now)));
        }
        tx.prepare_cached(
            "INSERT INTO throttle_turns (key, next_ms) VALUES (?1, ?2)
             ON CONFLICT (key) DO UPDATE SET next_ms = excluded.next_ms",
        )?
        .execute(params![key, at + ms(self.spacing)])?;
        Ok(Ok(Duration::from_millis(u64::try_from(at - now).unwrap_or(0))))
    }
}

/// Where each account last signed in successfully (a few addresses each, for `remember`).
#[derive(Clone, Copy)]
pub struct KnownPlaces {
    remember: Duration,
}

const PLACES_PER_ACCOUNT: i64 = 5;

impl KnownPlaces {
    pub fn add(self, tx: &Connection, account: &str, ip: IpAddr) -> Result<()> {
        let address = ip.to_string();
        tx.prepare_cached(
            "INSERT INTO known_places (account, address, at_ms) VALUES (?1, ?2, ?3)
             ON CONFLICT (account, address) DO UPDATE SET at_ms = excluded.at_ms",
        )?
        .execute(params![account, address, now_ms()])?;
        tx.prepare_cached(
            "DELETE FROM known_places WHERE account = ?1 AND address NOT IN
             (SELECT address FROM known_places WHERE account = ?1 ORDER BY at_ms DESC LIMIT ?2)",
        )?
        .execute(params![account, PLACES_PER_ACCOUNT])?;
        Ok(())
    }

    pub fn contains(self, conn: &Connection, account: &str, ip: IpAddr) -> Result<bool> {
        let found: Option<i64> = conn
            .prepare_cached("SELECT 1 FROM known_places WHERE account = ?1 AND address = ?2 AND at_ms > ?3")?
            .query_row(params![account, ip.to_string(), now_ms() - ms(self.remember)], |row| row.get(0))
            .optional()?;
        Ok(found.is_some())
    }
}

/// Drops what no window counts any more (the hourly housekeeping).
pub fn prune(conn: &Connection) -> Result<usize> {
    let now = now_ms();
    Ok(conn.execute("DELETE FROM throttle_events WHERE at_ms < ?1", [now - ms(EVENTS_KEPT)])?
        + conn.execute("DELETE FROM throttle_turns WHERE next_ms < ?1", [now])?
        + conn.execute("DELETE FROM known_places WHERE at_ms < ?1", [now - ms(PLACES_KEPT)])?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn migrated() -> Connection {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::db::migrate(&mut conn).unwrap();
        conn
    }

    fn limit(name: &'static str, max_events: usize, window: Duration) -> Limit {
        Limit { name, max_events, window }
    }

    #[tokio::test]
    async fn blocks_after_the_limit_and_frees_after_the_window() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(dir.path()).unwrap();
        let limiter = Throttle::new("t", 3, Duration::from_millis(300), &db);
        for _ in 0..3 {
            assert!(limiter.reserve(&["a"]).await.unwrap().is_ok());
        }
        assert!(limiter.reserve(&["a"]).await.unwrap().is_err());
        let rule = limiter.limit();
        assert_eq!(db.read(move |conn| Ok(rule.count(conn, "a")?)).await.unwrap(), 3, "a refusal is not counted");
        assert!(limiter.reserve(&["b"]).await.unwrap().is_ok(), "other keys are not affected");
        let other = Throttle::new("u", 3, Duration::from_millis(300), &db);
        assert!(other.reserve(&["a"]).await.unwrap().is_ok(), "nor other throttles");
        tokio::time::sleep(Duration::from_millis(350)).await;
        assert!(limiter.reserve(&["a"]).await.unwrap().is_ok(), "the lock ends with the window");
    }

    #[test]
    fn released_and_cleared_events_no_longer_count() {
        let conn = migrated();
        let limiter = limit("t", 1, Duration::from_secs(60));
        limiter.reserve(&conn, &["a", "b"]).unwrap().unwrap();
        assert_eq!(limiter.reserve(&conn, &["a"]).unwrap(), Err(60));
        assert!(limiter.reserve(&conn, &["b", "c"]).unwrap().is_err(), "one full key refuses the lot");
        assert_eq!(limiter.count(&conn, "c").unwrap(), 0);
        limiter.release(&conn, &["a"]).unwrap();
        limiter.clear(&conn, "b").unwrap();
        assert!(limiter.reserve(&conn, &["a", "b"]).unwrap().is_ok());
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn parallel_reservations_never_pass_the_limit() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(dir.path()).unwrap();
        let limiter = std::sync::Arc::new(Throttle::new("t", 10, Duration::from_secs(60), &db));
        let tries: Vec<_> = (0..200)
            .map(|_| {
                let limiter = std::sync::Arc::clone(&limiter);
                tokio::spawn(async move { usize::from(limiter.reserve(&["a"]).await.unwrap().is_ok()) })
            })
            .collect();
        let mut passed = 0;
        for t in tries {
            passed += t.await.unwrap();
        }
        assert_eq!(passed, 10);
    }

    #[test]
    fn a_pacer_spaces_turns_and_refuses_a_long_queue() {
        let conn = migrated();
        let pacer = Pacer { spacing: Duration::from_secs(5), max_wait: Duration::from_secs(12) };
        assert_eq!(pacer.turn(&conn, "a").unwrap().unwrap(), Duration::ZERO);
        assert!(pacer.turn(&conn, "a").unwrap().unwrap() > Duration::from_secs(4));
        assert!(pacer.turn(&conn, "a").unwrap().unwrap() > Duration::from_secs(9));
        assert!(pacer.turn(&conn, "a").unwrap().is_err(), "a fourth would wait 15 s");
        assert_eq!(pacer.turn(&conn, "b").unwrap().unwrap(), Duration::ZERO);
    }

    #[tokio::test]
    async fn known_places_are_per_account_and_outlive_a_restart() {
        let dir = tempfile::tempdir().unwrap();
        let home: IpAddr = "10.0.0.1".parse().unwrap();
        let places = KnownPlaces { remember: Duration::from_secs(60) };
        Db::open(dir.path()).unwrap().write(move |tx| Ok(places.add(tx, "a", home)?)).await.unwrap();
        let db = Db::open(dir.path()).unwrap();
        let knows = |account: &'static str, ip: &'static str| {
            let db = db.clone();
            async move { db.read(move |conn| Ok(places.contains(conn, account, ip.parse().unwrap())?)).await.unwrap() }
        };
        assert!(knows("a", "10.0.0.1").await);
        assert!(!knows("b", "10.0.0.1").await);
        assert!(!knows("a", "10.0.0.2").await);
        for n in 2..8 {
            tokio::time::sleep(Duration::from_millis(2)).await;
            let ip: IpAddr = format!("10.0.0.{n}").parse().unwrap();
            db.write(move |tx| Ok(places.add(tx, "a", ip)?)).await.unwrap();
        }
        assert!(!knows("a", "10.0.0.1").await, "five addresses are kept, the newest");
        assert!(knows("a", "10.0.0.7").await);
    }
}
