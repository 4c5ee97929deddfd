#!/usr/bin/env node
// npm start: local secret, API reference assets, D1 migrations (the directory and every tenant database),
// `wrangler dev --test-scheduled` on 127.0.0.1:$PORT (APP_ENV=development, WEBHOOKS_ALLOW_LOCAL_HTTP=true; GET /__scheduled runs the cron jobs; local state in .wrangler/state, or
// $PERSIST_TO), demo seed. RATE_LIMIT_PER_MINUTE=n sets the rate limits (0 turns them off; default: wrangler.toml's 600).
// One line per step, then where the API is; past that, wrangler's output (request logs). VERBOSE=1 shows wrangler's
// output from the start. Ctrl+C (SIGINT) or SIGTERM stops wrangler dev and its workerd processes too.
import { spawn } from 'node:child_process';
import { setInterval, setTimeout } from 'node:timers';
import { readFileSync, writeFileSync } from 'node:fs';
import { ensureDevVars, readDevVar } from './dev-vars.mjs';
import { buildDocsAssets } from './docs-assets.mjs';
import { applyAllMigrations } from './migrate.mjs';
import { exitUnlessPortFree } from './port.mjs';
import { DEMO, seedWhenReady } from './seed.mjs';

const port = Number(process.env.PORT ?? 8787);
const host = '127.0.0.1';
const baseUrl = `http://${host}:${port}`;
const wrangler = new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url).pathname;
const verbose = Boolean(process.env.VERBOSE) && process.env.VERBOSE !== '0';
const startedAt = Date.now();

const persist = process.env.PERSIST_TO ? ['--persist-to', process.env.PERSIST_TO] : [];

/** Seconds since `since`, for the progress lines. */
function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

function fail(message, code = 1) {
  console.error(message);
  process.exit(code);
}

/**
 * `wrangler dev` arguments for RATE_LIMIT_PER_MINUTE: 0 only sets the variable (limiting off); another value also
 * needs the Rate Limiting bindings' `limit`, which lives in the configuration: wrangler then runs on a copy of
 * wrangler.toml with that limit (`wrangler.start.toml`, git-ignored, beside it so its paths and state are the same).
 */
function readRateLimitArgs(value) {
  if (value === undefined || value === '') return [];
  if (!/^\d{1,9}$/.test(value)) fail(`RATE_LIMIT_PER_MINUTE must be a whole number (0 turns rate limiting off); got ${value}`, 2);
  if (Number(value) === 0) return ['--var', 'RATE_LIMIT_PER_MINUTE:0'];
  const source = readFileSync(new URL('../wrangler.toml', import.meta.url), 'utf8');
  let bindings = 0;
  // The caller limiter takes its share of the tenant/org's limit (half, rounded up: callerShareOf in
  // src/runtime/platform.ts); the tenant/org and subject limiters the whole.
  const config = source
    .replace(/name = "(\w+)"\nnamespace_id = "(\d+)"\nsimple = \{ limit = \d+, period = 60 \}/g, (_, name, namespace) => {
      bindings += 1;
      const limit = name === 'CALLER_RATE_LIMITER' ? Math.ceil(Number(value) / 2) : Number(value);
      return `name = "${name}"\nnamespace_id = "${namespace}"\nsimple = { limit = ${limit}, period = 60 }`;
    })
    .replace(/^RATE_LIMIT_PER_MINUTE = "\d+"$/m, `RATE_LIMIT_PER_MINUTE = "${Number(value)}"`);
  if (bindings !== 3) throw new Error('wrangler.toml: expected three [[ratelimits]] with `simple = { limit = N, period = 60 }`');
  const path = new URL('../wrangler.start.toml', import.meta.url);
  writeFileSync(path, `# Made by npm start for RATE_LIMIT_PER_MINUTE=${value}; edit wrangler.toml instead.\n${config}`);
  return ['--config', path.pathname];
}

const rateLimitArgs = readRateLimitArgs(process.env.RATE_LIMIT_PER_MINUTE);
await exitUnlessPortFree(host, port);

let step = Date.now();
ensureDevVars();
buildDocsAssets();
console.log(`Assets: public/ built for /docs (${seconds(step)})`);

step = Date.now();
try {
  const applied = await applyAllMigrations({ persistTo: process.env.PERSIST_TO || undefined });
  const where = process.env.PERSIST_TO || '.wrangler/state';
  for (const [binding, names] of Object.entries(applied))
    console.log(`Migrations: ${binding} ${names.length === 0 ? 'up to date' : `${names.length} applied`} (${where})`);
  console.log(`Migrations: done (${seconds(step)})`);
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}

