// Generated from sync-protocol/src/lib.rs by its tests; do not edit.
// Regenerate: UPDATE_TS_BINDINGS=1 cargo test -p sync-protocol

export const PROTOCOL_VERSION = 1;

/** The application's questions in the form's order, with their kind and whether a submission needs them. */
export const SURVEY_FIELDS = [
  {
    "name": "land_size",
    "kind": "text",
    "required": true
  },
  {
    "name": "work_type",
    "kind": "text",
    "required": true
  },
  {
    "name": "cooperative_name",
    "kind": "text",
    "required": false
  },
  {
    "name": "income_sources",
    "kind": "text",
    "required": true
  },
  {
    "name": "seed_type",
    "kind": "text",
    "required": true
  },
  {
    "name": "seed_source",
    "kind": "text",
    "required": true
  },
  {
    "name": "fertilizers",
    "kind": "text",
    "required": true
  },
  {
    "name": "field_preparation",
    "kind": "text",
    "required": true
  },
  {
    "name": "farming_techniques",
    "kind": "long_text",
    "required": true
  },
  {
    "name": "planting_season",
    "kind": "text",
    "required": true
  },
  {
    "name": "higher_season",
    "kind": "text",
    "required": true
  },
  {
    "name": "higher_season_reason",
    "kind": "long_text",
    "required": true
  },
  {
    "name": "average_yield",
    "kind": "text",
    "required": true
  },
  {
    "name": "challenges",
    "kind": "long_text",
    "required": true
  },
  {
    "name": "post_harvest_losses",
    "kind": "flag",
    "required": false
  },
  {
    "name": "loss_percentage",
    "kind": "percent",
    "required": false
  },
  {
    "name": "selling_method",
    "kind": "text",
    "required": true
  },
  {
    "name": "selling_challenges",
    "kind": "flag",
    "required": false
  },
  {
    "name": "selling_challenges_explanation",
    "kind": "long_text",
    "required": false
  },
  {
    "name": "mobile_interest",
    "kind": "flag",
    "required": false
  },
  {
    "name": "improvements_production",
    "kind": "long_text",
    "required": true
  },
  {
    "name": "improvements_selling",
    "kind": "long_text",
    "required": true
  },
  {
    "name": "additional_comments",
    "kind": "long_text",
    "required": false
  }
] as const;

export const MUTATION_NAMES = ["survey.create","survey.update","survey.delete","product.create","product.update","product.adjust_stock","product.delete","favourite.set","order.place","order.update_part","enrolment.create","enrolment.progress","comment.create","comment.like","person.register","notification.read","price.record","delivery.record"] as const;

export type Loose = boolean | number | string;

export type SurveyAnswers = { land_size: string | null, work_type: string | null, cooperative_name: string | null, income_sources: string | null, seed_type: string | null, seed_source: string | null, fertilizers: string | null, field_preparation: string | null, farming_techniques: string | null, planting_season: string | null, higher_season: string | null, higher_season_reason: string | null, average_yield: string | null, challenges: string | null, post_harvest_losses: boolean, 
/**
 * 0 to 100; 0 unless `post_harvest_losses`.
 */
loss_percentage: number, selling_method: string | null, selling_challenges: boolean, 
/**
 * Only when `selling_challenges`.
 */
selling_challenges_explanation: string | null, mobile_interest: boolean, improvements_production: string | null, improvements_selling: string | null, additional_comments: string | null, };

export type SurveyAnswersInput = { land_size?: string, work_type?: string, cooperative_name?: string, income_sources?: string, seed_type?: string, seed_source?: string, fertilizers?: string, field_preparation?: string, farming_techniques?: string, planting_season?: string, higher_season?: string, higher_season_reason?: string, average_yield?: string, challenges?: string, post_harvest_losses?: Loose, loss_percentage?: Loose, selling_method?: string, selling_challenges?: Loose, selling_challenges_explanation?: string, mobile_interest?: Loose, improvements_production?: string, improvements_selling?: string, additional_comments?: string, };

