// Picture bombs against a release server (docs/security.md, Limits): 20 clients
// at once send sign-ups whose avatar is (a) a 12000x12000 PNG of a few hundred KB
// (refused by its declared size) and (b) a 6240x6240 PNG just under the 40 MP
// limit (decoded, within the server-wide decode budget). Prints the server's
// peak RSS over its resting RSS, how long the round took, the answers, and
// /api/v1/health's latency during the round.
//
//   cargo build --release -p mavuno && node bench/images.mjs
import { createDeflate } from 'node:zlib';
import { benchPhone } from './http.mjs';
import { startServer } from './server.mjs';

function crc32(bytes) {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** An honest PNG of width x height black RGB pixels: it decodes, and weighs little. */
async function pngBomb(width, height) {
  const deflate = createDeflate({ level: 9 });
  const parts = [];
  deflate.on('data', (c) => parts.push(c));
  const row = Buffer.alloc(1 + width * 3);
  for (let y = 0; y < height; y++) {
    if (!deflate.write(row)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await new Promise((resolve) => deflate.once('end', resolve));
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // RGB
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', ihdr), chunk('IDAT', Buffer.concat(parts)), chunk('IEND', Buffer.alloc(0))]);
}

function signup(origin, n, picture) {
  const boundary = `bench${n}${Date.now()}`;
  const field = (name, value) => `--${boundary}\r\nContent-Disposition: form-data; name="user[${name}]"\r\n\r\n${value}\r\n`;
  const fields = { first_name: 'Bomb', last_name: `N${n}`, email: `bomb${n}.${Date.now()}@example.com`,
    phone_number: benchPhone(), country: 'DRC', password: 'secret123', password_confirmation: 'secret123' };
  const head = Object.entries(fields).map(([k, v]) => field(k, v)).join('') +
    `--${boundary}\r\nContent-Disposition: form-data; name="user[avatar]"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`;
  const body = Buffer.concat([Buffer.from(head), picture, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return fetch(`${origin}/api/v1/users`, { method: 'POST', body,
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }).then(async (r) => (await r.json()).code ?? r.status);
}

async function round(server, label, picture) {
  const rest = server.rssMib();
  let peak = rest;
  const sampler = setInterval(() => { peak = Math.max(peak, server.rssMib()); }, 20);
  const healthTimes = [];
  let done = false;
  const health = (async () => {
    while (!done) {
      const started = performance.now();
      await fetch(`${server.origin}/api/v1/health`);
      healthTimes.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const started = performance.now();
  const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => signup(server.origin, n, picture)));
  const seconds = (performance.now() - started) / 1000;
  done = true;
  await health;
  clearInterval(sampler);
  const counts = answers.reduce((all, a) => ({ ...all, [a]: (all[a] ?? 0) + 1 }), {});
  healthTimes.sort((a, b) => a - b);
  console.log(`${label}: ${(picture.length / 1024).toFixed(0)} KB each; 20 at once in ${seconds.toFixed(1)} s; ` +
    `RSS ${rest.toFixed(0)} -> peak ${peak.toFixed(0)} MiB (+${(peak - rest).toFixed(0)}); answers ${JSON.stringify(counts)}; ` +
    `health p50 ${healthTimes[healthTimes.length >> 1]?.toFixed(1)} ms, max ${healthTimes.at(-1)?.toFixed(1)} ms`);
}

const server = await startServer(['--signup-limit', '100000']);
try {
  await round(server, '12000x12000 bomb (144 MP)', await pngBomb(12000, 12000));
  await round(server, '6240x6240 under the limit (39 MP)', await pngBomb(6240, 6240));
} finally {
  await server.stop();
}
