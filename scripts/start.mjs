#!/usr/bin/env node
// npm start: local secret, API reference assets, D1 migrations (the directory and every tenant database), the Worker
// on 127.0.0.1:$PORT through Miniflare's own API (scripts/local-runtime.mjs: workerd with no dev proxy in front;
// APP_ENV=development, WEBHOOKS_ALLOW_LOCAL_HTTP=true; GET /__scheduled runs the cron jobs; local state in
// .wrangler/state, or $PERSIST_TO), demo seed. RATE_LIMIT_PER_MINUTE=n sets the rate limits (0 turns them off; default:
// wrangler.toml's 600). One line per step, then where the API is; past that, the request log. An edit under src/
// bundles the Worker again and restarts workerd on the same port and state. VERBOSE=1 shows the runtime's debug
// output. Ctrl+C (SIGINT) or SIGTERM stops workerd too.
import { mkdtempSync, rmSync, watch } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearTimeout, setInterval, setTimeout } from 'node:timers';
import { fileURLToPath } from 'node:url';
import { ensureDevVars, readDevVar } from './dev-vars.mjs';
import { buildDocsAssets } from './docs-assets.mjs';
import { describeStateChange, resolvePersistRoot, RUNTIME_VERSIONS, startLocalRuntime } from './local-runtime.mjs';
import { applyAllMigrations } from './migrate.mjs';
import { exitUnlessPortFree } from './port.mjs';
import { DEMO, seedWhenReady } from './seed.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const config = path.join(root, 'wrangler.toml');
const port = Number(process.env.PORT ?? 8787);
const host = '127.0.0.1';
const baseUrl = `http://${host}:${port}`;
const verbose = Boolean(process.env.VERBOSE) && process.env.VERBOSE !== '0';
const startedAt = Date.now();
const persistTo = process.env.PERSIST_TO || undefined;

/** Seconds since `since`, for the progress lines. */
function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

function fail(message, code = 1) {
  console.error(message);
  process.exit(code);
}

/** RATE_LIMIT_PER_MINUTE: a whole number (0 turns rate limiting off), or unset (wrangler.toml's limit). */
function readRateLimit(value) {
  if (value === undefined || value === '') return undefined;
  if (!/^\d{1,9}$/.test(value)) fail(`RATE_LIMIT_PER_MINUTE must be a whole number (0 turns rate limiting off); got ${value}`, 2);
  return Number(value);
}

const rateLimitPerMinute = readRateLimit(process.env.RATE_LIMIT_PER_MINUTE);
await exitUnlessPortFree(host, port);

let step = Date.now();
ensureDevVars();
buildDocsAssets();
console.log(`Assets: public/ built for /docs (${seconds(step)})`);

const persistRoot = resolvePersistRoot(config, persistTo);
for (const line of describeStateChange(persistRoot)) console.log(line);

step = Date.now();
try {
  const applied = await applyAllMigrations({ persistTo });
  for (const [binding, names] of Object.entries(applied))
    console.log(
      `Migrations: ${binding} ${names.length === 0 ? 'up to date' : `${names.length} applied`} (${persistTo ?? '.wrangler/state'})`,
    );
  console.log(`Migrations: done (${seconds(step)})`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

step = Date.now();
const outdir = mkdtempSync(path.join(os.tmpdir(), 'erp-start-'));
let runtime;
let stopping = false;
// The runtime's lines (request logs of the seed among them) are kept until the API is ready, and shown only when the
// start fails (or with VERBOSE=1); from then on they go through.
const held = [];
let passThrough = verbose;
function print(line, isError) {
  if (passThrough) (isError ? process.stderr : process.stdout).write(`${line}\n`);
  else held.push(line);
}

/** Stops workerd (Miniflare's dispose; SIGKILL after 5 s), removes the bundle, then exits with `code`. */
async function stop(code) {
  if (stopping) return;
  stopping = true;
  const force = setTimeout(() => {
    const pid = runtime?.pid();
    if (pid) process.kill(pid, 'SIGKILL');
    process.exit(code);
  }, 5_000);
  force.unref();
  await runtime?.dispose().catch(() => undefined);
  rmSync(outdir, { recursive: true, force: true });
  process.exit(code);
}

// Importing wrangler (its config reader) adds SIGINT/SIGTERM listeners that exit at once (a clean-up of `wrangler
// pages` temporary files, unused here): they would end this script before it stops workerd.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.removeAllListeners(signal);
  process.on(signal, () => {
    if (!stopping) console.log('Stopping the local runtime ...');
    void stop(0);
  });
}
// `npm start` killed with SIGTERM does not pass the signal on: this script, orphaned, sees its parent change.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) {
    console.log('The parent process (npm) ended: stopping the local runtime ...');
    void stop(0);
  }
}, 1_000).unref();
// Whatever else ends this process (an uncaught error), workerd goes with it.
process.on('exit', () => {
  const pid = runtime?.pid();
  if (pid)
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
});

/** An edit under src/ bundles the Worker again and restarts workerd (same port and state), as `wrangler dev` did. */
function reloadOnEdits() {
  let timer;
  let running = Promise.resolve();
  watch(path.join(root, 'src'), { recursive: true }, () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(async () => {
        const began = Date.now();
        try {
          await runtime.reload();
          console.log(`Reloaded: src/ changed, the Worker bundled and started again (${seconds(began)})`);
        } catch (error) {
          console.error(`Reload failed (the previous Worker keeps running): ${error instanceof Error ? error.message : error}`);
        }
      });
    }, 300);
  });
}

try {
  runtime = await startLocalRuntime({
    config,
    host,
    port,
    persistTo,
    outdir,
    rateLimitPerMinute,
    vars: { APP_ENV: 'development', WEBHOOKS_ALLOW_LOCAL_HTTP: 'true' },
    logRequests: true,
    verbose,
    print,
  });
} catch (error) {
  process.stderr.write(held.map((line) => `${line}\n`).join(''));
  console.error(`The local runtime did not start: ${error instanceof Error ? error.message : error}`);
  await stop(1);
}
console.log(`Server: workerd ${RUNTIME_VERSIONS.workerd} (miniflare ${RUNTIME_VERSIONS.miniflare}) answers ${baseUrl} (${seconds(step)})`);

try {
  const secret = readDevVar('JWT_SECRET') ?? '';
  const seeded = await seedWhenReady(baseUrl, secret);
  console.log(
    seeded.present
      ? `Seed: demo data already on ${DEMO.tenant}/${DEMO.org}, nothing to add (checked with ${seeded.requests} request)`
      : `Seed: ${seeded.created} demo records on ${DEMO.tenant}/${DEMO.org} (${seeded.requests} requests, ${seconds(seeded.startedAt)})`,
  );
  console.log(
    `Ready in ${seconds(startedAt)}: API ${baseUrl}/api/${DEMO.tenant}/${DEMO.org}/...  Docs ${baseUrl}/docs  ` +
      `Token: npm run -s token -- --tenant ${DEMO.tenant} --org ${DEMO.org}  Cron jobs now: curl ${baseUrl}/__scheduled  Stop: Ctrl+C`,
  );
  held.length = 0;
  passThrough = true;
  reloadOnEdits();
} catch (error) {
  process.stderr.write(held.map((line) => `${line}\n`).join(''));
  console.error(String(error));
  await stop(1);
}
