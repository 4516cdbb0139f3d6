// The same loads on both storage engines, side by side (docs/operations.md,
// PostgreSQL): the catalogue (cached and distinct searches, with and without
// writes, 20 phones pushing durable drafts), incremental pulls of 20 phones, 50
// buyers racing for 20 products (oversold must be 0 on both), 200 USSD phones, and
// each server's peak memory. Runs under scripts/with-postgres, which gives a
// throw-away PostgreSQL cluster on this machine:
//
//   cargo build --release -p mavuno
//   scripts/with-postgres node bench/engines.mjs          (PRODUCTS=2000 by default)
//   scripts/with-postgres node bench/engines.mjs catalogue (only the benches named)
//
// Each server is a release build with the demo, on a new data dir (SQLite) or a new
// database of the cluster (PostgreSQL, through bench/server.mjs). The load generator
// and PostgreSQL share the machine's two cores with the server: figures are a floor.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { application, client, register } from './http.mjs';
import { WITH_APP, startServer } from './server.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const cluster = process.env.MAVUNO_TEST_DATABASE_URL;
if (!cluster) throw new Error('run under scripts/with-postgres (it gives the cluster this bench uses)');
const PRODUCTS = process.env.PRODUCTS ?? '2000';

/** Runs a bench script; its output lines. Not synchronously: the server started here
 * writes its log into this process, which must go on reading it. */
async function script(name, args, env = {}) {
  const { stdout } = await promisify(execFile)('node', [join(here, name), ...args], { env: { ...process.env, PRODUCTS, ...env }, maxBuffer: 1 << 26 });
  return stdout.trim().split('\n');
}

async function withServer(engine, args, run) {
  if (engine === 'postgres') process.env.BENCH_POSTGRES = cluster;
  else delete process.env.BENCH_POSTGRES;
  const server = await startServer(args);
  try {
    const lines = await run(server);
    return { lines, peak: server.peakMib() };
  } finally {
    await server.stop();
  }
}

/** 20 phones, each with its own drafts, pulling what changed since their cursor. */
async function incrementalPulls(origin) {
  const request = client(origin);
  const phones = await Promise.all(
    Array.from({ length: 20 }, async (_, n) => {
      const token = await register(request, `pull.${n}.${Date.now()}@example.com`);
      const id = randomUUID();
      await request('POST', '/sync/push', { token, body: { protocol: 1, client_id: id, mutations: [{ mutation_id: 1, name: 'survey.create', args: application(n) }] } });
      const first = await request('GET', `/sync/pull?client_id=${id}&limit=100`, { token });
      return { token, id, cursor: first.json.cursor, next: 2 };
    }),
  );
  const times = [];
  const started = performance.now();
  await Promise.all(
    phones.map(async (phone, n) => {
      for (let round = 0; round < 50; round++) {
        if (round % 10 === 0) {
          const body = { protocol: 1, client_id: phone.id, mutations: [{ mutation_id: phone.next++, name: 'survey.create', args: application(n * 100 + round) }] };
          await request('POST', '/sync/push', { token: phone.token, body });
        }
        const at = performance.now();
        const page = await request('GET', `/sync/pull?client_id=${phone.id}&limit=100&cursor=${phone.cursor}`, { token: phone.token });
        times.push(performance.now() - at);
        phone.cursor = page.json.cursor;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  return [`incremental pulls, 20 phones (a push every 10 pulls): ${(times.length / seconds).toFixed(0)} pulls/s, p50 ${at(0.5)} ms, p99 ${at(0.99)} ms`];
}

const runs = {
  catalogue: (engine) => withServer(engine, ['--demo'], async (s) => script('catalogue.mjs', [s.origin, String(s.pid ?? '')])),
  pulls: (engine) => withServer(engine, ['--demo', '--signup-limit', '1000'], (s) => incrementalPulls(s.origin)),
  orders: (engine) => withServer(engine, [...WITH_APP, '--signup-limit', '1000'], async (s) => (await script('orders.mjs', [s.origin])).filter((l) => !l.startsWith('/') && !l.startsWith('route'))),
  ussd: async (engine) => {
    const env = engine === 'postgres' ? { BENCH_POSTGRES: cluster } : {};
    return { lines: await script('ussd.mjs', ['200'], env), peak: null };
  },
};

const chosen = process.argv.slice(2);
for (const name of chosen) if (!runs[name]) throw new Error(`no bench ${name}: ${Object.keys(runs).join(', ')}`);
const results = {};
const names = chosen.length ? chosen : Object.keys(runs);
for (const name of names) {
  const run = runs[name];
  for (const engine of ['sqlite', 'postgres']) {
    console.error(`${name} on ${engine}…`);
    results[`${name}/${engine}`] = await run(engine);
  }
}

// Side by side: each figure line of a bench, SQLite's then PostgreSQL's.
for (const name of names) {
  console.log(`\n== ${name}`);
  const [a, b] = [results[`${name}/sqlite`], results[`${name}/postgres`]];
  const rows = Math.max(a.lines.length, b.lines.length);
  for (let i = 0; i < rows; i++) {
    console.log(`  SQLite:     ${a.lines[i] ?? ''}`);
    console.log(`  PostgreSQL: ${b.lines[i] ?? ''}`);
  }
  if (a.peak !== null) console.log(`  server peak RSS: SQLite ${a.peak.toFixed(0)} MiB, PostgreSQL ${b.peak.toFixed(0)} MiB (PostgreSQL's own processes not counted)`);
}
