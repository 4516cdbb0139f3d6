// A client generated from the published API document by a tool the project did not
// write (openapi-python-client, pinned; docs/integrating.md), calling a real server:
// scripts/test runs it against the debug build with the demo.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { promisify } from 'node:util';
import { startServer } from '../../bench/server.mjs';

const root = join(import.meta.dirname, '..', '..');
const run = promisify(execFile);

test('a client generated from docs/openapi.json searches, signs in and reads the account', { timeout: 300_000 }, async () => {
  const out = mkdtempSync(join(tmpdir(), 'mavuno-client-'));
  const server = await startServer(['--demo'], { binary: join(root, 'target/debug/mavuno') });
  try {
    const tool = join(root, '.tools/venv/bin/openapi-python-client');
    const config = join(import.meta.dirname, 'config.yaml');
    await run(tool, ['generate', '--path', join(root, 'docs/openapi.json'), '--config', config, '--meta', 'none'], { cwd: out });
    const { stdout } = await run(join(root, '.tools/venv/bin/python'), [join(import.meta.dirname, 'calls.py'), server.origin], {
      env: { ...process.env, PYTHONPATH: out },
    });
    console.log(stdout.trim());
    assert.match(stdout, /a wrong password: 401 invalid_credentials/);
  } finally {
    await server.stop();
    rmSync(out, { recursive: true, force: true });
  }
});