const devArgs = [
  'dev',
  '--test-scheduled',
  '--ip',
  host,
  '--port',
  String(port),
  '--var',
  'APP_ENV:development',
  // Development flag: webhook subscriptions may use http://127.0.0.1 (a local receiver).
  '--var',
  'WEBHOOKS_ALLOW_LOCAL_HTTP:true',
  ...persist,
  ...rateLimitArgs,
];

step = Date.now();
// CLOUDFLARE_CF_FETCH_ENABLED=false: no download of the `Request.cf` sample (the API does not read request.cf), so
// an offline start prints no network error; set it to true in the environment to have wrangler fetch it.
// detached: wrangler dev, its workerd processes and esbuild form a process group of their own, which `stop` signals
// as a whole (signalling wrangler's launcher alone leaves workerd serving the port).
const server = spawn(process.execPath, [wrangler, ...devArgs], {
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
  env: { CLOUDFLARE_CF_FETCH_ENABLED: 'false', WRANGLER_SEND_METRICS: 'false', ...process.env },
});

// wrangler's start-up output (banner, bindings table, the seed's request logs) is kept, and shown only when the start
// fails (or with VERBOSE=1); once the API is ready, its output goes through.
const startOutput = [];
let passThrough = verbose;
for (const [stream, target] of [
  [server.stdout, process.stdout],
  [server.stderr, process.stderr],
]) {
  stream.on('data', (chunk) => {
    if (passThrough) target.write(chunk);
    else startOutput.push(chunk.toString());
  });
}

let stopping = false;
/** Stops the whole process group of wrangler dev (SIGKILL after 5 s), then exits with `code`. */
function stop(code, signal = 'SIGTERM') {
  if (stopping) return;
  stopping = true;
  const kill = (sig) => {
    try {
      process.kill(-server.pid, sig);
    } catch {
      // the group is gone already
    }
  };
  if (server.exitCode !== null || server.signalCode !== null) {
    kill('SIGKILL'); // stragglers of the group
    process.exit(code);
  }
  const force = setTimeout(() => kill('SIGKILL'), 5_000);
  force.unref();
  server.once('exit', () => {
    kill('SIGKILL');
    process.exit(code);
  });
  kill(signal);
}

// Importing wrangler (migrate.mjs reads the config with it) adds SIGINT/SIGTERM listeners that exit at once (a
// clean-up of `wrangler pages` temporary files, unused here): they would end this script before it stops wrangler dev.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.removeAllListeners(signal);
  process.on(signal, () => {
    if (!stopping) console.log('Stopping wrangler dev ...');
    stop(0, signal === 'SIGHUP' ? 'SIGTERM' : signal);
  });
}
// `npm start` killed with SIGTERM does not pass the signal on: this script, orphaned, sees its parent change.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid) {
    console.log('The parent process (npm) ended: stopping wrangler dev ...');
    stop(0);
  }
}, 1_000).unref();
// Whatever else ends this process (an uncaught error), wrangler's group goes with it.
process.on('exit', () => {
  try {
    process.kill(-server.pid, 'SIGKILL');
  } catch {
    // gone
  }
});
server.on('exit', (code, signal) => {
  if (stopping) return;
  if (!passThrough) process.stderr.write(startOutput.join(''));
  console.error(`wrangler dev exited (${signal ?? code}).`);
  stopping = true;
  process.exit(code || 1);
});

try {
  const secret = readDevVar('JWT_SECRET') ?? '';
  const seeded = await seedWhenReady(baseUrl, secret, {
    onHealthy: () => console.log(`Server: wrangler dev answers ${baseUrl}/health (${seconds(step)})`),
  });
  console.log(
    seeded.present
      ? `Seed: demo data already on ${DEMO.tenant}/${DEMO.org}, nothing to add (checked with ${seeded.requests} request)`
      : `Seed: ${seeded.created} demo records on ${DEMO.tenant}/${DEMO.org} (${seeded.requests} requests, ${seconds(seeded.startedAt)})`,
  );
  console.log(
    `Ready in ${seconds(startedAt)}: API ${baseUrl}/api/${DEMO.tenant}/${DEMO.org}/...  Docs ${baseUrl}/docs  ` +
      `Token: npm run -s token -- --tenant ${DEMO.tenant} --org ${DEMO.org}  Cron jobs now: curl ${baseUrl}/__scheduled  Stop: Ctrl+C`,
  );
  // Cron jobs: /__scheduled, not /cdn-cgi/handler/scheduled (wrangler dev answers that 500 "exception" without
  // reaching the Worker).
  // wrangler prints the seed's last request logs a moment later: they are dropped with the rest of the start-up output.
  if (!passThrough)
    setTimeout(() => {
      passThrough = true;
      startOutput.length = 0;
    }, 500);
} catch (error) {
  if (!passThrough) process.stderr.write(startOutput.join(''));
  console.error(String(error));
  stop(1);
}
