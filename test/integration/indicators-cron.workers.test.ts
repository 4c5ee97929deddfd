import { createExecutionContext, createScheduledController, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import worker from '../../src/index';
import { tenantClient } from '../helpers/api';
import type { TenantClient } from '../helpers/api';
import { kpiReferenceData } from '../helpers/indicators';
import type { Measurement } from '../helpers/indicators';
import { uniqueKey } from '../helpers/tenants';

const BASE = '/maintenance/indicators';

/** This test's tenant: its orgs are the ones it asserts about (the cron also runs for other tests' orgs). */
let tenant: string;

beforeEach(() => {
  tenant = uniqueKey('cron');
});

async function runCron(): Promise<void> {
  const ctx = createExecutionContext();
  if (!worker.scheduled) throw new Error('The worker has no scheduled handler');
  await worker.scheduled(createScheduledController({ cron: '*/15 * * * *' }), env, ctx);
  await waitOnExecutionContext(ctx);
}

async function prepare(org: string, items: Measurement[]): Promise<TenantClient> {
  const client = await tenantClient(tenant, org);
  await kpiReferenceData(client);
  const result = await client.call('POST', `${BASE}/measurements`, { body: items });
  expect(result.status, result.text).toBe(200);
  return client;
}

async function readPendingOrgs(): Promise<string[]> {
  const rows = await env.DB.prepare('SELECT tenant_key, org_key FROM kpi_pending_orgs WHERE tenant_key = ? ORDER BY org_key')
    .bind(tenant)
    .all<{ tenant_key: string; org_key: string }>();
  return rows.results.map((row) => `${row.tenant_key}/${row.org_key}`);
}

/** The org's materialized summaries, by company; `calculated_on` tells whether a run rewrote them. */
async function readSummaries(client: TenantClient): Promise<{ company: string; calculated_on: string }[]> {
  const rows = await env.DB.prepare(
    'SELECT company, calculated_on FROM kpi_summaries WHERE tenant_key = ? AND org_key = ? ORDER BY company',
  )
    .bind(client.tenant, client.org)
    .all<{ company: string; calculated_on: string }>();
  return rows.results;
}

/** Marks the org's summaries, so that a run that rewrites one is seen whatever the clock says. */
async function markSummaries(client: TenantClient): Promise<void> {
  await env.DB.prepare("UPDATE kpi_summaries SET calculated_on = 'marked:' || company WHERE tenant_key = ? AND org_key = ?")
    .bind(client.tenant, client.org)
    .run();
}

const valueOf = async (client: TenantClient, company: string, code: string) =>
  (await client.call<{ value: number | null }>('GET', `${BASE}/getIndicatorSummaryByCode/${company}/${code}`)).body.value;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the cron trigger', () => {
  it('recalculates every tenant/org with new measurements; one failing org is logged and does not stop the others', async () => {
    const first = await prepare('first', [
      { company: 'ACME-PT', code: 'COST', date: '2026-01-10', value: 10 },
      { company: 'ACME-PT', code: 'COST', date: '2026-01-11', value: 5 },
    ]);
    const second = await prepare('second', [{ company: 'ACME-US', code: 'AVAIL', date: '2026-02-10', value: 97.5 }]);
    const broken = await prepare('broken', [{ company: 'ACME-PT', code: 'FAIL', date: '2026-02-10', value: 1 }]);
    // Simulated corruption: a period that is not a month makes this org's recalculation fail.
    await env.DB.prepare("UPDATE kpi_measurements SET period = 'garbage' WHERE tenant_key = ? AND org_key = 'broken'").bind(tenant).run();
    expect(await readPendingOrgs()).toEqual([`${tenant}/broken`, `${tenant}/first`, `${tenant}/second`]);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);

    await runCron();

    expect(await valueOf(first, 'ACME-PT', 'COST')).toBe(15);
    expect(await valueOf(second, 'ACME-US', 'AVAIL')).toBe(97.5);
    expect(await valueOf(broken, 'ACME-PT', 'FAIL')).toBeNull();
    expect(await readPendingOrgs()).toEqual([`${tenant}/broken`]);
    const logged = errors.mock.calls.map((args) => String(args[0]));
    expect(
      logged.some(
        (line) => line.includes('"orgKey":"broken"') && line.includes(`"tenantKey":"${tenant}"`) && line.includes('indicators.recalculate'),
      ),
    ).toBe(true);
    await env.DB.prepare("DELETE FROM kpi_pending_orgs WHERE tenant_key = ? AND org_key = 'broken'").bind(tenant).run();
  });

  it('recalculates only what changed since the last run, and nothing when nothing did', async () => {
    const client = await prepare('changes', [
      { company: 'ACME-PT', code: 'COST', date: '2026-03-01', value: 1 },
      { company: 'ACME-US', code: 'COST', date: '2026-03-01', value: 2 },
    ]);
    await runCron();
    expect(await valueOf(client, 'ACME-PT', 'COST')).toBe(1);
    expect(await readPendingOrgs()).toEqual([]);
    await markSummaries(client);
    const marked = await readSummaries(client);

    await runCron();
    // Nothing changed: no summary was rewritten.
    expect(await readSummaries(client)).toEqual(marked);

    const more = await client.call('POST', `${BASE}/measurements`, {
      body: [{ company: 'ACME-US', code: 'COST', date: '2026-03-02', value: 3 }],
    });
    expect(more.status).toBe(200);
    expect(await readPendingOrgs()).toEqual([`${tenant}/changes`]);
    await runCron();
    expect(await valueOf(client, 'ACME-US', 'COST')).toBe(5);
    const after = await readSummaries(client);
    // ACME-PT/COST had no new measurements: its materialized summary was not rewritten.
    expect(after[0]).toEqual(marked[0]);
    expect(after[1]).not.toEqual(marked[1]);
    expect(await readPendingOrgs()).toEqual([]);
  });
});
