//! What a USSD session learned that its answers alone cannot say again
//! (docs/ussd.md): whether the PIN typed at answer N was right, a PIN's hash,
//! a write already done and what it answered. The menu is rebuilt from the
//! answers on every request; these keep a replayed request from checking a
//! PIN or writing twice. Kept in memory for `LIFETIME` (a USSD session lasts
//! at most a few minutes); a write lost with them is written again only
//! where writing again changes nothing (every USSD write is idempotent).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sha2::Digest;

use super::Reply;

pub const LIFETIME: Duration = Duration::from_secs(180);
/// Sessions kept at most; the oldest go first.
const MAX_SESSIONS: usize = 50_000;

/// What answer N of a session did.
#[derive(Debug, Clone)]
pub enum Memo {
    PinRight,
    /// Wrong, with the tries left (0: locked).
    PinWrong(i64),
    /// A new PIN's hash, made off the async threads, not yet stored.
    Hashed(String),
    /// Written; the answer it gave when it ended the session.
    Written(Option<Reply>),
    /// Where a list of questions started, read from a record that later answers change.
    Position(usize),
}

/// By answer: its place in the session and a digest of what was typed, so that
/// an answer is never taken for another typed at the same place.
pub type Steps = HashMap<(usize, [u8; 8]), Memo>;

/// The key of answer `step`, `typed`.
pub fn step_key(step: usize, typed: &str) -> (usize, [u8; 8]) {
    let digest = sha2::Sha256::digest(format!("{step}:{typed}"));
    let mut short = [0u8; 8];
    short.copy_from_slice(&digest[..8]);
    (step, short)
}

#[derive(Default, Clone)]
struct Session {
    /// Its last request: a session is forgotten 3 minutes after it (gateways end
    /// sessions whose person has not answered for a minute or two).
    started: Option<Instant>,
    steps: Steps,
    /// The answers of the last request that ended the session, and its last screen.
    ended: Option<(String, Reply)>,
}

#[derive(Default)]
pub struct Sessions {
    table: Mutex<HashMap<String, Session>>,
}

impl Sessions {
    fn with<T>(&self, id: &str, phone: &str, f: impl FnOnce(&mut Session) -> T) -> T {
        let mut table = self.table.lock().unwrap_or_else(|p| p.into_inner());
        let live = |s: &Session| s.started.is_some_and(|at| at.elapsed() < LIFETIME);
        if table.len() >= MAX_SESSIONS {
            table.retain(|_, s| live(s));
            if table.len() >= MAX_SESSIONS {
                let oldest = table.iter().min_by_key(|(_, s)| s.started).map(|(k, _)| k.clone());
                table.remove(&oldest.unwrap_or_default());
            }
        }
        let session = table.entry(key(id, phone)).or_default();
        if !live(session) {
            *session = Session::default();
        }
        session.started = Some(Instant::now());
        f(session)
    }

    /// What session `id` of `phone` learned so far.
    pub fn steps(&self, id: &str, phone: &str) -> Steps {
        self.with(id, phone, |s| s.steps.clone())
    }

    pub fn learn(&self, id: &str, phone: &str, learned: Steps) {
        if !learned.is_empty() {
            self.with(id, phone, |s| s.steps.extend(learned));
        }
    }

    /// The last screen already given for these answers, when they ended the session:
    /// a gateway's repeat gets the same answer, whatever the ending changed (a joined
    /// number now has another menu).
    pub fn ended(&self, id: &str, phone: &str, text: &str) -> Option<Reply> {
        self.with(id, phone, |s| s.ended.as_ref().filter(|(t, _)| t == text).map(|(_, reply)| reply.clone()))
    }

    pub fn end(&self, id: &str, phone: &str, text: String, reply: &Reply) {
        self.with(id, phone, |s| s.ended = Some((text, reply.clone())));
    }
}

/// A session id is the gateway's; the number is part of the key, so nobody
/// reaches another number's session by naming its id.
fn key(id: &str, phone: &str) -> String {
    format!("{phone} {id}")
}
