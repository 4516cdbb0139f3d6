// A new phone's first sync: a visitor's pull of the whole catalogue, page by page
// (200 changes a page, as the app asks), bytes on the wire as a phone receives them
// (brotli). 10,000 products listed (PRODUCTS=... for more), a fifth then deleted:
// the app sends each page's `snapshot` back, so later pages leave out what was
// deleted before it came; "without" pulls as an app before that did.
//
//   node bench/first-sync.mjs        (starts a throw-away release server with --demo)
import { client } from './http.mjs';
import { startServer } from './server.mjs';

const PRODUCTS = Number(process.env.PRODUCTS ?? 10_000);
const server = await startServer(['--demo']);
const request = client(server.origin);
try {
  const login = await request('POST', '/users/login', { body: { user: { email: 'farmer@mavuno.demo', password: 'mavuno-demo' } } });
  const token = login.json.user.token;
  const ids = [];
  for (let start = 0; start < PRODUCTS; start += 50) {
    const made = await Promise.all(Array.from({ length: Math.min(50, PRODUCTS - start) }, (_, k) => {
      const n = start + k;
      return request('POST', '/farmer/products', { token, body: { product: {
        title: `Beans lot ${n}`, description: `Harvest lot ${n} from South Kivu, sorted and packed by the cooperative.`,
        quantity: 10 + (n % 500), price: '3.00', current_price: '2.50', category: 'grains', unit: 'kg',
      } } });
    }));
    ids.push(...made.map((r) => r.json.product.id));
  }
  for (let i = 0; i < ids.length; i += 5 * 50) {
    const batch = ids.slice(i, i + 5 * 50).filter((_, k) => k % 5 === 0);
    await Promise.all(batch.map((id) => request('DELETE', `/farmer/products/${id}`, { token })));
  }

  const firstSync = async (carrySnapshot) => {
    let [cursor, snapshot, bytes, pages, puts, dels] = [undefined, undefined, 0, 0, 0, 0];
    for (;;) {
      const query = `/sync/pull?limit=200${cursor === undefined ? '' : `&cursor=${cursor}`}${snapshot === undefined ? '' : `&snapshot=${snapshot}`}`;
      const page = await request('GET', query);
      bytes += page.received;
      pages += 1;
      for (const change of page.json.changes) change.op === 'put' ? (puts += 1) : (dels += 1);
      if (!page.json.has_more) return { bytes, pages, puts, dels };
      cursor = page.json.cursor;
      snapshot = carrySnapshot ? page.json.snapshot : undefined;
    }
  };
  for (const [label, carry] of [['with the snapshot carried', true], ['without (as before)', false]]) {
    const { bytes, pages, puts, dels } = await firstSync(carry);
    console.log(`${label}: ${(bytes / 1024).toFixed(0)} KB in ${pages} pages, ${puts} records and ${dels} deletions`);
  }
} finally {
  await server.stop();
}
