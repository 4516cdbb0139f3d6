// The admin's price import at its largest (docs/prices.md, Imports): the server's peak
// memory while it reads the biggest file it takes (16 MB), as one line of commas (refused
// by its line) and as WFP's own layout with the most rows a file may hold (100,000 after
// the tag row, each read and refused: wholesale prices), and how long each takes.
// Rows are read one at a time (outbound/csv.rs): the peak should stay near the file's
// own size, never a multiple of it.
//
//   cargo build --release -p mavuno && node bench/import.mjs
//
// Starts a throw-away release server of its own (bench/server.mjs) with the demo.
import { startServer } from './server.mjs';

const server = await startServer(['--demo']);
const api = (path) => `${server.origin}/api/v1${path}`;
const login = await fetch(api('/users/login'), {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ user: { email: 'admin@mavuno.demo', password: 'mavuno-demo' } }),
});
const token = (await login.json()).user.token;

const header =
  'date,admin1,admin2,market,market_id,latitude,longitude,category,commodity,commodity_id,unit,priceflag,pricetype,currency,price,usdprice\n' +
  '#date,#adm1+name,#adm2+name,#loc+market+name,#loc+market+code,#geo+lat,#geo+lon,#item+type,#item+name,#item+code,#item+unit,#item+price+flag,#item+price+type,#currency+code,#value,#value+usd\n';
const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
const row = `${day},Sud-Kivu,Bukavu,Kadutu,1,-2.5,28.8,pulses,Beans (dry),,KG,actual,Wholesale,USD,1.20,1.20\n`;
const files = [
  ['one line of commas', header + ','.repeat(16 * 1024 * 1024 - header.length - 1)],
  ['100,000 rows (WFP layout)', header + row.repeat(100_000)],
];

console.log(`resting: ${server.rssMib().toFixed(1)} MiB RSS (peak so far ${server.peakMib().toFixed(1)})`);
for (const [name, csv] of files) {
  const started = performance.now();
  const response = await fetch(api('/admin/prices/import'), {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
    body: csv,
  });
  const answer = await response.json();
  const took = ((performance.now() - started) / 1000).toFixed(2);
  const outcome = answer.success ? `${answer.data.refused} rows refused` : answer.code;
  console.log(
    `${name}: ${(csv.length / 1024 / 1024).toFixed(1)} MB, ${response.status} ${outcome} in ${took} s; ` +
      `peak ${server.peakMib().toFixed(1)} MiB, now ${server.rssMib().toFixed(1)} MiB`,
  );
}
await server.stop();
