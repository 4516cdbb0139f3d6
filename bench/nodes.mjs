// One node against two on the same PostgreSQL (docs/operations.md, Several nodes and
// Capacity): the same loads through one `mavuno serve`, then spread over two on one
// database (the client alternating, as a proxy would): cached catalogue pages, 20
// phones pushing durable drafts, 20 phones pulling what changed; then how long a change
// pushed through node A takes to reach phones listening on node A and on node B
// (WebSockets; the wake-up crosses by PostgreSQL's NOTIFY). Runs under
// scripts/with-postgres, which gives a throw-away cluster on this machine:
//
//   cargo build --release -p mavuno
//   scripts/with-postgres node bench/nodes.mjs            (LISTENERS=1000 a node by default)
//
// Everything shares this machine's two cores: the load generator, PostgreSQL and one or
// two servers. Two nodes here cannot show more capacity than one (they split the same
// cores); they show what the sharing costs, and the fan-out across nodes.
import net from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { application, client, register } from './http.mjs';
import { newPostgresDatabase, startServer } from './server.mjs';

const cluster = process.env.MAVUNO_TEST_DATABASE_URL;
if (!cluster) throw new Error('run under scripts/with-postgres (it gives the cluster this bench uses)');
const LISTENERS = Number(process.env.LISTENERS ?? 1000);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const at = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);

