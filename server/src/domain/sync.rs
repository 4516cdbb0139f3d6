//! The sync protocol's rules (ARCHITECTURE.md section 3, docs/sync.md):
//! mutations are processed in order, each in its own transaction, through
//! the same domain functions as the REST API; their results are stored with
//! the client's sequence so a replay answers the same; a refusal still moves
//! the sequence on, so one bad change never blocks the queue behind it. A
//! change that names a photo that has not arrived is answered `retry`: it is
//! not recorded, and the rest of the push waits behind it.

use rusqlite::Connection;
use serde::Deserialize;
use serde_json::Value;
use sync_protocol::{Mutation, MutationResult, PROTOCOL_VERSION, PushRequest, PushResponse, ResultStatus};

use super::products::{self, ListingInput, ProductRef};
use super::surveys::{self, AnswersInput, SurveyRef};
use crate::db::favourites::FavouriteRow;
use crate::db::products::ProductRow;
use crate::db::surveys::SurveyRow;
use crate::db::users::UserRow;
use crate::db::{self, sync};
use crate::error::{ApiResult, AppError};
use crate::{AppState, clock};

/// Pages of a pull hold at most this many changes.
pub const MAX_PULL_LIMIT: usize = 500;
pub const DEFAULT_PULL_LIMIT: usize = 100;

pub fn check_client_id(client_id: &str) -> ApiResult<()> {
    if super::is_uuid(client_id) {
        Ok(())
    } else {
        Err(AppError::bad_request("invalid_client_id", "client_id must be a UUID"))
    }
}

/// Checks the request as a whole before anything is applied: a refusal here
/// leaves the client's queue untouched.
fn check_request(request: &PushRequest) -> ApiResult<()> {
    if request.protocol != PROTOCOL_VERSION {
        return Err(AppError::bad_request(
            "protocol_unsupported",
            format!(
                "This app speaks sync protocol {}; the server speaks {PROTOCOL_VERSION}. Please update the app.",
                request.protocol
            ),
        ));
    }
    check_client_id(&request.client_id)?;
    let consecutive = request.mutations.windows(2).all(|pair| pair[1].mutation_id == pair[0].mutation_id + 1);
    if !consecutive || request.mutations.first().is_some_and(|m| m.mutation_id == 0) {
        return Err(AppError::bad_request("mutation_order", "Mutations must be numbered 1, 2, 3... in order"));
    }
    Ok(())
}

/// Processes a push: each mutation in its own committed transaction.
pub async fn push(state: &AppState, user: &UserRow, request: PushRequest) -> ApiResult<PushResponse> {
    check_request(&request)?;
    let client_id = request.client_id.to_lowercase();
    let user_id = user.id;
    let lookup = client_id.clone();
    let last = state
        .db
        .write(move |tx| match sync::client(tx, &lookup)? {
            Some(client) if client.user_id != user_id => Err(AppError::conflict(
                "client_taken",
                "This device's sync id belongs to another account; sign out and in again",
            )),
            Some(client) => Ok(client.last_mutation_id),
            None => {
                sync::create_client(tx, &lookup, user_id, &clock::now())?;
                Ok(0)
            }
        })
        .await?;
    if let Some(first) = request.mutations.first() {
        if first.mutation_id as i64 > last + 1 {
            return Err(AppError::conflict(
                "mutation_gap",
                format!("The server has this device's changes up to {last}; send from {} or pull again", last + 1),
            ));
        }
    }
    let mut results = Vec::with_capacity(request.mutations.len());
    for mutation in request.mutations {
        let client_id = client_id.clone();
        let user = user.clone();
        let result = state.db.write(move |tx| process(tx, &client_id, &user, &mutation)).await?;
        let retry = result.status == ResultStatus::Retry;
        results.push(result);
        if retry {
            break;
        }
    }
    let lookup = client_id.clone();
    let last_mutation_id =
        state.db.read(move |conn| Ok(sync::client(conn, &lookup)?.map_or(0, |c| c.last_mutation_id))).await?;
    Ok(PushResponse { last_mutation_id: last_mutation_id as u64, results })
}

