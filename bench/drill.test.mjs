// The off-site copy's drill, short (bench/drill.mjs; scripts/test runs it against the
// debug server): a real S3-compatible store on loopback, Litestream and rclone beside a
// real `mavuno serve` under load, `kill -9`, the data dir deleted, `mavuno restore`,
// and every check of the full drill. The full size (a ~1 GB database) is
// `node bench/drill.mjs`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { drill } from './drill.mjs';

test('a server lost with its disk comes back from the off-site copy, and phones send again what the copy lacked', { timeout: 600_000 }, async () => {
  const figures = await drill({ binary: join(import.meta.dirname, '..', 'target', 'debug', 'mavuno'), seconds: 6, phones: 3 });
  // The drill throws on any failed check (integrity, old writes missing, twice applied,
  // oversold, pictures): here what the run must have exercised for those to mean something.
  assert.ok(figures.acknowledged > 100, `only ${figures.acknowledged} writes acknowledged`);
  assert.ok(figures.ussd_joins > 0 && figures.orders > 0, 'USSD joins and orders under way');
  assert.equal(figures.phones_resnapshotted, 5);
  assert.equal(figures.lost_after_phones_resent, 0);
});
