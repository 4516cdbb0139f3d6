// USSD under load (docs/ussd.md): 200 basic phones at once, each dialling whole
// sessions as Africa's Talking posts them: joining MAVUNO (six requests, the last
// one writes an account and an SMS), market prices for a crop (three), and "My
// application", which with none yet opens its first question (two). Twice: as people
// answer (a screen read and answered in 1 to 4 s, as on a real phone), then with no
// pause at all (every phone posts its next answer the moment it has a screen: a
// saturation test, where the wait is the queue). Prints p50/p99 of every request, per kind of answer, and the server's
// resting and peak memory. Goal: p99 under 50 ms with 200 sessions at once.
//
//   cargo build --release -p mavuno && node bench/ussd.mjs [phones]
//
// Starts a throw-away release server of its own (bench/server.mjs) with the demo.
// The load generator shares the machine's two cores with the server.
import { startServer } from './server.mjs';

const PHONES = Number(process.argv[2] ?? 200);
const TOKEN = 'bench-gateway-secret-0123456789abcdef0123';
const server = await startServer(['--demo', '--gateway-token', TOKEN]);
const url = `${server.origin}/api/v1/ussd/${TOKEN}`;

const times = { read: [], write: [] };
let sessions = 0;
let requests = 0;

/** One request of a session; checks the screen's kind and words. */
async function post(session, phone, answers, expect, kind) {
  const body = new URLSearchParams({ sessionId: session, serviceCode: '*384*1#', phoneNumber: phone, networkCode: '63510', text: answers.join('*') });
  const started = performance.now();
  const response = await fetch(url, { method: 'POST', body });
  const text = await response.text();
  times[kind].push(performance.now() - started);
  requests++;
  if (response.status !== 200 || !text.startsWith(expect)) throw new Error(`${phone} ${answers.join('*')}: ${response.status} ${text}`);
}

let thinking = true;
const pause = () => (thinking ? new Promise((resolve) => setTimeout(resolve, 1000 + Math.random() * 3000)) : undefined);

async function session(phone, n, steps) {
  const id = `ATUid_bench_${n}_${phone}_${sessions++}`;
  const answers = [];
  for (const [answer, expect, kind = 'read'] of steps) {
    // People dial at their own moments, and read each screen before answering.
    await pause();
    if (answer !== null) answers.push(answer);
    await post(id, phone, answers, expect, kind);
  }
}

async function phone(n, round) {
  // Rwandan numbers: English menus; the country is known, so joining asks for a town.
  const number = `+2507${round}${String(1_000_000 + n).padStart(7, '0')}`;
  await session(number, n, [
    [null, 'CON Welcome to MAVUNO'],
    ['1', 'CON Join MAVUNO'],
    [`Bench${n}`, 'CON Your last name'],
    ['Mugisha', 'CON Your village or town'],
    ['Rubavu', 'CON Bench'],
    ['1', `END Welcome Bench${n}!`, 'write'],
  ]);
  await session(number, n, [
    [null, `CON MAVUNO - Bench${n}`],
    ['2', 'CON Prices of'],
    [String(1 + (n % 7)), 'END '],
  ]);
  await session(number, n, [
    [null, `CON MAVUNO - Bench${n}`],
    ['1', 'CON 1/19 '],
  ]);
}

const rest = server.rssMib();
const percentile = (list, p) => {
  const sorted = [...list].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]?.toFixed(1);
};

for (const [round, label] of [[8, 'as people answer (1-4 s a screen)'], [9, 'with no pause (saturation)']]) {
  thinking = round === 8;
  times.read = [];
  times.write = [];
  sessions = 0;
  requests = 0;
  let peak = server.rssMib();
  const sampler = setInterval(() => { peak = Math.max(peak, server.rssMib()); }, 20);
  const started = performance.now();
  await Promise.all(Array.from({ length: PHONES }, (_, n) => phone(n, round)));
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  const all = [...times.read, ...times.write];
  console.log(`\n${label}: ${PHONES} phones at once, ${sessions} sessions, ${requests} requests in ${seconds.toFixed(1)} s (${(requests / seconds).toFixed(0)} req/s)`);
  console.log(`  every request: p50 ${percentile(all, 0.5)} ms, p99 ${percentile(all, 0.99)} ms, max ${percentile(all, 1)} ms`);
  console.log(`  screens (reads): p50 ${percentile(times.read, 0.5)} ms, p99 ${percentile(times.read, 0.99)} ms`);
  console.log(`  joining (a write and an SMS): p50 ${percentile(times.write, 0.5)} ms, p99 ${percentile(times.write, 0.99)} ms`);
  console.log(`  server RSS: ${rest.toFixed(0)} MiB at rest, peak ${peak.toFixed(0)} MiB`);
}
await server.stop();
