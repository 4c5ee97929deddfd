#!/usr/bin/env node
// npm start: local secret, D1 migrations (directory and every tenant database), `wrangler dev --test-scheduled` on 127.0.0.1:$PORT, demo seed.
import { spawn } from 'node:child_process';
import { ensureDevVars, readDevVar } from './dev-vars.mjs';
import { applyAllMigrations } from './migrate.mjs';
import { DEMO, seedWhenReady } from './seed.mjs';

const port = Number(process.env.PORT ?? 8787);
const host = '127.0.0.1';
const baseUrl = `http://${host}:${port}`;
const wrangler = new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url).pathname;

ensureDevVars();
try {
  await applyAllMigrations();
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}

const server = spawn(process.execPath, [wrangler, 'dev', '--test-scheduled', '--ip', host, '--port', String(port)], {
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

try {
  const created = await seedWhenReady(baseUrl, readDevVar('JWT_SECRET') ?? '');
  console.log(
    `\nDemo data ready on ${DEMO.tenant}/${DEMO.org} (${created} new records). API: ${baseUrl}  Token: npm run -s token -- --tenant demo --org demo\n`,
  );
} catch (error) {
  console.error(String(error));
  server.kill('SIGTERM');
  process.exitCode = 1;
}
