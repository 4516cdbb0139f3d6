//! Throttling in memory (docs/security.md, Throttles).
//!
//! [`Throttle`]: at most N events per key within a sliding window. An event
//! is counted *before* the work it guards (`reserve`), in the same lock as
//! the check, so two hundred parallel attempts cannot all pass a check that
//! none of them has been counted against yet; work that turns out fine gives
//! its event back (`release`).
//!
//! [`Pacer`]: spaces attempts on one key at least `spacing` apart, queueing
//! each for its turn: a slow-down instead of a lock-out.
//!
//! [`KnownPlaces`]: addresses each account recently signed in from, where its
//! owner is slowed down rather than blocked.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::Config;

/// Every throttle of the server, sized by the configuration.
pub struct Throttles {
    /// Failed sign-ins per (account, address).
    pub login_pair: Throttle,
    /// Failed sign-ins per address, on any accounts.
    pub login_address: Throttle,
    /// Failed sign-ins per account, from anywhere: past a few, attempts are paced.
    pub login_account: Throttle,
    pub login_pace: Pacer,
    pub known_places: KnownPlaces,
    /// Sign-ups per address.
    pub signup: Throttle,
    /// Contact messages per address.
    pub contact: Throttle,
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

impl Throttles {
    pub fn new(config: &Config) -> Throttles {
        let window = config.login_window;
        Throttles {
            login_pair: Throttle::new(config.login_max_failures, window),
            login_address: Throttle::new(config.login_address_max_failures, window),
            login_account: Throttle::new(usize::MAX, window),
            login_pace: Pacer::new(config.login_spacing, 6 * config.login_spacing),
            known_places: KnownPlaces::new(Duration::from_secs(30 * 24 * 3600)),
            signup: Throttle::new(config.signup_max, config.signup_window),
            contact: Throttle::new(config.contact_max_messages, config.contact_window),
            password_reset: Throttle::new(5, Duration::from_secs(15 * 60)),
            callbacks: Throttle::new(60, Duration::from_secs(3600)),
            callback_checks: Throttle::new(3600, Duration::from_secs(3600)),
            callback_payment: Throttle::new(10, Duration::from_secs(3600)),
            ussd: Throttle::new(config.ussd_max_requests, Duration::from_secs(60)),
            sms_asked: Throttle::new(10, Duration::from_secs(3600)),
        }
    }
}

pub struct Throttle {
    max_events: usize,
    window: Duration,
    events: Mutex<HashMap<String, VecDeque<Instant>>>,
}

/// Forget keys once a table is this large and they have gone quiet.
const PRUNE_ABOVE: usize = 10_000;

impl Throttle {
    pub fn new(max_events: usize, window: Duration) -> Self {
        Throttle { max_events, window, events: Mutex::new(HashMap::new()) }
    }

    /// Counts one event for every key, unless any key is at its limit: then
    /// nothing is counted and the answer is how many seconds to wait.
    pub fn reserve(&self, keys: &[&str]) -> Result<(), u64> {
        let now = Instant::now();
        let mut table = self.events.lock().unwrap_or_else(|p| p.into_inner());
        if table.len() > PRUNE_ABOVE {
            let window = self.window;
            table.retain(|_, times| times.back().is_some_and(|t| now.duration_since(*t) < window));
        }
        let mut wait = Duration::ZERO;
        for key in keys {
            let Some(times) = table.get_mut(*key) else { continue };
            while times.front().is_some_and(|t| now.duration_since(*t) >= self.window) {
                times.pop_front();
            }
            if times.len() >= self.max_events {
                let oldest = times[times.len() - self.max_events];
                wait = wait.max(self.window.saturating_sub(now.duration_since(oldest)));
            }
        }
        if !wait.is_zero() {
            return Err(wait.as_secs().max(1));
        }
        for key in keys {
            table.entry((*key).to_owned()).or_default().push_back(now);
        }
        Ok(())
    }

    /// Gives back the newest event of each key.
    pub fn release(&self, keys: &[&str]) {
        let mut table = self.events.lock().unwrap_or_else(|p| p.into_inner());
        for key in keys {
            if let Some(times) = table.get_mut(*key) {
                times.pop_back();
            }
        }
    }

    pub fn clear(&self, key: &str) {
        self.events.lock().unwrap_or_else(|p| p.into_inner()).remove(key);
    }

    /// Events of `key` within the window.
    pub fn count(&self, key: &str) -> usize {
        let now = Instant::now();
        let table = self.events.lock().unwrap_or_else(|p| p.into_inner());
        table.get(key).map_or(0, |times| times.iter().filter(|t| now.duration_since(**t) < self.window).count())
    }
}

/// Gives attempts on a key turns at least `spacing` apart.
pub struct Pacer {
    spacing: Duration,
    max_wait: Duration,
    next: Mutex<HashMap<String, Instant>>,
}

impl Pacer {
    pub fn new(spacing: Duration, max_wait: Duration) -> Self {
        Pacer { spacing, max_wait, next: Mutex::new(HashMap::new()) }
    }

