#!/usr/bin/env node
// npm start: local secret, API reference assets, D1 migrations (the directory and every tenant database),
// `wrangler dev --test-scheduled` on 127.0.0.1:$PORT (APP_ENV=development, WEBHOOKS_ALLOW_LOCAL_HTTP=true; GET /__scheduled runs the cron jobs; local state in .wrangler/state, or
// $PERSIST_TO), demo seed. RATE_LIMIT_PER_MINUTE=n sets the rate limits (0 turns them off; default: wrangler.toml's 600).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { ensureDevVars, readDevVar } from './dev-vars.mjs';
import { buildDocsAssets } from './docs-assets.mjs';
import { applyAllMigrations } from './migrate.mjs';
import { DEMO, seedWhenReady } from './seed.mjs';

const port = Number(process.env.PORT ?? 8787);
const host = '127.0.0.1';
const baseUrl = `http://${host}:${port}`;
const wrangler = new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url).pathname;

const persist = process.env.PERSIST_TO ? ['--persist-to', process.env.PERSIST_TO] : [];

ensureDevVars();
buildDocsAssets();
try {
  await applyAllMigrations({ persistTo: process.env.PERSIST_TO || undefined });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

/**
 * `wrangler dev` arguments for RATE_LIMIT_PER_MINUTE: 0 only sets the variable (limiting off); another value also
 * needs the Rate Limiting bindings' `limit`, which lives in the configuration: wrangler then runs on a copy of
 * wrangler.toml with that limit (`wrangler.start.toml`, git-ignored, beside it so its paths and state are the same).
 */
function readRateLimitArgs(value) {
  if (value === undefined || value === '') return [];
  if (!/^\d{1,9}$/.test(value)) {
    console.error(`RATE_LIMIT_PER_MINUTE must be a whole number (0 turns rate limiting off); got ${value}`);
    process.exit(2);
  }
  if (Number(value) === 0) return ['--var', 'RATE_LIMIT_PER_MINUTE:0'];
  const source = readFileSync(new URL('../wrangler.toml', import.meta.url), 'utf8');
  let bindings = 0;
  const config = source
    .replace(/simple = \{ limit = \d+, period = 60 \}/g, () => {
      bindings += 1;
      return `simple = { limit = ${Number(value)}, period = 60 }`;
    })
    .replace(/^RATE_LIMIT_PER_MINUTE = "\d+"$/m, `RATE_LIMIT_PER_MINUTE = "${Number(value)}"`);
  if (bindings !== 2) throw new Error('wrangler.toml: expected two [[ratelimits]] with `simple = { limit = N, period = 60 }`');
  const path = new URL('../wrangler.start.toml', import.meta.url);
  writeFileSync(path, `# Made by npm start for RATE_LIMIT_PER_MINUTE=${value}; edit wrangler.toml instead.\n${config}`);
  return ['--config', path.pathname];
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
  ...readRateLimitArgs(process.env.RATE_LIMIT_PER_MINUTE),
];
// CLOUDFLARE_CF_FETCH_ENABLED=false: no download of the `Request.cf` sample (the API does not read request.cf), so
// an offline start prints no network error; set it to true in the environment to have wrangler fetch it.
const server = spawn(process.execPath, [wrangler, ...devArgs], {
  stdio: 'inherit',
  env: { CLOUDFLARE_CF_FETCH_ENABLED: 'false', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

try {
  const created = await seedWhenReady(baseUrl, readDevVar('JWT_SECRET') ?? '');
  console.log(
    `\nDemo data ready on ${DEMO.tenant}/${DEMO.org} (${created} new records). API: ${baseUrl}  Token: npm run -s token -- --tenant demo --org demo\n` +
      `Cron jobs now: curl ${baseUrl}/__scheduled (not /cdn-cgi/handler/scheduled: wrangler dev answers it 500 "exception" without reaching the Worker)\n`,
  );
} catch (error) {
  console.error(String(error));
  server.kill('SIGTERM');
  process.exitCode = 1;
}
