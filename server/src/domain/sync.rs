//! The sync protocol's rules (docs/sync.md):
//! mutations are processed in order, each in its own savepoint (a refused one
//! leaves nothing behind), through the same domain functions as the REST API;
//! their results are stored with the client's sequence so a replay answers the
//! same; a refusal still moves the sequence on, so one bad change never blocks
//! the queue behind it. A change that names a photo that has not arrived is
//! answered `retry`: it is not recorded, and the rest of the push waits behind it.

use crate::db::Connection;
use serde_json::Value;
use sync_protocol::{
    ByUid, CommentWrite, LessonEvent, Mutation, MutationArgs, MutationResult, OrderPartChange, PROTOCOL_VERSION,
    ParseError, ProductWrite, PushRequest, ResultStatus, StockChange, SurveyWrite, Toggle,
};

use super::comments;
use super::courses::{self, CourseKey, ProgressInput};
use super::favourites;
use super::merge::Base;
use super::orders::{self, Notify, OrderRef};
use super::products::{self, PHOTO_MISSING, ProductRef};
use super::registrations;
use super::surveys::{self, SurveyRef};
use crate::db::courses::{CourseRow, ModuleRow};
use crate::db::enrolments::EnrolmentRow;
use crate::db::favourites::FavouriteRow;
use crate::db::orders::OrderRow;
use crate::db::products::ProductRow;
use crate::db::surveys::SurveyRow;
use crate::db::users::UserRow;
use crate::db::{self, sync};
use crate::error::{ApiResult, AppError};
use crate::platform::clock;

/// Pages of a pull hold at most this many changes.
pub const MAX_PULL_LIMIT: usize = 500;
pub const DEFAULT_PULL_LIMIT: usize = 100;
/// Mutation ids are JavaScript-safe integers (phones count them in JS).
pub const MAX_MUTATION_ID: u64 = (1 << 53) - 1;
/// What a stored result may hold of what the client sent: results are kept
/// for replays, so nothing a client sends may make them large.
const MAX_STORED_ID_CHARS: usize = 64;
const MAX_STORED_MESSAGE_CHARS: usize = 300;
const MAX_STORED_DETAILS_BYTES: usize = 8 * 1024;
/// A mutation name this server does not know (a newer app's, say): refused, and the queue moves on.
const UNKNOWN_MUTATION: &str = "unknown_mutation";

pub fn check_client_id(client_id: &str) -> ApiResult<()> {
    if super::is_uuid(client_id) {
        Ok(())
    } else {
        Err(AppError::bad_request("invalid_client_id", "client_id must be a UUID"))
    }
}

/// Checks the request as a whole before anything is applied: a refusal here
/// leaves the client's queue untouched.
pub fn check_request(request: &PushRequest) -> ApiResult<()> {
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
    if request.mutations.iter().any(|m| m.mutation_id > MAX_MUTATION_ID) {
        return Err(AppError::bad_request(
            "invalid_mutation_id",
            format!("Mutation ids must be at most {MAX_MUTATION_ID}"),
        ));
    }
    let consecutive = request.mutations.windows(2).all(|pair| pair[1].mutation_id == pair[0].mutation_id + 1);
    if !consecutive || request.mutations.first().is_some_and(|m| m.mutation_id == 0) {
        return Err(AppError::bad_request("mutation_order", "Mutations must be numbered 1, 2, 3... in order"));
    }
    Ok(())
}

/// The device's last processed mutation, registering the device on its first
/// push; a device id that belongs to another account is refused.
pub fn register_client(tx: &Connection, client_id: &str, user_id: i64) -> ApiResult<i64> {
    match sync::client(tx, client_id)? {
        Some(client) if client.user_id != user_id => Err(AppError::conflict(
            "client_taken",
            "This device's sync id belongs to another account; sign out and in again",
        )),
        Some(client) => Ok(client.last_mutation_id),
        None => {
            sync::create_client(tx, client_id, user_id, &clock::now())?;
            Ok(0)
        }
    }
}

