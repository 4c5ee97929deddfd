/**
 * The cron path the README names for `npm start`, against the running dev server (scripts/start.mjs: `wrangler dev
 * --test-scheduled`, on a free port and a fresh state folder): `GET /__scheduled` runs the cron trigger's jobs now.
 * (`/cdn-cgi/handler/scheduled` never reaches the Worker under `wrangler dev`: its local runtime hands that scheduled
 * event to the dev server's own entry worker, which answers 500 "exception"; README, "Cron jobs locally".)
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let server: ChildProcess | undefined;
let state = '';
let baseUrl = '';
let output = '';

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

beforeAll(async () => {
  const port = await findFreePort();
  state = mkdtempSync(path.join(tmpdir(), 'dev-scheduled-'));
  baseUrl = `http://127.0.0.1:${port}`;
  // Its own process group, so the whole tree (wrangler, workerd) is stopped with it.
  server = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PORT: String(port), PERSIST_TO: state, RATE_LIMIT_PER_MINUTE: '0' },
  });
  const ready = new Promise<void>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (/^Ready in /m.test(output)) resolve(); // npm start's last start-up line
    };
    server?.stdout?.on('data', read);
    server?.stderr?.on('data', read);
    server?.once('exit', (code) => reject(new Error(`npm start exited (${code}):\n${output.slice(-2000)}`)));
  });
  await ready;
}, 300_000);

afterAll(() => {
  if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, 'SIGTERM');
  if (state) rmSync(state, { recursive: true, force: true });
});

async function send(method: string, apiPath: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const secret = /^JWT_SECRET\s*=\s*"?([^"\n]*)"?/m.exec(readFileSync(path.join(root, '.dev.vars'), 'utf8'))?.[1] ?? '';
  const token = await new SignJWT({ scope: 'application admin', orgs: ['devcron/o1'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('tester')
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(secret));
  const response = await fetch(`${baseUrl}/api/devcron/o1${apiPath}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

describe('npm start: the README cron path runs the cron jobs', () => {
  it('GET /__scheduled recalculates a pending KPI', async () => {
    const steps: [string, string, unknown][] = [
      ['PUT', '/referenceData/companies', [{ key: 'ACME-PT', name: 'ACME Portugal', baseCurrency: 'EUR' }]],
      [
        'PUT',
        '/referenceData/kpiDefinitions',
        [{ key: 'COST', name: 'Cost', valueType: 'Number', valueFractionDigits: 2, aggregation: 'sum' }],
      ],
      ['POST', '/maintenance/indicators/measurements', [{ company: 'ACME-PT', code: 'COST', date: '2026-01-10', value: 12 }]],
    ];
    for (const [method, apiPath, body] of steps) expect((await send(method, apiPath, body)).status, apiPath).toBe(200);
    const value = async () =>
      ((await send('GET', '/maintenance/indicators/getIndicatorSummaryByCode/ACME-PT/COST')).body as { value: unknown }).value;
    expect(await value()).toBeNull();
    const response = await fetch(`${baseUrl}/__scheduled`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Ran scheduled event');
    expect(await value()).toBe(12);
  });
});
