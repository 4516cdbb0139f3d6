//! Throttling in memory: at most N events per key within a sliding window
//! (failed sign-ins per account and per address, contact messages per address).
//!
//! For sign-in only failures count and a success clears the account's count,
//! so the real owner is never locked out for longer than the window: once the
//! oldest failure is older than the window, attempts are allowed again.

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::time::{Duration, Instant};

pub struct Throttle {
    max_events: usize,
    window: Duration,
    events: Mutex<HashMap<String, VecDeque<Instant>>>,
}

/// Forget keys once the table is this large and they have gone quiet.
const PRUNE_ABOVE: usize = 10_000;

impl Throttle {
    pub fn new(max_events: usize, window: Duration) -> Self {
        Throttle { max_events, window, events: Mutex::new(HashMap::new()) }
    }

    /// `Err(seconds to wait)` when any key has reached the limit.
    pub fn check(&self, keys: &[&str]) -> Result<(), u64> {
        let now = Instant::now();
        let mut table = self.events.lock().unwrap_or_else(|p| p.into_inner());
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
        if wait.is_zero() { Ok(()) } else { Err(wait.as_secs().max(1)) }
    }

    pub fn record(&self, keys: &[&str]) {
        let now = Instant::now();
        let mut table = self.events.lock().unwrap_or_else(|p| p.into_inner());
        if table.len() > PRUNE_ABOVE {
            let window = self.window;
            table.retain(|_, times| times.back().is_some_and(|t| now.duration_since(*t) < window));
        }
        for key in keys {
            table.entry((*key).to_owned()).or_default().push_back(now);
        }
    }

    pub fn clear(&self, key: &str) {
        self.events.lock().unwrap_or_else(|p| p.into_inner()).remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_after_the_limit_and_frees_after_the_window() {
        let limiter = Throttle::new(3, Duration::from_millis(200));
        for _ in 0..3 {
            assert!(limiter.check(&["a"]).is_ok());
            limiter.record(&["a"]);
        }
        assert!(limiter.check(&["a"]).is_err());
        assert!(limiter.check(&["b"]).is_ok(), "other keys are not affected");
        std::thread::sleep(Duration::from_millis(250));
        assert!(limiter.check(&["a"]).is_ok(), "the lock ends with the window");
    }

    #[test]
    fn clearing_a_key_lets_it_in_again() {
        let limiter = Throttle::new(1, Duration::from_secs(60));
        limiter.record(&["a"]);
        assert!(limiter.check(&["a"]).is_err());
        limiter.clear("a");
        assert!(limiter.check(&["a"]).is_ok());
    }
}
