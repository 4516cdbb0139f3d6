// Sync on the wire: the bytes to push one application and to pull a first
// snapshot, and the time and bytes to push 100 queued applications (in the
// PWA's batches of 50) and pull them onto a second device. Also prints what
// those bytes would take on the 2G link of docs/architecture.md, Budgets
// (250 kbps, 600 ms round trip).
//
//   node bench/sync.mjs [origin]      (start a server first, e.g. scripts/start)
import { randomUUID } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { application, client, register } from './http.mjs';

const origin = process.argv[2] ?? 'http://127.0.0.1:8080';
const request = client(origin);
const LINK_BPS = 250_000;
const RTT_S = 0.6;

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const on2g = (bytes, trips) => `${(bytes * 8 / LINK_BPS + trips * RTT_S).toFixed(1)} s on 2G`;

const token = await register(request, `bench.${Date.now()}@example.com`);
const phone = randomUUID();
let next = 1;

const one = await request('POST', '/sync/push', { token, body: { protocol: 1, client_id: phone, mutations: [{ mutation_id: next++, name: 'survey.create', args: application(0) }] } });
console.log(`push one application: ${kb(one.sent)} up, ${kb(one.received)} down (${on2g(one.sent + one.received, 1)})`);

let sent = 0;
let received = 0;
let trips = 0;
let gzippedUp = 0;
const started = performance.now();
for (let batch = 0; batch < 2; batch++) {
  // Drafts: a person has one pending application at a time (the server refuses a second).
  const mutations = Array.from({ length: 50 }, (_, i) => ({ mutation_id: next++, name: 'survey.create', args: { ...application(batch * 50 + i + 1), status: 'draft' } }));
  const body = { protocol: 1, client_id: phone, mutations };
  // The app gzips its pushes (CompressionStream); the server inflates them.
  gzippedUp += gzipSync(JSON.stringify(body)).length;
  const result = await request('POST', '/sync/push', { token, body });
  if (result.status !== 200 || result.json.results.some((r) => r.status !== 'applied')) throw new Error('push failed');
  sent += result.sent;
  received += result.received;
  trips += 1;
}
const pushMs = performance.now() - started;
console.log(`push 100 queued applications: ${kb(sent)} up, ${kb(received)} down, ${pushMs.toFixed(0)} ms here (${on2g(sent + received, trips)})`);
console.log(`  the same pushes gzipped, as the app sends them: ${kb(gzippedUp)} up (${on2g(gzippedUp + received, trips)})`);

const laptop = randomUUID();
let cursor;
let pulled = 0;
let pullBytes = 0;
let pages = 0;
const pullStarted = performance.now();
for (;;) {
  const page = await request('GET', `/sync/pull?client_id=${laptop}&limit=200${cursor === undefined ? '' : `&cursor=${cursor}`}`, { token });
  pulled += page.json.changes.length;
  pullBytes += page.received;
  pages += 1;
  cursor = page.json.cursor;
  if (!page.json.has_more) break;
}
const pullMs = performance.now() - pullStarted;
console.log(`first snapshot on a second device: ${pulled} applications, ${kb(pullBytes)} down in ${pages} page(s), ${pullMs.toFixed(0)} ms here (${on2g(pullBytes, pages)})`);
