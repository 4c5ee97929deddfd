#!/usr/bin/env node
// npm run start:deno: the same API served by Deno on 127.0.0.1:$PORT (default 8788), with local SQLite files
// (.deno-data/, or DENO_DATA_DIR: the directory and each tenant database of DENO_TENANT_DATABASES), the .dev.vars
// secret, the API reference assets (public/), APP_ENV=development and the same demo seed.
// One line per step, then where the API is; past that, the server's output (request logs). VERBOSE=1 shows the
// server's output from the start. Ctrl+C (SIGINT) or SIGTERM (to npm or to this script) stops the Deno server too.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { setTimeout } from 'node:timers';
import { buildDenoArgs, buildDenoEnv, resolveDenoExecutable } from './deno-bin.mjs';
import { ensureDevVars, readDevVar } from './dev-vars.mjs';
import { buildDocsAssets } from './docs-assets.mjs';
import { seconds, stopOnSignalsAndParent } from './lifecycle.mjs';
import { exitUnlessPortFree } from './port.mjs';
import { DEMO, seedWhenReady } from './seed.mjs';

const port = Number(process.env.PORT ?? 8788);
const host = '127.0.0.1';
const baseUrl = `http://${host}:${port}`;
const verbose = Boolean(process.env.VERBOSE) && process.env.VERBOSE !== '0';
const startedAt = Date.now();
await exitUnlessPortFree(host, port, 'npm run start:deno');
const dataDirectory = resolve(process.env.DENO_DATA_DIR ?? '.deno-data');
mkdirSync(dataDirectory, { recursive: true });

let step = Date.now();
ensureDevVars();
buildDocsAssets();
console.log(`Assets: public/ built for /docs (${seconds(step)})`);

const secret = readDevVar('JWT_SECRET') ?? '';
const config = {};
for (const name of ['JWT_JWKS_URL', 'JWT_ISSUER', 'JWT_AUDIENCE']) {
  const value = readDevVar(name);
  if (value !== undefined) config[name] = value;
}

step = Date.now();
const server = spawn(resolveDenoExecutable(), buildDenoArgs(dataDirectory), {
  stdio: ['ignore', 'pipe', 'pipe'],
  env: buildDenoEnv({
    ...config,
    JWT_SECRET: secret,
    PORT: String(port),
    HOST: host,
    DENO_DATA_DIR: dataDirectory,
    TEST_SCHEDULED: '1',
    APP_ENV: 'development',
    WEBHOOKS_ALLOW_LOCAL_HTTP: 'true',
  }),
});

// The server's start-up output is kept, but for its migration lines, and shown only when the start fails (or with
// VERBOSE=1); once the API is ready, its output (request logs) goes through.
const inside = relative(process.cwd(), dataDirectory);
const where = inside === '' ? '.' : inside.startsWith('..') ? dataDirectory : inside;
const startOutput = [];
let passThrough = verbose;
for (const [stream, target] of [
  [server.stdout, process.stdout],
  [server.stderr, process.stderr],
]) {
  let pending = '';
  stream.on('data', (chunk) => {
    if (passThrough) return void target.write(chunk);
    pending += chunk.toString();
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line.startsWith('Migrations: ')) console.log(line.replace(dataDirectory, where));
      else startOutput.push(`${line}\n`);
    }
  });
}

let stopping = false;
/** Stops the Deno server (SIGKILL after 5 s), then exits with `code`. */
function stop(code, signal = 'SIGTERM') {
  stopping = true;
  if (server.exitCode !== null || server.signalCode !== null) process.exit(code);
  setTimeout(() => server.kill('SIGKILL'), 5_000).unref();
  server.once('exit', () => process.exit(code));
  server.kill(signal);
}
stopOnSignalsAndParent((reason) => {
  console.log(reason === 'parent' ? 'The parent process (npm) ended: stopping the Deno server ...' : 'Stopping the Deno server ...');
  stop(0, reason === 'SIGINT' ? 'SIGINT' : 'SIGTERM');
});
process.on('exit', () => {
  if (server.exitCode === null && server.signalCode === null) server.kill('SIGKILL');
});
server.on('exit', (code, signal) => {
  if (stopping) return;
  if (!passThrough) process.stderr.write(startOutput.join(''));
  console.error(`The Deno server exited (${signal ?? code}).`);
  process.exit(code || 1);
});

try {
  const seeded = await seedWhenReady(baseUrl, secret, {
    onHealthy: () => console.log(`Server: Deno answers ${baseUrl}/health (${seconds(step)})`),
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
  // The seed's request logs are dropped with the rest of the start-up output.
  passThrough = true;
  startOutput.length = 0;
} catch (error) {
  if (!passThrough) process.stderr.write(startOutput.join(''));
  console.error(String(error));
  stop(1);
}
