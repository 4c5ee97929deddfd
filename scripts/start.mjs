#!/usr/bin/env node
// npm start: local secret, D1 migrations, `wrangler dev --test-scheduled` on 127.0.0.1:$PORT, demo seed.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { ensureDevVars } from './dev-vars.mjs';
import { DEMO, seedDemo } from './seed.mjs';

const port = Number(process.env.PORT ?? 8787);
const host = '127.0.0.1';
const baseUrl = `http://${host}:${port}`;
const wrangler = new URL('../node_modules/wrangler/bin/wrangler.js', import.meta.url).pathname;

const devVars = ensureDevVars();
const migrate = spawnSync(process.execPath, [wrangler, 'd1', 'migrations', 'apply', 'DB', '--local'], {
  stdio: 'inherit',
  env: { ...process.env, CI: 'true' },
});
if (migrate.status !== 0) process.exit(migrate.status ?? 1);

const server = spawn(process.execPath, [wrangler, 'dev', '--test-scheduled', '--ip', host, '--port', String(port)], {
  stdio: 'inherit',
  env: process.env,
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));

async function waitForHealth() {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      const response = await fetch(`${baseUrl}/health`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not answer ${baseUrl}/health within 60 s`);
}

try {
  await waitForHealth();
  const secret = /^JWT_SECRET\s*=\s*"?([^"\n]+)"?/m.exec(readFileSync(devVars, 'utf8'))?.[1] ?? '';
  const token = await new SignJWT({ scope: 'application admin', orgs: [`${DEMO.tenant}/${DEMO.org}`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('seed')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(secret));
  const created = await seedDemo(baseUrl, token);
  console.log(`\nDemo data ready on ${DEMO.tenant}/${DEMO.org} (${created} new records). API: ${baseUrl}  Token: npm run -s token -- --tenant demo --org demo\n`);
} catch (error) {
  console.error(String(error));
  server.kill('SIGTERM');
  process.exitCode = 1;
}
