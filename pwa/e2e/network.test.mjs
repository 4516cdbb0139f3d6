// The benchmarks' count of response heads (e2e/network.mjs), over bytes split anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headCounter } from './network.mjs';

const head = (lines) => `${lines.join('\r\n')}\r\n\r\n`;

test('response heads are told from bodies of known length and from chunked ones, however the bytes arrive', () => {
  const first = head(['HTTP/1.1 200 OK', 'content-type: text/javascript', 'content-length: 11']);
  const second = head(['HTTP/1.1 200 OK', 'transfer-encoding: chunked']);
  const third = head(['HTTP/1.1 304 Not Modified', 'etag: "x"']);
  const fourth = head(['HTTP/1.1 200 OK', 'content-length: 0']);
  const stream = Buffer.from(
    `${first}hello\r\n\r\n\r\n${second}5\r\nab\r\nc\r\n10;x=y\r\n${'z'.repeat(16)}\r\n0\r\n\r\n${third}${fourth}`,
    'latin1',
  );
  const expected = [first, second, third, fourth].reduce((sum, h) => sum + h.length, 0);
  for (const piece of [1, 2, 3, 7, 64, stream.length]) {
    const bytes = { heads: 0 };
    const count = headCounter(bytes);
    for (let at = 0; at < stream.length; at += piece) count(stream.subarray(at, at + piece));
    assert.equal(bytes.heads, expected, `in pieces of ${piece}`);
  }
});

test('a body it cannot follow stops the count instead of reading the body as heads', () => {
  const bytes = { heads: 0 };
  const count = headCounter(bytes);
  const start = head(['HTTP/1.1 200 OK', 'connection: close']);
  count(Buffer.from(`${start}HTTP/1.1 200 OK\r\n\r\nnot a response`, 'latin1'));
  assert.equal(bytes.heads, start.length);
});

test("a WebSocket's frames after its 101 are not read as heads", () => {
  const bytes = { heads: 0 };
  const count = headCounter(bytes);
  const upgraded = head(['HTTP/1.1 101 Switching Protocols', 'upgrade: websocket', 'connection: upgrade']);
  const frame = `\x81\x0f{"version":42}`;
  count(Buffer.from(`${upgraded}${frame}${head(['HTTP/1.1 200 OK', 'content-length: 0'])}`, 'latin1'));
  assert.equal(bytes.heads, upgraded.length);
});
