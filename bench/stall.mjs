// Slow clients against a release server (docs/security.md, Limits): 2,000
// sockets each send half a request and stall. Prints how long
// /api/v1/health takes meanwhile, (a) with the default limits on this
// machine's open-files limit, and (b) under `ulimit -n 1024` (a service's
// usual soft limit: the connection cap is then 896, below the flood).
//
//   cargo build --release -p mavuno && node bench/stall.mjs
import net from 'node:net';
import { startServer } from './server.mjs';

/** Opens `sockets` connections that each send half a request; resolves once all are connected (or 10 s). */
async function flood(origin, sockets) {
  const { hostname, port } = new URL(origin);
  const open = [];
  let connected = 0;
  for (let n = 0; n < sockets; n++) {
    const socket = net.connect(Number(port), hostname, () => {
      connected += 1;
      socket.write('GET /api/v1/health HTTP/1.1\r\nHost: mavuno\r\n');
    });
    socket.on('error', () => {});
    open.push(socket);
  }
  for (let waited = 0; connected < sockets && waited < 10_000; waited += 100) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return { open, connected };
}

async function healthTimes(origin, count) {
  const times = [];
  for (let n = 0; n < count; n++) {
    const started = performance.now();
    const response = await fetch(`${origin}/api/v1/health`, { signal: AbortSignal.timeout(120_000) });
    await response.text();
    times.push(performance.now() - started);
    await new Promise((r) => setTimeout(r, 250));
  }
  return times.sort((a, b) => a - b);
}

for (const [label, options] of [['default limits', {}], ['ulimit -n 1024', { openFiles: 1024 }]]) {
  const server = await startServer([], options);
  try {
    const { open, connected } = await flood(server.origin, 2000);
    const times = await healthTimes(server.origin, 12);
    console.log(`${label}: 2000 stalled sockets (${connected} connected); /api/v1/health p50 ${times[6].toFixed(1)} ms, ` +
      `max ${times.at(-1).toFixed(1)} ms over ${times.length} calls; server RSS ${server.rssMib().toFixed(0)} MiB`);
    for (const socket of open) socket.destroy();
  } finally {
    await server.stop();
  }
}
