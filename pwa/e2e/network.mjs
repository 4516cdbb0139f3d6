// A phone's network in the browser tests: a SOCKS5 proxy on loopback that each browser
// context sends all its traffic through (pages and service worker alike), which a test
// can cut for real. Cut, it resets every open connection and refuses new ones, as a
// phone that lost its signal would see; restored, it listens again on the same port.
// It also counts the bytes each way, for the benchmarks that weigh a visit.
import { createServer, connect } from 'node:net';
import { once } from 'node:events';

const SOCKS = 5;
const CONNECT = 1;
const ADDRESS = { ipv4: 1, domain: 3, ipv6: 4 };

/** Starts a proxy on a free loopback port: `{ url, cut(), restore(), bytes, close() }`. */
export async function startNetwork() {
  const sockets = new Set();
  const bytes = { down: 0, up: 0 };
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    client.once('data', (greeting) => handshake(client, greeting));
  });
  const handshake = (client, greeting) => {
    if (greeting[0] !== SOCKS) return client.destroy();
    client.write(Buffer.from([SOCKS, 0])); // no authentication
    client.once('data', (request) => {
      const target = parseConnect(request);
      // Only this machine's servers: nothing in a test may reach further.
      if (!target || !['127.0.0.1', 'localhost', '::1'].includes(target.host)) {
        client.end(Buffer.from([SOCKS, 2, 0, ADDRESS.ipv4, 0, 0, 0, 0, 0, 0]));
        return;
      }
      const upstream = connect(target.port, target.host);
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.once('connect', () => {
        client.write(Buffer.from([SOCKS, 0, 0, ADDRESS.ipv4, 0, 0, 0, 0, 0, 0]));
        client.on('data', (chunk) => {
          bytes.up += chunk.length;
          upstream.write(chunk);
        });
        upstream.on('data', (chunk) => {
          bytes.down += chunk.length;
          client.write(chunk);
        });
        upstream.on('end', () => client.end());
        client.on('end', () => upstream.end());
      });
    });
  };
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  let up = true;
  return {
    url: `socks5://127.0.0.1:${port}`,
    bytes,
    get up() {
      return up;
    },
    /** The signal is gone: open connections are reset, new ones refused. */
    async cut() {
      if (!up) return;
      up = false;
      const closed = new Promise((resolve) => server.close(resolve));
      for (const socket of sockets) socket.resetAndDestroy();
      await closed;
    },
    /** The signal is back, on the same port. */
    async restore() {
      if (up) return;
      server.listen(port, '127.0.0.1');
      await once(server, 'listening');
      up = true;
    },
    async close() {
      await this.cut();
    },
  };
}

function parseConnect(request) {
  if (request[0] !== SOCKS || request[1] !== CONNECT) return null;
  const type = request[3];
  let host;
  let at;
  if (type === ADDRESS.ipv4) {
    host = [...request.subarray(4, 8)].join('.');
    at = 8;
  } else if (type === ADDRESS.domain) {
    const length = request[4];
    host = request.subarray(5, 5 + length).toString('latin1');
    at = 5 + length;
  } else if (type === ADDRESS.ipv6) {
    const words = [];
    for (let i = 0; i < 16; i += 2) words.push(request.readUInt16BE(4 + i).toString(16));
    host = words.join(':').replace(/^(0:)+1$/, '::1');
    at = 20;
  } else {
    return null;
  }
  return { host, port: request.readUInt16BE(at) };
}
