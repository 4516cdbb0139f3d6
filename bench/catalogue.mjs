// Catalogue reads under load: 10,000 products (PRODUCTS=100000 for more), 200
// concurrent connections (CONNECTIONS=50 for fewer). Prints throughput, latency percentiles and the server's
// peak RSS for the first page, a repeated search, a filtered sort, distinct
// searches (every request a different query, as real buyers make), the first page
// and distinct searches while 20 phones push unrelated writes (application drafts,
// 20 a second in all), the push throughput and latency of 20 phones at once, and the
// server's true peak RSS (the kernel's high-water mark, which the samples can miss). Seeds through
// the farmer API (JSON, no photos), so use a throw-away data dir:
//
//   target/release/mavuno serve --demo --data-dir /tmp/bench-catalogue &
//   node bench/catalogue.mjs [origin] [pid of the server]
//
// The load generator runs on the same machine as the server, so on 2 cores
// the figures are a floor, not a ceiling.
import { randomUUID } from 'node:crypto';
import { application, client, getter, measure, peakKb, register, rssKb } from './http.mjs';

const origin = process.argv[2] ?? 'http://127.0.0.1:8080';
const pid = process.argv[3];
const request = client(origin);
const PRODUCTS = Number(process.env.PRODUCTS ?? 10_000);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 200);
const REQUESTS = 10_000;

const rss = () => (pid ? `${(rssKb(pid) / 1024).toFixed(0)} MB` : 'unknown (pass the pid)');

const login = await request('POST', '/users/login', { body: { user: { email: 'farmer@mavuno.demo', password: 'mavuno-demo' } } });
if (login.status !== 200) throw new Error('start the server with --demo: the bench lists products as the demo farmer');
const token = login.json.user.token;
const words = ['Tomatoes', 'Beans', 'Maize', 'Cassava', 'Coffee', 'Bananas', 'Avocados', 'Onions', 'Sorghum', 'Honey'];
const categories = ['vegetables', 'fruits', 'grains', 'dairy', 'beverages', 'herbs'];
const seeding = performance.now();
// SEEDED=1: the data dir already holds the products (a second run on the same server).
for (let start = 0; process.env.SEEDED !== '1' && start < PRODUCTS; start += 50) {
  await Promise.all(Array.from({ length: 50 }, (_, k) => {
    const n = start + k;
    return request('POST', '/farmer/products', { token, body: { product: {
      title: `${words[n % words.length]} lot ${n}`, description: `Harvest lot ${n} from South Kivu, sorted and packed by the cooperative.`,
      quantity: 10 + (n % 500), price: ((n % 9000) / 100 + 1).toFixed(2), current_price: ((n % 9000) / 100 + 0.5).toFixed(2),
      category: categories[n % categories.length], unit: n % 3 ? 'kg' : 'piece',
    } } });
  }));
}
console.log(`seeded ${PRODUCTS} products in ${((performance.now() - seeding) / 1000).toFixed(1)} s; server RSS ${rss()}`);

const load = (label, path) => measure(origin, label, path, { pid, connections: CONNECTIONS, requests: REQUESTS });

// Phones saving application drafts: unrelated to the catalogue, but synced writes.
const buyer = await register(request, `bench.writer.${Date.now()}@example.com`, 'Writer');
const phones = Array.from({ length: 20 }, () => ({ id: randomUUID(), next: 1 }));
let drafts = 0;
const pushTimes = [];
async function pushDraft(phone) {
  const mutations = [{ mutation_id: phone.next, name: 'survey.create', args: { ...application(drafts++), status: 'draft' } }];
  const started = performance.now();
  const pushed = await request('POST', '/sync/push', { token: buyer, body: { protocol: 1, client_id: phone.id, mutations } });
  if (pushed.status !== 200) throw new Error(`push: ${pushed.status}`);
  pushTimes.push(performance.now() - started);
  phone.next += 1;
}
/** Runs `during` while the phones push one draft each every second (20 writes a second). */
async function withWrites(during) {
  let running = true;
  const writers = phones.map(async (phone, i) => {
    await new Promise((r) => setTimeout(r, i * 50));
    while (running) {
      const started = performance.now();
      await pushDraft(phone);
      await new Promise((r) => setTimeout(r, Math.max(0, 1000 - (performance.now() - started))));
    }
  });
  await during();
  running = false;
  await Promise.all(writers);
}

// Every request a different lot, named as it was listed (so each finds products).
const distinct = (n) => {
  const lot = (n * 7919) % PRODUCTS;
  return `/products?q=${encodeURIComponent(`${words[lot % words.length]} lot ${lot}`)}`;
};
await getter(origin)('/products');
await load('first page (24, newest)', '/products');
await load('search "cassava lot 12"', `/products?q=${encodeURIComponent('cassava lot 12')}`);
await load('fruits under $10 by price', '/products?category=fruits&price=under_10&sort=price_asc');
await load('distinct searches', distinct);
await withWrites(() => load('first page, 20 writes/s', '/products'));
await withWrites(() => load('distinct searches, 20 writes/s', (n) => distinct(n + REQUESTS)));

// Push throughput: 20 phones at once, each pushing one draft after another.
const PUSHES = 100;
pushTimes.length = 0;
const pushing = performance.now();
await Promise.all(phones.map(async (phone) => {
  for (let i = 0; i < PUSHES; i++) await pushDraft(phone);
}));
const seconds = (performance.now() - pushing) / 1000;
pushTimes.sort((a, b) => a - b);
const at = (q) => pushTimes[Math.floor(q * pushTimes.length)].toFixed(1);
console.log(`pushes, 20 phones at once: ${((phones.length * PUSHES) / seconds).toFixed(0)} pushes/s (one draft each, each durable), p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`);
console.log(`server RSS after: ${rss()}; its peak over the whole run (VmHWM, from its start): ${pid ? `${(peakKb(pid) / 1024).toFixed(1)} MB` : 'unknown'}`);
