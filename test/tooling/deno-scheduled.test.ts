/**
 * The Deno server's test-scheduled paths (TEST_SCHEDULED=1, as `npm run start:deno` sets it): both of wrangler's,
 * `/cdn-cgi/handler/scheduled` and `/__scheduled`, run the cron trigger's jobs now. Deno-only: the Workers run has
 * `createScheduledController` (indicators-cron.workers.test.ts); under `wrangler dev --test-scheduled` only
 * `/__scheduled` reaches the Worker (test/tooling/dev-scheduled.test.ts). The run includes the backup pass (every run,
 * as on Cloudflare: src/jobs/backups.ts): the tenant/org written to gets its daily snapshot.
 */
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { DENO_TEST_JWT_SECRET, readDenoServer } from '../deno/server.js';

async function send(org: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const token = await new SignJWT({ scope: 'application admin', orgs: [`scheduled/${org}`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('tester')
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(DENO_TEST_JWT_SECRET));
  const response = await fetch(`${readDenoServer().baseUrl}/api/scheduled/${org}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

async function prepare(org: string): Promise<void> {
  const steps: [string, string, unknown][] = [
    ['PUT', '/referenceData/companies', [{ key: 'ACME-PT', name: 'ACME Portugal', baseCurrency: 'EUR' }]],
    [
      'PUT',
      '/referenceData/kpiDefinitions',
      [{ key: 'COST', name: 'Cost', valueType: 'Number', valueFractionDigits: 2, aggregation: 'sum' }],
    ],
    ['POST', '/maintenance/indicators/measurements', [{ company: 'ACME-PT', code: 'COST', date: '2026-01-10', value: 12 }]],
  ];
  for (const [method, path, body] of steps) expect((await send(org, method, path, body)).status, path).toBe(200);
}

async function readValue(org: string): Promise<unknown> {
  const summary = await send(org, 'GET', '/maintenance/indicators/getIndicatorSummaryByCode/ACME-PT/COST');
  return (summary.body as { value: unknown }).value;
}

/** The tenant/org's complete snapshots, once it has one (the pass starts it; the coordinator's timers finish it). */
async function awaitSnapshots(org: string): Promise<unknown[]> {
  const token = await new SignJWT({ scope: 'operator', orgs: [] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('tester')
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(DENO_TEST_JWT_SECRET));
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const response = await fetch(`${readDenoServer().baseUrl}/admin/placements/scheduled/${org}/snapshots`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(response.status).toBe(200);
    const { items } = (await response.json()) as { items: unknown[] };
    if (items.length > 0) return items;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return [];
}

describe('the Deno server runs the cron trigger on request', () => {
  it.each([
    ['cdn', '/cdn-cgi/handler/scheduled?cron=*%2F15+*+*+*+*'],
    ['legacy', '/__scheduled'],
  ])('%s: GET %s', async (org, path) => {
    await prepare(org);
    expect(await readValue(org)).toBeNull();
    const response = await fetch(`${readDenoServer().baseUrl}${path}`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('Ran scheduled event');
    expect(await readValue(org)).toBe(12);
    expect(await awaitSnapshots(org)).toHaveLength(1);
  });
});
