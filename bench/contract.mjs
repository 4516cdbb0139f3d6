// The API document against the server, by a tool we did not write (issue 75): schemathesis
// (`--checks all`, a fixed seed) as a visitor, a farmer and an admin of the demo, on a
// throw-away release server (SQLite; with BENCH_POSTGRES, a new PostgreSQL database:
// `scripts/with-postgres node bench/contract.mjs`). Prints each role's failures by check.
// scripts/schemathesis.toml says what the tool is told and why (the operations that end
// the caller's session are left out; refusals no JSON Schema can foretell).
//
//   node bench/contract.mjs [seconds per role] [examples]   (defaults 240 s, 10;
//   needs target/release/mavuno and .tools/venv/bin/schemathesis: pip install "schemathesis==4.32.5")
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './server.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tool = join(root, '.tools/venv/bin/schemathesis');
if (!existsSync(tool)) throw new Error(`${tool} is missing: .tools/venv/bin/pip install "schemathesis==4.32.5"`);
const [seconds = '240', examples = '10'] = process.argv.slice(2);
const server = await startServer(['--demo']);

async function token(email) {
  const answer = await fetch(`${server.origin}/api/v1/users/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user: { email, password: 'mavuno-demo' } }),
  });
  return (await answer.json()).user.token;
}

try {
  for (const [role, email] of [['visitor'], ['farmer', 'farmer@mavuno.demo'], ['admin', 'admin@mavuno.demo']]) {
    const auth = email ? ['-H', `Authorization: Bearer ${await token(email)}`] : [];
    const reports = mkdtempSync(join(tmpdir(), 'mavuno-contract-'));
    const started = Date.now();
    // Not execFileSync: the server's log comes through this process, which must go on reading it.
    try {
      await promisify(execFile)(
        tool,
        ['--config-file', join(root, 'scripts/schemathesis.toml'), 'run', `${server.origin}/api/v1/openapi.json`,
          '-u', `${server.origin}/api/v1`, '--checks', 'all', '-n', examples, '--seed', '1', '--max-time', seconds, '--no-color',
          '--report', 'junit', '--report-dir', reports, ...auth],
        // Its cache (.schemathesis/) goes with the reports, not into the checkout.
        { maxBuffer: 256 * 1024 * 1024, cwd: reports },
      );
    } catch {
      // Failures found: read below.
    }
    const junit = readFileSync(join(reports, readdirSync(reports).find((f) => f.startsWith('junit'))), 'utf8');
    const checks = {};
    for (const [, check] of junit.matchAll(/- (ST\d+ [^\n<]+)/g)) checks[check] = (checks[check] ?? 0) + 1;
    const cases = junit.match(/tests="(\d+)"/)?.[1];
    console.log(
      `${role.padEnd(8)} ${cases} operations, ${((Date.now() - started) / 1000).toFixed(0)} s: ` +
        (Object.keys(checks).length ? Object.entries(checks).map(([c, n]) => `${c}: ${n}`).join('; ') : 'no failures'),
    );
  }
} finally {
  await server.stop();
}