    /// How long this attempt must wait for its turn (its turn is then taken),
    /// or `Err(seconds)` when the queue is longer than `max_wait` (no turn taken).
    pub fn turn(&self, key: &str) -> Result<Duration, u64> {
        let now = Instant::now();
        let mut next = self.next.lock().unwrap_or_else(|p| p.into_inner());
        if next.len() > PRUNE_ABOVE {
            next.retain(|_, at| *at > now);
        }
        let at = next.get(key).copied().filter(|at| *at > now).unwrap_or(now);
        let wait = at - now;
        if wait > self.max_wait {
            return Err(wait.as_secs().max(1));
        }
        next.insert(key.to_owned(), at + self.spacing);
        Ok(wait)
    }
}

/// Where each account last signed in successfully (a few addresses each, for `remember`).
pub struct KnownPlaces {
    remember: Duration,
    places: Mutex<HashMap<String, Vec<(IpAddr, Instant)>>>,
}

const PLACES_PER_ACCOUNT: usize = 5;

impl KnownPlaces {
    pub fn new(remember: Duration) -> Self {
        KnownPlaces { remember, places: Mutex::new(HashMap::new()) }
    }

    pub fn add(&self, account: &str, ip: IpAddr) {
        let now = Instant::now();
        let mut places = self.places.lock().unwrap_or_else(|p| p.into_inner());
        if places.len() > 10 * PRUNE_ABOVE {
            let remember = self.remember;
            places.retain(|_, list| list.iter().any(|(_, at)| now.duration_since(*at) < remember));
        }
        let list = places.entry(account.to_owned()).or_default();
        list.retain(|(known, _)| *known != ip);
        list.push((ip, now));
        if list.len() > PLACES_PER_ACCOUNT {
            list.remove(0);
        }
    }

    pub fn contains(&self, account: &str, ip: IpAddr) -> bool {
        let places = self.places.lock().unwrap_or_else(|p| p.into_inner());
        places
            .get(account)
            .is_some_and(|list| list.iter().any(|(known, at)| *known == ip && at.elapsed() < self.remember))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_after_the_limit_and_frees_after_the_window() {
        let limiter = Throttle::new(3, Duration::from_millis(200));
        for _ in 0..3 {
            assert!(limiter.reserve(&["a"]).is_ok());
        }
        assert!(limiter.reserve(&["a"]).is_err());
        assert_eq!(limiter.count("a"), 3, "a refusal is not counted");
        assert!(limiter.reserve(&["b"]).is_ok(), "other keys are not affected");
        std::thread::sleep(Duration::from_millis(250));
        assert!(limiter.reserve(&["a"]).is_ok(), "the lock ends with the window");
    }

    #[test]
    fn released_and_cleared_events_no_longer_count() {
        let limiter = Throttle::new(1, Duration::from_secs(60));
        limiter.reserve(&["a", "b"]).unwrap();
        assert!(limiter.reserve(&["a"]).is_err());
        assert!(limiter.reserve(&["b", "c"]).is_err(), "one full key refuses the lot");
        assert_eq!(limiter.count("c"), 0);
        limiter.release(&["a"]);
        limiter.clear("b");
        assert!(limiter.reserve(&["a", "b"]).is_ok());
    }

    #[test]
    fn parallel_reservations_never_pass_the_limit() {
        let limiter = std::sync::Arc::new(Throttle::new(10, Duration::from_secs(60)));
        let passed: usize = (0..200)
            .map(|_| {
                let limiter = std::sync::Arc::clone(&limiter);
                std::thread::spawn(move || usize::from(limiter.reserve(&["a"]).is_ok()))
            })
            .collect::<Vec<_>>()
            .into_iter()
            .map(|t| t.join().unwrap())
            .sum();
        assert_eq!(passed, 10);
    }

    #[test]
    fn a_pacer_spaces_turns_and_refuses_a_long_queue() {
        let pacer = Pacer::new(Duration::from_secs(5), Duration::from_secs(12));
        assert_eq!(pacer.turn("a").unwrap(), Duration::ZERO);
        assert!(pacer.turn("a").unwrap() > Duration::from_secs(4));
        assert!(pacer.turn("a").unwrap() > Duration::from_secs(9));
        assert!(pacer.turn("a").is_err(), "a fourth would wait 15 s");
        assert_eq!(pacer.turn("b").unwrap(), Duration::ZERO);
    }

    #[test]
    fn known_places_are_per_account() {
        let places = KnownPlaces::new(Duration::from_secs(60));
        let home: IpAddr = "10.0.0.1".parse().unwrap();
        places.add("a", home);
        assert!(places.contains("a", home));
        assert!(!places.contains("b", home));
        assert!(!places.contains("a", "10.0.0.2".parse().unwrap()));
    }
}
