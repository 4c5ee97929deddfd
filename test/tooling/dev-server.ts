/**
 * `npm start` (scripts/start.mjs) for the Node-side tooling tests: on a free port, with a fresh state folder, in a
 * process group of its own so that stopping it stops wrangler dev and workerd too. Resolves once the start script
 * prints its last start-up line (`Ready in ...`).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface DevServer {
  readonly baseUrl: string;
  stop(): void;
}

/** A free TCP port of 127.0.0.1. */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Starts `npm start` with `env` added to this process's environment; `label` names its state folder. */
export async function startDevServer(label: string, env: Record<string, string> = {}): Promise<DevServer> {
  const port = await findFreePort();
  const state = mkdtempSync(path.join(tmpdir(), `${label}-`));
  // Its own process group; SIGTERM makes scripts/start.mjs stop wrangler dev's group too.
  const server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), PERSIST_TO: state, ...env },
  });
  const stop = () => {
    if (server.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
    rmSync(state, { recursive: true, force: true });
  };
  let output = '';
  try {
    await new Promise<void>((resolve, reject) => {
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        if (/^Ready in /m.test(output)) resolve(); // npm start's last start-up line
      };
      server.stdout?.on('data', read);
      server.stderr?.on('data', read);
      server.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output.slice(-2000)}`)));
    });
  } catch (error) {
    stop();
    throw error;
  }
  return { baseUrl: `http://127.0.0.1:${port}`, stop };
}
