// Phones listening: PHONES (default 10,000) apps open at once, each listening as the
// PWA does: over a WebSocket on `/sync/listen` (answering each message, as the app
// does), or with LISTEN=poll a long poll on `/sync/wait` (asking again when an answer
// comes back unchanged after 25 s), the app's way where WebSockets do not get through.
// Prints the time to open them all, the server's memory per waiting phone, the
// catalogue's first page while they wait, how many phones one person's draft wakes
// (each then pulls) and how long it takes to reach them (p50/p99/max from the push
// that made it), then the same for a change of the catalogue (the demo farmer's stock).
// SCOPED=1: the phones listen as today's signed-out app does (the `mavuno`
// subprotocol, or `scoped=1`), told only of what concerns them (docs/sync.md,
// Listening): a person's draft wakes none of them, a stock change all; without it, as
// an older app, every change wakes every phone.
// The catalogue's first page is measured before they come and while they wait.
// Each phone is a raw socket, so one Node process can hold ten thousand; it raises its
// own open-files limit to the hard limit first. The server raises its own too, and
// holds at most --max-connections (docs/operations.md, Capacity).
//
//   target/release/mavuno serve --demo --data-dir /tmp/bench-listeners &
//   node bench/listeners.mjs [origin] [pid of the server]
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import { randomBytes, randomUUID } from 'node:crypto';
import { application, client, measure, register, rssKb } from './http.mjs';

const PHONES = Number(process.env.PHONES ?? 10_000);
const [soft, hard] = /Max open files\s+(\d+)\s+(\d+)/
  .exec(readFileSync('/proc/self/limits', 'utf8'))
  .slice(1)
  .map(Number);
if (soft < PHONES + 500 && !process.env.LISTENERS_RAISED) {
  // Node cannot raise its own limit: run again under a shell that has.
  if (hard < PHONES + 500)
    throw new Error(
      `the hard open-files limit (${hard}) is below ${PHONES + 500}: raise it (ulimit -Hn) or set PHONES`,
    );
  execFileSync('sh', ['-c', `ulimit -n ${hard} && exec "$0" "$@"`, process.execPath, ...process.argv.slice(1)], {
    stdio: 'inherit',
    env: { ...process.env, LISTENERS_RAISED: '1' },
  });
  process.exit(0);
}

const origin = process.argv[2] ?? 'http://127.0.0.1:8080';
const pid = process.argv[3];
const { hostname, port } = new URL(origin);
const request = client(origin);
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const percentile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

const version = (await request('GET', '/sync/wait?cursor=-1')).json.version;
const overWebSockets = process.env.LISTEN !== 'poll';
const scoped = process.env.SCOPED === '1';
const asking = (cursor) =>
  `GET /api/v1/sync/wait?cursor=${cursor}${scoped ? '&scoped=1' : ''} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`;
const handshake = (cursor) =>
  `GET /api/v1/sync/listen?cursor=${cursor} HTTP/1.1\r\nHost: ${hostname}\r\nUpgrade: websocket\r\n` +
  `Connection: Upgrade\r\nSec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n` +
  `${scoped ? 'Sec-WebSocket-Protocol: mavuno\r\n' : ''}\r\n`;
// "Still here", as the app answers each message: a masked one-byte text frame.
const mask = randomBytes(4);
const stillHere = Buffer.from([0x81, 0x81, ...mask, '1'.charCodeAt(0) ^ mask[0]]);

/** One phone: a WebSocket, answering each message (or a keep-alive connection asking `/sync/wait` again after each unchanged answer). */
function phone(onChange) {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: hostname, port: Number(port) });
    let buffered = Buffer.alloc(0);
    let upgraded = false;
    // Open once connected (a long poll), or once the server has answered the handshake.
    socket.on('connect', () => {
      socket.write(overWebSockets ? handshake(version) : asking(version));
      if (!overWebSockets) resolve(socket);
    });
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (overWebSockets && upgraded) {
          // The server's frames are unmasked and short: opcode, length, payload.
          if (buffered.length < 2 || buffered.length < 2 + (buffered[1] & 0x7f)) return;
          const length = buffered[1] & 0x7f;
          const text = buffered.subarray(2, 2 + length).toString('utf8');
          buffered = buffered.subarray(2 + length);
          socket.write(stillHere);
          const told = JSON.parse(text).version;
          if (told !== version) onChange(performance.now(), told);
          continue;
        }
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffered.subarray(0, end).toString('latin1');
        if (overWebSockets) {
          if (!head.startsWith('HTTP/1.1 101')) return reject(new Error(`no WebSocket: ${head.split('\r\n')[0]}`));
          upgraded = true;
          resolve(socket);
          buffered = buffered.subarray(end + 4);
          continue;
        }
        const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
        if (buffered.length < end + 4 + length) return;
        const answer = JSON.parse(buffered.subarray(end + 4, end + 4 + length).toString('utf8'));
        buffered = buffered.subarray(end + 4 + length);
        if (answer.version === version) socket.write(asking(version));
        else onChange(performance.now(), answer.version);
      }
    });
  });
}

