// The admin's Applications screen with 10,000 applications: server time and
// bytes on the wire for a page, a search, a filtered page, a late page and
// the full CSV export. Seeds 100 buyers with 100 applications each through
// the sync endpoint (the way phones send them), so run it on a throw-away
// data dir:
//
//   target/release/mavuno serve --demo --data-dir /tmp/bench-admin --signup-limit 1000 &
//   node bench/admin-list.mjs [origin]
import { randomUUID } from 'node:crypto';
import { application, client, register } from './http.mjs';

const origin = process.argv[2] ?? 'http://127.0.0.1:8080';
const request = client(origin);
const PEOPLE = 100;
const EACH = 100;
const RUNS = 50;

const seeding = performance.now();
const stamp = Date.now();
for (let person = 0; person < PEOPLE; person++) {
  const token = await register(request, `bench.${stamp}.${person}@example.com`, `Person${person}`);
  const phone = randomUUID();
  for (let batch = 0; batch < EACH / 50; batch++) {
    const mutations = Array.from({ length: 50 }, (_, i) => ({
      mutation_id: batch * 50 + i + 1,
      name: 'survey.create',
      args: application(person * EACH + batch * 50 + i),
    }));
    const pushed = await request('POST', '/sync/push', { token, body: { protocol: 1, client_id: phone, mutations } });
    if (pushed.status !== 200) throw new Error(`push: ${pushed.status}`);
  }
}
console.log(`seeded ${PEOPLE * EACH} applications in ${((performance.now() - seeding) / 1000).toFixed(1)} s`);

const login = await request('POST', '/users/login', { body: { user: { email: 'superadmin@mavuno.demo', password: 'mavuno-demo' } } });
if (login.status !== 200) throw new Error('start the server with --demo: the bench signs in as the demo super admin');
const token = login.json.user.token;

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
async function measure(label, path, runs = RUNS) {
  const times = [];
  let answer;
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    answer = await request('GET', path, { token });
    times.push(performance.now() - started);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status}`);
  }
  times.sort((a, b) => a - b);
  const p = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  const total = answer.json ? ` of ${answer.json.total}` : '';
  console.log(`${label}: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms; ${kb(answer.received)} on the wire (${kb(answer.text.length)} unpacked)${total}`);
}

const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
await measure('first page (50)', '/admin/surveys');
await measure('search "umoja 4242"', `/admin/surveys?q=${encodeURIComponent('umoja 4242')}`);
await measure('pending, last 30 days', `/admin/surveys?status=pending&from=${encodeURIComponent(monthAgo)}`);
await measure('page 200 (the oldest)', '/admin/surveys?page=200');
await measure('CSV export of all', '/admin/surveys/export?lang=fr', 5);
