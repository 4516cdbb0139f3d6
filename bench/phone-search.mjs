// The marketplace's offline search on the phone (pwa/src/lib/entities/product-search.ts) over
// 10,000 products (PRODUCTS=n for more): the time of one keystroke's search and sort,
// as the person types "cassava lot 12" letter by letter, then a category and a sort.
// Runs the app's own code in Node on this machine; a cheap Android phone is about
// 4-6 times slower (Lighthouse's mobile profile takes 4).
//
//   node bench/phone-search.mjs          (needs pwa/node_modules: scripts/test installs it)
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The module imports types and the produce words only, so TypeScript's one-file
// transpiler makes it runnable, with the words inlined.
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ts = createRequire(join(root, 'pwa/package.json'))('typescript');
const source = readFileSync(join(root, 'pwa/src/lib/entities/product-search.ts'), 'utf8');
const produceWords = readFileSync(join(root, 'pwa/src/lib/entities/produce-words.json'), 'utf8');
const { outputText } = ts.transpileModule(
  source.replace("import vocabulary from './produce-words.json';", `const vocabulary = ${produceWords};`),
  { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } },
);
const { filterProducts } = await import(`data:text/javascript,${encodeURIComponent(outputText)}`);

const PRODUCTS = Number(process.env.PRODUCTS ?? 10_000);
const words = ['Tomatoes', 'Beans', 'Maize', 'Cassava', 'Coffee', 'Bananas', 'Avocados', 'Onions', 'Sorghum', 'Honey'];
const categories = ['vegetables', 'fruits', 'grains', 'dairy', 'beverages', 'herbs'];
const products = Array.from({ length: PRODUCTS }, (_, n) => ({
  uid: `u${n}`,
  id: n + 1,
  title: `${words[n % words.length]} lot ${n}`,
  description: `Harvest lot ${n} from South Kivu, sorted and packed by the cooperative of Kalehe.`,
  category: categories[n % categories.length],
  status: 'active',
  current_price: ((n % 9000) / 100) + 0.5,
  rating: n % 5,
  reviews: n % 17,
  farmer: { name: `Farmer ${n % 300} Bahati` },
}));

function time(label, filters, rounds = 20) {
  filterProducts(products, filters);
  const times = [];
  let found = 0;
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    found = filterProducts(products, filters).length;
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { label, ms: times[Math.floor(rounds / 2)], found };
}

const typed = 'cassava lot 12';
const keystrokes = [];
for (let i = 1; i <= typed.length; i++) keystrokes.push(time(`"${typed.slice(0, i)}"`, { q: typed.slice(0, i), category: 'all', sort: 'name' }));
const worst = keystrokes.reduce((a, b) => (b.ms > a.ms ? b : a));
const total = keystrokes.reduce((sum, k) => sum + k.ms, 0);
console.log(`${PRODUCTS} products, median of 20 runs each:`);
console.log(`  typing "${typed}": ${(total / keystrokes.length).toFixed(1)} ms a keystroke on average, worst ${worst.ms.toFixed(1)} ms (${worst.label}, ${worst.found} found)`);
for (const run of [
  time('no search, by name', { q: '', category: 'all', sort: 'name' }),
  time('fruits, by price', { q: '', category: 'fruits', sort: 'price_asc' }),
  time('"honey", by rating', { q: 'honey', category: 'all', sort: 'rating' }),
]) {
  console.log(`  ${run.label}: ${run.ms.toFixed(1)} ms (${run.found} found)`);
}