/// A push must continue where the server is: from `last + 1` or earlier (replays).
pub fn check_sequence(request: &PushRequest, last: i64) -> ApiResult<()> {
    match request.mutations.first() {
        Some(first) if first.mutation_id as i64 > last + 1 => Err(AppError::conflict(
            "mutation_gap",
            format!("The server has this device's changes up to {last}; send from {} or pull again", last + 1),
        )),
        _ => Ok(()),
    }
}

/// The last mutation of `client_id` the server has processed.
pub fn last_mutation_id(conn: &Connection, client_id: &str) -> ApiResult<i64> {
    Ok(sync::client(conn, client_id)?.map_or(0, |c| c.last_mutation_id))
}

/// One mutation, in its transaction: a replay gets its stored result;
/// otherwise it is applied and its result kept with the client's sequence.
pub fn process(tx: &Connection, client_id: &str, user: &UserRow, mutation: &Mutation) -> ApiResult<MutationResult> {
    let id = mutation.mutation_id as i64;
    let last = sync::client(tx, client_id)?.map_or(0, |c| c.last_mutation_id);
    if id <= last {
        let stored = sync::stored_result(tx, client_id, id)?;
        let mut result: MutationResult =
            stored.and_then(|text| serde_json::from_str(&text).ok()).unwrap_or_else(|| MutationResult {
                code: Some("result_forgotten".to_owned()),
                message: Some("This change was processed long ago; its result is no longer kept".to_owned()),
                ..outcome(mutation, ResultStatus::Forgotten)
            });
        result.duplicate = true;
        return Ok(result);
    }
    let result = match crate::db::savepoint(tx, |tx| apply(tx, user, client_id, mutation)) {
        Ok(result) => result,
        Err(AppError::Internal(cause)) => return Err(AppError::Internal(cause)),
        Err(refusal) if refusal.code() == PHOTO_MISSING => {
            // Not recorded: the same mutation id is sent again once the photos are up.
            let mut result = rejected(mutation, refusal);
            result.status = ResultStatus::Retry;
            return Ok(result);
        }
        Err(refusal) => rejected(mutation, refusal),
    };
    let text = serde_json::to_string(&result).map_err(AppError::internal)?;
    sync::record_result(tx, client_id, id, &text, &clock::now())?;
    if mutation.told.is_some() {
        super::restored::tell(tx, user, mutation, &result)?;
    }
    Ok(result)
}

fn outcome(mutation: &Mutation, status: ResultStatus) -> MutationResult {
    MutationResult {
        mutation_id: mutation.mutation_id,
        status,
        duplicate: false,
        entity: MutationArgs::NAMES
            .contains(&mutation.name.as_str())
            .then(|| mutation.name.split_once('.').map(|(entity, _)| entity.to_owned()))
            .flatten(),
        id: mutation
            .args
            .get("uid")
            .and_then(Value::as_str)
            .filter(|uid| uid.chars().count() <= MAX_STORED_ID_CHARS)
            .map(str::to_owned),
        code: None,
        message: None,
        error_codes: None,
        details: None,
        conflicts: Vec::new(),
    }
}

fn rejected(mutation: &Mutation, error: AppError) -> MutationResult {
    let mut result = outcome(mutation, ResultStatus::Rejected);
    result.code = Some(error.code().to_owned());
    match &error {
        AppError::Validation(fields) => {
            result.message = fields.first().map(|e| clip(&e.message));
            result.error_codes = Some(fields.code_map());
        }
        AppError::Client { message, details, .. } => {
            result.message = Some(clip(message));
            result.details = details
                .as_deref()
                .filter(|d| serde_json::to_string(d).map_or(0, |text| text.len()) <= MAX_STORED_DETAILS_BYTES)
                .cloned();
        }
        AppError::Internal(_) => {}
    }
    result
}

