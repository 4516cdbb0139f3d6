//! The mutation table: every change a device can queue, by name, with its
//! arguments. The server matches on [`MutationArgs`] exhaustively; the PWA
//! gets the same union in TypeScript, so `enqueue(db, name, args)` only
//! accepts arguments of that name's shape. docs/architecture.md lists what
//! adding a synced entity touches.

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

use crate::{ListingInput, SurveyAnswersInput};

/// Creates or edits a farmer application (its `uid` is made on the phone).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct SurveyWrite {
    pub uid: String,
    /// `draft`, `pending`, or `re-submitted`; none keeps the status (or submits a new one).
    #[serde(default)]
    #[ts(optional)]
    pub status: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub answers: Option<SurveyAnswersInput>,
    /// The applicant, when a field agent or admin fills the form for them.
    #[serde(default)]
    #[ts(optional, type = "number")]
    pub user_id: Option<i64>,
    /// Or the applicant a field agent registered from the phone (`person.register`'s
    /// `uid`), before the phone knows their id.
    #[serde(default)]
    #[ts(optional)]
    pub person_uid: Option<String>,
}

/// A person a field agent registers in the field, offline if need be: an account
/// with a phone number and no email or password (they set one with an SMS code).
/// `uid`, made on the phone, keeps a resent registration single.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PersonRegister {
    pub uid: String,
    pub first_name: String,
    pub last_name: String,
    /// International, or national in the form of `country`.
    pub phone_number: String,
    /// One of DRC, BDI, RWA, UGA, TZA, KEN.
    pub country: String,
    /// The village or place.
    #[serde(default)]
    #[ts(optional)]
    pub location: Option<String>,
}

/// A market price a field agent saw (docs/prices.md); `uid`, made on the phone,
/// keeps it single however often it is sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct PriceRecord {
    pub uid: String,
    /// The market's id (`GET /prices/markets`).
    #[ts(type = "number")]
    pub market: i64,
    /// A crop's key (maize, bean, cassava, ...).
    pub crop: String,
    /// kg, bag_50kg, bag_100kg, basin, bunch or piece.
    pub unit: String,
    /// As written, at most two decimals: "1.20", "2500".
    pub price: String,
    /// USD or CDF.
    pub currency: String,
    /// The day it was seen, YYYY-MM-DD.
    pub observed_on: String,
    #[serde(default)]
    #[ts(optional)]
    pub note: Option<String>,
}

/// What a member brought to a cooperative's collection point, weighed by a manager
/// (docs/cooperatives.md), or a correction of an entry (`replaces`, with a `note`).
/// `uid`, made on the phone, keeps it single however often it is sent.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct DeliveryRecord {
    pub uid: String,
    #[ts(type = "number")]
    pub cooperative: i64,
    /// The member's id.
    #[ts(type = "number")]
    pub member: i64,
    /// A crop's key (maize, bean, coffee, ...).
    pub crop: String,
    /// A, B or C.
    pub grade: String,
    /// As weighed, at most one decimal: "48.5".
    pub quantity: String,
    /// kg, bag_50kg or bag_100kg.
    pub unit: String,
    /// YYYY-MM-DD.
    pub delivered_on: String,
    /// The collection point.
    pub place: String,
    /// The scale's photo, uploaded first.
    #[serde(default)]
    #[ts(optional)]
    pub photo: Option<String>,
    /// The uid of the entry this one corrects.
    #[serde(default)]
    #[ts(optional)]
    pub replaces: Option<String>,
    #[serde(default)]
    #[ts(optional)]
    pub note: Option<String>,
}

/// Creates or edits a product listing.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, TS)]
pub struct ProductWrite {
    pub uid: String,
    #[serde(default)]
    #[ts(optional)]
    pub fields: Option<ListingInput>,
}

/// Names a record by its uid (deletes).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct ByUid {
    pub uid: String,
}

/// A change of stock by `delta` units, so sales and harvests add up.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct StockChange {
    pub uid: String,
    #[ts(type = "number")]
    pub delta: i64,
}

/// Turns something on or off for the person, by its uid: a product as a
/// favourite (`favourite.set`), a like of a comment (`comment.like`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct Toggle {
    pub uid: String,
    pub on: bool,
}

