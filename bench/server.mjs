// Starts a throw-away release server for a benchmark and reads its memory:
// `const server = await startServer(['--signup-limit', '1000'])`, then
// `server.rssMib()`, `server.peakMib()`, `server.origin`, `server.dataDir`, `await server.stop()`; `{ dataDir }`
// starts one on the data dir of a server stopped with `stop({ keep: true })`.
// `openFiles` starts it under `ulimit -n`, as a service with a low limit would run.
// With BENCH_POSTGRES (a PostgreSQL URL whose user may create databases, as
// scripts/with-postgres gives), each server gets a new, empty PostgreSQL database
// instead of SQLite in its data dir (bench/engines.mjs runs the benches on both);
// `{ database }` starts one on a given PostgreSQL database (another node on it: bench/nodes.mjs);
// `{ binary }` another build (the tests': target/debug/mavuno).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** The demo with the built web app (`pwa/dist`, or `BENCH_WEB_DIR`'s build: bench/preact.mjs): `startServer(WITH_APP)`. */
export const WITH_APP = ['--demo', '--web-dir', process.env.BENCH_WEB_DIR || join(root, 'pwa/dist')];

export async function startServer(
  args = [],
  { openFiles, database, binary = join(root, 'target/release/mavuno'), dataDir = mkdtempSync(join(tmpdir(), 'mavuno-bench-')) } = {},
) {
  // Benchmarks take payments with the simulator on purpose (a server refuses to start with it silently).
  const serve = [binary, 'serve', '--addr', '127.0.0.1:0', '--data-dir', dataDir, '--payments', 'simulator', ...args];
  if (database) serve.push('--database-url', database);
  else if (process.env.BENCH_POSTGRES) serve.push('--database-url', newPostgresDatabase(process.env.BENCH_POSTGRES));
  const command = openFiles ? ['sh', ['-c', `ulimit -n ${openFiles} && exec "$@"`, 'sh', ...serve]] : [serve[0], serve.slice(1)];
  const env = { ...process.env, RUST_LOG: 'warn,mavuno=info' };
  // Only the run's record of refusals passes (scripts/refusals.mjs), no configuration.
  for (const key of Object.keys(env)) if (key.startsWith('MAVUNO_') && key !== 'MAVUNO_RECORD_REFUSALS') delete env[key];
  const child = spawn(command[0], command[1], { stdio: ['ignore', 'pipe', 'inherit'], env });
  // A bench that throws leaves no server behind (it held the bench's output pipe open).
  process.once('exit', () => child.kill());
  const origin = await new Promise((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = output.match(/listening on (http:\/\/[\d.:]+)/);
      if (match) resolve(match[1]);
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
  });
  return {
    origin,
    dataDir,
    pid: child.pid,
    rssMib() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(status.match(/VmRSS:\s+(\d+)/)[1]) / 1024;
    },
    /** The highest resident memory the server has had (VmHWM). */
    peakMib() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      return Number(status.match(/VmHWM:\s+(\d+)/)[1]) / 1024;
    },
    /** `keep`: leave the data dir, for a server started again on it. */
    async stop({ keep = false } = {}) {
      child.kill('SIGTERM');
      await once(child, 'exit');
      if (!keep) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A new, empty database on the cluster of `admin` (a URL ending in a database's name); its URL. */
export function newPostgresDatabase(admin) {
  const name = `bench_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  const bin = process.env.PG_BIN ? `${process.env.PG_BIN}/psql` : 'psql';
  execFileSync(bin, ['-q', '-d', admin, '-c', `CREATE DATABASE ${name}`]);
  return admin.replace(/\/[^/]*$/, `/${name}`);
}