export type ListingInput = { title?: string, 
/**
 * The name in English, French or Kiswahili, when the farmer gives it (blank clears it).
 */
title_en?: string, title_fr?: string, title_sw?: string, description?: string, 
/**
 * The description in English, French or Kiswahili, when the farmer gives it (blank clears it).
 */
description_en?: string, description_fr?: string, description_sw?: string, category?: string, unit?: string, quantity?: Loose, price?: Loose, current_price?: Loose, status?: string, harvest_date?: string, expiry_date?: string, certifications?: Array<string>, tags?: Array<string>, shipping_available?: Loose, shipping_cost?: Loose, shipping_days?: string, min_order?: Loose, max_order?: Loose, 
/**
 * Hashes of photos already sent to `PUT /uploads/{sha256}`.
 */
images?: Array<string>, };

export type SurveyWrite = { uid: string, 
/**
 * `draft`, `pending`, or `re-submitted`; none keeps the status (or submits a new one).
 */
status?: string, answers?: SurveyAnswersInput, 
/**
 * The applicant, when a field agent or admin fills the form for them.
 */
user_id?: number, 
/**
 * Or the applicant a field agent registered from the phone (`person.register`'s
 * `uid`), before the phone knows their id.
 */
person_uid?: string, };

export type ProductWrite = { uid: string, fields?: ListingInput, };

export type ByUid = { uid: string, };

export type StockChange = { uid: string, delta: number, };

export type Toggle = { uid: string, on: boolean, };

export type OrderLineInput = { product_id: number, quantity: number, unit_price_cents: number, };

export type ShippingInput = { first_name: string, last_name: string, email: string, phone: string, address: string, city: string, postal_code: string, 
/**
 * One of the platform's country codes (DRC, BDI, RWA, UGA, TZA, KEN).
 */
country: string, };

export type OrderPlace = { 
/**
 * Made by the client (a UUID), so an order sent twice is one.
 */
uid: string, lines: Array<OrderLineInput>, 
/**
 * `delivery` or `pickup` (at the farmer's place).
 */
delivery: string, 
/**
 * `mobile_money` or `cash_on_delivery`.
 */
payment_method: string, shipping: ShippingInput, };

export type OrderPartChange = { uid: string, part_id: number, status: string, reason?: string, };

export type LessonEvent = { uid: string, event_uid: string, lesson_id: number, 
/**
 * `viewed`, `completed` (a reading) or `quiz` (an attempt, with `answers`).
 */
kind: string, 
/**
 * A quiz attempt's choices, one per question, in order.
 */
answers?: Array<number>, };

export type CommentWrite = { uid: string, post_uid: string, parent_uid?: string, body: string, };

export type PersonRegister = { uid: string, first_name: string, last_name: string, 
/**
 * International, or national in the form of `country`.
 */
phone_number: string, 
/**
 * One of DRC, BDI, RWA, UGA, TZA, KEN.
 */
country: string, 
/**
 * The village or place.
 */
location?: string, };

export type PriceRecord = { uid: string, 
/**
 * The market's id (`GET /prices/markets`).
 */
market: number, 
/**
 * A crop's key (maize, bean, cassava, ...).
 */
crop: string, 
/**
 * kg, bag_50kg, bag_100kg, basin, bunch or piece.
 */
unit: string, 
/**
 * As written, at most two decimals: "1.20", "2500".
 */
price: string, 
/**
 * USD or CDF.
 */
currency: string, 
/**
 * The day it was seen, YYYY-MM-DD.
 */
observed_on: string, note?: string, };

export type DeliveryRecord = { uid: string, cooperative: number, 
/**
 * The member's id.
 */
member: number, 
/**
 * A crop's key (maize, bean, coffee, ...).
 */
crop: string, 
/**
 * A, B or C.
 */
grade: string, 
/**
 * As weighed, at most one decimal: "48.5".
 */
quantity: string, 
/**
 * kg, bag_50kg or bag_100kg.
 */
unit: string, 
/**
 * YYYY-MM-DD.
 */
delivered_on: string, 
/**
 * The collection point.
 */
place: string, 
/**
 * The scale's photo, uploaded first.
 */
photo?: string, 
/**
 * The uid of the entry this one corrects.
 */
replaces?: string, note?: string, };

