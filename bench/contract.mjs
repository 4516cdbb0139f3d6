// The API document against the server, by a tool we did not write (issue 75): schemathesis
// (`--checks all`, a fixed seed) as a visitor, a farmer and an admin of the demo, on a
// throw-away release server (SQLite; with BENCH_POSTGRES, a new PostgreSQL database:
// `scripts/with-postgres node bench/contract.mjs`). Prints each role's failures by check.
// scripts/schemathesis.toml says what the tool is told and why (the operations that end
// the caller's session are left out; refusals no JSON Schema can foretell).
// `scripts/contract.test.mjs` runs it short, as a visitor, in `scripts/test`.
//
//   node bench/contract.mjs [seconds per role] [examples]   (defaults 240 s, 10;
//   needs target/release/mavuno and .tools/venv/bin/schemathesis: pip install "schemathesis==4.32.5")
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { startServer } from './server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const ROLES = { visitor: null, farmer: 'farmer@mavuno.demo', admin: 'admin@mavuno.demo' };

async function token(origin, email) {
  const answer = await fetch(`${origin}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { email, password: 'mavuno-demo' } }),
  });
  const body = await answer.json();
  if (!body.user?.token) throw new Error(`${email} could not sign in: ${answer.status} ${JSON.stringify(body)}`);
  return body.user.token;
}

/**
 * Runs schemathesis as each of `roles` against a new demo server of `binary`; for each
 * role: `{ operations, seconds, failures: { 'ST202 Schema-valid request rejected': 2, ... }, report }`
 * (`report`: the tool's own words on each failure).
 */
export async function conformance({ binary, roles = Object.keys(ROLES), seconds = 240, examples = 10 } = {}) {
  const tool = join(root, '.tools/venv/bin/schemathesis');
  if (!existsSync(tool)) throw new Error(`${tool} is missing: .tools/venv/bin/pip install "schemathesis==4.32.5"`);
  const server = await startServer(['--demo'], binary ? { binary } : {});
  const results = {};
  try {
    for (const role of roles) {
      const auth = ROLES[role] ? ['-H', `Authorization: Bearer ${await token(server.origin, ROLES[role])}`] : [];
      const reports = mkdtempSync(join(tmpdir(), 'mavuno-contract-'));
      const started = Date.now();
      let report = '';
      // Not execFileSync: the server's log comes through this process, which must go on reading it.
      try {
        await promisify(execFile)(
          tool,
          ['--config-file', join(root, 'scripts/schemathesis.toml'), 'run', `${server.origin}/api/v1/openapi.json`,
            '-u', `${server.origin}/api/v1`, '--checks', 'all', '-n', String(examples), '--seed', '1',
            '--max-time', String(seconds), '--no-color', '--report', 'junit', '--report-dir', reports, ...auth],
          // Its cache (.schemathesis/) goes with the reports, not into the checkout.
          { maxBuffer: 256 * 1024 * 1024, cwd: reports },
        );
      } catch (failed) {
        report = String(failed.stdout ?? failed);
      }
      const junit = readFileSync(join(reports, readdirSync(reports).find((f) => f.startsWith('junit'))), 'utf8');
      rmSync(reports, { recursive: true, force: true });
      const failures = {};
      for (const [, check] of junit.matchAll(/- (ST\d+ [^\n<]+)/g)) failures[check] = (failures[check] ?? 0) + 1;
      const operations = Number(junit.match(/tests="(\d+)"/)?.[1]);
      results[role] = { operations, seconds: Math.round((Date.now() - started) / 1000), failures, report };
    }
  } finally {
    await server.stop();
  }
  return results;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [seconds = '240', examples = '10'] = process.argv.slice(2);
  const results = await conformance({ seconds: Number(seconds), examples: Number(examples) });
  for (const [role, { operations, seconds: took, failures, report }] of Object.entries(results)) {
    const found = Object.entries(failures).map(([check, n]) => `${check}: ${n}`);
    console.log(`${role.padEnd(8)} ${operations} operations, ${took} s: ${found.length ? found.join('; ') : 'no failures'}`);
    if (found.length) console.error(report);
  }
}
