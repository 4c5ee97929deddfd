#!/usr/bin/env node
// npm run start:deno: the same API served by Deno on 127.0.0.1:$PORT (default 8788), with local SQLite files
// (.deno-data/, or DENO_DATA_DIR: the directory and each tenant database of DENO_TENANT_DATABASES), the .dev.vars
// secret, the API reference assets (public/), APP_ENV=development and the same demo seed.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildDenoArgs, buildDenoEnv, resolveDenoExecutable } from './deno-bin.mjs';
import { readDevVar } from './dev-vars.mjs';
import { buildDocsAssets } from './docs-assets.mjs';
import { exitUnlessPortFree } from './port.mjs';
import { DEMO, seedWhenReady } from './seed.mjs';

const port = Number(process.env.PORT ?? 8788);
const host = '127.0.0.1';
const baseUrl = `http://${host}:${port}`;
await exitUnlessPortFree(host, port, 'npm run start:deno');
const dataDirectory = resolve(process.env.DENO_DATA_DIR ?? '.deno-data');
mkdirSync(dataDirectory, { recursive: true });
buildDocsAssets();

const secret = readDevVar('JWT_SECRET') ?? '';
const config = {};
for (const name of ['JWT_JWKS_URL', 'JWT_ISSUER', 'JWT_AUDIENCE']) {
  const value = readDevVar(name);
  if (value !== undefined) config[name] = value;
}

const server = spawn(resolveDenoExecutable(), buildDenoArgs(dataDirectory), {
  stdio: 'inherit',
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
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? process.exitCode ?? 0));

try {
  const seeded = await seedWhenReady(baseUrl, secret);
  const seed = seeded.present ? 'already there' : `${seeded.created} new records`;
  console.log(
    `\nDemo data ready on ${DEMO.tenant}/${DEMO.org} (${seed}). API (Deno): ${baseUrl}  Databases: ${dataDirectory}  Token: npm run -s token -- --tenant demo --org demo\n`,
  );
} catch (error) {
  console.error(String(error));
  server.kill('SIGTERM');
  process.exitCode = 1;
}