/// Messages can quote what the client sent; a stored one keeps its start.
fn clip(message: &str) -> String {
    match message.char_indices().nth(MAX_STORED_MESSAGE_CHARS) {
        Some((end, _)) => format!("{}…", &message[..end]),
        None => message.to_owned(),
    }
}

/// Applies one mutation of the table (sync-protocol's `MutationArgs`). The
/// match is exhaustive: a new mutation does not compile until it is handled.
fn apply(tx: &Connection, user: &UserRow, client_id: &str, mutation: &Mutation) -> ApiResult<MutationResult> {
    let base = mutation.base.map(|version| Base { version, device: client_id });
    let args = mutation.parse().map_err(|err| match err {
        ParseError::Unknown(name) => AppError::bad_request(UNKNOWN_MUTATION, format!("Unknown change {name:?}")),
        ParseError::Invalid(why) => {
            AppError::bad_request("invalid_args", format!("The change could not be read: {why}"))
        }
    })?;
    let conflicts = match args {
        MutationArgs::SurveyCreate(SurveyWrite { uid, status, answers, user_id, person_uid }) => {
            let user_id = match person_uid {
                Some(person) => Some(registrations::registered(tx, &person)?.id),
                None => user_id,
            };
            let owner = match user_id {
                Some(id) if id != user.id => surveys::applicant_for(tx, user, id)?,
                _ => user.clone(),
            };
            surveys::create(tx, &owner, user.id, Some(uid), &answers.unwrap_or_default(), status.as_deref())?;
            Vec::new()
        }
        MutationArgs::SurveyUpdate(SurveyWrite { uid, status, answers, .. }) => {
            let answers = answers.unwrap_or_default();
            surveys::update(tx, user, SurveyRef::Uid(&uid), &answers, status.as_deref(), base)?.1
        }
        MutationArgs::SurveyDelete(ByUid { uid }) => {
            surveys::delete(tx, user, SurveyRef::Uid(&uid))?;
            Vec::new()
        }
        MutationArgs::ProductCreate(ProductWrite { uid, fields }) => {
            products::create(tx, user, Some(uid), &fields.unwrap_or_default())?;
            Vec::new()
        }
        MutationArgs::ProductUpdate(ProductWrite { uid, fields }) => {
            let fields = fields.unwrap_or_default();
            products::update(tx, user, ProductRef::Uid(&uid), &fields, base)?.1
        }
        MutationArgs::ProductAdjustStock(StockChange { uid, delta }) => {
            products::adjust_stock(tx, user, ProductRef::Uid(&uid), delta)?;
            Vec::new()
        }
        MutationArgs::ProductDelete(ByUid { uid }) => {
            products::delete(tx, user, ProductRef::Uid(&uid))?;
            Vec::new()
        }
        MutationArgs::FavouriteSet(Toggle { uid, on }) => {
            favourites::set(tx, user, &uid, on)?;
            Vec::new()
        }
        MutationArgs::OrderPlace(order) => {
            orders::place(tx, user, &order, Notify::People)?;
            Vec::new()
        }
        MutationArgs::OrderUpdatePart(OrderPartChange { uid, part_id, status, reason }) => {
            orders::change_part(tx, user, OrderRef::Uid(&uid), part_id, &status, reason.as_deref(), Notify::People)?;
            Vec::new()
        }
        MutationArgs::EnrolmentCreate(ByUid { uid }) => {
            courses::enrol(tx, user, CourseKey::Uid(&uid))?;
            Vec::new()
        }
        MutationArgs::EnrolmentProgress(LessonEvent { uid, event_uid, lesson_id, kind, answers }) => {
            let answers: Option<Vec<usize>> = answers.map(|a| a.into_iter().map(|n| n as usize).collect());
            let event = ProgressInput {
                event_uid: &event_uid,
                lesson_id,
                kind: &kind,
                answers: answers.as_deref(),
                client_time: mutation.client_time.as_deref(),
            };
            courses::record_progress(tx, user, CourseKey::Uid(&uid), &event)?;
            Vec::new()
        }
        MutationArgs::CommentCreate(CommentWrite { uid, post_uid, parent_uid, body }) => {
            let parent = parent_uid.as_deref().map(comments::Key::Uid);
            comments::create(tx, user, comments::Key::Uid(&post_uid), Some(&uid), parent, &body)?;
            Vec::new()
        }
        MutationArgs::CommentLike(Toggle { uid, on }) => {
            comments::like(tx, user, comments::Key::Uid(&uid), on)?;
            Vec::new()
        }
        MutationArgs::PersonRegister(person) => {
            registrations::register(tx, user, &person)?;
            Vec::new()
        }
        MutationArgs::NotificationRead(ByUid { uid }) => {
            super::notifications::read(tx, user, &uid)?;
            Vec::new()
        }
        MutationArgs::PriceRecord(price) => {
            let fields = super::prices::PriceFields {
                market: Some(price.market),
                crop: &price.crop,
                unit: &price.unit,
                price: &price.price,
                currency: &price.currency,
                observed_on: &price.observed_on,
                note: price.note.as_deref(),
                usd: None,
            };
            super::prices::record(tx, user, &price.uid, &fields)?;
            Vec::new()
        }
        MutationArgs::DeliveryRecord(d) => {
            let input = super::cooperatives::deliveries::DeliveryInput {
                uid: &d.uid,
                cooperative_id: d.cooperative,
                member_id: d.member,
                crop: &d.crop,
                grade: &d.grade,
                quantity: &d.quantity,
                unit: &d.unit,
                delivered_on: &d.delivered_on,
                place: &d.place,
                photo: d.photo.as_deref(),
                replaces: d.replaces.as_deref(),
                note: d.note.as_deref(),
            };
            super::cooperatives::deliveries::record(tx, user, &input)?;
            Vec::new()
        }
    };
    let status = if conflicts.is_empty() { ResultStatus::Applied } else { ResultStatus::Merged };
    Ok(MutationResult { conflicts, ..outcome(mutation, status) })
}

