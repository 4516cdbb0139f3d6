//! Reads on a streaming replica (docs/operations.md, Read replicas). A read goes to the
//! replica when it has replayed every write this server knows of (its own commits and
//! those it heard of from other nodes: `wakeups.rs`), checked on the connection the read
//! then uses (a replica only moves forward), so a phone reads its own writes and nothing
//! older than what it was told of; otherwise, and while the replica is out of reach, the
//! read goes to the database itself.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::pg::Settings;
use super::wakeups::Versions;
use super::{Connection, lock};

/// How long a replica that failed is passed over before it is tried again.
const PASS_OVER: Duration = Duration::from_secs(5);

pub(super) struct Replica {
    settings: Settings,
    connections: Mutex<Vec<Connection>>,
    /// Until when the replica is passed over after it failed.
    failed_until: Mutex<Option<Instant>>,
}

impl Replica {
    pub(super) fn new(settings: Settings) -> Replica {
        Replica { settings, connections: Mutex::new(Vec::new()), failed_until: Mutex::new(None) }
    }

    /// A replica connection that has replayed at least `known`, if there is one.
    pub(super) fn caught_up(&self, known: Versions) -> Option<Connection> {
        if lock(&self.failed_until).is_some_and(|until| Instant::now() < until) {
            return None;
        }
        let popped = lock(&self.connections).pop();
        let conn = match popped.map_or_else(|| self.settings.connect(), Ok) {
            Ok(conn) => conn,
            Err(err) => return self.failed(&err),
        };
        match Versions::now(&conn) {
            Ok(seen) => {
                if lock(&self.failed_until).take().is_some() {
                    tracing::info!("the read replica answers again");
                }
                if seen.covers(known) {
                    return Some(conn);
                }
                self.put_back(conn);
                None
            }
            Err(err) => self.failed(&err),
        }
    }

    pub(super) fn put_back(&self, conn: Connection) {
        if conn.is_usable() {
            lock(&self.connections).push(conn);
        }
    }

    fn failed(&self, err: &super::Error) -> Option<Connection> {
        let mut until = lock(&self.failed_until);
        if until.is_none() {
            tracing::warn!(%err, "the read replica is out of reach: reads go to the database meanwhile");
        }
        *until = Some(Instant::now() + PASS_OVER);
        None
    }
}
