/**
 * One Deno server per worker process of the Deno run (fresh SQLite files, fresh KV), shared by its test files as
 * the Workers run shares its runtime (vitest.deno.config.ts); every test works on a tenant/org of its own. It listens on a free port and trusts X-Forwarded-Proto/-Host so that the tests' origin
 * (https://api.test) is the one the API sees.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { buildDenoArgs, buildDenoEnv, DENO_TEST_ENTRY, resolveDenoExecutable } from '../../scripts/deno-bin.mjs';

export const DENO_TEST_JWT_SECRET = 'deno-test-secret-that-is-at-least-32-characters';
export const DENO_TEST_TENANT_DATABASES = ['TENANT_DB_1', 'TENANT_DB_2'];
/** Small move steps, as in the Workers run (vitest.config.ts), so moves run through several alarms. */
const DENO_TEST_MOVE_STEP_QUERIES = '12';

const START_TIMEOUT_MS = 30_000;
const LISTENING = /Deno server listening on (http:\/\/\S+)/;

export interface DenoTestServer {
  readonly baseUrl: string;
  stop(): Promise<void>;
  /** Ends the server as a crash would (SIGKILL: nothing of its work is finished); its data stays. */
  kill(): Promise<void>;
}

/**
 * The server of this worker process, on globalThis: the run does not isolate test files (vitest.deno.config.ts,
 * `isolate: false`), so a worker's files share one server, started by the first file's setup (test/deno/setup.ts).
 */
const shared = globalThis as { erpDenoServer?: Promise<DenoTestServer> };

let current: DenoTestServer | undefined;

/** The server of the running test file (started by test/deno/setup.ts). */
export function readDenoServer(): DenoTestServer {
  if (!current) throw new Error('No Deno server: the Deno test run starts one per worker in test/deno/setup.ts.');
  return current;
}

/** Resolves with the server's base URL from its "listening" line; start-up output is kept for errors. */
function waitForListening(child: ChildProcess): Promise<string> {
  const output: string[] = [];
  return new Promise<string>((resolve, reject) => {
    const settle = (error: Error | undefined, url?: string) => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
      if (url !== undefined) resolve(url);
      else reject(error);
    };
    const onData = (chunk: Buffer) => {
      output.push(chunk.toString());
      const url = LISTENING.exec(output.join(''))?.[1];
      if (url) settle(undefined, url);
    };
    const onExit = (code: number | null) =>
      settle(new Error(`The Deno server exited (${String(code)}) before listening:\n${output.join('')}`));
    const timer = setTimeout(
      () => settle(new Error(`The Deno server did not start within ${START_TIMEOUT_MS} ms:\n${output.join('')}`)),
      START_TIMEOUT_MS,
    );
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * A Deno server on a fresh database; `env` overrides its environment (the suite runs with rate limiting off:
 * RATE_LIMIT_PER_MINUTE=0). Tests that need a differently configured server of their own launch one. With
 * `dataDirectory`, the server opens the databases there (a restart of an earlier server) and `stop` keeps them.
 */
export async function launchDenoServer(env: Record<string, string> = {}, dataDirectory?: string): Promise<DenoTestServer> {
  const directory = dataDirectory ?? mkdtempSync(join(tmpdir(), 'erp-deno-test-'));
  const removeDirectory = () => {
    if (dataDirectory === undefined) rmSync(directory, { recursive: true, force: true });
  };
  const child = spawn(resolveDenoExecutable(), buildDenoArgs(directory, DENO_TEST_ENTRY), {
    // stdin is the lifeline: when this worker process goes, however it goes, the server stops.
    stdio: ['pipe', 'pipe', 'pipe'],
    env: buildDenoEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      DENO_DATA_DIR: directory,
      DENO_TENANT_DATABASES: DENO_TEST_TENANT_DATABASES.join(','),
      MOVE_STEP_QUERIES: DENO_TEST_MOVE_STEP_QUERIES,
      JWT_SECRET: DENO_TEST_JWT_SECRET,
      JWT_JWKS_URL: '',
      JWT_ISSUER: '',
      JWT_AUDIENCE: '',
      TRUST_FORWARDED_HEADERS: '1',
      TEST_SCHEDULED: '1',
      CRON_INTERVAL_MINUTES: '0',
      EXIT_ON_STDIN_END: '1',
      RATE_LIMIT_PER_MINUTE: '0',
      WEBHOOKS_ALLOW_LOCAL_HTTP: 'true',
      WEBHOOK_RETRY_BASE_SECONDS: '0',
      WEBHOOKS_DNS_RESOLVER_URL: `${inject('dohResolver')}/dns-query`,
      ...env,
    }),
  });
  // A test file that fails to load never runs its afterAll: the server still goes when the worker exits.
  const killOnExit = () => {
    child.kill('SIGKILL');
    removeDirectory();
  };
  process.once('exit', killOnExit);
  child.stdin?.on('error', () => undefined);
  let baseUrl: string;
  try {
    baseUrl = await waitForListening(child);
  } catch (error) {
    await stopProcess(child);
    removeDirectory();
    throw error;
  }
  // Past start-up, the server's logs (errors of failing requests, expected ones included) go to the console of the
  // test running then: shown when that test fails (silent: 'passed-only'), not in a passing run.
  child.stdout?.resume();
  child.stderr?.on('data', (chunk: Buffer) => console.error(chunk.toString().trimEnd()));
  return {
    baseUrl,
    async stop() {
      process.off('exit', killOnExit);
      await stopProcess(child);
      removeDirectory();
    },
    async kill() {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGKILL');
      });
    },
  };
}

/**
 * The server of this worker process (what `readDenoServer` answers and the `cloudflare:test` shim talks to): started
 * once, shared by the worker's test files, stopped when the worker exits (its stdin closes: EXIT_ON_STDIN_END; its
 * data directory is removed then). Every test works on a tenant/org of its own, so files do not see each other's data.
 */
export async function startDenoServer(): Promise<DenoTestServer> {
  shared.erpDenoServer ??= launchDenoServer();
  current = await shared.erpDenoServer;
  return current;
}
