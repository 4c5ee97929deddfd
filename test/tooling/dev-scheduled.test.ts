/**
 * The cron path the README names for `npm start`, against the running dev server (scripts/start.mjs: the Worker through
 * Miniflare's API, on a free port and a fresh state folder): `GET /__scheduled` runs the cron trigger's jobs now.
 * (`/cdn-cgi/handler/scheduled` never reaches the Worker under `wrangler dev`: its local runtime hands that scheduled
 * event to the dev server's own entry worker, which answers 500 "exception"; docs/running.md, "Cron jobs locally".)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT as root, startDevServer } from './dev-server.js';
import type { DevServer } from './dev-server.js';

let server: DevServer | undefined;
let baseUrl = '';

beforeAll(async () => {
  server = await startDevServer('dev-scheduled', { RATE_LIMIT_PER_MINUTE: '0' });
  baseUrl = server.baseUrl;
}, 300_000);

afterAll(() => {
  server?.stop();
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