/// One line of an order: the product, how many units, and the unit price the
/// buyer saw (in cents). The server places the order only at that price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
pub struct OrderLineInput {
    #[ts(type = "number")]
    pub product_id: i64,
    #[ts(type = "number")]
    pub quantity: i64,
    #[ts(type = "number")]
    pub unit_price_cents: i64,
}

/// Where and to whom an order goes (the checkout's shipping form).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[serde(default)]
pub struct ShippingInput {
    pub first_name: String,
    pub last_name: String,
    pub email: String,
    pub phone: String,
    pub address: String,
    pub city: String,
    pub postal_code: String,
    /// One of the platform's country codes (DRC, BDI, RWA, UGA, TZA, KEN).
    pub country: String,
}

/// Places an order; `uid`, made on the phone, is its idempotency key.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
pub struct OrderPlace {
    /// Made by the client (a UUID), so an order sent twice is one.
    #[schema(pattern = "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")]
    pub uid: String,
    pub lines: Vec<OrderLineInput>,
    /// `delivery` or `pickup` (at the farmer's place).
    #[schema(schema_with = deliveries)]
    pub delivery: String,
    /// `mobile_money` or `cash_on_delivery`.
    #[schema(schema_with = payment_methods)]
    pub payment_method: String,
    #[serde(default)]
    pub shipping: ShippingInput,
}

/// Moves one farmer's part of an order (`uid` is the order's) to a new
/// status: `shipped`, `delivered` or `cancelled` (with a reason).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
pub struct OrderPartChange {
    pub uid: String,
    #[ts(type = "number")]
    pub part_id: i64,
    pub status: String,
    #[serde(default)]
    #[ts(optional)]
    pub reason: Option<String>,
}

/// What a learner did in a lesson, an event kept for good (`uid` is the
/// course's; `event_uid`, made on the phone, keeps a resent event single).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct LessonEvent {
    pub uid: String,
    pub event_uid: String,
    #[ts(type = "number")]
    pub lesson_id: i64,
    /// `viewed`, `completed` (a reading) or `quiz` (an attempt, with `answers`).
    pub kind: String,
    /// A quiz attempt's choices, one per question, in order.
    #[serde(default)]
    #[ts(optional)]
    pub answers: Option<Vec<u32>>,
}

/// A comment under a news post, written on the phone (`uid` is the
/// comment's, made there; `post_uid` the post's; `parent_uid` the comment it
/// answers).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct CommentWrite {
    pub uid: String,
    pub post_uid: String,
    #[serde(default)]
    #[ts(optional)]
    pub parent_uid: Option<String>,
    pub body: String,
}

/// Every mutation, as `{name, args}` on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "name", content = "args")]
pub enum MutationArgs {
    #[serde(rename = "survey.create")]
    SurveyCreate(SurveyWrite),
    #[serde(rename = "survey.update")]
    SurveyUpdate(SurveyWrite),
    #[serde(rename = "survey.delete")]
    SurveyDelete(ByUid),
    #[serde(rename = "product.create")]
    ProductCreate(ProductWrite),
    #[serde(rename = "product.update")]
    ProductUpdate(ProductWrite),
    #[serde(rename = "product.adjust_stock")]
    ProductAdjustStock(StockChange),
    #[serde(rename = "product.delete")]
    ProductDelete(ByUid),
    #[serde(rename = "favourite.set")]
    FavouriteSet(Toggle),
    #[serde(rename = "order.place")]
    OrderPlace(OrderPlace),
    #[serde(rename = "order.update_part")]
    OrderUpdatePart(OrderPartChange),
    /// Enrols in a free course (`uid` is the course's).
    #[serde(rename = "enrolment.create")]
    EnrolmentCreate(ByUid),
    #[serde(rename = "enrolment.progress")]
    EnrolmentProgress(LessonEvent),
    #[serde(rename = "comment.create")]
    CommentCreate(CommentWrite),
    /// Likes (`on`) or unlikes a comment (`uid` is the comment's).
    #[serde(rename = "comment.like")]
    CommentLike(Toggle),
    #[serde(rename = "person.register")]
    PersonRegister(PersonRegister),
    /// Marks one of the person's notifications read (`uid` is the notification's).
    #[serde(rename = "notification.read")]
    NotificationRead(ByUid),
    #[serde(rename = "price.record")]
    PriceRecord(PriceRecord),
    #[serde(rename = "delivery.record")]
    DeliveryRecord(DeliveryRecord),
}

