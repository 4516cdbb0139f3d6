// Writes .br (quality 11) and .gz (level 9) beside each text file of the
// build, so the server sends them as they are (tower-http's ServeDir picks
// the one the browser accepts) instead of compressing on every request.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const TEXT = /\.(js|css|html|svg|webmanifest|json)$/;

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

let count = 0;
for (const path of files('dist').filter((p) => TEXT.test(p))) {
  const data = readFileSync(path);
  if (data.length < 512) continue;
  writeFileSync(`${path}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  writeFileSync(`${path}.gz`, gzipSync(data, { level: 9 }));
  count += 1;
}
console.log(`precompressed ${count} files`);
