// Market prices (docs/prices.md): an admin's import of a 50,000-row price series in
// WFP VAM's layout (ROWS=... for another size): its time and the server's RSS before,
// at its peak and after; then /prices answered from memory next to the catalogue's
// cached first page, 200 connections, 10,000 requests each. Use a throw-away data dir:
//
//   target/release/mavuno serve --demo --data-dir /tmp/bench-prices &
//   node bench/prices.mjs [origin] [pid of the server]
//
// The rows are made here (seeded): two years of days at the demo's markets.
import { client, measure, rssKb } from './http.mjs';

const origin = process.argv[2] ?? 'http://127.0.0.1:8080';
const pid = process.argv[3];
const ROWS = Number(process.env.ROWS ?? 50_000);
const request = client(origin);
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;

const login = await request('POST', '/users/login', { body: { user: { email: 'admin@mavuno.demo', password: 'mavuno-demo' } } });
if (login.status !== 200) throw new Error('start the server with --demo: the bench imports as the demo admin');
const token = login.json.user.token;
const markets = (await request('GET', '/prices/markets')).json.data.map((m) => m.name);

const COMMODITIES = [
  ['Maize (white)', 0.45], ['Beans (dry)', 1.2], ['Cassava (flour)', 0.6], ['Rice (imported)', 1.4],
  ['Potatoes (Irish)', 0.5], ['Groundnuts (shelled)', 1.8], ['Sorghum', 0.55], ['Soybeans', 0.9],
];
let seed = 36;
const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
const header = 'date,admin1,admin2,market,market_id,latitude,longitude,category,commodity,commodity_id,unit,priceflag,pricetype,currency,price,usdprice\n';
const lines = [];
const today = new Date();
// Two years of days × commodities × markets: each row its own (no row is "already there").
for (let n = 0; lines.length < ROWS; n++) {
  const back = n % 730;
  const day = new Date(today.getTime() - back * 86_400_000).toISOString().slice(0, 10);
  const [commodity, base] = COMMODITIES[Math.floor(n / 730) % COMMODITIES.length];
  const market = markets[Math.floor(n / (730 * COMMODITIES.length)) % markets.length];
  const usd = (base * (0.85 + random() * 0.3)).toFixed(2);
  lines.push(`${day},Sud-Kivu,-,${market},,,,food,${commodity},,KG,actual,Retail,USD,${usd},\n`);
}
const csv = header + lines.join('');

let peak = 0;
const before = pid ? rssKb(pid) : 0;
const sampler = setInterval(() => {
  if (pid) peak = Math.max(peak, rssKb(pid));
}, 50);
const started = performance.now();
const imported = await fetch(`${origin}/api/v1/admin/prices/import`, {
  method: 'POST',
  headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'text/csv' },
  body: csv,
});
const took = (performance.now() - started) / 1000;
clearInterval(sampler);
const report = (await imported.json()).data;
console.log(
  `import of ${ROWS} rows (${(csv.length / 1024 / 1024).toFixed(1)} MB): ${took.toFixed(1)} s; ` +
    `${report.imported} imported, ${report.already} already there, ${report.refused} refused; ` +
    `server RSS ${pid ? `${mb(before)} before, ${mb(peak)} at its peak, ${mb(rssKb(pid))} after` : 'unknown (pass the pid)'}`,
);

const load = (label, path) => measure(origin, label, path, { pid });
await load('catalogue first page (cached)', '/products');
await load('/prices, every crop', '/prices');
await load('/prices?crop=bean', '/prices?crop=bean');
await load('/prices/range beans per kg', '/prices/range?name=beans&unit=kg');
