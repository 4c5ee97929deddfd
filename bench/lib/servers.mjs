// Starts a Worker of a Wrangler config on a port with fresh local state, in this process through Miniflare's own API
// (scripts/local-runtime.mjs: the runtime `npm start` runs, workerd with no dev proxy in front), and stops it.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDocsAssets } from '../../scripts/docs-assets.mjs';
import { startLocalRuntime } from '../../scripts/local-runtime.mjs';
import { applyLocalMigrationFolders, listD1Databases } from '../../scripts/migrate.mjs';

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
 * How long a starting Worker may take to answer: a loaded 2-core machine has taken over 90 s
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

/** The runtime's lines: errors and warnings only, unless BENCH_WORKER_LOG is set (then every line). */
function printRuntimeLine(line, isError) {
  if (isError || process.env.BENCH_WORKER_LOG) process.stderr.write(`${line}\n`);
}

/**
 * Applies the migrations of `databases` (D1 binding names; default: the directory and every tenant database of the
 * config) to fresh local state in `persistTo`, starts the Worker, waits for `probePath`.
 */
export async function startWorker({ config, port, persistTo, databases, vars = {}, probePath = '/' }) {
  await applyLocalMigrationFolders(config, persistTo, databases ?? (await listD1Databases(config)));
  const outdir = path.join(persistTo, '..', `${path.basename(persistTo)}-bundle`);
  const launch = () => startLocalRuntime({ config, port, persistTo, outdir, vars, print: printRuntimeLine });
  let runtime = await launch();
  const url = runtime.url;
  try {
    await waitFor(`${url}${probePath}`);
  } catch (error) {
    await runtime.dispose();
    throw error;
  }
  return {
    url,
    persistTo,
    config,
    /** workerd's process id (its resident memory is the runtime's). */
    pid: () => runtime.pid(),
    /** The Worker's D1 database `binding` (Miniflare's binding, from this process). */
    d1: (binding) => runtime.mf.getD1Database(binding),
    /**
     * Stops workerd and starts it again on the same port and state: long suites restart between their phases, so
     * that a phase does not measure the memory the runtime kept from the one before.
     */
    restart: async () => {
      await runtime.dispose();
      runtime = await launch();
      await waitFor(`${url}${probePath}`);
    },
    stop: () => runtime.dispose(),
  };
}

/**
 * Runs SQL against one of a worker's local D1 databases (used to bulk-load rows for the table-size scenarios): the
 * statements split as Wrangler splits them, run as one batch.
 */
export async function executeSql(worker, binding, sql) {
  const { unstable_splitSqlQuery } = await import('wrangler');
  const db = await worker.d1(binding);
  await db.batch(unstable_splitSqlQuery(sql).map((statement) => db.prepare(statement)));
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
 * pointing at them, so edits to src/ during a long run do not change it. Returns the copied config's path.
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
  // One that did not start: the others are stopped too (no workerd outlives the run).
  const failed = started.find((outcome) => outcome.status === 'rejected');
  if (failed) {
    await Promise.all(started.map((outcome) => (outcome.status === 'fulfilled' ? outcome.value?.stop() : undefined)));
    throw failed.reason;
  }
  const [api, raw, bareRaw] = started.map((outcome) => outcome.value);
  return bareRaw ? { api, raw, bare: bareRaw } : { api, raw };
}