export type MutationArgs = { "name": "survey.create", "args": SurveyWrite } | { "name": "survey.update", "args": SurveyWrite } | { "name": "survey.delete", "args": ByUid } | { "name": "product.create", "args": ProductWrite } | { "name": "product.update", "args": ProductWrite } | { "name": "product.adjust_stock", "args": StockChange } | { "name": "product.delete", "args": ByUid } | { "name": "favourite.set", "args": Toggle } | { "name": "order.place", "args": OrderPlace } | { "name": "order.update_part", "args": OrderPartChange } | { "name": "enrolment.create", "args": ByUid } | { "name": "enrolment.progress", "args": LessonEvent } | { "name": "comment.create", "args": CommentWrite } | { "name": "comment.like", "args": Toggle } | { "name": "person.register", "args": PersonRegister } | { "name": "notification.read", "args": ByUid } | { "name": "price.record", "args": PriceRecord } | { "name": "delivery.record", "args": DeliveryRecord };

export type PushRequest = { 
/**
 * The sync protocol this app speaks: the server speaks 1 (`protocol_unsupported` otherwise).
 */
protocol: number, 
/**
 * One per browser profile, made by the client once (a UUID; `invalid_client_id` otherwise).
 */
client_id: string, 
/**
 * Oldest first; `mutation_id` goes on from the last this client sent, with no gap (400 `mutation_order`).
 */
mutations: Array<Mutation>, };

export type Mutation = { 
/**
 * Per client, 1, 2, 3... with no gaps, allocated with the local change.
 */
mutation_id: number, 
/**
 * What to do: a name of [`MutationArgs`], e.g. `survey.create`. Read
 * as text so that a name this server does not know refuses only that
 * mutation, not the whole push.
 */
name: string, 
/**
 * The change itself; its shape depends on `name` (see [`MutationArgs`]).
 */
args: Record<string, unknown>, 
/**
 * The version of the record the person edited, for edits.
 */
base?: number, 
/**
 * When the person made the change, by the phone's clock (RFC 3339).
 */
client_time?: string, 
/**
 * Sent again after the server was restored (docs/sync.md, Push): what the phone was
 * told the first time (`applied`, `merged` or `rejected`). When the answer now is
 * the other way, the person is told (a notification; a lost order's farmers by SMS).
 */
told?: ResultStatus, };

export type PushResponse = { 
/**
 * The last mutation of this client the server has processed.
 */
last_mutation_id: number, results: Array<MutationResult>, };

export type ResultStatus = "applied" | "merged" | "rejected" | "retry" | "forgotten";

export type MutationResult = { mutation_id: number, status: ResultStatus, duplicate?: boolean, 
/**
 * The record it touched, e.g. `survey` and its uid.
 */
entity?: string, id?: string, 
/**
 * For `rejected`: the API's error code and sentence, and field errors (for
 * `forgotten`: `result_forgotten` and a sentence).
 */
code?: string, message?: string, error_codes?: Record<string, string[]>, 
/**
 * For `rejected`: what the refusal is about, when a sentence is not enough
 * (e.g. an order's lines whose price or stock changed).
 */
details?: Record<string, unknown>, 
/**
 * For `merged`: the fields someone else changed too (the later change won).
 */
conflicts?: Array<string>, };

export type PullResponse = { 
/**
 * Ask for the next page (or the next pull) with this.
 */
cursor: number, 
/**
 * Drop queued mutations up to this one: their effects are in the changes.
 */
last_mutation_id: number, changes: Array<Change>, has_more: boolean, 
/**
 * While a snapshot (a first pull) has more pages: send it back as `snapshot=`
 * with the next `cursor`, so those pages too leave out what the phone never had.
 */
snapshot?: number, };

export type ChangeOp = "put" | "del";

export type Change = { 
/**
 * e.g. `survey`.
 */
entity: string, 
/**
 * The record's uid.
 */
id: string, op: ChangeOp, 
/**
 * The whole record, for `put`.
 */
record?: Record<string, unknown>, };
