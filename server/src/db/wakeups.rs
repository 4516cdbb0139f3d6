//! Wake-ups across servers (docs/operations.md, Several nodes). Each write that moves
//! the sync, catalogue or prices version says so to PostgreSQL (`NOTIFY`) as it
//! commits; every server listens on a connection of its own and announces what it
//! hears to its listening phones and its answer caches. A look at the versions every few
//! seconds, and at once after a lost connection comes back, catches what a dropped
//! connection missed. SQLite is served by one process: it has nothing to hear.

use std::sync::Weak;
use std::time::Duration;

use super::scopes::Touched;
use super::{Connection, Engine, Pool, Result};

/// The channel every server listens on.
const CHANNEL: &str = "mavuno_versions";
/// How long a quiet channel is trusted before the versions are read again.
const CHECK_EVERY: Duration = Duration::from_secs(5);
/// How soon a lost listening connection is opened again.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// The versions a write leaves: the global sync version (phones listen to it); the
/// catalogue's, which is the newest product's (every product write, a listing, its
/// stock, rating or deletion, and a farmer's change, gives the product a new version;
/// catalogue pages are cached on it); and market prices'.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Versions {
    pub sync: i64,
    pub catalogue: i64,
    pub prices: i64,
}

impl Versions {
    /// Before anything was seen.
    pub(super) const NONE: Versions = Versions { sync: 0, catalogue: 0, prices: 0 };

    /// Read in the caller's transaction (or snapshot).
    pub(super) fn now(conn: &Connection) -> Result<Versions> {
        conn.prepare_cached(
            "SELECT (SELECT version FROM sync_state WHERE id = 1), (SELECT COALESCE(MAX(version), 0) FROM products),
                 (SELECT version FROM price_state WHERE id = 1)",
        )?
        .query_row([], |row| Ok(Versions { sync: row.get(0)?, catalogue: row.get(1)?, prices: row.get(2)? }))
    }

    /// A notification's text: the three versions, then whom the write concerns.
    fn payload(self, touched: &Touched) -> String {
        format!("{} {} {} {}", self.sync, self.catalogue, self.prices, touched.payload())
    }

    /// A notification's versions and whom its write concerns (everyone, when a node
    /// that does not say sent it).
    fn parse(payload: &str) -> Option<(Versions, Touched)> {
        let mut parts = payload.split(' ');
        let mut number = || parts.next().and_then(|n| n.parse::<i64>().ok());
        let versions = Versions { sync: number()?, catalogue: number()?, prices: number()? };
        let touched = match parts.next() {
            None => Touched::everyone(),
            Some(text) => Touched::parse(text)?,
        };
        parts.next().is_none().then_some((versions, touched))
    }

    /// The newer of each.
    pub(super) fn max(self, other: Versions) -> Versions {
        Versions {
            sync: self.sync.max(other.sync),
            catalogue: self.catalogue.max(other.catalogue),
            prices: self.prices.max(other.prices),
        }
    }

    /// Whether a database at these versions has every write `other` names.
    pub(super) fn covers(self, other: Versions) -> bool {
        self.sync >= other.sync && self.catalogue >= other.catalogue && self.prices >= other.prices
    }
}

/// Just before a write commits: the versions it leaves and whom it concerns, and on
/// PostgreSQL a notification to every server when they moved (sent by the commit,
/// dropped by a rollback). `None` when they could not be read: the write stands,
/// unannounced.
pub(super) fn seal(pool: &Pool, tx: &Connection) -> Option<(Versions, Touched)> {
    let versions = Versions::now(tx).ok()?;
    let known = pool.known();
    // Rows after the newest version this node knows of: its own write's, and perhaps
    // another node's not heard of yet (then a few phones more are told).
    let touched = match versions.sync > known.sync {
        true => Touched::since(tx, known.sync).unwrap_or_else(|_| Touched::everyone()),
        false => Touched::default(),
    };
    if tx.engine() == Engine::Postgres && versions != known {
        // Numbers and flags: nothing in the text comes from anyone.
        tx.execute_batch(&format!("NOTIFY {CHANNEL}, '{}'", versions.payload(&touched))).ok()?;
    }
    Some((versions, touched))
}

/// Starts the thread that listens for other servers' writes; it ends with the pool.
pub(super) fn spawn_listener(pool: Weak<Pool>) {
    let started = std::thread::Builder::new().name("mavuno-listen".to_owned()).spawn(move || listen(&pool));
    if let Err(err) = started {
        tracing::error!(%err, "cannot start listening for other servers' writes");
    }
}

fn listen(pool: &Weak<Pool>) {
    let mut lost = false;
    loop {
        let Some(strong) = pool.upgrade() else { return };
        let connected = strong.source.connect(false).and_then(|conn| {
            // Named, for operators (and tests) to tell it in `pg_stat_activity`.
            conn.execute_batch(&format!("SET application_name = 'mavuno-listen'; LISTEN {CHANNEL}"))?;
            Ok(conn)
        });
        drop(strong);
        match connected {
            Ok(conn) => {
                if lost {
                    tracing::info!("listening for other servers' writes again");
                }
                let err = hear(pool, &conn);
                if let Some(err) = err {
                    tracing::warn!(%err, "lost the connection that hears other servers' writes; opening another");
                }
                lost = true;
            }
            Err(err) if !lost => {
                tracing::warn!(%err, "cannot listen for other servers' writes; trying again every second");
                lost = true;
            }
            Err(_) => {}
        }
        std::thread::sleep(RETRY_AFTER);
    }
}

/// Announces what `conn` hears until it is lost (the error) or the pool is gone (`None`).
fn hear(pool: &Weak<Pool>, conn: &Connection) -> Option<super::Error> {
    // What was missed while no connection listened.
    let mut look = true;
    loop {
        if look {
            let versions = match Versions::now(conn) {
                Ok(versions) => versions,
                Err(err) => return Some(err),
            };
            // A change found by looking (missed while no connection listened): whom it
            // concerned is not known. Nothing missed: nobody is told.
            let pool = pool.upgrade()?;
            let missed = versions.sync > pool.known().sync;
            pool.announce(versions, &if missed { Touched::everyone() } else { Touched::default() }, false);
        }
        match conn.notifications(CHECK_EVERY) {
            Ok(payloads) => {
                look = payloads.is_empty();
                let pool = pool.upgrade()?;
                for (versions, touched) in payloads.iter().filter_map(|p| Versions::parse(p)) {
                    pool.announce(versions, &touched, false);
                }
            }
            Err(err) => return Some(err),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Touched, Versions};

    #[test]
    fn a_payload_is_three_numbers_and_whom_and_nothing_else() {
        let versions = Versions { sync: 12, catalogue: 7, prices: 3 };
        let touched = Touched { everyone: false, public: true, people: vec![4, 9] };
        assert_eq!(Versions::parse(&versions.payload(&touched)), Some((versions, touched)));
        assert_eq!(Versions::parse("12 7 3"), Some((versions, Touched::everyone())), "a node that does not say");
        for bad in ["", "1 2", "1 2 3 4", "1 x 3", "1  2 3", "1 2 3 p:1 x"] {
            assert_eq!(Versions::parse(bad), None, "{bad:?}");
        }
    }
}
