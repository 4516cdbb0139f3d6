// A soak (issue 35): 200 connections of mixed traffic for 10 minutes against a
// throw-away release server with the demo: catalogue pages, searches and product
// pages, sign-ins, sync pushes and pulls, long-polls, picture uploads. Prints the
// requests and errors (any 5xx, a dropped connection or an answer the kind never
// gives) per kind with p50/p99, and the server's RSS at start, peak and end. Throttle
// answers (429) are counted apart: they are the server doing its job.
//
//   cargo build --release -p mavuno && node bench/soak.mjs [seconds=600] [connections=200]
import { createHash, randomUUID } from 'node:crypto';
import http from 'node:http';
import { deflateSync } from 'node:zlib';
import { startServer } from './server.mjs';

const SECONDS = Number(process.argv[2] ?? 600);
const CONNECTIONS = Number(process.argv[3] ?? 200);
const server = await startServer(['--demo']);
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

function call(method, path, { token, json, body, type } = {}) {
  const data = json !== undefined ? Buffer.from(JSON.stringify(json)) : body;
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(`${server.origin}/api/v1${path}`, {
      method,
      agent,
      headers: {
        ...(data ? { 'Content-Type': json !== undefined ? 'application/json' : type, 'Content-Length': data.length } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString(), ms: performance.now() - started }));
    });
    req.on('error', (err) => resolve({ status: 0, text: String(err), ms: performance.now() - started }));
    if (data) req.write(data);
    req.end();
  });
}

const signIn = async (email) => JSON.parse((await call('POST', '/users/login', { json: { user: { email, password: 'mavuno-demo' } } })).text).user.token;
const farmer = await signIn('farmer@mavuno.demo');
const buyer = await signIn('buyer@mavuno.demo');
const admin = await signIn('superadmin@mavuno.demo');
const products = JSON.parse((await call('GET', '/products?per_page=24')).text).data.map((p) => p.id);
const mine = JSON.parse((await call('GET', '/farmer/products', { token: farmer })).text).data.map((p) => p.uid);
const words = ['beans', 'tomato', 'mahindi', 'cafe', 'avocat', 'maize', 'kahawa', 'corn', 'honey', 'rice'];