/// One mutation, in its transaction: a replay gets its stored result;
/// otherwise it is applied and its result kept with the client's sequence.
fn process(tx: &Connection, client_id: &str, user: &UserRow, mutation: &Mutation) -> ApiResult<MutationResult> {
    let id = mutation.mutation_id as i64;
    let last = sync::client(tx, client_id)?.map_or(0, |c| c.last_mutation_id);
    if id <= last {
        let stored = sync::stored_result(tx, client_id, id)?;
        let mut result: MutationResult = stored
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_else(|| outcome(mutation, ResultStatus::Applied));
        result.duplicate = true;
        return Ok(result);
    }
    let result = match apply(tx, user, mutation) {
        Ok(result) => result,
        Err(AppError::Internal(cause)) => return Err(AppError::Internal(cause)),
        Err(refusal) if refusal.code() == "photo_missing" => {
            // Not recorded: the same mutation id is sent again once the photos are up.
            let mut result = rejected(mutation, refusal);
            result.status = ResultStatus::Retry;
            return Ok(result);
        }
        Err(refusal) => rejected(mutation, refusal),
    };
    let text = serde_json::to_string(&result).map_err(AppError::internal)?;
    sync::record_result(tx, client_id, id, &text, &clock::now())?;
    Ok(result)
}

fn outcome(mutation: &Mutation, status: ResultStatus) -> MutationResult {
    MutationResult {
        mutation_id: mutation.mutation_id,
        status,
        duplicate: false,
        entity: mutation.name.split_once('.').map(|(entity, _)| entity.to_owned()),
        id: mutation.args.get("uid").and_then(Value::as_str).map(str::to_owned),
        code: None,
        message: None,
        error_codes: None,
        conflicts: Vec::new(),
    }
}

fn rejected(mutation: &Mutation, error: AppError) -> MutationResult {
    let mut result = outcome(mutation, ResultStatus::Rejected);
    result.code = Some(error.code().to_owned());
    match &error {
        AppError::Validation(fields) => {
            result.message = fields.first().map(|e| e.message.clone());
            result.error_codes = Some(fields.code_map());
        }
        AppError::Client { message, .. } => result.message = Some(message.clone()),
        AppError::Internal(_) => {}
    }
    result
}

#[derive(Deserialize)]
struct SurveyArgs {
    uid: String,
    #[serde(default)]
    status: Option<String>,
    #[serde(default)]
    answers: AnswersInput,
    /// The applicant, when a field agent or admin fills the form for them.
    #[serde(default)]
    user_id: Option<i64>,
}

#[derive(Deserialize)]
struct ProductArgs {
    uid: String,
    #[serde(default)]
    fields: ListingInput,
}

/// Marks (`on`) or unmarks a product, by its uid, as a favourite.
#[derive(Deserialize)]
struct FavouriteArgs {
    uid: String,
    on: bool,
}

/// A change of stock by `delta` units, so sales and harvests add up.
#[derive(Deserialize)]
struct StockArgs {
    uid: String,
    delta: i64,
}

fn args<T: for<'de> Deserialize<'de>>(mutation: &Mutation) -> ApiResult<T> {
    serde_json::from_value(mutation.args.clone())
        .map_err(|err| AppError::bad_request("invalid_args", format!("The change could not be read: {err}")))
}

