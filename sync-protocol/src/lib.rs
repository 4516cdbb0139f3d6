//! Wire types shared by the server and the PWA (docs/sync.md): the sync
//! envelope (push, pull, results), the mutation table, and the inputs a
//! client sends for applications and products.
//!
//! The PWA's TypeScript for these types, `pwa/src/lib/sync/protocol.ts`, is
//! generated from them; a test fails when that file is stale. Regenerate it
//! with `UPDATE_TS_BINDINGS=1 cargo test -p sync-protocol`.

mod loose;
mod mutations;
mod product;
mod survey;

pub use loose::Loose;
pub use mutations::{
    ByUid, CommentWrite, DeliveryRecord, LessonEvent, MutationArgs, OrderLineInput, OrderPartChange, OrderPlace,
    ParseError, PersonRegister, PriceRecord, ProductWrite, ShippingInput, StockChange, SurveyWrite, Toggle,
};
pub use product::ListingInput;
pub use survey::{AnswerField, AnswerKind, Cell, CellValue, Given, SurveyAnswers, SurveyAnswersInput};

use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;
use utoipa::ToSchema;

/// Bumped whenever the wire format changes incompatibly. A server that cannot
/// serve an older client answers `protocol_unsupported`; the PWA then asks
/// the person to update while keeping its queue.
pub const PROTOCOL_VERSION: u32 = 1;

/// `POST /api/v1/sync/push`: a client's queued changes, oldest first.
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
pub struct PushRequest {
    /// The sync protocol this app speaks: the server speaks 1 (`protocol_unsupported` otherwise).
    #[schema(minimum = 1, maximum = 1)]
    pub protocol: u32,
    /// One per browser profile, made by the client once (a UUID; `invalid_client_id` otherwise).
    #[schema(pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")]
    pub client_id: String,
    /// Oldest first; `mutation_id` goes on from the last this client sent, with no gap (400 `mutation_order`).
    pub mutations: Vec<Mutation>,
}

/// One queued change.
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
pub struct Mutation {
    /// Per client, 1, 2, 3... with no gaps, allocated with the local change.
    #[ts(type = "number")]
    pub mutation_id: u64,
    /// What to do: a name of [`MutationArgs`], e.g. `survey.create`. Read
    /// as text so that a name this server does not know refuses only that
    /// mutation, not the whole push.
    pub name: String,
    /// The change itself; its shape depends on `name` (see [`MutationArgs`]).
    #[ts(type = "Record<string, unknown>")]
    #[schema(value_type = Object)]
    pub args: Value,
    /// The version of the record the person edited, for edits.
    #[serde(default)]
    #[ts(optional, type = "number")]
    pub base: Option<i64>,
    /// When the person made the change, by the phone's clock (RFC 3339).
    #[serde(default)]
    #[ts(optional)]
    pub client_time: Option<String>,
    /// Sent again after the server was restored (docs/sync.md, Push): what the phone was
    /// told the first time (`applied`, `merged` or `rejected`). When the answer now is
    /// the other way, the person is told (a notification; a lost order's farmers by SMS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub told: Option<ResultStatus>,
}

/// `POST /api/v1/sync/push` answer. The server has committed every result it reports.
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
pub struct PushResponse {
    /// The last mutation of this client the server has processed.
    #[ts(type = "number")]
    pub last_mutation_id: u64,
    pub results: Vec<MutationResult>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ResultStatus {
    /// Done as asked.
    Applied,
    /// Done, but some fields were changed elsewhere meanwhile; `conflicts` names them.
    Merged,
    /// Refused (`code`, `message`); the sequence still advances so the queue does not jam.
    Rejected,
    /// Not yet: e.g. a photo it uses has not arrived. Send it again later.
    Retry,
    /// A replay of a change processed so long ago that its result is no longer
    /// kept (the server keeps each device's last 500): it was processed once,
    /// and a pull shows how it stands.
    Forgotten,
}

/// What happened to one mutation. A replayed mutation gets its first result
/// again, with `duplicate` set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
pub struct MutationResult {
    #[ts(type = "number")]
    pub mutation_id: u64,
    pub status: ResultStatus,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    #[ts(as = "Option<bool>", optional)]
    pub duplicate: bool,
    /// The record it touched, e.g. `survey` and its uid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub entity: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<String>,
    /// For `rejected`: the API's error code and sentence, and field errors (for
    /// `forgotten`: `result_forgotten` and a sentence).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub code: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub message: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, string[]>")]
    #[schema(value_type = Option<std::collections::BTreeMap<String, Vec<String>>>)]
    pub error_codes: Option<Value>,
    /// For `rejected`: what the refusal is about, when a sentence is not enough
    /// (e.g. an order's lines whose price or stock changed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, unknown>")]
    #[schema(value_type = Option<Object>)]
    pub details: Option<Value>,
    /// For `merged`: the fields someone else changed too (the later change won).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<Vec<String>>", optional)]
    pub conflicts: Vec<String>,
}

/// `GET /api/v1/sync/pull?client_id=..&cursor=..&snapshot=..&limit=..` answer.
#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
pub struct PullResponse {
    /// Ask for the next page (or the next pull) with this.
    #[ts(type = "number")]
    pub cursor: i64,
    /// Drop queued mutations up to this one: their effects are in the changes.
    #[ts(type = "number")]
    pub last_mutation_id: u64,
    pub changes: Vec<Change>,
    pub has_more: bool,
    /// While a snapshot (a first pull) has more pages: send it back as `snapshot=`
    /// with the next `cursor`, so those pages too leave out what the phone never had.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub snapshot: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ChangeOp {
    Put,
    /// Deleted, or no longer visible to this person.
    Del,
}

#[derive(Debug, Clone, Serialize, Deserialize, TS, ToSchema)]
pub struct Change {
    /// e.g. `survey`.
    pub entity: String,
    /// The record's uid.
    pub id: String,
    pub op: ChangeOp,
    /// The whole record, for `put`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Record<string, unknown>")]
    #[schema(value_type = Option<Object>)]
    pub record: Option<Value>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use ts_rs::Config;

