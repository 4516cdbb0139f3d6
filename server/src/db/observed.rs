//! The database's own metrics (platform/metrics.rs): where reads ran, how long a write
//! waited for its turn, transactions committed or rolled back, connections in use and
//! tasks waiting for one. Handles made once from the families, so counting is an atomic add.

use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;

use crate::platform::metrics::{Metrics, Outcome, PoolState, Target};

pub(super) struct Observed {
    pub primary_reads: Counter,
    pub replica_reads: Counter,
    pub write_wait: Histogram,
    pub commits: Counter,
    pub rollbacks: Counter,
    pub reader: Turns,
    pub writer: Turns,
}

/// One kind of connection: in use, and tasks waiting for one.
pub(super) struct Turns {
    in_use: Gauge,
    waiting: Gauge,
}

impl Turns {
    fn of(metrics: &Metrics, pool: &'static str) -> Turns {
        let gauge = |state| metrics.db_connections.get_or_create(&PoolState { pool, state }).clone();
        Turns { in_use: gauge("in_use"), waiting: gauge("waiting") }
    }

    /// Waits for `permit`, counted as waiting, then as in use until the guard is dropped.
    pub async fn take<'a>(
        &'a self,
        permits: &'a tokio::sync::Semaphore,
    ) -> Result<InUse<'a>, tokio::sync::AcquireError> {
        self.waiting.inc();
        let permit = permits.acquire().await;
        self.waiting.dec();
        let permit = permit?;
        self.in_use.inc();
        Ok(InUse { _permit: permit, in_use: &self.in_use })
    }
}

pub(super) struct InUse<'a> {
    _permit: tokio::sync::SemaphorePermit<'a>,
    in_use: &'a Gauge,
}

impl Drop for InUse<'_> {
    fn drop(&mut self) {
        self.in_use.dec();
    }
}

impl Observed {
    pub(super) fn new(metrics: &Metrics) -> Observed {
        let reads = |target| metrics.db_reads.get_or_create(&Target { target }).clone();
        let transactions = |outcome| metrics.db_transactions.get_or_create(&Outcome { outcome }).clone();
        Observed {
            primary_reads: reads("primary"),
            replica_reads: reads("replica"),
            write_wait: metrics.db_write_wait.clone(),
            commits: transactions("commit"),
            rollbacks: transactions("rollback"),
            reader: Turns::of(metrics, "reader"),
            writer: Turns::of(metrics, "writer"),
        }
    }

    /// A transaction's end: committed when `ok`.
    pub(super) fn ended(&self, ok: bool) {
        if ok {
            self.commits.inc()
        } else {
            self.rollbacks.inc()
        };
    }
}

impl super::Db {
    /// The server's metrics (platform/metrics.rs): made with the database, which every
    /// part of the server holds.
    pub fn metrics(&self) -> &std::sync::Arc<Metrics> {
        &self.pool.metrics
    }

    /// Sync versions this node knows of that the read replica was last seen without
    /// (0 without a replica, or before it was first asked).
    pub fn replica_behind(&self) -> i64 {
        let known = *self.pool.versions.borrow();
        let seen = self.pool.replica.as_ref().map_or(0, |replica| replica.seen_sync());
        if seen == 0 { 0 } else { (known - seen).max(0) }
    }

    /// This server's name among the nodes (the holder of its leases).
    pub fn node(&self) -> &str {
        &self.pool.node
    }
}

/// What the metrics read from the database when scraped: each an indexed look at the
/// rows still open (waiting messages, unsettled payments), so it costs the same with a
/// million settled ones.
pub struct Scraped {
    /// Per outbox (`sms`, `email`): messages waiting, and when the oldest was written.
    pub outboxes: Vec<(&'static str, i64, Option<String>)>,
    /// Payments not settled, by provider and state, and those pending since before `stale`.
    pub payments: Vec<(String, String, i64)>,
    pub payments_stale: Vec<(String, i64)>,
    /// Payouts pending.
    pub payouts_pending: i64,
    /// Leases this node holds now.
    pub leases: Vec<String>,
    /// The database's newest sync version.
    pub version: i64,
}

pub fn scrape(conn: &super::Connection, node: &str, stale: &str) -> super::Result<Scraped> {
    let waiting = |sql: &str| conn.query_row(sql, [], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Option<String>>(1)?)));
    let (sms, sms_oldest) = waiting("SELECT COUNT(*), MIN(created_at) FROM sms_outbox WHERE next_try_at IS NOT NULL")?;
    let (email, email_oldest) = waiting("SELECT COUNT(*), MIN(created_at) FROM email_outbox WHERE sent_at IS NULL")?;
    let mut stmt = conn.prepare(
        "SELECT provider, status, COUNT(*) FROM payments WHERE status IN ('initiating', 'pending') GROUP BY provider, status",
    )?;
    let payments = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<super::Result<_>>()?;
    let mut stmt = conn.prepare(
        "SELECT provider, COUNT(*) FROM payments WHERE status = 'pending' AND created_at < ?1 GROUP BY provider",
    )?;
    let payments_stale = stmt.query_map([stale], |r| Ok((r.get(0)?, r.get(1)?)))?.collect::<super::Result<_>>()?;
    let payouts_pending =
        conn.query_row("SELECT COUNT(*) FROM cooperative_payouts WHERE status = 'pending'", [], |r| r.get(0))?;
    let mut stmt = conn.prepare("SELECT name FROM leases WHERE holder = ?1 AND until_ms > ?2")?;
    let now = crate::platform::clock::now_ms();
    let leases = stmt.query_map(super::params![node, now], |r| r.get(0))?.collect::<super::Result<_>>()?;
    Ok(Scraped {
        outboxes: vec![("sms", sms, sms_oldest), ("email", email, email_oldest)],
        payments,
        payments_stale,
        payouts_pending,
        leases,
        version: super::sync::current_version(conn)?,
    })
}
