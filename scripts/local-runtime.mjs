// The local Workers runtime of `npm start`, the bench and `npm run db:migrate`: a Worker of a Wrangler config served by
// Miniflare's own API (the `miniflare` package the vitest pool uses, and its `workerd`), with nothing between the
// client and workerd: no dev proxy that answers 503 "Your worker restarted mid-request" or parks requests
// (workers-sdk#14641). The Worker is the bundle `wrangler deploy` would upload (`wrangler deploy --dry-run`), behind a
// small entry module that also answers `GET /__scheduled` by running the cron trigger (as `wrangler dev
// --test-scheduled` did). The config's bindings (D1, KV, R2, the Durable Object, Workflows, Queues, Rate Limiting,
// static assets, vars and .dev.vars) become Miniflare's options here; local state goes where `wrangler dev` put it
// (`<persist>/v3/<plugin>`), so an existing .wrangler/state is opened, not replaced.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const wrangler = path.join(root, 'node_modules/wrangler/bin/wrangler.js');

/** The versions this runtime runs (the `miniflare` and `workerd` packages at the top of node_modules). */
export const RUNTIME_VERSIONS = {
  miniflare: JSON.parse(readFileSync(require.resolve('miniflare/package.json'), 'utf8')).version,
  workerd: JSON.parse(readFileSync(require.resolve('workerd/package.json'), 'utf8')).version,
};

/** Where a config's local state lives: `persistTo` (relative to the working directory), else .wrangler/state beside it. */
export function resolvePersistRoot(config, persistTo) {
  return persistTo ? path.resolve(process.cwd(), persistTo) : path.join(path.dirname(config), '.wrangler/state');
}

/** Miniflare from the top of node_modules (the vitest pool's), loaded when first needed. */
export async function loadMiniflare() {
  return import('miniflare');
}

/** Reads a Wrangler config (through Wrangler's own reader: the same defaults and checks as `wrangler deploy`). */
export async function readWranglerConfig(config) {
  const { unstable_readConfig } = await import('wrangler');
  return unstable_readConfig({ config });
}

/**
 * Bundles the config's Worker into `outdir` as `wrangler deploy` would (its `--dry-run`), and writes the entry module
 * Miniflare loads: the bundle's exports, with `GET /__scheduled` running the `scheduled` handler and answering
 * "Ran scheduled event" once it has ended (as `wrangler dev --test-scheduled` does). Answers the modules to load.
 */
