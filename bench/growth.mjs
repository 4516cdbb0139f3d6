// What one write and one search cost as the data grows (issue 81). For each size
// (SIZES, default 0,10000,100000,1000000): a release server with the demo; stopped, each
// table that grows with use gets that many more rows, copies of one of its own made by
// SQL (applications, orders, products, cooperative deliveries, notifications, sync
// results; the products' copies are not in the search index); started again, one at a
// time: ROUNDS pushes of a new application, ROUNDS orders of a bag, ROUNDS searches of
// distinct words. Prints each one's median and mean in ms, and the push's and the
// order's largest size against the smallest (the issue asks at most 2×).
//
//   cargo build --release -p mavuno && node bench/growth.mjs                     # SQLite
//   scripts/with-postgres bash -c 'BENCH_POSTGRES=$MAVUNO_TEST_DATABASE_URL node bench/growth.mjs'  # PostgreSQL
//
// Needs `sqlite3` (Debian's sqlite3) for SQLite; psql comes with scripts/with-postgres.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { application, client, register } from './http.mjs';
import { newPostgresDatabase, startServer } from './server.mjs';

const SIZES = (process.env.SIZES ?? '0,10000,100000,1000000').split(',').map(Number);
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const postgres = process.env.BENCH_POSTGRES;
const TABLES = ['surveys', 'orders', 'products', 'cooperative_deliveries', 'notifications', 'sync_results'];

/** Runs `sql` on the stopped server's database. */
function sql(target, text) {
  if (postgres) {
    const psql = process.env.PG_BIN ? `${process.env.PG_BIN}/psql` : 'psql';
    return execFileSync(psql, ['-q', '-At', '-v', 'ON_ERROR_STOP=1', '-d', target, '-c', text], { encoding: 'utf8' });
  }
  return execFileSync('sqlite3', [join(target, 'mavuno.db'), text], { encoding: 'utf8' });
}

function columns(target, table) {
  const query = postgres
    ? `SELECT column_name FROM information_schema.columns WHERE table_name = '${table}' ORDER BY ordinal_position`
    : `SELECT name FROM pragma_table_info('${table}')`;
  return sql(target, query).split('\n').filter((c) => c && c !== 'id');
}

/** `count` copies of one row of `table`, each with its own key. */
function grow(target, table, count) {
  if (count === 0) return;
  const chosen = columns(target, table).map((c) => {
    if (c === 'uid') return `'seed-${table}-' || n.i`;
    if (c === 'mutation_id') return `1000000000 + n.i`;
    if (c === 'replaces_id') return 'NULL';
    return `t.${c}`;
  });
  const key = table === 'sync_results' ? '(SELECT client_id FROM sync_results LIMIT 1) = t.client_id' : `t.id = (SELECT MIN(id) FROM ${table})`;
  const names = columns(target, table).join(', ');
  sql(target, `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count})
    INSERT INTO ${table} (${names}) SELECT ${chosen.join(', ')} FROM ${table} t, n WHERE ${key}
    ${table === 'sync_results' ? 'AND t.mutation_id = (SELECT MIN(mutation_id) FROM sync_results)' : ''}`);
  // As a database long in use: vacuumed and with its statistics (autovacuum would
  // otherwise work through the new rows during the measurements).
  if (postgres) sql(target, `VACUUM ANALYZE ${table}`);
}

const stats = (ms) => {
  const sorted = [...ms].sort((a, b) => a - b);
  return { median: sorted[Math.floor(sorted.length / 2)], mean: ms.reduce((a, b) => a + b, 0) / ms.length };
};

async function timed(times, what) {
  const ms = [];
  for (let i = 0; i < times; i++) {
    const started = performance.now();
    const answer = await what(i);
    ms.push(performance.now() - started);
    if (answer.status >= 300) throw new Error(`${answer.status} ${answer.text.slice(0, 300)}`);
  }
  return stats(ms);
}

async function measureAt(size) {
  const database = postgres ? newPostgresDatabase(postgres) : undefined;
  let server = await startServer(['--demo'], { database });
  let request = client(server.origin);
  const login = await request('POST', '/users/login', { body: { user: { email: 'farmer@mavuno.demo', password: 'mavuno-demo' } } });
  const farmer = login.json.user.token;
  const client_id = randomUUID();
  const push = (n) => request('POST', '/sync/push', {
    token: farmer, body: { protocol: 1, client_id, mutations: [{ mutation_id: n, name: 'survey.create', args: { ...application(n), status: 'draft' } }] },
  });
  await push(1);
  const buyer = await register(request, `growth-${size}-${Date.now()}@example.com`);
  const dataDir = server.dataDir;
  await server.stop({ keep: true });

  const seeding = performance.now();
  for (const table of TABLES) grow(database ?? dataDir, table, size);
  const seeded = (performance.now() - seeding) / 1000;
  const stored = TABLES.map((t) => `${t} ${Number(sql(database ?? dataDir, `SELECT COUNT(*) FROM ${t}`)).toLocaleString('en')}`);

  server = await startServer(['--demo'], { database, dataDir });
  request = client(server.origin);
  const products = await request('GET', '/products?per_page=1&sort=name');
  const product = products.json.data[0];
  const quantity = Math.max(1, Math.ceil(product.min_order ?? 1));
  const cents = Math.round(product.current_price * 100);
  const pushes = await timed(ROUNDS, (i) => push(i + 2));
  const orders = await timed(ROUNDS, () => request('POST', '/orders', { token: buyer, body: {
    uid: randomUUID(), delivery: 'pickup', payment_method: 'cash_on_delivery',
    lines: [{ product_id: product.id, quantity, unit_price_cents: cents }],
    shipping: { first_name: 'Bench', last_name: 'Buyer', email: 'b@example.com', phone: '+243990000001', address: 'Avenue 1', city: 'Bukavu', country: 'DRC' },
  } }));
  const searches = await timed(ROUNDS, (i) => request('GET', `/products?q=${encodeURIComponent(`growth${size} word${i}`)}`));
  await server.stop();
  return { size, seeded, stored, pushes, orders, searches };
}

const rows = [];
for (const size of SIZES) {
  const row = await measureAt(size);
  rows.push(row);
  const f = ({ median, mean }) => `${median.toFixed(1)} / ${mean.toFixed(1)}`;
  console.log(`${postgres ? 'PostgreSQL' : 'SQLite'} +${size} rows a table (seeded in ${row.seeded.toFixed(0)} s: ${row.stored.join(', ')}): push ${f(row.pushes)} ms, order ${f(row.orders)} ms, search ${f(row.searches)} ms (median / mean)`);
}
const [first, last] = [rows[0], rows.at(-1)];
console.log(`largest against smallest: push ${(last.pushes.median / first.pushes.median).toFixed(2)}×, order ${(last.orders.median / first.orders.median).toFixed(2)}×, search ${(last.searches.median / first.searches.median).toFixed(2)}×`);
