// The API document against the server by schemathesis (pinned; issue 75, docs/api.md):
// a short seeded run as a visitor, a farmer and an admin of the demo against the debug
// build, in `scripts/test` — on SQLite, and on PostgreSQL when BENCH_POSTGRES names a
// cluster (scripts/test runs it inside scripts/with-postgres). A schema-valid request
// refused, a status or a body the document does not describe, a 5xx: each fails this test
// with the tool's words. The long run is `node bench/contract.mjs` (figures in the note).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { ROLES, conformance } from '../bench/contract.mjs';

const engine = process.env.BENCH_POSTGRES ? 'PostgreSQL' : 'SQLite';

test(`schemathesis finds nothing the document and the server disagree on, on ${engine}`, { timeout: 900_000 }, async () => {
  const binary = join(import.meta.dirname, '..', 'target', 'debug', 'mavuno');
  const results = await conformance({ binary, roles: Object.keys(ROLES), seconds: 20, examples: 5 });
  for (const [role, result] of Object.entries(results)) {
    console.log(`${engine}, as ${role}: ${result.operations} operations in ${result.seconds} s`);
    assert.ok(result.operations > 150, `${role}: only ${result.operations} operations were tried`);
    assert.deepEqual(result.failures, {}, `${role}: ${result.report}`);
  }
});
