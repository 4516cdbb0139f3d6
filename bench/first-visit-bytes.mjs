// First-visit weight of a page: the HTML, and the CSS and JS it loads before
// it can render (the critical path), as a phone receives them compressed
// (br, else gzip). Budget (docs/architecture.md, Budgets): HTML+CSS+JS <= 170 KB,
// JS <= 150 KB. Lazy chunks (other pages, French and Kiswahili) are listed apart.
//
//   node bench/first-visit-bytes.mjs [origin] [path ...]
//   (default origin http://127.0.0.1:8080, paths / and /marketplace; start the
//    server first, e.g. scripts/start)
import http from 'node:http';

const origin = process.argv[2] ?? 'http://127.0.0.1:8080';
const paths = process.argv.length > 3 ? process.argv.slice(3) : ['/', '/marketplace'];

/** Bytes on the wire for one URL, asking for brotli or gzip as a phone does. */
function compressedSize(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': 'br, gzip' } }, (response) => {
        if (response.statusCode !== 200) reject(new Error(`${url}: ${response.statusCode}`));
        let bytes = 0;
        response.on('data', (chunk) => (bytes += chunk.length));
        response.on('end', () => resolve({ bytes, encoding: response.headers['content-encoding'] ?? 'identity' }));
      })
      .on('error', reject);
  });
}

async function text(url) {
  return (await fetch(url)).text();
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

for (const path of paths) {
  const html = await text(origin + path);
  const critical = [
    ...html.matchAll(/<script[^>]+src="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+rel="(?:stylesheet|modulepreload)"[^>]+href="([^"]+)"/g),
    ...html.matchAll(/<link[^>]+href="([^"]+)"[^>]+rel="(?:stylesheet|modulepreload)"/g),
  ].map((m) => m[1]);
  // The entry module's static imports load before the first render too.
  const entry = critical.find((href) => href.endsWith('.js'));
  if (entry) {
    const code = await text(origin + entry);
    for (const m of code.matchAll(/from"\.\/([\w.-]+\.js)"|import"\.\/([\w.-]+\.js)"/g)) critical.push(`/assets/${m[1] ?? m[2]}`);
  }
  const unique = [...new Set(critical)];
  const htmlSize = await compressedSize(origin + path);
  let js = 0;
  let css = 0;
  console.log(`\n${path}`);
  console.log(`  ${kb(htmlSize.bytes).padStart(9)}  ${htmlSize.encoding.padEnd(8)} HTML`);
  for (const href of unique) {
    const size = await compressedSize(origin + href);
    if (href.endsWith('.css')) css += size.bytes;
    else js += size.bytes;
    console.log(`  ${kb(size.bytes).padStart(9)}  ${size.encoding.padEnd(8)} ${href}`);
  }
  const total = htmlSize.bytes + css + js;
  console.log(`  total ${kb(total)} (budget 170 KB), JS ${kb(js)} (budget 150 KB), CSS ${kb(css)}`);
}
