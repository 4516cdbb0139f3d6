// Orders under contention: 50 buyers at once, competing for 20 products
// with little stock, each placing small orders until the stock is gone.
// Prints orders placed per second, latency percentiles, and checks that
// nothing was oversold (every product's stock = its start minus what the
// placed orders hold, and never below zero). Then the JS the checkout and
// orders routes add to the first visit of those routes (gz).
//
//   target/release/mavuno serve --demo --data-dir /tmp/bench-orders --web-dir pwa/dist --signup-limit 1000 &
//   node bench/orders.mjs [origin]
//
// Seeds through the API (its own farmer and buyers), so use a throw-away
// data dir. The load generator shares the machine's two cores with the server.
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { benchPhone, client } from './http.mjs';

const origin = process.argv[2] ?? 'http://127.0.0.1:8080';
const request = client(origin);
const BUYERS = 50;
const PRODUCTS = 20;
const STOCK = 60;

const admin = await request('POST', '/users/login', { body: { user: { email: 'farmer@mavuno.demo', password: 'mavuno-demo' } } });
if (admin.status !== 200) throw new Error('start the server with --demo: the bench sells as the demo farmer');
const farmer = admin.json.user.token;

const products = [];
for (let n = 0; n < PRODUCTS; n++) {
  const { status, json } = await request('POST', '/farmer/products', {
    token: farmer,
    body: { product: { title: `Bench lot ${n} ${randomUUID().slice(0, 8)}`, description: 'Contended stock', quantity: STOCK, price: 1, current_price: 1, shipping_cost: 2 } },
  });
  if (status !== 201) throw new Error(`listing failed: ${status}`);
  products.push(json.product.id);
}

const buyers = await Promise.all(
  Array.from({ length: BUYERS }, async (_, n) => {
    const email = `bench-buyer-${Date.now()}-${n}@example.com`;
    const user = { first_name: 'Bench', last_name: `Buyer ${n}`, email, phone_number: benchPhone(), country: 'DRC', password: 'bench-2026', password_confirmation: 'bench-2026' };
    const { status, json } = await request('POST', '/users', { body: { user } });
    if (status !== 201) throw new Error(`sign-up failed: ${status} ${JSON.stringify(json)}`);
    return json.data.token;
  }),
);

const shipping = { first_name: 'Bench', last_name: 'Buyer', email: 'bench@example.com', phone: '+243990000000', address: 'Avenue 1', city: 'Bukavu', country: 'DRC' };
const times = [];
let placed = 0;
let refused = 0;
// What the buyers last heard of each product's stock; a product leaves the pool at 0.
const hint = new Map(products.map((id) => [id, STOCK]));
const started = performance.now();
await Promise.all(
  buyers.map(async (token, n) => {
    for (let round = 0; hint.size > 0; round++) {
      const pool = [...hint.keys()];
      const pick = [...new Set([pool[(n + round) % pool.length], pool[(n * 7 + round * 3 + 1) % pool.length]])];
      const lines = pick.map((id, k) => ({
        product_id: id,
        quantity: Math.max(1, Math.min(1 + ((n + round + k) % 3), hint.get(id) ?? 1)),
        unit_price_cents: 100,
      }));
      const t0 = performance.now();
      const { status, json } = await request('POST', '/orders', {
        token,
        body: { uid: randomUUID(), lines, delivery: 'delivery', payment_method: 'cash_on_delivery', shipping },
      });
      times.push(performance.now() - t0);
      if (status === 201) placed += 1;
      else if (status === 409 && json.code === 'order_changed') {
        refused += 1;
        for (const line of json.details.lines) {
          if (line.stock === 0) hint.delete(line.product_id);
          else hint.set(line.product_id, line.stock);
        }
      } else throw new Error(`unexpected ${status} ${JSON.stringify(json)}`);
    }
  }),
);
const seconds = (performance.now() - started) / 1000;
times.sort((x, y) => x - y);
const pct = (p) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))].toFixed(1);
console.log(`${BUYERS} buyers, ${PRODUCTS} products of ${STOCK} units: ${placed} orders placed, ${refused} refused (stock ran out), in ${seconds.toFixed(1)} s`);
console.log(`placed per second ${(placed / seconds).toFixed(0)}; latency p50 ${pct(50)} ms, p95 ${pct(95)} ms, p99 ${pct(99)} ms (all answers)`);

// No oversell: what the placed orders hold plus what is left is exactly what there was.
const sold = new Map(products.map((id) => [id, 0]));
for (const token of buyers) {
  const { json } = await request('GET', '/orders', { token });
  for (const order of json.data) for (const part of order.parts) for (const line of part.lines) sold.set(line.product_id, sold.get(line.product_id) + line.quantity);
}
let oversold = 0;
for (const id of products) {
  const left = (await request('GET', `/products/${id}`)).json?.data?.quantity ?? 0;
  if (left < 0 || sold.get(id) + left !== STOCK) oversold += 1;
}
console.log(oversold === 0 ? `no oversell: for every product, sold + left = ${STOCK}` : `OVERSOLD on ${oversold} products`);

// The JS the checkout and orders routes add (their lazy chunks and what they import), gzip.
try {
  const dir = new URL('../pwa/dist/assets/', import.meta.url);
  const files = readdirSync(dir);
  const chunk = (prefix) => files.find((f) => f.startsWith(prefix) && f.endsWith('.js'));
  const entry = readFileSync(new URL('../pwa/dist/index.html', import.meta.url), 'utf8');
  const initial = new Set([...entry.matchAll(/assets\/([^"]+\.js)/g)].map((m) => m[1]));
  const closure = (start) => {
    const seen = new Set();
    const stack = [start];
    while (stack.length) {
      const file = stack.pop();
      if (seen.has(file) || initial.has(file)) continue;
      seen.add(file);
      const text = readFileSync(new URL(file, dir), 'utf8');
      for (const m of text.matchAll(/from"\.\/([^"]+\.js)"|import"\.\/([^"]+\.js)"/g)) stack.push(m[1] ?? m[2]);
    }
    return seen;
  };
  for (const route of ['checkout-page', 'orders-page']) {
    const files = closure(chunk(route));
    const gz = [...files].reduce((sum, f) => sum + gzipSync(readFileSync(new URL(f, dir)), { level: 9 }).length, 0);
    console.log(`/${route.replace('-page', '')}: ${files.size} JS files beyond the first page's, ${(gz / 1024).toFixed(1)} KB gz`);
  }
} catch (error) {
  console.log(`route sizes: build the PWA first (${error.message})`);
}