// The catalogue's first page, before the phones come and while they wait.
await measure(origin, 'first page (24, newest), no phone waiting', '/products', { pid });
const before = pid ? rssKb(pid) : 0;
const arrivals = [];
const sockets = [];
const opening = performance.now();
for (let start = 0; start < PHONES; start += 500) {
  const batch = Math.min(500, PHONES - start);
  sockets.push(...(await Promise.all(Array.from({ length: batch }, () => phone((at, told) => arrivals.push({ at, told }))))));
}
const openMs = performance.now() - opening;
// Let the server take the last requests in before weighing it.
await sleep(2000);
const waiting = pid ? rssKb(pid) : 0;
console.log(
  `${PHONES} phones ${overWebSockets ? 'listening over WebSockets' : 'long-polling'}: opened in ${(openMs / 1000).toFixed(1)} s; server RSS ${pid ? `${mb(before)} before, ${mb(waiting)} with them: ${((waiting - before) / PHONES).toFixed(1)} KB a phone` : 'unknown (pass the pid)'}`,
);

await measure(origin, `first page (24, newest), ${PHONES} phones waiting`, '/products', { pid });

/** Waits for the phones told a version past `after` since `since`: all of them, or none more for 3 s (scoped phones a change does not concern). */
async function reached(after, since) {
  const told = () => arrivals.filter((a) => a.told > after && a.at >= since);
  let count = 0;
  for (let quiet = 0, waited = 0; told().length < PHONES && waited < 30_000 && quiet < 3_000; waited += 50) {
    await sleep(50);
    quiet = told().length === count ? quiet + 50 : 0;
    count = told().length;
  }
  return told().map((a) => a.at - since).sort((a, b) => a - b);
}

function report(what, delays, answered) {
  const within2s = delays.filter((ms) => ms <= 2000).length;
  const timing = delays.length
    ? `, then p50 ${percentile(delays, 0.5).toFixed(0)} ms, p99 ${percentile(delays, 0.99).toFixed(0)} ms, max ${delays.at(-1).toFixed(0)} ms`
    : '';
  console.log(`${what} woke ${delays.length} of ${PHONES} phones (${within2s} within 2 s; each pulls): push answered in ${answered.toFixed(0)} ms${timing}`);
}

// A person's application draft, pushed: it concerns that person's phones alone.
const token = await register(request, `bench.listener.${Date.now()}@example.com`);
const mutations = [{ mutation_id: 1, name: 'survey.create', args: { ...application(0), status: 'draft' } }];
const pushed = performance.now();
const push = await request('POST', '/sync/push', { token, body: { protocol: 1, client_id: randomUUID(), mutations } });
if (push.status !== 200) throw new Error(`push: ${push.status}`);
const answered = performance.now() - pushed;
report("one person's draft", await reached(version, pushed), answered);

// A change of the catalogue (the demo farmer's stock): every phone holds the catalogue.
if (overWebSockets) {
  const afterDraft = (await request('GET', '/sync/wait?cursor=-1')).json.version;
  const signedIn = await request('POST', '/users/login', { body: { user: { email: 'farmer@mavuno.demo', password: 'mavuno-demo' } } });
  const farmer = signedIn.json?.user?.token;
  if (!farmer) throw new Error(`the demo farmer: ${signedIn.status} (start the server with --demo)`);
  const [product] = (await request('GET', '/farmer/products', { token: farmer })).json.data;
  const changed = performance.now();
  const stock = await request('PATCH', `/farmer/products/${product.id}`, { token: farmer, body: { product: { quantity: product.quantity + 1 } } });
  if (stock.status !== 200) throw new Error(`stock: ${stock.status} ${stock.text}`);
  const stockAnswered = performance.now() - changed;
  report('a stock change', await reached(afterDraft, changed), stockAnswered);
}
for (const socket of sockets) socket.destroy();
if (pid) {
  console.log(`server RSS as they left: ${mb(rssKb(pid))}`);
  // The server hands freed memory back every 30 s (platform/server.rs).
  await sleep(35_000);
  console.log(`server RSS 35 s later: ${mb(rssKb(pid))}`);
}
