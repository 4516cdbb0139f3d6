//! What an operator's Prometheus scrapes (docs/operations.md, Metrics): one registry per
//! server, its families made here and counted where things happen (the HTTP layer, sync,
//! the database's pool, USSD and SMS, the outboxes, payments, the off-site copy, the
//! background work), the gauges read from the database when scraped (`api/metrics.rs`).
//!
//! Every label takes a bounded value: a `&'static str` from the code (a reason, a state,
//! a command), or a route's template or error code, interned once (`interned`), never a path, an id, a
//! token or a number a request sent. `tests/api/metrics.rs` fails when one does not.

use std::collections::HashSet;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::Histogram;
use prometheus_client::registry::Registry;

/// Label sets of one label, its value from the code; each its own type, as a family
/// takes one.
macro_rules! one_label {
    ($($name:ident { $label:ident }),* $(,)?) => {$(
        #[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
        pub struct $name {
            pub $label: &'static str,
        }
    )*};
}

one_label!(
    Why { reason },
    Answer { answer },
    Target { target },
    Outcome { outcome },
    Outbox { outbox },
    Provider { provider },
    State { state },
    Command { command },
    Job { job },
    Lease { lease },
);

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Request {
    pub method: &'static str,
    pub route: &'static str,
    pub status: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Route {
    pub method: &'static str,
    pub route: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Mutation {
    pub result: &'static str,
    pub reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct PoolState {
    pub pool: &'static str,
    pub state: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
pub struct Payment {
    pub provider: &'static str,
    pub state: &'static str,
}

type Seconds = Gauge<f64, std::sync::atomic::AtomicU64>;

/// Answers from a millisecond to ten seconds.
const LATENCY: &[f64] = &[0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

type Histograms<L> = Family<L, Histogram, fn() -> Histogram>;

fn latency() -> Histogram {
    Histogram::new(LATENCY.iter().copied())
}

pub struct Metrics {
    registry: Registry,
    pub http_requests: Family<Request, Counter>,
    pub http_seconds: Histograms<Route>,
    pub throttled: Family<Why, Counter>,
    pub sync_pushes: Counter,
    pub sync_mutations: Family<Mutation, Counter>,
    pub sync_pulls: Family<Answer, Counter>,
    pub sync_listeners: Gauge,
    pub sync_wakeups: Counter,
    pub sync_version_lag: Gauge,
    pub db_reads: Family<Target, Counter>,
    pub db_write_wait: Histogram,
    pub db_transactions: Family<Outcome, Counter>,
    pub db_connections: Family<PoolState, Gauge>,
    pub db_replica_behind: Gauge,
    pub outbox_waiting: Family<Outbox, Gauge>,
    pub outbox_oldest: Family<Outbox, Seconds>,
    pub outbox_sent: Family<Outbox, Counter>,
    pub outbox_failed: Family<Outbox, Counter>,
    pub sms_budget_refused: Counter,
    pub payments_open: Family<Payment, Gauge>,
    pub payments_moved: Family<Payment, Counter>,
    pub payments_pending_too_long: Family<Provider, Gauge>,
    pub payouts_open: Family<State, Gauge>,
    pub payouts_moved: Family<State, Counter>,
    pub callbacks_refused: Family<Why, Counter>,
    pub ussd_answers: Counter,
    pub ussd_seconds: Histogram,
    pub ussd_sessions: Counter,
    pub sms_incoming: Family<Command, Counter>,
    pub offsite_state: Family<State, Gauge>,
    pub offsite_since_confirmed: Seconds,
    pub offsite_media_runs: Counter,
    pub leases_held: Family<Lease, Gauge>,
    pub job_last_run: Family<Job, Seconds>,
    pub job_duration: Family<Job, Seconds>,
}

impl Default for Metrics {
    fn default() -> Metrics {
        Metrics::new()
    }
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut r = Registry::with_prefix("mavuno");
        let m = Metrics {
            http_requests: Family::default(),
            http_seconds: Family::new_with_constructor(latency),
            throttled: Family::default(),
            sync_pushes: Counter::default(),
            sync_mutations: Family::default(),
            sync_pulls: Family::default(),
            sync_listeners: Gauge::default(),
            sync_wakeups: Counter::default(),
            sync_version_lag: Gauge::default(),
            db_reads: Family::default(),
            db_write_wait: latency(),
            db_transactions: Family::default(),
            db_connections: Family::default(),
            db_replica_behind: Gauge::default(),
            outbox_waiting: Family::default(),
            outbox_oldest: Family::default(),
            outbox_sent: Family::default(),
            outbox_failed: Family::default(),
            sms_budget_refused: Counter::default(),
            payments_open: Family::default(),
            payments_moved: Family::default(),
            payments_pending_too_long: Family::default(),
            payouts_open: Family::default(),
            payouts_moved: Family::default(),
            callbacks_refused: Family::default(),
            ussd_answers: Counter::default(),
            ussd_seconds: latency(),
            ussd_sessions: Counter::default(),
            sms_incoming: Family::default(),
            offsite_state: Family::default(),
            offsite_since_confirmed: Seconds::default(),
            offsite_media_runs: Counter::default(),
            leases_held: Family::default(),
            job_last_run: Family::default(),
            job_duration: Family::default(),
            registry: Registry::default(),
        };
        r.register("http_requests", "Requests answered, by route template and status class", m.http_requests.clone());
        r.register("http_request_duration_seconds", "Time to answer, by route template", m.http_seconds.clone());
        r.register("throttled", "Requests refused by a throttle, by reason", m.throttled.clone());
        r.register("sync_pushes", "Sync pushes received", m.sync_pushes.clone());
        r.register("sync_mutations", "Pushed changes, applied or refused (by reason)", m.sync_mutations.clone());
        r.register("sync_pulls", "Pulls answered: a page, or snapshot_required", m.sync_pulls.clone());
        r.register("sync_listeners", "Phones listening for changes on this node", m.sync_listeners.clone());
        r.register("sync_wakeups", "Wake-ups sent to listening phones", m.sync_wakeups.clone());
        r.register(
            "sync_version_lag",
            "Versions between the database's newest and the newest this node knows of",
            m.sync_version_lag.clone(),
        );
        r.register("db_reads", "Reads, by where they ran: primary or replica", m.db_reads.clone());
        r.register("db_write_wait_seconds", "Time a write waited for its turn", m.db_write_wait.clone());
        r.register("db_transactions", "Write transactions, committed or rolled back", m.db_transactions.clone());
        r.register(
            "db_connections",
            "Database connections in use, and tasks waiting for one",
            m.db_connections.clone(),
        );
        r.register(
            "db_replica_versions_behind",
            "Versions the read replica lacks of those this node knows (0 without a replica)",
            m.db_replica_behind.clone(),
        );
        r.register("outbox_waiting", "Messages waiting to be sent", m.outbox_waiting.clone());
        r.register("outbox_oldest_waiting_seconds", "Age of the oldest message waiting", m.outbox_oldest.clone());
        r.register("outbox_sent", "Messages this node sent", m.outbox_sent.clone());
        r.register("outbox_failed", "Sending attempts that failed on this node", m.outbox_failed.clone());
        r.register(
            "sms_budget_refused",
            "SMS commands not answered: the number's hourly share was spent",
            m.sms_budget_refused.clone(),
        );
        r.register("payments_open", "Payments not settled yet, by provider and state", m.payments_open.clone());
        r.register(
            "payments_moved",
            "Payments this node moved to a state (pending, succeeded, failed, expired), by provider",
            m.payments_moved.clone(),
        );
        r.register(
            "payments_pending_too_long",
            "Payments pending for more than 15 minutes",
            m.payments_pending_too_long.clone(),
        );
        r.register("payouts_open", "Payouts not settled yet, by state", m.payouts_open.clone());
        r.register("payouts_moved", "Payouts this node settled: paid or failed", m.payouts_moved.clone());
        r.register("payment_callbacks_refused", "Provider callbacks refused, by reason", m.callbacks_refused.clone());
        r.register("ussd_answers", "USSD screens answered", m.ussd_answers.clone());
        r.register("ussd_answer_duration_seconds", "Time to answer a USSD screen", m.ussd_seconds.clone());
        r.register("ussd_sessions", "USSD sessions begun", m.ussd_sessions.clone());
        r.register("sms_incoming", "SMS received, by command", m.sms_incoming.clone());
        r.register("offsite_state", "The off-site copy's state (1 for the current one)", m.offsite_state.clone());
        r.register(
            "offsite_seconds_since_confirmed",
            "Seconds since the store was seen to hold the newest transaction, or since the copy began when never (-1: no copy)",
            m.offsite_since_confirmed.clone(),
        );
        r.register("offsite_media_runs", "Copies of the pictures to the store", m.offsite_media_runs.clone());
        r.register("leases_held", "Background work this node holds (1) or not (0)", m.leases_held.clone());
        r.register("job_last_run_timestamp_seconds", "When background work last ran", m.job_last_run.clone());
        r.register("job_duration_seconds", "How long background work last took", m.job_duration.clone());
        Metrics { registry: r, ..m }
    }

    /// The registry in Prometheus' text format (0.0.4).
    pub fn render(&self) -> String {
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::prometheus_text::encode(&mut text, &self.registry);
        text
    }

    /// A payment of `provider` that reached `state` (`domain::payments::Outcome::state`).
    pub fn payment_moved(&self, provider: &'static str, state: Option<&'static str>) {
        if let Some(state) = state {
            self.payments_moved.get_or_create(&Payment { provider, state }).inc();
        }
    }

    /// A payout settled: `paid` or `failed`.
    pub fn payout_moved(&self, paid: bool) {
        let state = if paid { "paid" } else { "failed" };
        self.payouts_moved.get_or_create(&State { state }).inc();
    }

    /// One run of background work, ended now.
    pub fn ran(&self, job: &'static str, took: Duration) {
        let now = crate::platform::clock::now_ms() as f64 / 1000.0;
        self.job_last_run.get_or_create(&Job { job }).set(now);
        self.job_duration.get_or_create(&Job { job }).set(took.as_secs_f64());
    }
}

/// The text format's content type.
pub const CONTENT_TYPE: &str = prometheus_client::encoding::prometheus_text::CONTENT_TYPE;

/// A value of a bounded set as a label (a route's template, an error code: there are as
/// many as the code has), the same `&'static str` each time. Never a request's own words.
pub fn interned(template: &str) -> &'static str {
    static SEEN: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
    let mut seen = SEEN.get_or_init(Default::default).lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(known) = seen.get(template) {
        return known;
    }
    let interned: &'static str = Box::leak(template.to_owned().into_boxed_str());
    seen.insert(interned);
    interned
}

/// A status's class, as a label.
pub fn status_class(status: u16) -> &'static str {
    match status {
        100..=199 => "1xx",
        200..=299 => "2xx",
        300..=399 => "3xx",
        400..=499 => "4xx",
        _ => "5xx",
    }
}

/// A method, as a label (the ones the API answers, else `other`).
pub fn method(method: &axum::http::Method) -> &'static str {
    use axum::http::Method as M;
    match *method {
        M::GET => "GET",
        M::POST => "POST",
        M::PUT => "PUT",
        M::PATCH => "PATCH",
        M::DELETE => "DELETE",
        M::HEAD => "HEAD",
        M::OPTIONS => "OPTIONS",
        _ => "other",
    }
}