impl MutationArgs {
    /// Every name of the table (a test keeps it equal to the variants).
    pub const NAMES: [&'static str; 18] = [
        "survey.create",
        "survey.update",
        "survey.delete",
        "product.create",
        "product.update",
        "product.adjust_stock",
        "product.delete",
        "favourite.set",
        "order.place",
        "order.update_part",
        "enrolment.create",
        "enrolment.progress",
        "comment.create",
        "comment.like",
        "person.register",
        "notification.read",
        "price.record",
        "delivery.record",
    ];

    /// The record the mutation touches.
    pub fn uid(&self) -> &str {
        match self {
            MutationArgs::SurveyCreate(a) | MutationArgs::SurveyUpdate(a) => &a.uid,
            MutationArgs::ProductCreate(a) | MutationArgs::ProductUpdate(a) => &a.uid,
            MutationArgs::SurveyDelete(a) | MutationArgs::ProductDelete(a) => &a.uid,
            MutationArgs::ProductAdjustStock(a) => &a.uid,
            MutationArgs::FavouriteSet(a) => &a.uid,
            MutationArgs::OrderPlace(a) => &a.uid,
            MutationArgs::OrderUpdatePart(a) => &a.uid,
            MutationArgs::EnrolmentCreate(a) => &a.uid,
            MutationArgs::EnrolmentProgress(a) => &a.uid,
            MutationArgs::CommentCreate(a) => &a.uid,
            MutationArgs::CommentLike(a) => &a.uid,
            MutationArgs::PersonRegister(a) => &a.uid,
            MutationArgs::NotificationRead(a) => &a.uid,
            MutationArgs::PriceRecord(a) => &a.uid,
            MutationArgs::DeliveryRecord(a) => &a.uid,
        }
    }
}

/// Why a queued mutation could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// No such name in the table (a newer app's change, say).
    Unknown(String),
    /// A known name whose arguments have the wrong shape.
    Invalid(String),
}

impl crate::Mutation {
    /// Reads `name` and `args` as one entry of the table.
    pub fn parse(&self) -> Result<MutationArgs, ParseError> {
        if !MutationArgs::NAMES.contains(&self.name.as_str()) {
            return Err(ParseError::Unknown(self.name.clone()));
        }
        let tagged = serde_json::json!({ "name": self.name, "args": self.args });
        serde_json::from_value(tagged).map_err(|err| ParseError::Invalid(err.to_string()))
    }
}

/// The API document's words for a text the server reads as one of a few (a wrong one is
/// refused with its field's words, so the type stays a `String`).
fn one_of(words: &[&str]) -> utoipa::openapi::schema::Object {
    utoipa::openapi::schema::ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::Type::String)
        .enum_values(Some(words.iter().copied()))
        .build()
}

fn deliveries() -> utoipa::openapi::schema::Object {
    one_of(&["delivery", "pickup"])
}