fn apply(tx: &Connection, user: &UserRow, mutation: &Mutation) -> ApiResult<MutationResult> {
    match mutation.name.as_str() {
        "survey.create" => {
            let SurveyArgs { uid, status, answers, user_id } = args(mutation)?;
            let owner = match user_id {
                Some(id) if id != user.id => surveys::applicant_for(tx, user, id)?,
                _ => user.clone(),
            };
            surveys::create(tx, &owner, user.id, Some(uid), &answers, status.as_deref())?;
            Ok(outcome(mutation, ResultStatus::Applied))
        }
        "survey.update" => {
            let SurveyArgs { uid, status, answers, .. } = args(mutation)?;
            let (_, conflicts) =
                surveys::update(tx, user, SurveyRef::Uid(&uid), &answers, status.as_deref(), mutation.base)?;
            let mut result =
                outcome(mutation, if conflicts.is_empty() { ResultStatus::Applied } else { ResultStatus::Merged });
            result.conflicts = conflicts;
            Ok(result)
        }
        "product.create" => {
            let ProductArgs { uid, fields } = args(mutation)?;
            products::create(tx, user, Some(uid), &fields)?;
            Ok(outcome(mutation, ResultStatus::Applied))
        }
        "product.update" => {
            let ProductArgs { uid, fields } = args(mutation)?;
            let (_, conflicts) = products::update(tx, user, ProductRef::Uid(&uid), &fields, mutation.base)?;
            let mut result =
                outcome(mutation, if conflicts.is_empty() { ResultStatus::Applied } else { ResultStatus::Merged });
            result.conflicts = conflicts;
            Ok(result)
        }
        "product.adjust_stock" => {
            let StockArgs { uid, delta } = args(mutation)?;
            products::adjust_stock(tx, user, ProductRef::Uid(&uid), delta)?;
            Ok(outcome(mutation, ResultStatus::Applied))
        }
        "product.delete" => {
            let ProductArgs { uid, .. } = args(mutation)?;
            products::delete(tx, user, ProductRef::Uid(&uid))?;
            Ok(outcome(mutation, ResultStatus::Applied))
        }
        "favourite.set" => {
            let FavouriteArgs { uid, on } = args(mutation)?;
            let uid = uid.to_lowercase();
            if db::products::find_by_uid(tx, &uid)?.is_none() {
                return Err(AppError::not_found("product_not_found", "Product not found"));
            }
            if db::favourites::is_set(tx, user.id, &uid)? != Some(on) {
                db::favourites::set(tx, user.id, &uid, on, sync::next_version(tx)?, &clock::now())?;
            }
            Ok(outcome(mutation, ResultStatus::Applied))
        }
        "survey.delete" => {
            let SurveyArgs { uid, .. } = args(mutation)?;
            surveys::delete(tx, user, SurveyRef::Uid(&uid))?;
            Ok(outcome(mutation, ResultStatus::Applied))
        }
        other => Err(AppError::bad_request("unknown_mutation", format!("Unknown change {other:?}"))),
    }
}

/// A changed record, as a pull sends it.
pub enum Changed {
    Survey(Box<SurveyRow>),
    Product(Box<ProductRow>),
    Favourite(FavouriteRow),
}

impl Changed {
    fn version(&self) -> i64 {
        match self {
            Changed::Survey(row) => row.version,
            Changed::Product(row) => row.version,
            Changed::Favourite(row) => row.version,
        }
    }
}

/// One page of what changed after `cursor` (a first snapshot when there is
/// none): the catalogue for everyone, and a signed-in person's own records,
/// read in one snapshot with their client's sequence.
pub struct PullPage {
    pub cursor: i64,
    pub last_mutation_id: i64,
    pub changes: Vec<Changed>,
    pub has_more: bool,
}

pub async fn pull(
    state: &AppState,
    viewer: Option<&UserRow>,
    client_id: Option<String>,
    cursor: Option<i64>,
    limit: usize,
) -> ApiResult<PullPage> {
    if let Some(client_id) = &client_id {
        check_client_id(client_id)?;
    }
    let limit = limit.clamp(1, MAX_PULL_LIMIT);
    let viewer_id = viewer.map(|v| v.id);
    state
        .db
        .read(move |conn| {
            let tx = conn.unchecked_transaction()?;
            let after = cursor.unwrap_or(0);
            let snapshot = cursor.is_none();
            // Each list holds its own first `limit + 1`, so the merged first `limit` are exact.
            let mut changes: Vec<Changed> = db::products::changes_after(&tx, after, limit + 1, snapshot, viewer_id)?
                .into_iter()
                .map(|row| Changed::Product(Box::new(row)))
                .collect();
            if let Some(user_id) = viewer_id {
                let surveys = db::surveys::changes_visible_to(&tx, user_id, after, limit + 1, !snapshot)?;
                changes.extend(surveys.into_iter().map(|row| Changed::Survey(Box::new(row))));
                let favourites = db::favourites::changes_of(&tx, user_id, after, limit + 1, !snapshot)?;
                changes.extend(favourites.into_iter().map(Changed::Favourite));
            }
            changes.sort_by_key(Changed::version);
            let has_more = changes.len() > limit;
            changes.truncate(limit);
            let last_mutation_id = match (client_id, viewer_id) {
                (Some(id), Some(user_id)) => sync::client(&tx, &id.to_lowercase())?
                    .filter(|c| c.user_id == user_id)
                    .map_or(0, |c| c.last_mutation_id),
                _ => 0,
            };
            let cursor = changes.last().map_or(after, Changed::version);
            Ok(PullPage { cursor, last_mutation_id, changes, has_more })
        })
        .await
}
