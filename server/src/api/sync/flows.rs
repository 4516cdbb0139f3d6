//! A push and a pull as they run: a push in a group commit, each mutation in
//! its own savepoint through domain/sync.rs; a pull page read in one snapshot.
//! The spans carry the account, so `RUST_LOG=mavuno=debug` follows one
//! person's sync through the log.

use sync_protocol::{MutationResult, PushRequest, PushResponse, ResultStatus};
use tracing::instrument;

use crate::db::users::UserRow;
use crate::domain::sync::{self, MAX_PULL_LIMIT, PullPage};
use crate::error::ApiResult;
use crate::platform::metrics;
use crate::state::AppState;

/// Processes a push in one savepoint of the writer's next group commit (`db/group.rs`):
/// the device is registered on its first push, then each mutation runs in a savepoint
/// of its own; a `retry` stops the rest of the push, which waits behind it. Answered
/// once the group's commit is on disk.
#[instrument(skip_all, fields(user_id = user.id, mutations = request.mutations.len()))]
pub async fn push(state: &AppState, user: &UserRow, request: PushRequest) -> ApiResult<PushResponse> {
    sync::check_request(&request)?;
    let client_id = request.client_id.to_lowercase();
    let user = user.clone();
    let (results, last_mutation_id) = state
        .db
        .write_together(move |tx| {
            let last = sync::register_client(tx, &client_id, user.id)?;
            sync::check_sequence(&request, last)?;
            let mut results = Vec::with_capacity(request.mutations.len());
            for mutation in &request.mutations {
                let result = sync::process(tx, &client_id, &user, mutation)?;
                let retry = result.status == ResultStatus::Retry;
                results.push(result);
                if retry {
                    break;
                }
            }
            Ok((results, sync::last_mutation_id(tx, &client_id)?))
        })
        .await?;
    tracing::debug!(last_mutation_id, "push applied");
    count_push(state.db.metrics(), &results);
    Ok(PushResponse { last_mutation_id: last_mutation_id as u64, results })
}

/// One page of changes for a viewer (a visitor gets the catalogue only).
#[instrument(skip_all, fields(user_id = viewer.map(|v| v.id), cursor, limit))]
pub async fn pull(
    state: &AppState,
    viewer: Option<&UserRow>,
    client_id: Option<String>,
    cursor: Option<i64>,
    snapshot: Option<i64>,
    limit: usize,
) -> ApiResult<PullPage> {
    if let Some(client_id) = &client_id {
        sync::check_client_id(client_id)?;
    }
    let limit = limit.clamp(1, MAX_PULL_LIMIT);
    let viewer_id = viewer.map(|v| v.id);
    let page = state
        .db
        .read_versioned(move |conn| sync::read_page(conn, viewer_id, client_id.as_deref(), cursor, snapshot, limit))
        .await;
    let answer = match &page {
        Ok(_) => "page",
        Err(err) if err.code() == "snapshot_required" => "snapshot_required",
        Err(_) => "refused",
    };
    state.db.metrics().sync_pulls.get_or_create(&metrics::Answer { answer }).inc();
    page
}

/// A push and each of its changes' results, in the metrics.
fn count_push(metrics: &metrics::Metrics, results: &[MutationResult]) {
    metrics.sync_pushes.inc();
    for result in results {
        let outcome = match result.status {
            ResultStatus::Applied => "applied",
            ResultStatus::Merged => "merged",
            ResultStatus::Rejected => "rejected",
            ResultStatus::Retry => "retry",
            ResultStatus::Forgotten => "forgotten",
        };
        let reason = result.code.as_deref().map_or("", metrics::interned);
        metrics.sync_mutations.get_or_create(&metrics::Mutation { result: outcome, reason }).inc();
    }
}