fn payment_methods() -> utoipa::openapi::schema::Object {
    one_of(&["mobile_money", "cash_on_delivery"])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Mutation;

    fn mutation(name: &str, args: serde_json::Value) -> Mutation {
        Mutation { mutation_id: 1, name: name.into(), args, base: None, client_time: None, told: None }
    }

    #[test]
    fn every_name_reads_as_its_variant_and_back() {
        for name in MutationArgs::NAMES {
            let args = match name {
                "product.adjust_stock" => serde_json::json!({"uid": "u", "delta": 2}),
                "favourite.set" | "comment.like" => serde_json::json!({"uid": "u", "on": true}),
                "comment.create" => serde_json::json!({"uid": "u", "post_uid": "p", "body": "Good"}),
                "order.place" => serde_json::json!({
                    "uid": "u", "lines": [], "delivery": "pickup", "payment_method": "cash_on_delivery"
                }),
                "order.update_part" => serde_json::json!({"uid": "u", "part_id": 1, "status": "shipped"}),
                "enrolment.progress" => {
                    serde_json::json!({"uid": "u", "event_uid": "e", "lesson_id": 1, "kind": "quiz", "answers": [0, 2]})
                }
                "person.register" => serde_json::json!({
                    "uid": "u", "first_name": "Neema", "last_name": "M", "phone_number": "0991000111", "country": "DRC"
                }),
                "price.record" => serde_json::json!({
                    "uid": "u", "market": 1, "crop": "bean", "unit": "kg", "price": "1.20", "currency": "USD",
                    "observed_on": "2026-11-23"
                }),
                "delivery.record" => serde_json::json!({
                    "uid": "u", "cooperative": 1, "member": 2, "crop": "bean", "grade": "A", "quantity": "48.5",
                    "unit": "kg", "delivered_on": "2026-11-23", "place": "Kadutu"
                }),
                _ => serde_json::json!({"uid": "u"}),
            };
            let parsed = mutation(name, args).parse().unwrap();
            assert_eq!(serde_json::to_value(&parsed).unwrap()["name"], name);
            assert_eq!(parsed.uid(), "u");
        }
    }

    #[test]
    fn every_variant_is_in_the_names() {
        use MutationArgs::*;
        let uid = || ByUid { uid: "u".into() };
        let all = [
            SurveyCreate(SurveyWrite::default()),
            SurveyUpdate(SurveyWrite::default()),
            SurveyDelete(uid()),
            ProductCreate(ProductWrite::default()),
            ProductUpdate(ProductWrite::default()),
            ProductAdjustStock(StockChange { uid: "u".into(), delta: 1 }),
            ProductDelete(uid()),
            FavouriteSet(Toggle { uid: "u".into(), on: true }),
            OrderPlace(super::OrderPlace {
                uid: "u".into(),
                lines: vec![],
                delivery: "pickup".into(),
                payment_method: "cash_on_delivery".into(),
                shipping: ShippingInput::default(),
            }),
            OrderUpdatePart(OrderPartChange { uid: "u".into(), part_id: 1, status: "shipped".into(), reason: None }),
            EnrolmentCreate(uid()),
            EnrolmentProgress(LessonEvent {
                uid: "u".into(),
                event_uid: "e".into(),
                lesson_id: 1,
                kind: "viewed".into(),
                answers: None,
            }),
            CommentCreate(CommentWrite {
                uid: "u".into(),
                post_uid: "p".into(),
                parent_uid: None,
                body: "Good".into(),
            }),
            CommentLike(Toggle { uid: "u".into(), on: true }),
            PersonRegister(super::PersonRegister::default()),
            NotificationRead(uid()),
            PriceRecord(super::PriceRecord::default()),
            DeliveryRecord(super::DeliveryRecord::default()),
        ];
        for args in all {
            // A new variant fails to compile here until it is added above (and to NAMES).
            match &args {
                SurveyCreate(_)
                | SurveyUpdate(_)
                | SurveyDelete(_)
                | ProductCreate(_)
                | ProductUpdate(_)
                | ProductAdjustStock(_)
                | ProductDelete(_)
                | FavouriteSet(_)
                | OrderPlace(_)
                | OrderUpdatePart(_)
                | EnrolmentCreate(_)
                | EnrolmentProgress(_)
                | CommentCreate(_)
                | CommentLike(_)
                | PersonRegister(_)
                | NotificationRead(_)
                | PriceRecord(_)
                | DeliveryRecord(_) => {}
            }
            let name = serde_json::to_value(&args).unwrap()["name"].as_str().unwrap().to_owned();
            assert!(MutationArgs::NAMES.contains(&name.as_str()), "{name} is missing from NAMES");
        }
    }

    #[test]
    fn unknown_names_and_wrong_shapes_are_told_apart() {
        assert_eq!(
            mutation("order.refund", serde_json::json!({})).parse(),
            Err(ParseError::Unknown("order.refund".into()))
        );
        let wrong = mutation("product.adjust_stock", serde_json::json!({"uid": "u", "delta": "lots"})).parse();
        assert!(matches!(wrong, Err(ParseError::Invalid(_))), "{wrong:?}");
        let answers = mutation(
            "survey.update",
            serde_json::json!({"uid": "u", "answers": {"land_size": "1-2 hectares", "mobile_interest": "on"}}),
        )
        .parse()
        .unwrap();
        let MutationArgs::SurveyUpdate(write) = answers else { panic!("not an update") };
        assert_eq!(write.answers.unwrap().land_size.as_deref(), Some("1-2 hectares"));
    }
}