/** A small PNG of its own (a new picture each time: uploads are counted). */
function png(seed) {
  const crc = (buf) => {
    let c = ~0;
    for (const b of buf) {
      c ^= b;
      for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
    }
    return ~c >>> 0;
  };
  const chunk = (type, data) => {
    const out = Buffer.alloc(12 + data.length);
    out.writeUInt32BE(data.length, 0);
    out.write(type, 4, 'ascii');
    data.copy(out, 8);
    out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(16, 0);
  header.writeUInt32BE(16, 4);
  header[8] = 8;
  header[9] = 2;
  const rows = Buffer.alloc(16 * (1 + 48), seed % 251);
  for (let y = 0; y < 16; y++) rows[y * 49] = 0;
  return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

let uploads = 0;
let cursor = 0;
/**
 * Each kind: its share of requests, what it does (for a connection, which is a phone
 * of its own: its client id and its next mutation id), and the statuses it may answer.
 */
const KINDS = {
  catalogue: [30, () => call('GET', `/products?page=${1 + Math.floor(Math.random() * 3)}`), [200]],
  search: [18, () => call('GET', `/products?q=${words[Math.floor(Math.random() * words.length)]}`), [200]],
  product: [12, () => call('GET', `/products/${products[Math.floor(Math.random() * products.length)]}`), [200]],
  pull: [15, async (phone) => {
    const answer = await call('GET', `/sync/pull?client_id=${phone.client}&limit=200`, { token: buyer });
    if (answer.status === 200) cursor = Math.max(cursor, JSON.parse(answer.text).cursor ?? 0);
    return answer;
  }, [200]],
  push: [10, (phone) => {
    const n = phone.next++;
    const args = { uid: mine[n % mine.length], delta: n % 2 ? 1 : -1 };
    return call('POST', '/sync/push', { token: farmer, json: { protocol: 1, client_id: phone.client, mutations: [{ mutation_id: n, name: 'product.adjust_stock', args }] } });
  }, [200]],
  // A phone with the app open, waiting for the next change from the newest version it knows.
  wait: [8, () => call('GET', `/sync/wait?cursor=${cursor}`), [200]],
  // As the field agent: a buyer signing in a hundred times would end the bench's own buyer session.
  sign_in: [2, () => call('POST', '/users/login', { json: { user: { email: 'agent@mavuno.demo', password: 'mavuno-demo' } } }), [200, 429]],
  upload: [5, () => {
    // The admin's hourly allowance (600), spread over the run.
    if (uploads >= Math.min(600, SECONDS)) return call('GET', '/health');
    const bytes = png(uploads++);
    return call('PUT', `/uploads/${createHash('sha256').update(bytes).digest('hex')}`, { token: admin, body: bytes, type: 'image/png' });
  }, [200, 201, 429]],
};
const total = Object.values(KINDS).reduce((sum, [share]) => sum + share, 0);
const pick = () => {
  let roll = Math.random() * total;
  for (const [name, [share]] of Object.entries(KINDS)) if ((roll -= share) < 0) return name;
  return 'catalogue';
};

const seen = Object.fromEntries(Object.keys(KINDS).map((k) => [k, { times: [], errors: 0, throttled: 0, sample: '' }]));
const rss = { start: server.rssMib(), peak: 0, end: 0, minutes: [] };
const sampler = setInterval(() => { rss.peak = Math.max(rss.peak, server.rssMib()); }, 250);
// Whether memory stays flat: the RSS at the end of each minute.
const minutes = setInterval(() => rss.minutes.push(server.rssMib().toFixed(0)), 60_000);
const deadline = performance.now() + SECONDS * 1000;
const started = performance.now();
await Promise.all(
  Array.from({ length: CONNECTIONS }, async () => {
    const phone = { client: randomUUID(), next: 1 };
    while (performance.now() < deadline) {
      const kind = pick();
      const answer = await KINDS[kind][1](phone);
      const record = seen[kind];
      record.times.push(answer.ms);
      if (answer.status === 429) record.throttled++;
      else if (!KINDS[kind][2].includes(answer.status)) {
        record.errors++;
        record.sample ||= `${answer.status} ${answer.text.slice(0, 120)}`;
      }
    }
  }),
);
clearInterval(sampler);
clearInterval(minutes);
rss.end = server.rssMib();
const seconds = (performance.now() - started) / 1000;
const percentile = (list, p) => [...list].sort((a, b) => a - b)[Math.min(list.length - 1, Math.floor(p * list.length))]?.toFixed(1);
let requests = 0;
let errors = 0;
console.log(`${CONNECTIONS} connections, ${seconds.toFixed(0)} s of mixed traffic:`);
for (const [kind, record] of Object.entries(seen)) {
  requests += record.times.length;
  errors += record.errors;
  console.log(`  ${kind.padEnd(9)} ${String(record.times.length).padStart(7)} requests, p50 ${percentile(record.times, 0.5)} ms, p99 ${percentile(record.times, 0.99)} ms, ${record.errors} errors${record.throttled ? `, ${record.throttled} throttled (429)` : ''}${record.sample ? ` (e.g. ${record.sample})` : ''}`);
}
console.log(`all: ${requests} requests (${(requests / seconds).toFixed(0)}/s), ${errors} errors`);
console.log(`server RSS: ${rss.start.toFixed(0)} MiB at start, ${rss.peak.toFixed(0)} MiB peak, ${rss.end.toFixed(0)} MiB at the end`);
if (rss.minutes.length) console.log(`  at each minute's end: ${rss.minutes.join(', ')} MiB`);
await server.stop();
process.exit(errors === 0 ? 0 : 1);
