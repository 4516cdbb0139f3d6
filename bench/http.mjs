// What the benchmarks share: an HTTP client that counts bytes on the wire
// (compressed, as a phone would receive them) and a realistic application.
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** One request; counts the bytes sent and received (body as sent, compressed if the server compressed it). */
export function client(origin) {
  return (method, path, { token, body } = {}) => request(origin, method, path, { token, body });
}

function request(origin, method, path, { token, body } = {}) {
  const data = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}/api/v1${path}`, {
      method,
      headers: {
        'Accept-Encoding': 'br, gzip',
        ...(data ? { 'Content-Type': 'application/json', 'Content-Length': data.length } : {}),
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
      },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers['content-encoding'];
        const zlib = await import('node:zlib');
        const text = encoding === 'br' ? zlib.brotliDecompressSync(raw) : encoding === 'gzip' ? zlib.gunzipSync(raw) : raw;
        const isJson = String(res.headers['content-type'] ?? '').startsWith('application/json');
        resolve({
          status: res.statusCode,
          json: isJson ? JSON.parse(text.toString()) : null,
          text: text.toString(),
          sent: data?.length ?? 0,
          received: raw.length,
        });
      });
    });
    req.on('error', reject);
    if (data) req.write(data);
    req.end();
  });
}

/** A complete application; `n` makes its cooperative name differ. */
export function application(n) {
  return {
    uid: randomUUID(),
    status: 'pending',
    answers: {
      land_size: '1-2 hectares', work_type: 'With family', cooperative_name: `Umoja ${n}`, income_sources: 'Farming only',
      seed_type: 'Improved/hybrid', seed_source: 'Local market', fertilizers: 'Compost/manure', field_preparation: 'Hand tools (hoe)',
      farming_techniques: 'Mulching, intercropping beans with maize, crop rotation', planting_season: 'Season A', higher_season: 'Season B',
      higher_season_reason: 'The long rains come in season B', average_yield: '1-2 tons', challenges: 'Pests, late rains and poor roads to market',
      post_harvest_losses: true, loss_percentage: 20, selling_method: 'Sell at local market', selling_challenges: true,
      selling_challenges_explanation: 'Traders pay low prices at harvest time', mobile_interest: true,
      improvements_production: 'Better seed and training', improvements_selling: 'Selling together as a cooperative',
    },
  };
}

let phones = 0;
/** A DRC number no other account of this run has (numbers are unique, like emails). */
export function benchPhone() {
  phones += 1;
  return `09${String(Date.now() % 1e4).padStart(4, '0')}${String(phones).padStart(4, '0')}`;
}

/** Signs up a buyer and returns their token. */
export async function register(request, email, firstName = 'Bench') {
  const registered = await request('POST', '/users', {
    body: { user: { first_name: firstName, last_name: 'Farmer', email, phone_number: benchPhone(), country: 'DRC', password: 'bench-pass', password_confirmation: 'bench-pass' } },
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status} ${JSON.stringify(registered.json)}`);
  return registered.json.data.token;
}

/**
 * A keep-alive GET of `/api/v1{path}` taking brotli, as phones ask: answers its time and
 * bytes. `get.close()` closes its connections (the clients leave).
 */
export function getter(origin, connections = 200) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const get = (path) =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      http.get(`${origin}/api/v1${path}`, { agent, headers: { 'Accept-Encoding': 'br, gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (c) => { bytes += c.length; });
        res.on('end', () => (res.statusCode === 200 ? resolve({ ms: performance.now() - started, bytes }) : reject(new Error(`${path}: ${res.statusCode}`))));
      }).on('error', reject);
    });
  get.close = () => agent.destroy();
  return get;
}

/** The server's resident memory in KB (its pid's /proc status). */
export function rssKb(pid) {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}

/** The most RSS the process has ever had (the kernel's high-water mark: samples miss short peaks). */
export function peakKb(pid) {
  return Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
}

/**
 * `requests` GETs over `connections` at once; prints throughput, latency percentiles,
 * a response's bytes and the server's peak RSS. `path`: one address, or a function
 * making each request's own.
 */
export async function measure(origin, label, path, { pid, connections = 200, requests = 10_000 } = {}) {
  const get = getter(origin, connections);
  const times = [];
  let bytes = 0;
  let next = 0;
  let peak = 0;
  const started = performance.now();
  const sampler = setInterval(() => {
    if (pid) peak = Math.max(peak, rssKb(pid));
  }, 100);
  await Promise.all(Array.from({ length: connections }, async () => {
    while (next < requests) {
      next += 1;
      const r = await get(typeof path === 'function' ? path(next) : path);
      times.push(r.ms);
      bytes = r.bytes;
    }
  }));
  clearInterval(sampler);
  // These clients leave: a phase's connections do not stay open into the next one's
  // (phones left open are what bench/listeners.mjs measures).
  get.close();
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  const p = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))].toFixed(1);
  console.log(`${label}: ${(requests / seconds).toFixed(0)} req/s, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, ${(bytes / 1024).toFixed(1)} KB a response; peak RSS ${pid ? `${(peak / 1024).toFixed(0)} MB` : 'unknown'}`);
}