export function bundleWorker(config, outdir) {
  mkdirSync(outdir, { recursive: true });
  const result = spawnSync(process.execPath, [wrangler, 'deploy', '--dry-run', '--outdir', outdir, '-c', config], {
    cwd: path.dirname(config),
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true' },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`Bundling ${config} failed:\n${result.stdout}\n${result.stderr}`);
  const main = readdirSync(outdir).find((name) => /\.(m?js)$/.test(name) && name !== 'entry.mjs');
  if (!main) throw new Error(`wrangler deploy --dry-run wrote no module to ${outdir}`);
  const entry = path.join(outdir, 'entry.mjs');
  writeFileSync(
    entry,
    `// Written by scripts/local-runtime.mjs: the Worker, and GET /__scheduled running its cron trigger (local runs only).
import worker from './${main}';
export * from './${main}';
export default {
  ...worker,
  async fetch(request, env, ctx) {
    if (typeof worker.scheduled === 'function' && new URL(request.url).pathname === '/__scheduled') {
      await worker.scheduled({ cron: new URL(request.url).searchParams.get('cron') ?? '', scheduledTime: Date.now(), noRetry() {} }, env, ctx);
      return new Response('Ran scheduled event');
    }
    return worker.fetch(request, env, ctx);
  },
};
`,
  );
  return [
    { type: 'ESModule', path: entry },
    { type: 'ESModule', path: path.join(outdir, main) },
  ];
}

/** The variables of a .dev.vars file (`NAME=value` or `NAME="value"` lines; `#` comments). */
function readDotVars(file) {
  if (!existsSync(file)) return {};
  const vars = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (!match) continue;
    const value = match[2];
    vars[match[1]] = /^"(.*)"$/.test(value) || /^'(.*)'$/.test(value) ? value.slice(1, -1) : value;
  }
  return vars;
}

/** The D1 databases of a config: binding -> the id local state is kept under (as `wrangler dev` keys it). */
export function readD1Ids(parsed) {
  const ids = {};
  for (const database of parsed.d1_databases ?? [])
    ids[database.binding] = database.preview_database_id ?? database.database_id ?? database.database_name;
  return ids;
}

/**
 * Miniflare's (v4-style) options for the config's Worker: its bindings, `vars` over [vars] and .dev.vars, and
 * `rateLimitPerMinute` (when given) as both the RATE_LIMIT_PER_MINUTE variable and the Rate Limiting bindings' limit
 * (CALLER_RATE_LIMITER's: half of it; AUTH_FAILURE_LIMITER has its own).
 */
function buildWorkerOptions(config, parsed, modules, { vars = {}, rateLimitPerMinute }) {
  const folder = path.dirname(config);
  const bindings = { ...(parsed.vars ?? {}), ...readDotVars(path.join(folder, '.dev.vars')), ...vars };
  if (rateLimitPerMinute !== undefined) bindings.RATE_LIMIT_PER_MINUTE = String(rateLimitPerMinute);
  const options = {
    name: parsed.name,
    modules,
    modulesRoot: path.dirname(modules[0].path),
    compatibilityDate: parsed.compatibility_date,
    compatibilityFlags: parsed.compatibility_flags ?? [],
    bindings,
    d1Databases: readD1Ids(parsed),
    kvNamespaces: Object.fromEntries((parsed.kv_namespaces ?? []).map((kv) => [kv.binding, kv.preview_id ?? kv.id])),
    r2Buckets: Object.fromEntries(
      (parsed.r2_buckets ?? []).map((bucket) => [bucket.binding, bucket.preview_bucket_name ?? bucket.bucket_name]),
    ),
    durableObjects: Object.fromEntries(
      (parsed.durable_objects?.bindings ?? []).map((object) => [object.name, { className: object.class_name, useSQLite: true }]),
    ),
    workflows: Object.fromEntries(
      (parsed.workflows ?? []).map((workflow) => [workflow.binding, { name: workflow.name, className: workflow.class_name }]),
    ),
    queueProducers: Object.fromEntries((parsed.queues?.producers ?? []).map((queue) => [queue.binding, { queueName: queue.queue }])),
    queueConsumers: Object.fromEntries(
      (parsed.queues?.consumers ?? []).map((queue) => [
        queue.queue,
        { maxBatchSize: queue.max_batch_size, maxBatchTimeout: queue.max_batch_timeout, maxRetries: queue.max_retries },
      ]),
    ),
    ratelimits: Object.fromEntries(
      (parsed.ratelimits ?? []).map((limiter) => {
        // The caller limiter takes its share of the tenant/org's limit (half, rounded up: callerShareOf in
        // src/runtime/platform.ts); the tenant/org and subject limiters the whole.
        const share = limiter.name === 'CALLER_RATE_LIMITER' ? Math.ceil(rateLimitPerMinute / 2) : rateLimitPerMinute;
        const limit = rateLimitPerMinute && limiter.name !== 'AUTH_FAILURE_LIMITER' ? share : limiter.simple.limit;
        return [limiter.name, { namespace_id: String(limiter.namespace_id), simple: { limit, period: limiter.simple.period } }];
      }),
    ),
  };
  if (parsed.assets?.directory) {
    options.assets = {
      directory: path.resolve(folder, parsed.assets.directory),
      binding: parsed.assets.binding,
      run_worker_first: parsed.assets.run_worker_first,
      routerConfig: { has_user_worker: true },
    };
  }
  return options;
}

/** The marker a start leaves in the state folder: which runtime last opened it. */
function markerPath(persistRoot) {
  return path.join(persistRoot, 'local-runtime.json');
}

/**
 * What a start must say about existing local state before it opens it: a folder written by `wrangler dev` (no marker:
 * its older workerd) is upgraded by this workerd, which a `wrangler dev` 4.86 cannot open afterwards; a folder marked
 * by another workerd version likewise. Answers the lines to print (none for fresh or same-version state).
 */
export function describeStateChange(persistRoot) {
  const state = path.join(persistRoot, 'v3');
  if (!existsSync(state)) return [];
  const marker = existsSync(markerPath(persistRoot)) ? JSON.parse(readFileSync(markerPath(persistRoot), 'utf8')) : undefined;
  if (marker?.workerd === RUNTIME_VERSIONS.workerd) return [];
  const before = marker ? `workerd ${marker.workerd}` : "an earlier npm start (wrangler dev 4.86's workerd 1.20260426)";
  return [
    `Local state: ${persistRoot} was last opened by ${before}; workerd ${RUNTIME_VERSIONS.workerd} opens it now and upgrades its`,
    '  Durable Object storage in place (records, imports and coordinators are kept). After that, wrangler dev 4.86 (an older',
    '  checkout of this project) cannot open it ("table _cf_ALARM has 3 columns but 2 values were supplied"): give an older',
    '  checkout a state folder of its own (PERSIST_TO=dir npm start), or delete .wrangler/state there to start afresh.',
  ];
}

/** Records that this runtime opened the state folder (read by describeStateChange). */
export function markState(persistRoot) {
  mkdirSync(persistRoot, { recursive: true });
  writeFileSync(markerPath(persistRoot), `${JSON.stringify({ ...RUNTIME_VERSIONS, openedOn: new Date().toISOString() }, null, 2)}\n`);
}

/**
 * Starts the config's Worker on host:port (port 0: any free one) with its local state in `persistTo` (default:
 * .wrangler/state beside the config). `outdir`: where its bundle goes; `print(line, isError)`: where the runtime's lines
 * go (Miniflare's own and the Worker's console output; default: this process's stdout and stderr). Answers
 * `{ url, mf, reload, dispose, pid }`: `reload()` bundles again and restarts workerd on the same port and state; `pid()`
 * is workerd's process id.
 */
export async function startLocalRuntime(options) {
  const {
    config,
    host = '127.0.0.1',
    port = 0,
    persistTo,
    outdir,
    vars,
    rateLimitPerMinute,
    logRequests = false,
    verbose = false,
  } = options;
  const print = options.print ?? ((line, isError) => (isError ? process.stderr : process.stdout).write(`${line}\n`));
  const { Miniflare, Log, LogLevel, convertV4MiniflareOptions } = await loadMiniflare();
  class PrintedLog extends Log {
    log(message) {
      print(message, false);
    }
  }
  const parsed = await readWranglerConfig(config);
  const persistRoot = resolvePersistRoot(config, persistTo);
  const build = () => ({
    host,
    port,
    cf: false,
    resourcePersistencePath: path.join(persistRoot, 'v3'),
    log: new PrintedLog(verbose ? LogLevel.DEBUG : LogLevel.INFO),
    handleStructuredLogs: ({ level, message }) => print(message, level === 'error' || level === 'warn'),
    logRequests,
    workers: [buildWorkerOptions(config, parsed, bundleWorker(config, outdir), { vars, rateLimitPerMinute })],
  });
  const mf = new Miniflare(convertV4MiniflareOptions(build()));
  const url = await mf.ready;
  markState(persistRoot);
  return {
    url: url.href.replace(/\/$/, ''),
    mf,
    persistRoot,
    reload: async () => {
      const next = build();
      next.port = Number(url.port);
      await mf.setOptions(convertV4MiniflareOptions(next));
    },
    dispose: () => mf.dispose(),
    pid: () => findWorkerdPid(Number(url.port)),
  };
}

/** The socket inode listening on 127.0.0.1:`port` (from /proc/net/tcp), or undefined. */
function findListeningInode(port) {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    // local_address rem_address st ... inode: state 0A is LISTEN.
    if (fields[1]?.endsWith(`:${hexPort}`) && fields[3] === '0A') return fields[9];
  }
  return undefined;
}

/**
 * The process id of the workerd (a child of this process) that listens on `port`, or undefined (not Linux, or gone):
 * the bench samples its resident memory.
 */
export function findWorkerdPid(port) {
  const listing = spawnSync('ps', ['-o', 'pid=,comm=', '--ppid', String(process.pid)], { encoding: 'utf8' });
  const children = (listing.stdout ?? '')
    .split('\n')
    .filter((entry) => entry.trim().endsWith('workerd'))
    .map((entry) => Number(entry.trim().split(/\s+/)[0]));
  let inode;
  try {
    inode = findListeningInode(port);
  } catch {
    return undefined;
  }
  if (!inode) return undefined;
  return children.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}
