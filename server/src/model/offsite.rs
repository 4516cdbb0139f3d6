//! The off-site copy's state in words, as `/health` and the super admin's home say it
//! (docs/operations.md, Off-site copy; `domain::offsite` works it out).

use serde::Serialize;
use utoipa::ToSchema;

/// Why the store could not be read, as an operator would act on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OffsiteFailure {
    /// No answer: the address is wrong, or the store or the network is down.
    Unreachable,
    /// The store refuses the keys (a wrong secret, an unknown key, no right to the bucket).
    Denied,
    /// The bucket does not exist.
    BucketMissing,
    /// Anything else (the server's log has the tool's words).
    Other,
}

string_enum!(OffsiteFailure {
    Unreachable => "unreachable",
    Denied => "denied",
    BucketMissing => "bucket_missing",
    Other => "other",
});

/// What the copy's state is, in one word (`/health`'s `offsite`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum OffsiteHealth {
    /// No copy is configured: this server is the only copy.
    None,
    /// Configured, not confirmed yet (the store does not hold the newest transaction yet).
    Pending,
    /// The store held the database's newest transaction within the alert's threshold.
    Ok,
    /// Not confirmed for longer than the threshold (never, or not since `confirmed_at`).
    Lagging,
    /// The last look at the store failed (`failure` says why).
    Failing,
}
