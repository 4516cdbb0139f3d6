//! Wire types of the MAVUNO sync protocol (ARCHITECTURE.md section 3).
//!
//! The push/pull types arrive with the sync engine; for now this crate holds
//! the protocol version that both sides agree on, so the server can already
//! report it from `/api/v1/health`.

/// Bumped whenever the wire format changes incompatibly.
pub const PROTOCOL_VERSION: u32 = 1;
