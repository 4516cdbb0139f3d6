// A phone's network in the browser tests: a SOCKS5 proxy on loopback that each browser
// context sends all its traffic through (pages and service worker alike), which a test
// can cut for real. Cut, it resets every open connection and refuses new ones, as a
// phone that lost its signal would see; restored, it listens again on the same port.
// Stalled, the requests a test names hear nothing back (a signal with no data); trickled,
// their answers come slowly, a few bytes at a time (a weak signal).
// It also counts the bytes each way, for the benchmarks that weigh a visit.
import { createServer, connect } from 'node:net';
import { once } from 'node:events';

const SOCKS = 5;
const CONNECT = 1;
const ADDRESS = { ipv4: 1, domain: 3, ipv6: 4 };

/** Starts a proxy on a free loopback port: `{ url, cut(), restore(), bytes, close() }`. */
export async function startNetwork() {
  const sockets = new Set();
  // The stall asked for (`{ pattern, reaches }`), and the connections it caught, each with
  // whether its request still reaches the server: nothing more comes back on them.
  let stall = null;
  const stalled = new Map();
  let caught = 0;
  // The trickle asked for (`{ pattern, bytes, everyMs }`), and the connections it caught.
  let trickle = null;
  const trickled = new Set();
  // `heads`: of `down`, the responses' status lines and headers (the benchmarks tell them from content).
  const bytes = { down: 0, up: 0, heads: 0 };
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => {
      sockets.delete(client);
      stalled.delete(client);
      trickled.delete(client);
    });
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
          const head = chunk.toString('latin1', 0, 256);
          if (!stalled.has(client) && stall?.pattern.test(head)) {
            stalled.set(client, stall.reaches);
            caught += 1;
          }
          if (trickle?.pattern.test(head)) trickled.add(client);
          if (stalled.get(client) ?? true) upstream.write(chunk);
        });
        const heads = headCounter(bytes);
        const slow = paced(client, () => trickle ?? { bytes: Infinity, everyMs: 0 });
        upstream.on('data', (chunk) => {
          if (stalled.has(client)) return;
          bytes.down += chunk.length;
          heads(chunk);
          if (trickled.has(client) || slow.busy) slow.write(chunk);
          else client.write(chunk);
        });
        upstream.on('end', () => slow.end());
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
    /**
     * A signal that carries no data, for the requests whose head matches `pattern`
     * (`/^GET \/media\//`): each waits for ever, its connection open and silent. With
     * `reaches`, the request gets to the server and only its answer is lost.
     */
    stall(pattern, { reaches = false } = {}) {
      stall = { pattern, reaches };
    },
    /**
     * A weak signal for the requests whose head matches `pattern`: their answers come
     * `bytes` at a time, one piece every `everyMs`, until `unstall()`.
     */
    trickle(pattern, { bytes, everyMs }) {
      trickle = { pattern, bytes, everyMs };
    },
    /** How many requests a stall has caught so far. */
    get stalls() {
      return caught;
    },
    /**
     * Data flows again for new requests; a stalled one's connection stays silent until
     * the browser gives it up, as a connection that died on a phone's lie-fi does.
     */
    unstall() {
      stall = null;
      trickle = null;
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

/**
 * Writes to `client` what it is given, a piece of `pace().bytes` every `pace().everyMs`
 * while anything waits (at once, in order, once the pace is lifted); `end()` ends the
 * connection after the last piece.
 */
function paced(client, pace) {
  const waiting = [];
  let timer = null;
  let ending = false;
  const next = () => {
    timer = null;
    let budget = pace().bytes;
    while (waiting.length > 0 && budget > 0) {
      const piece = waiting[0].subarray(0, budget);
      waiting[0] = waiting[0].subarray(piece.length);
      if (waiting[0].length === 0) waiting.shift();
      budget -= piece.length;
      client.write(piece);
    }
    if (waiting.length > 0) timer = setTimeout(next, pace().everyMs);
    else if (ending) client.end();
  };
  return {
    get busy() {
      return waiting.length > 0;
    },
    write(chunk) {
      waiting.push(chunk);
      timer ??= setTimeout(next, pace().everyMs);
    },
    end() {
      ending = true;
      if (waiting.length === 0) client.end();
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

/**
 * Counts into `bytes.heads` the bytes of the HTTP/1.1 response heads (status line, headers
 * and the blank line) among a connection's downstream bytes: bodies are skipped by their
 * length or their chunks. What it cannot follow (a body until close, a malformed length)
 * stops the count for that connection; it never touches the bytes.
 */
export function headCounter(bytes) {
  const EMPTY = Buffer.alloc(0);
  let state = 'head';
  let pending = EMPTY;
  let left = 0;
  const line = (chunk, at, terminator) => {
    const buf = Buffer.concat([pending, chunk.subarray(at)]);
    const end = buf.indexOf(terminator);
    if (end < 0) {
      pending = buf.length > 65536 ? EMPTY : buf;
      if (buf.length > 65536) state = 'lost';
      return null;
    }
    const used = end + terminator.length - pending.length;
    pending = EMPTY;
    return { text: buf.subarray(0, end).toString('latin1'), length: end + terminator.length, used };
  };
  return (chunk) => {
    try {
      let at = 0;
      while (at < chunk.length && state !== 'lost') {
        if (state === 'head') {
          const head = line(chunk, at, '\r\n\r\n');
          if (!head) return;
          at += head.used;
          bytes.heads += head.length;
          const status = Number(head.text.slice(9, 12));
          const length = /\r\ncontent-length:\s*(\d+)/i.exec(head.text);
          // After a 101 the connection is a WebSocket's (the app listening): no more heads.
          if (status === 101) state = 'lost';
          else if (status < 200 || status === 204 || status === 304) state = 'head';
          else if (/\r\ntransfer-encoding:\s*chunked/i.test(head.text)) state = 'size';
          else if (length) [left, state] = [Number(length[1]), Number(length[1]) > 0 ? 'body' : 'head'];
          else state = 'lost';
        } else if (state === 'body' || state === 'chunk') {
          const take = Math.min(left, chunk.length - at);
          [left, at] = [left - take, at + take];
          if (left === 0) state = state === 'body' ? 'head' : 'size';
        } else {
          // A chunk's size line, or after the last chunk the trailer's lines up to an empty one.
          const next = line(chunk, at, '\r\n');
          if (!next) return;
          at += next.used;
          if (state === 'trailer') {
            if (next.text === '') state = 'head';
            continue;
          }
          const size = parseInt(next.text, 16);
          if (Number.isNaN(size)) state = 'lost';
          else if (size === 0) state = 'trailer';
          else [left, state] = [size + 2, 'chunk'];
        }
      }
    } catch {
      state = 'lost';
    }
  };
}
