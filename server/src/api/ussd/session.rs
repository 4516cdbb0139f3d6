//! What a USSD session learned that its answers alone cannot say again
//! (docs/ussd.md): whether the PIN typed at answer N was right, a new PIN's hash,
//! a write already done and what it answered, and what each numbered choice of a
//! screen meant when it was shown. The menu is rebuilt from the answers on every
//! request; these keep a replayed request from checking a PIN or writing twice, and
//! an answer on the screen it was given on when a list changed since. Kept in the
//! database (`ussd_memos`), a write's memo in the write's own transaction, so a
//! gateway's retry after a restart (or on another node) finds them; tidied a day on.

use std::collections::HashMap;

use crate::db::Connection;
use serde::{Deserialize, Serialize};
use sha2::Digest;

use super::Reply;
use crate::db::ussd_memos;
use crate::error::ApiResult;
use crate::platform::clock;

/// What a slot of a session holds.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Memo {
    PinRight,
    /// Wrong, with the tries left (0: locked).
    PinWrong {
        left: i64,
    },
    /// A new PIN's hash, made off the async threads, not yet stored.
    Hashed {
        hash: String,
    },
    /// Written; the answer it gave when it ended the session.
    Written {
        reply: Option<Reply>,
    },
    /// Where a list of questions started, read from a record that later answers change.
    Position {
        question: usize,
    },
    /// Whether the PIN screen an answer opened asked for a new PIN (none was set then):
    /// the session's own answers set one, and its repeat must take the same path.
    PinAsked {
        new: bool,
    },
    /// What each numbered choice of a screen whose choices come from data meant when
    /// it was shown (a product's id, an order's, an action), and whether `98` showed more.
    Shown {
        keys: Vec<String>,
        more: bool,
    },
    /// The last screen given for these answers, when they ended the session in a write:
    /// a gateway's repeat gets it again, whatever the ending changed (a joined number
    /// now has another menu).
    Ended {
        reply: Reply,
    },
}

/// A session's memos by slot.
pub type Steps = HashMap<String, Memo>;

fn digest(text: &str) -> String {
    hex::encode(&sha2::Sha256::digest(text)[..8])
}

/// The slot of answer `step`, typed `typed`: an answer is never taken for another
/// typed at the same place.
pub fn answer_slot(step: usize, typed: &str) -> String {
    format!("a{step}:{}", digest(&format!("{step}:{typed}")))
}

/// The slot of the screen shown after `answers` (which the next answer answers).
pub fn shown_slot(answers: &[String]) -> String {
    format!("s{}:{}", answers.len(), digest(&answers.join("*")))
}

/// The slot of the screen that ended the session after `text` (every answer, joined).
pub fn ended_slot(text: &str) -> String {
    format!("e:{}", digest(text))
}

/// Everything session `session` of `phone` learned so far.
pub fn load(conn: &Connection, phone: &str, session: &str) -> ApiResult<Steps> {
    Ok(ussd_memos::of_session(conn, phone, session)?
        .into_iter()
        .filter_map(|(slot, memo)| Some((slot, serde_json::from_str(&memo).ok()?)))
        .collect())
}

/// Keeps what a run learned: a slot kept before keeps its memo (a repeat learns
/// nothing new: the screen first shown stays the one answered), but a write done
/// replaces what its answer held (a new PIN's hash, then the PIN stored).
pub fn keep(conn: &Connection, phone: &str, session: &str, learned: &Steps) -> ApiResult<()> {
    let now = clock::now();
    for (slot, memo) in learned {
        let json = serde_json::to_string(memo).map_err(crate::error::AppError::internal)?;
        match memo {
            Memo::Written { .. } => ussd_memos::replace(conn, phone, session, slot, &json, &now)?,
            _ => ussd_memos::keep(conn, phone, session, slot, &json, &now)?,
        }
    }
    Ok(())
}

/// Keeps a PIN's verdict, over anything an overlapping request kept for it.
pub fn keep_verdict(conn: &Connection, phone: &str, session: &str, slot: &str, memo: &Memo) -> ApiResult<()> {
    let json = serde_json::to_string(memo).map_err(crate::error::AppError::internal)?;
    Ok(ussd_memos::replace(conn, phone, session, slot, &json, &clock::now())?)
}
