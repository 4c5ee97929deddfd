/**
 * The local servers of the browser test, started as a user starts them (`npm start`, `npm run start:deno`) on free
 * ports with fresh local state in a temporary directory, and stopped with all their processes.
 */
import { execFile, spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser } from 'playwright-core';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// npm start ends its start-up with "Ready in ...", npm run start:deno with "Demo data ready on demo/demo ...".
const READY = /^Ready in |Demo data ready on demo\/demo/m;
const START_TIMEOUT_MS = 100_000;

export interface LocalServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
}

/** `npm` as the running npm invoked it (npm run test:browser), else from PATH. */
function buildNpmCommand(args: string[]): [string, string[]] {
  const npm = process.env.npm_execpath;
  return npm ? [process.execPath, [npm, ...args]] : ['npm', args];
}

function isPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** The preferred port when it is free (so the README screenshot stays the same from run to run), else any free one. */
async function findPort(preferred: number): Promise<number> {
  if (await isPortFree(preferred)) return preferred;
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM to the whole process group, then waits until every process of it is gone (SIGKILL after 10 s). */
async function stopGroup(child: ChildProcess): Promise<void> {
  const pid = child.pid;
  if (pid === undefined) return;
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + 10_000;
  while (signalGroup(pid, 0) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  signalGroup(pid, 'SIGKILL');
}

/** Runs `npm run -s <script>` with PORT and `env`, and waits until it has seeded the demo data. */
export async function startLocalServer(
  script: 'start' | 'start:deno',
  preferredPort: number,
  env: (stateDir: string) => Record<string, string>,
): Promise<LocalServer> {
  const stateDir = mkdtempSync(join(tmpdir(), `erp-browser-${script.replace(':', '-')}-`));
  const port = await findPort(preferredPort);
  const [command, args] = buildNpmCommand(['run', '-s', script]);
  // Its own process group: stopping it stops wrangler/workerd or deno too.
  const child = spawn(command, args, {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env(stateDir), PORT: String(port) },
  });
  const output: string[] = [];
  const stop = async () => {
    await stopGroup(child);
    rmSync(stateDir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`npm run ${script} was not ready within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      const onData = (chunk: Buffer) => {
        output.push(chunk.toString());
        if (READY.test(output.join(''))) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout?.on('data', onData);
      child.stderr?.on('data', onData);
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`npm run ${script} exited (${String(code)}) before it was ready`));
      });
    });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}:\n${output.join('').slice(-4000)}`);
  }
  return { baseUrl: `http://127.0.0.1:${port}`, stop };
}

/** A token as the page tells a developer to mint one: `npm run -s token -- --tenant demo --org demo`. */
export function mintDevelopmentToken(): Promise<string> {
  const [command, args] = buildNpmCommand(['run', '-s', 'token', '--', '--tenant', 'demo', '--org', 'demo']);
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd: ROOT }, (error, stdout) => (error ? reject(error) : resolve(stdout.trim())));
  });
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** A local server a browser test runs against: which script, its preferred port, its state's environment. */
export interface BrowserTarget {
  readonly name: string;
  readonly script: 'start' | 'start:deno';
  readonly port: number;
  readonly env: (stateDir: string) => Record<string, string>;
}

/**
 * Starts every target (each one that started is put in `servers`, so that `stopBrowserTargets` stops it even when
 * another failed), then Chromium; answers the browser and a development token.
 */
export async function startBrowserTargets(
  targets: readonly BrowserTarget[],
  servers: Map<string, LocalServer>,
): Promise<{ browser: Browser; token: string }> {
  if (!existsSync(CHROMIUM)) throw new Error(`No Chromium at ${CHROMIUM}: run \`npm run browser:install\` (or set CHROMIUM_PATH).`);
  // First: on a fresh clone this makes .dev.vars, whose secret both servers then read.
  const token = await mintDevelopmentToken();
  const started = await Promise.allSettled(targets.map((target) => startLocalServer(target.script, target.port, target.env)));
  started.forEach((result, index) => {
    if (result.status === 'fulfilled') servers.set(targets[index]?.name ?? '', result.value);
  });
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) throw failure.reason;
  return { browser: await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS }), token };
}

/** Closes the browser and stops every server that started. */
export async function stopBrowserTargets(browser: Browser | undefined, servers: ReadonlyMap<string, LocalServer>): Promise<void> {
  await browser?.close();
  await Promise.all([...servers.values()].map((server) => server.stop()));
}
