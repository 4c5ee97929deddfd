#!/usr/bin/env node
// npm start: local secret, API reference assets, D1 migrations, `wrangler dev --test-scheduled` on 127.0.0.1:$PORT
// (APP_ENV=development; local state in .wrangler/state, or $PERSIST_TO), demo seed.
import { spawn, spawnSync } from 'node:child_process';
import { ensureDevVars, readDevVar } from './dev-vars.mjs';
import { buildDocsAssets } from './docs-assets.mjs';
import { DEMO, seedWhenReady } from './seed.mjs';

const port = Number(process.env.PORT ?? 8787);
const host = '127.0.0.1';
const baseUrl = `http://${host}:${port}`;
const wrangler = new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url).pathname;

const persist = process.env.PERSIST_TO ? ['--persist-to', process.env.PERSIST_TO] : [];

ensureDevVars();
buildDocsAssets();
const migrate = spawnSync(process.execPath, [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local', ...persist], {
  stdio: 'inherit',
  env: { ...process.env, CI: 'true' },
});
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const devArgs = ['dev', '--test-scheduled', '--ip', host, '--port', String(port), '--var', 'APP_ENV:development', ...persist];
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
    `\nDemo data ready on ${DEMO.tenant}/${DEMO.org} (${created} new records). API: ${baseUrl}  Token: npm run -s token -- --tenant demo --org demo\n`,
  );
} catch (error) {
  console.error(String(error));
  server.kill('SIGTERM');
  process.exitCode = 1;
}