/// A changed record, as a pull sends it.
pub enum Changed {
    Survey(Box<SurveyRow>),
    Product(Box<ProductRow>),
    Favourite(FavouriteRow),
    /// An order the viewer bought or sells in.
    Order(Box<OrderRow>),
    /// A course of the catalogue, with its outline (no lesson text).
    Course(Box<(CourseRow, Vec<ModuleRow>)>),
    /// The viewer's enrolment, with their progress and certificate.
    Enrolment(Box<EnrolmentRow>),
    /// A news post, with its content (readable offline).
    Blog(Box<crate::db::blogs::BlogRow>),
    /// A currency's rate in use (docs/money.md).
    Rate(Box<crate::db::exchange_rates::RateRow>),
    /// One of the viewer's notifications.
    Notification(Box<crate::db::notifications::NotificationRow>),
}

impl Changed {
    fn version(&self) -> i64 {
        match self {
            Changed::Survey(row) => row.version,
            Changed::Product(row) => row.version,
            Changed::Favourite(row) => row.version,
            Changed::Order(row) => row.version,
            Changed::Course(course) => course.0.version,
            Changed::Enrolment(row) => row.version,
            Changed::Blog(row) => row.version,
            Changed::Rate(row) => row.version,
            Changed::Notification(row) => row.version,
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
    /// While a snapshot has more pages: the version it was taken at, sent back with
    /// the next page's cursor so those pages leave out what the phone never had.
    pub snapshot: Option<i64>,
    /// The sellers the viewer acts for (themself and their cooperatives): which parts of
    /// an order they see.
    pub sells_for: Vec<i64>,
}

/// One page of what changed after `cursor` (a first snapshot when there is
/// none), read in one snapshot with the client's sequence.
pub fn read_page(
    conn: &Connection,
    viewer_id: Option<i64>,
    client_id: Option<&str>,
    cursor: Option<i64>,
    snapshot: Option<i64>,
    limit: usize,
) -> ApiResult<PullPage> {
    let tx = conn.begin_read()?;
    // Below the horizon a deletion may be gone; past the current version the phone saw
    // a history this server no longer has (restored from a backup). A snapshot's later
    // pages are as recent as the snapshot: its rows carry no deletions, and a row it
    // sent that went later has a tombstone above it.
    let (horizon, now) = (sync::horizon(&tx)?, sync::current_version(&tx)?);
    if cursor.is_some_and(|cursor| snapshot.unwrap_or(cursor) < horizon || cursor > now) {
        return Err(AppError::conflict(
            "snapshot_required",
            "This phone's copy is too old to bring up to date; it takes a new one",
        ));
    }
    let after = cursor.unwrap_or(0);
    // A first pull is a snapshot of now: of what existed then, only what the viewer
    // may see comes (no tombstones, nothing off sale); what changes meanwhile comes
    // as changes do. Its later pages carry on the same snapshot.
    let snapshot = match cursor {
        None => Some(now),
        Some(_) => snapshot,
    };
    // Each list holds its own first `limit + 1`, so the merged first `limit` are exact.
    let mut changes: Vec<Changed> = db::products::changes_after(&tx, after, limit + 1, snapshot, viewer_id)?
        .into_iter()
        .map(|row| Changed::Product(Box::new(row)))
        .collect();
    for course in db::courses::changes_after(&tx, after, limit + 1, snapshot)? {
        let outline = db::courses::modules(&tx, course.id, false)?;
        changes.push(Changed::Course(Box::new((course, outline))));
    }
    let posts = db::blogs::changes_after(&tx, after, limit + 1, snapshot)?;
    changes.extend(posts.into_iter().map(|row| Changed::Blog(Box::new(row))));
    let rates = db::exchange_rates::changes_after(&tx, after)?;
    changes.extend(rates.into_iter().map(|row| Changed::Rate(Box::new(row))));
    if let Some(user_id) = viewer_id {
        let enrolments = db::enrolments::enrolment_changes(&tx, user_id, after, limit + 1)?;
        changes.extend(enrolments.into_iter().map(|row| Changed::Enrolment(Box::new(row))));
        let surveys = db::surveys::changes_visible_to(&tx, user_id, after, limit + 1, snapshot)?;
        changes.extend(surveys.into_iter().map(|row| Changed::Survey(Box::new(row))));
        let favourites = db::favourites::changes_of(&tx, user_id, after, limit + 1, snapshot)?;
        changes.extend(favourites.into_iter().map(Changed::Favourite));
        let orders = db::orders::changes_visible_to(&tx, user_id, after, limit + 1)?;
        changes.extend(orders.into_iter().map(|row| Changed::Order(Box::new(row))));
        let notes = db::notifications::changes_of(&tx, user_id, after, limit + 1)?;
        changes.extend(notes.into_iter().map(|row| Changed::Notification(Box::new(row))));
    }
    changes.sort_by_key(Changed::version);
    let has_more = changes.len() > limit;
    changes.truncate(limit);
    let last_mutation_id = match (client_id, viewer_id) {
        (Some(id), Some(user_id)) => {
            sync::client(&tx, &id.to_lowercase())?.filter(|c| c.user_id == user_id).map_or(0, |c| c.last_mutation_id)
        }
        _ => 0,
    };
    // A whole answer covers everything up to the version of this snapshot, also the
    // changes this viewer may not see: the cursor moves past them, so a phone that
    // listens for new versions (GET /sync/wait) is not woken by them again.
    let cursor = match changes.last() {
        Some(last) if has_more => last.version(),
        _ => now,
    };
    let snapshot = snapshot.filter(|_| has_more);
    let sells_for = match viewer_id {
        Some(id) => super::cooperatives::lots::sells_for(&tx, id)?,
        None => Vec::new(),
    };
    Ok(PullPage { cursor, last_mutation_id, changes, has_more, snapshot, sells_for })
}
