/**
 * The README's examples, run in order as a reader pastes them (scripts/check-readme.mjs), against `npm start` on a
 * free port with fresh local state, as on a first start: every block that calls the API runs in one bash with
 * `set -euo pipefail`, and no answer may be a 5xx or a 4xx that its block does not mention. The webhook example's
 * receiver runs too, and must print a verified delivery.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readExampleBlocks, runReadmeExamples } from '../../scripts/check-readme.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
let server: ChildProcess | undefined;
let state = '';
let baseUrl = '';
let output = '';

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

beforeAll(async () => {
  const port = await findFreePort();
  state = mkdtempSync(path.join(tmpdir(), 'readme-examples-'));
  baseUrl = `http://127.0.0.1:${port}`;
  // Its own process group; SIGTERM makes scripts/start.mjs stop wrangler dev's group too.
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), PERSIST_TO: state },
  });
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/^Ready in /m.test(output)) resolve();
    };
    server?.stdout?.on('data', read);
    server?.stderr?.on('data', read);
    server?.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output.slice(-2000)}`)));
  });
}, 300_000);

afterAll(() => {
  if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  if (state) rmSync(state, { recursive: true, force: true });
});

describe('README examples', () => {
  it('run in order on a fresh start, each answer as its block says', async () => {
    expect(readExampleBlocks().length).toBeGreaterThan(10);
    const result = await runReadmeExamples({ base: baseUrl, receiverPort: await findFreePort() });
    expect(result.problems, [...result.errors.slice(-40), result.receiver].join('\n')).toEqual([]);
    expect(result.receiver).toMatch(/verified: updated operations\/emailTemplates maintenance-notification/);
  }, 300_000);
});
