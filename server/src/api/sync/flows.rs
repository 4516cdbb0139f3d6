//! A push and a pull as they run: each mutation in its own committed
//! transaction through domain/sync.rs, a pull page read in one snapshot.
//! The spans carry the account, so `RUST_LOG=mavuno=debug` follows one
//! person's sync through the log.

use sync_protocol::{PushRequest, PushResponse, ResultStatus};
use tracing::instrument;

use crate::AppState;
use crate::db::users::UserRow;
use crate::domain::sync::{self, MAX_PULL_LIMIT, PullPage};
use crate::error::ApiResult;

/// Processes a push: each mutation in its own committed transaction; a
/// `retry` stops the rest of the push, which waits behind it.
#[instrument(skip_all, fields(user_id = user.id, mutations = request.mutations.len()))]
pub async fn push(state: &AppState, user: &UserRow, request: PushRequest) -> ApiResult<PushResponse> {
    sync::check_request(&request)?;
    let client_id = request.client_id.to_lowercase();
    let (lookup, user_id) = (client_id.clone(), user.id);
    let last = state.db.write(move |tx| sync::register_client(tx, &lookup, user_id)).await?;
    sync::check_sequence(&request, last)?;
    let mut results = Vec::with_capacity(request.mutations.len());
    for mutation in request.mutations {
        let client_id = client_id.clone();
        let user = user.clone();
        let result = state.db.write(move |tx| sync::process(tx, &client_id, &user, &mutation)).await?;
        let retry = result.status == ResultStatus::Retry;
        results.push(result);
        if retry {
            break;
        }
    }
    // Orders write to people; the mailer sends once the changes are committed.
    state.mailer.wake();
    let last_mutation_id = state.db.read(move |conn| sync::last_mutation_id(conn, &client_id)).await?;
    tracing::debug!(last_mutation_id, "push applied");
    Ok(PushResponse { last_mutation_id: last_mutation_id as u64, results })
}

/// One page of changes for a viewer (a visitor gets the catalogue only).
#[instrument(skip_all, fields(user_id = viewer.map(|v| v.id), cursor, limit))]
pub async fn pull(
    state: &AppState,
    viewer: Option<&UserRow>,
    client_id: Option<String>,
    cursor: Option<i64>,
    limit: usize,
) -> ApiResult<PullPage> {
    if let Some(client_id) = &client_id {
        sync::check_client_id(client_id)?;
    }
    let limit = limit.clamp(1, MAX_PULL_LIMIT);
    let viewer_id = viewer.map(|v| v.id);
    state.db.read(move |conn| sync::read_page(conn, viewer_id, client_id.as_deref(), cursor, limit)).await
}