/** `requests` keep-alive GETs of the first catalogue page, `connections` at once, over the origins in turn. */
async function cataloguePages(origins, requests = 20_000, connections = 100) {
  const gets = origins.map((origin) => client(origin));
  let next = 0;
  const times = [];
  const started = performance.now();
  await Promise.all(
    Array.from({ length: connections }, async (_, c) => {
      while (next < requests) {
        next += 1;
        const t = performance.now();
        const answer = await gets[c % gets.length]('GET', '/products');
        if (answer.status !== 200) throw new Error(`products: ${answer.status}`);
        times.push(performance.now() - t);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return `catalogue pages from memory: ${(requests / ((performance.now() - started) / 1000)).toFixed(0)} req/s, p50 ${at(times, 0.5)} ms, p99 ${at(times, 0.99)} ms`;
}

/** 20 phones, each on a node in turn, pushing `rounds` drafts one at a time and pulling what changed after each. */
async function pushesAndPulls(origins, rounds = 60) {
  const phones = await Promise.all(
    Array.from({ length: 20 }, async (_, n) => {
      const request = client(origins[n % origins.length]);
      const token = await register(request, `nodes.${n}.${Date.now()}@example.com`);
      const id = randomUUID();
      const first = await request('GET', `/sync/pull?client_id=${id}&limit=100`, { token });
      return { request, token, id, cursor: first.json.cursor };
    }),
  );
  const pushes = [];
  const pulls = [];
  const started = performance.now();
  await Promise.all(
    phones.map(async (phone, n) => {
      for (let round = 1; round <= rounds; round++) {
        const body = { protocol: 1, client_id: phone.id, mutations: [{ mutation_id: round, name: 'survey.create', args: { ...application(n * 1000 + round), status: 'draft' } }] };
        let t = performance.now();
        const pushed = await phone.request('POST', '/sync/push', { token: phone.token, body });
        if (pushed.status !== 200 || pushed.json.results[0].status !== 'applied') throw new Error(`push: ${JSON.stringify(pushed.json)}`);
        pushes.push(performance.now() - t);
        t = performance.now();
        const page = await phone.request('GET', `/sync/pull?client_id=${phone.id}&limit=100&cursor=${phone.cursor}`, { token: phone.token });
        pulls.push(performance.now() - t);
        phone.cursor = page.json.cursor;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  pushes.sort((a, b) => a - b);
  pulls.sort((a, b) => a - b);
  return [
    `durable pushes, 20 phones: ${(pushes.length / seconds).toFixed(0)}/s, p50 ${at(pushes, 0.5)} ms, p99 ${at(pushes, 0.99)} ms`,
    `incremental pulls between them: ${(pulls.length / seconds).toFixed(0)}/s, p50 ${at(pulls, 0.5)} ms, p99 ${at(pulls, 0.99)} ms`,
  ];
}

/** A phone listening on `origin` over a WebSocket, as the app does; `heard(at)` for each new version. */
function listener(origin, cursor, heard) {
  const { hostname, port } = new URL(origin);
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let upgraded = false;
    let buffered = Buffer.alloc(0);
    socket.on('connect', () =>
      socket.write(
        `GET /api/v1/sync/listen?cursor=${cursor} HTTP/1.1\r\nHost: ${hostname}\r\nUpgrade: websocket\r\n` +
          `Connection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!upgraded) {
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!buffered.subarray(0, 12).toString().startsWith('HTTP/1.1 101')) return reject(new Error('no WebSocket'));
        upgraded = true;
        buffered = buffered.subarray(end + 4);
        resolve(socket);
      }
      // Small unmasked text frames from the server: {"version":N}.
      while (buffered.length >= 2 && buffered.length >= 2 + (buffered[1] & 0x7f)) {
        const length = buffered[1] & 0x7f;
        const text = buffered.subarray(2, 2 + length).toString();
        buffered = buffered.subarray(2 + length);
        const version = JSON.parse(text).version;
        if (version !== cursor) heard(performance.now(), version);
      }
    });
  });
}

/** LISTENERS phones on each node; `changes` pushes through A; how long each took to reach A's and B's phones. */
async function fanOut([a, b], changes = 10) {
  const request = client(a);
  const token = await register(request, `nodes.writer.${Date.now()}@example.com`);
  const id = randomUUID();
  const delays = { a: [], b: [] };
  for (let change = 1; change <= changes; change++) {
    const cursor = (await request('GET', '/sync/wait?cursor=-1')).json.version;
    const heard = { a: [], b: [] };
    const sockets = [];
    for (const [name, origin] of [['a', a], ['b', b]]) {
      for (let start = 0; start < LISTENERS; start += 250) {
        const batch = Math.min(250, LISTENERS - start);
        sockets.push(...(await Promise.all(Array.from({ length: batch }, () => listener(origin, cursor, (t) => heard[name].push(t))))));
      }
    }
    await sleep(300);
    const body = { protocol: 1, client_id: id, mutations: [{ mutation_id: change, name: 'survey.create', args: { ...application(90_000 + change), status: 'draft' } }] };
    const pushed = performance.now();
    const answer = await request('POST', '/sync/push', { token, body });
    if (answer.status !== 200) throw new Error(`push: ${answer.status}`);
    for (let waited = 0; (heard.a.length < LISTENERS || heard.b.length < LISTENERS) && waited < 10_000; waited += 20) await sleep(20);
    if (answer.json.results[0].status !== 'applied') throw new Error(`push: ${JSON.stringify(answer.json)}`);
    for (const name of ['a', 'b']) delays[name].push(...heard[name].map((t) => t - pushed));
    for (const socket of sockets) socket.destroy();
  }
  const line = (name, label) => {
    const sorted = delays[name].sort((x, y) => x - y);
    return `${label}: ${sorted.length} of ${changes * LISTENERS} told, p50 ${at(sorted, 0.5)} ms, p99 ${at(sorted, 0.99)} ms, max ${sorted.at(-1).toFixed(1)} ms from the push`;
  };
  return [
    line('a', `a change through node A, ${LISTENERS} phones listening on A`),
    line('b', `the same change, ${LISTENERS} phones listening on B`),
  ];
}

const results = {};
for (const nodes of [1, 2]) {
  console.error(`${nodes} node(s)…`);
  const database = newPostgresDatabase(cluster);
  const servers = [];
  // The demo once: the second node starts on what the first made.
  for (let n = 0; n < nodes; n++) servers.push(await startServer([...(n === 0 ? ['--demo'] : []), '--signup-limit', '100000'], { database }));
  const origins = servers.map((s) => s.origin);
  try {
    results[nodes] = [await cataloguePages(origins), ...(await pushesAndPulls(origins))];
    if (nodes === 2) results.fanOut = await fanOut(origins);
    results[`peak${nodes}`] = servers.map((s) => `${s.peakMib().toFixed(0)} MiB`).join(' + ');
  } finally {
    for (const server of servers) await server.stop();
  }
}
for (const nodes of [1, 2]) {
  console.log(`\n== ${nodes === 1 ? 'one node' : 'two nodes, one database'} (peak RSS ${results[`peak${nodes}`]})`);
  for (const line of results[nodes]) console.log(`  ${line}`);
}
console.log('\n== fan-out across nodes');
for (const line of results.fanOut) console.log(`  ${line}`);
