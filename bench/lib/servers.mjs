// Starts `wrangler dev` for a config on a port with fresh local state, and stops it.
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDocsAssets } from '../../scripts/docs-assets.mjs';
import { listD1Databases } from '../../scripts/migrate.mjs';

const wrangler = fileURLToPath(new URL('../../node_modules/wrangler/bin/wrangler.js', import.meta.url));
const root = fileURLToPath(new URL('../..', import.meta.url));

export function runWrangler(args, { quiet = true } = {}) {
  const result = spawnSync(process.execPath, [wrangler, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: 'true', WRANGLER_SEND_METRICS: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`wrangler ${args.join(' ')} failed:\n${result.stdout}\n${result.stderr}`);
  if (!quiet) process.stdout.write(result.stdout);
  return result.stdout;
}

/**
 * How long a starting `wrangler dev` may take to answer: a loaded 2-core machine has taken over 90 s
 * (BENCH_START_TIMEOUT_MS overrides the 300 s).
 */
const START_TIMEOUT_MS = Number(process.env.BENCH_START_TIMEOUT_MS ?? 300_000);

export async function waitFor(url, timeoutMs = START_TIMEOUT_MS) {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(url);
      await response.arrayBuffer();
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Applies the migrations of `databases` (D1 binding names; default: the directory and every tenant database of
 * the config) to fresh local state in `persistTo`, starts `wrangler dev`, waits for `probePath`.
 */
export async function startWorker({ config, port, persistTo, databases, vars = {}, probePath = '/' }) {
  for (const binding of databases ?? (await listD1Databases(config)))
    runWrangler(['d1', 'migrations', 'apply', binding, '--local', '-c', config, '--persist-to', persistTo]);
  const url = `http://127.0.0.1:${port}`;
  let child = await launchWrangler({ config, port, persistTo, vars });
  try {
    await waitFor(`${url}${probePath}`);
  } catch (error) {
    await stopWrangler(child);
    throw error;
  }
  return {
    url,
    persistTo,
    config,
    /**
     * Stops `wrangler dev` and starts it again on the same port and state. Its local runtime holds on to memory with
     * every request (about 10 KB each in its proxy and in the Worker's process, the raw Worker's alike), and after a
     * few hundred thousand requests its proxy stops answering: long suites restart between their phases.
     */
    restart: async () => {
      await stopWrangler(child);
      child = await launchWrangler({ config, port, persistTo, vars });
      await waitFor(`${url}${probePath}`);
    },
    stop: () => stopWrangler(child),
  };
}

async function launchWrangler({ config, port, persistTo, vars }) {
  const args = [
    'dev',
    '-c',
    config,
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--persist-to',
    persistTo,
    '--log-level',
    process.env.BENCH_WRANGLER_LOG ?? 'error',
    // Its own inspector port: the default (9229) may still be held by a worker that is stopping.
    '--inspector-port',
    String(await findFreePort()),
  ];
  for (const [name, value] of Object.entries(vars)) args.push('--var', `${name}:${value}`);
  // Run from the config's own folder: `wrangler dev` reloads on changes under its working directory, and a
  // reload mid-run answers in-flight writes with 503 "worker restarted mid-request".
  return spawn(process.execPath, [wrangler, ...args], {
    cwd: path.dirname(config),
    stdio: ['ignore', process.env.BENCH_WRANGLER_LOG ? 'inherit' : 'ignore', 'inherit'],
    env: { CLOUDFLARE_CF_FETCH_ENABLED: 'false', ...process.env, WRANGLER_SEND_METRICS: 'false' },
  });
}

/**
 * Stops a `wrangler dev` and its descendants: its esbuild watcher can outlive it and, left running while the state
 * folder is removed, starts a rebuild it cannot finish (a Go deadlock dump).
 */
function stopWrangler(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    const family = listDescendants(child.pid);
    child.once('exit', async () => {
      for (const pid of family) signalIfAlive(pid, 'SIGTERM');
      for (let waited = 0; waited < 3000 && family.some(isAlive); waited += 100) await new Promise((r) => setTimeout(r, 100));
      resolve();
    });
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5000).unref();
  });
}

