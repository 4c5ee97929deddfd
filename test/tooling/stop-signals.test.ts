/**
 * The long-running scripts the README names stop on SIGTERM and on SIGINT sent to the process the user started (npm,
 * not the script), leaving nothing listening: `npm run start:deno` (and its Deno server) and `npm run webhook:receiver`.
 * (`npm start` is checked by test/tooling/dev-server.ts's users, which stop it the same way.)
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findFreePort, PROJECT_ROOT } from './dev-server.js';

/** Whether something listens on 127.0.0.1:port (our own listener there fails). */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(true));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(false)));
  });
}

const started: ChildProcess[] = [];

/** Ends every process group a test started (nothing, when the scripts stopped as they should). */
function cleanUp(): void {
  for (const npm of started.splice(0)) {
    try {
      if (npm.pid !== undefined) process.kill(-npm.pid, 'SIGKILL');
    } catch {
      // gone: the group stopped
    }
  }
}

afterEach(cleanUp);

/** Starts `npm run <script>` and resolves once its output matches `ready`. */
async function startScript(
  script: string,
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ npm: ChildProcess; output: () => string }> {
  // A process group of its own: whatever the test finds, `cleanUp` ends all of it (the signal goes to npm alone).
  const npm = spawn('npm', ['run', script], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(npm);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve();
    };
    npm.stdout?.on('data', read);
    npm.stderr?.on('data', read);
    npm.once('exit', (code) => reject(new Error(`npm run ${script} exited (${code}) before it was ready:\n${output}`)));
  });
  return { npm, output: () => output };
}

/** Sends `signal` to npm; resolves once npm exited and nothing listens on `port` any more (or after 20 s: false). */
async function stopAndCheck(npm: ChildProcess, signal: NodeJS.Signals, port: number): Promise<boolean> {
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()));
  npm.kill(signal);
  await exited;
  for (let attempt = 0; attempt < 100; attempt += 1) {
    if (!(await isListening(port))) return true;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return false;
}

describe('stopping what npm started', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`npm run webhook:receiver stops on ${signal} to npm`, async () => {
      const port = await findFreePort();
      const { npm } = await startScript('webhook:receiver', { WEBHOOK_RECEIVER_PORT: String(port) }, /Webhook receiver on/);
      expect(await isListening(port)).toBe(true);
      expect(await stopAndCheck(npm, signal, port)).toBe(true);
    }, 60_000);

    it(`npm run start:deno stops on ${signal} to npm, its Deno server with it`, async () => {
      const port = await findFreePort();
      const data = mkdtempSync(path.join(tmpdir(), 'start-deno-'));
      try {
        const { npm, output } = await startScript('start:deno', { PORT: String(port), DENO_DATA_DIR: data }, /^Server: Deno answers/m);
        expect(await isListening(port)).toBe(true);
        expect(await stopAndCheck(npm, signal, port), output()).toBe(true);
      } finally {
        rmSync(data, { recursive: true, force: true });
      }
    }, 120_000);
  }
});
