// Long texts that merge (docs/sync.md, Text that merges): 10,000 offline edits
// of one product's description from two phones, each pair made on the same
// version so that every second edit is a merge. Prints the time a push takes
// as the document grows, and what the document and its history cost on disk.
//
//   node bench/text-merge.mjs [edits]   (starts its own release server: cargo build --release first)
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { client } from './http.mjs';
import { startServer } from './server.mjs';

const EDITS = Number(process.argv[2] ?? 10_000);
const SENTENCES = 8;
const server = await startServer(['--demo']);
const request = client(server.origin);
const login = await request('POST', '/users/login', { body: { user: { email: 'farmer@mavuno.demo', password: 'mavuno-demo' } } });
const token = login.json.user.token;

const phones = [randomUUID(), randomUUID()].map((client_id) => ({ client_id, next: 1 }));
const uid = randomUUID();
const push = async (phone, name, args, base) => {
  const mutation = { mutation_id: phone.next++, name, args, ...(base === undefined ? {} : { base }) };
  const started = performance.now();
  const answer = await request('POST', '/sync/push', { token, body: { protocol: 1, client_id: phone.client_id, mutations: [mutation] } });
  const status = answer.json?.results?.[0]?.status;
  if (status !== 'applied' && status !== 'merged') throw new Error(`push: ${answer.status} ${answer.text}`);
  return performance.now() - started;
};
const first = Array.from({ length: SENTENCES }, (_, i) => `Sentence ${i} of the description, as first written.`);
const fields = { title: 'Bench beans', description: first.join(' '), quantity: 10, price: '1.00', current_price: '1.00', category: 'grains', unit: 'kg' };
await push(phones[0], 'product.create', { uid, fields });

// The product as phone 0 last pulled it.
let cursor;
let product;
const pull = async () => {
  for (;;) {
    const page = await request('GET', `/sync/pull?client_id=${phones[0].client_id}&limit=500${cursor === undefined ? '' : `&cursor=${cursor}`}`, { token });
    cursor = page.json.cursor;
    product = page.json.changes.find((c) => c.id === uid)?.record ?? product;
    if (!page.json.has_more) return product;
  }
};

// Each round: both phones start from the same version; each rewrites its own sentence.
const times = [];
let seed = 1;
const random = (n) => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed % n; };
for (let edit = 0; edit < EDITS; edit += 2) {
  const { version: base, description } = await pull();
  const sentences = description.split(/(?<=\.) /);
  for (const [p, phone] of phones.entries()) {
    const mine = [...sentences];
    const at = random(SENTENCES / 2) * 2 + p;
    mine[at] = `Sentence ${at}, edit ${edit + p} from phone ${p}.`;
    times.push(await push(phone, 'product.update', { uid, fields: { description: mine.join(' ') } }, base));
  }
}

// For comparison: the same pushes changing a short field (no document).
const plain = [];
for (let edit = 0; edit < 1000; edit += 1) {
  const { version: base } = edit % 2 === 0 ? await pull() : product;
  plain.push(await push(phones[edit % 2], 'product.update', { uid, fields: { title: `Bench beans ${edit}` } }, base));
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(`1,000 edits of the title (a short field, per-field versions): median push ${median(plain).toFixed(2)} ms`);
for (const from of [0, EDITS / 2, EDITS - 1000]) {
  const slice = times.slice(from, from + 1000);
  console.log(`edits ${from + 1}-${from + slice.length}: median push ${median(slice).toFixed(2)} ms, slowest ${Math.max(...slice).toFixed(1)} ms`);
}
const sql = (query) => execFileSync('sqlite3', [join(server.dataDir, 'mavuno.db'), query]).toString().trim();
const [documentBytes, historyBytes, writes] = sql(
  "SELECT (SELECT SUM(LENGTH(document)) FROM text_documents WHERE entity = 'product'), " +
    "(SELECT SUM(LENGTH(heads) + LENGTH(own) + LENGTH(COALESCE(device, '')) + 40) FROM text_heads WHERE entity = 'product'), " +
    "(SELECT COUNT(*) FROM text_heads WHERE entity = 'product')",
).split('|').map(Number);
const { description } = product;
if (description.split(/(?<=\.) /).length !== SENTENCES) throw new Error(`a sentence was lost or doubled: ${description}`);
console.log(`after ${EDITS} edits (${writes} writes kept): description ${description.length} characters; ` +
  `document ${(documentBytes / 1024).toFixed(1)} KB, history of heads ~${(historyBytes / 1024).toFixed(1)} KB ` +
  `(~${(historyBytes / writes).toFixed(0)} bytes a write)`);
await server.stop();
