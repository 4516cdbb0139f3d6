// Every refusal the server answered in a run, against the document (issue 75, docs/api.md,
// Errors): `scripts/test` sets MAVUNO_RECORD_REFUSALS for the API tests and for schemathesis
// on both engines (server/src/api/record_refusals.rs writes one `method path status code` a
// line), then runs this on what they recorded. A refusal the tests met whose code the
// operation does not list in the document fails the run; one only schemathesis met is told
// (its coverage in 20 s differs from run to run: a long run, `node bench/contract.mjs`,
// finds them). `--update` adds every one of them to the table the document lists them from
// (server/src/api/document/refusals.txt), after which
// `UPDATE_OPENAPI=1 cargo test -p mavuno --lib contract` publishes the document again.
// A 5xx other than 503 (busy, unavailable for a moment) is never added: it is a fault to
// mend, not a refusal to document.
//
//   node scripts/refusals.mjs [--update] TESTED... [--fuzzed FUZZED...]
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const TABLE = join(root, 'server/src/api/document/refusals.txt');

const args = process.argv.slice(2);
const update = args.includes('--update');
const files = args.filter((a) => a !== '--update');
const split = files.indexOf('--fuzzed');
const [tested, fuzzed] = split < 0 ? [files, []] : [files.slice(0, split), files.slice(split + 1)];
if (tested.length + fuzzed.length === 0) {
  console.error('usage: node scripts/refusals.mjs [--update] TESTED... [--fuzzed FUZZED...]');
  process.exit(2);
}

const doc = JSON.parse(readFileSync(join(root, 'docs/openapi.json'), 'utf8'));
const lines = (text) => text.split('\n').map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
const read = (file) => (existsSync(file) ? lines(readFileSync(file, 'utf8')) : []);
const met = new Set(tested.flatMap(read));
const recorded = new Set([...met, ...fuzzed.flatMap(read)]);

const undocumented = [];
const unknown = [];
const faults = [];
for (const line of [...recorded].sort()) {
  const [method, path, status, code] = line.split(' ');
  if (status.startsWith('5') && status !== '503') {
    faults.push(line);
    continue;
  }
  const operation = doc.paths[path]?.[method];
  if (!operation) {
    unknown.push(line);
    continue;
  }
  const codes = operation.responses[status]?.['x-codes'] ?? [];
  if (!codes.includes(code)) undocumented.push(line);
}

console.log(`${recorded.size} refusals recorded (operation, status, code), ${undocumented.length} not in the document, ${unknown.length} of routes it lacks, ${faults.length} faults`);
for (const line of faults) console.log(`  fault: ${line}`);
for (const line of unknown) console.log(`  no such operation in the document: ${line}`);
if (update) {
  const table = new Set(lines(readFileSync(TABLE, 'utf8')));
  const before = table.size;
  for (const line of undocumented) table.add(line);
  writeFileSync(TABLE, [...table].sort().join('\n') + '\n');
  console.log(`${table.size - before} added to ${TABLE.slice(root.length + 1)}: now run UPDATE_OPENAPI=1 cargo test -p mavuno --lib contract`);
} else {
  for (const line of undocumented) console.log(`  undocumented${met.has(line) ? '' : ' (schemathesis only)'}: ${line}`);
  if (undocumented.length) {
    console.log('Document them: node scripts/refusals.mjs --update RECORDED..., then UPDATE_OPENAPI=1 cargo test -p mavuno --lib contract');
  }
}
const failing = [...undocumented, ...unknown].filter((line) => met.has(line));
process.exit(faults.length || (!update && failing.length) ? 1 : 0);