/** The process ids below `pid` (children, grandchildren, ...), from `ps`. */
function listDescendants(pid) {
  const listing = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  if (listing.status !== 0) return [];
  const children = new Map();
  for (const line of listing.stdout.split('\n')) {
    const [child, parent] = line.trim().split(/\s+/).map(Number);
    if (!child || !parent) continue;
    children.set(parent, [...(children.get(parent) ?? []), child]);
  }
  const found = [];
  const queue = [pid];
  while (queue.length > 0) {
    for (const child of children.get(queue.shift()) ?? []) {
      found.push(child);
      queue.push(child);
    }
  }
  return found;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalIfAlive(pid, signal) {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/** Runs SQL against one of a worker's local D1 databases (used to bulk-load rows for the table-size scenarios). */
export function executeSql(worker, binding, sql) {
  runWrangler(['d1', 'execute', binding, '--local', '-c', worker.config, '--persist-to', worker.persistTo, '--command', sql]);
}

export function findFreePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * A frozen copy of the API Worker in `directory`: the bundle, the migrations, the static assets and a config
 * pointing at them, so edits to src/ during a long run do not restart it. Returns the copied config's path.
 */
export function snapshotWorker(directory) {
  buildDocsAssets();
  runWrangler(['deploy', '--dry-run', '--outdir', path.join(directory, 'dist'), '-c', path.join(root, 'wrangler.toml')]);
  cpSync(path.join(root, 'migrations'), path.join(directory, 'migrations'), { recursive: true });
  cpSync(path.join(root, 'public'), path.join(directory, 'public'), { recursive: true });
  const config = readFileSync(path.join(root, 'wrangler.toml'), 'utf8').replace(/^main = .*$/m, 'main = "dist/index.js"');
  writeFileSync(path.join(directory, 'wrangler.toml'), config);
  return path.join(directory, 'wrangler.toml');
}

/**
 * The raw Worker's config without its `[assets]` block (the "bare" raw Worker: no static-assets routing in front),
 * written to `directory` with absolute paths. Returns its path.
 */
function writeBareRawConfig(directory) {
  const source = readFileSync(path.join(root, 'bench/raw/wrangler.toml'), 'utf8');
  const start = source.indexOf('\n# Static assets routed');
  if (start < 0) throw new Error('bench/raw/wrangler.toml: the [assets] block is not where writeBareRawConfig expects it');
  const config = source
    .slice(0, start)
    .replace(/^main = .*$/m, `main = ${JSON.stringify(path.join(root, 'bench/raw/worker.js'))}`)
    .replace(/^migrations_dir = .*$/m, `migrations_dir = ${JSON.stringify(path.join(root, 'migrations/tenant'))}`);
  mkdirSync(directory, { recursive: true });
  writeFileSync(path.join(directory, 'wrangler.toml'), config);
  return path.join(directory, 'wrangler.toml');
}

/**
 * The API Worker (a frozen copy, rate limits off) and the raw baseline Worker side by side on fresh local state in
 * `state`: `{ api, raw }`, each with `url` and `stop()`. `vars` are the API's variables (its JWT_SECRET among them).
 * With `bare`, also `bare`: the raw Worker without static-assets routing.
 */
export async function startApiAndRaw(state, vars, { bare = false } = {}) {
  const config = snapshotWorker(path.join(state, 'worker'));
  const [apiPort, rawPort, barePort] = [await findFreePort(), await findFreePort(), await findFreePort()];
  const started = await Promise.allSettled([
    startWorker({
      config,
      port: apiPort,
      persistTo: path.join(state, 'api'),
      vars: { RATE_LIMIT_PER_MINUTE: '0', ...vars },
      probePath: '/health',
    }),
    startWorker({
      config: path.join(root, 'bench/raw/wrangler.toml'),
      port: rawPort,
      persistTo: path.join(state, 'raw'),
      databases: ['DB'],
      probePath: '/constant',
    }),
    bare
      ? startWorker({
          config: writeBareRawConfig(path.join(state, 'bare-worker')),
          port: barePort,
          persistTo: path.join(state, 'bare'),
          databases: ['DB'],
          probePath: '/constant',
        })
      : Promise.resolve(undefined),
  ]);
  // One that did not start: the others are stopped too (no `wrangler dev` outlives the run).
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value?.stop() : undefined)));
    throw failed.reason;
  }
  const [api, raw, bareRaw] = started.map((outcome) => outcome.value);
  return bareRaw ? { api, raw, bare: bareRaw } : { api, raw };
}