    const BINDINGS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../pwa/src/lib/sync/protocol.ts");

    fn typescript() -> String {
        let cfg = Config::default();
        let declarations = [
            Loose::decl(&cfg),
            SurveyAnswers::decl(&cfg),
            SurveyAnswersInput::decl(&cfg),
            ListingInput::decl(&cfg),
            SurveyWrite::decl(&cfg),
            ProductWrite::decl(&cfg),
            ByUid::decl(&cfg),
            StockChange::decl(&cfg),
            Toggle::decl(&cfg),
            OrderLineInput::decl(&cfg),
            ShippingInput::decl(&cfg),
            OrderPlace::decl(&cfg),
            OrderPartChange::decl(&cfg),
            LessonEvent::decl(&cfg),
            CommentWrite::decl(&cfg),
            PersonRegister::decl(&cfg),
            PriceRecord::decl(&cfg),
            DeliveryRecord::decl(&cfg),
            MutationArgs::decl(&cfg),
            PushRequest::decl(&cfg),
            Mutation::decl(&cfg),
            PushResponse::decl(&cfg),
            ResultStatus::decl(&cfg),
            MutationResult::decl(&cfg),
            PullResponse::decl(&cfg),
            ChangeOp::decl(&cfg),
            Change::decl(&cfg),
        ];
        let mut out = String::from(
            "// Generated from sync-protocol/src/lib.rs by its tests; do not edit.\n\
             // Regenerate: UPDATE_TS_BINDINGS=1 cargo test -p sync-protocol\n\n",
        );
        out.push_str(&format!("export const PROTOCOL_VERSION = {PROTOCOL_VERSION};\n"));
        let fields = serde_json::to_string_pretty(SurveyAnswers::FIELDS).unwrap();
        out.push_str(&format!(
            "\n/** The application's questions in the form's order, with their kind and whether a submission needs them. */\n\
             export const SURVEY_FIELDS = {fields} as const;\n"
        ));
        let names = serde_json::to_string(&MutationArgs::NAMES).unwrap();
        out.push_str(&format!("\nexport const MUTATION_NAMES = {names} as const;\n"));
        for declaration in declarations {
            out.push_str(&format!("\nexport {declaration}\n"));
        }
        out
    }

    #[test]
    fn the_pwa_typescript_is_up_to_date() {
        let expected = typescript();
        if std::env::var_os("UPDATE_TS_BINDINGS").is_some() {
            std::fs::write(BINDINGS, &expected).unwrap();
        }
        let committed = std::fs::read_to_string(BINDINGS).unwrap_or_default();
        assert!(
            committed == expected,
            "pwa/src/lib/sync/protocol.ts is stale; run UPDATE_TS_BINDINGS=1 cargo test -p sync-protocol"
        );
    }

    #[test]
    fn results_omit_what_they_do_not_need() {
        let applied = MutationResult {
            mutation_id: 3,
            status: ResultStatus::Applied,
            duplicate: false,
            entity: Some("survey".into()),
            id: Some("u".into()),
            code: None,
            message: None,
            error_codes: None,
            details: None,
            conflicts: vec![],
        };
        assert_eq!(
            serde_json::to_value(&applied).unwrap(),
            serde_json::json!({"mutation_id": 3, "status": "applied", "entity": "survey", "id": "u"})
        );
        let parsed: Mutation = serde_json::from_value(
            serde_json::json!({"mutation_id": 1, "name": "survey.delete", "args": {"uid": "u"}}),
        )
        .unwrap();
        assert_eq!((parsed.base, parsed.client_time), (None, None));
    }
}
