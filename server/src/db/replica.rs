//! Reads on a streaming replica (docs/operations.md, Read replicas). A read goes to the
//! replica when it has replayed every write this server knows of (its own commits and
//! those it heard of from other nodes: `wakeups.rs`), checked on the connection the read
//! then uses (a replica only moves forward), so a phone reads its own writes and nothing
//! older than what it was told of; otherwise, and while the replica is out of reach, the
//! read goes to the database itself.

use std::sync::Mutex;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{Duration, Instant};

use super::pg::Settings;
use super::wakeups::Versions;
use super::{Connection, lock};

/// How long a replica that failed is passed over before it is tried again.
const PASS_OVER: Duration = Duration::from_secs(5);

pub(super) struct Replica {
    settings: Settings,
    /// Idle connections, each with the versions it was last seen to have replayed: a
    /// replica only moves forward, so one that had what is known need not be asked again.
    connections: Mutex<Vec<(Connection, Versions)>>,
    /// Until when the replica is passed over after it failed.
    failed_until: Mutex<Option<Instant>>,
    /// The newest sync version any connection was seen to have replayed (0: not yet asked).
    seen_sync: AtomicI64,
}

impl Replica {
    pub(super) fn new(settings: Settings) -> Replica {
        Replica {
            settings,
            connections: Mutex::new(Vec::new()),
            failed_until: Mutex::new(None),
            seen_sync: AtomicI64::new(0),
        }
    }

    /// A replica connection that has replayed at least `known`, if there is one, with
    /// what it was seen to have (give both back with `put_back`).
    pub(super) fn caught_up(&self, known: Versions) -> Option<(Connection, Versions)> {
        if lock(&self.failed_until).is_some_and(|until| Instant::now() < until) {
            return None;
        }
        let popped = lock(&self.connections).pop();
        let (conn, seen) = match popped {
            Some((conn, seen)) if seen.covers(known) => return Some((conn, seen)),
            Some((conn, seen)) => (conn, seen),
            None => match self.settings.connect() {
                Ok(conn) => (conn, Versions::NONE),
                Err(err) => return self.failed(&err),
            },
        };
        match Versions::now(&conn) {
            Ok(now) => {
                self.seen_sync.fetch_max(now.sync, Ordering::Relaxed);
                if lock(&self.failed_until).take().is_some() {
                    tracing::info!("the read replica answers again");
                }
                if now.covers(known) {
                    return Some((conn, now));
                }
                self.put_back(conn, now.max(seen));
                None
            }
            Err(err) => self.failed(&err),
        }
    }

    /// The newest sync version the replica was seen to have replayed (0: not asked yet).
    pub(super) fn seen_sync(&self) -> i64 {
        self.seen_sync.load(Ordering::Relaxed)
    }

    pub(super) fn put_back(&self, conn: Connection, seen: Versions) {
        if conn.is_usable() {
            lock(&self.connections).push((conn, seen));
        }
    }

    fn failed<T>(&self, err: &super::Error) -> Option<T> {
        let mut until = lock(&self.failed_until);
        if until.is_none() {
            tracing::warn!(%err, "the read replica is out of reach: reads go to the database meanwhile");
        }
        *until = Some(Instant::now() + PASS_OVER);
        None
    }
}
