// Generated from sync-protocol/src/lib.rs by its tests; do not edit.
// Regenerate: UPDATE_TS_BINDINGS=1 cargo test -p sync-protocol

export const PROTOCOL_VERSION = 1;

export type PushRequest = { protocol: number, 
/**
 * One per browser profile, made by the client (a UUID).
 */
client_id: string, mutations: Array<Mutation>, };

export type Mutation = { 
/**
 * Per client, 1, 2, 3... with no gaps, allocated with the local change.
 */
mutation_id: number, 
/**
 * What to do, e.g. `survey.create`, `survey.update`, `survey.delete`.
 */
name: string, 
/**
 * The change itself; its shape depends on `name`.
 */
args: Record<string, unknown>, 
/**
 * The version of the record the person edited, for edits.
 */
base?: number, 
/**
 * When the person made the change, by the phone's clock (RFC 3339).
 */
client_time?: string, };

export type PushResponse = { 
/**
 * The last mutation of this client the server has processed.
 */
last_mutation_id: number, results: Array<MutationResult>, };

export type ResultStatus = "applied" | "merged" | "rejected" | "retry";

export type MutationResult = { mutation_id: number, status: ResultStatus, duplicate?: boolean, 
/**
 * The record it touched, e.g. `survey` and its uid.
 */
entity?: string, id?: string, 
/**
 * For `rejected`: the API's error code and sentence, and field errors.
 */
code?: string, message?: string, error_codes?: Record<string, string[]>, 
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
last_mutation_id: number, changes: Array<Change>, has_more: boolean, };

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
