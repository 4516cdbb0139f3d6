// The API document against the server by schemathesis (pinned; issue 75, docs/api.md):
// a short seeded run as a visitor against the debug build with the demo, in `scripts/test`.
// A schema-valid request refused, a status or a body the document does not describe, a
// 5xx: each fails this test with the tool's words. The long run, as a farmer and an admin
// too, is `node bench/contract.mjs` (figures in the note).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { conformance } from '../bench/contract.mjs';

test('schemathesis finds nothing the document and the server disagree on, as a visitor', { timeout: 600_000 }, async () => {
  const binary = join(import.meta.dirname, '..', 'target', 'debug', 'mavuno');
  const { visitor } = await conformance({ binary, roles: ['visitor'], seconds: 40, examples: 5 });
  console.log(`${visitor.operations} operations in ${visitor.seconds} s`);
  assert.ok(visitor.operations > 150, `only ${visitor.operations} operations were tried`);
  assert.deepEqual(visitor.failures, {}, visitor.report);
});
