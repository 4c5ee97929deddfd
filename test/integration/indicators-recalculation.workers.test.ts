import { env, runInDurableObject } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantCoordinator } from '../../src/index';
import { RECALCULATION_COUNT_KEY } from '../../src/services/indicators/commands';
import type { TenantClient } from '../helpers/api';
import { kpiReferenceData } from '../helpers/indicators';
import { freshTenant } from '../helpers/tenants';

const BASE = '/maintenance/indicators';
let client: TenantClient;

function coordinatorOf(as: TenantClient) {
  return env.COORDINATOR.get(env.COORDINATOR.idFromName(`${as.tenant}/${as.org}`));
}

async function readRunCount(as: TenantClient): Promise<number> {
  return runInDurableObject(
    coordinatorOf(as),
    async (_instance: TenantCoordinator, state) => (await state.storage.get<number>(RECALCULATION_COUNT_KEY)) ?? 0,
  );
}

const command = (as: TenantClient, configurationKey: string) => ({
  type: 'indicators.recalculate' as const,
  tenantKey: as.tenant,
  orgKey: as.org,
  configurationKey,
  onlyChanged: false,
  joinKey: `indicators.recalculate:all:${configurationKey}`,
});

beforeEach(async () => {
  client = await freshTenant('kpi');
  await kpiReferenceData(client);
  const items = Array.from({ length: 600 }, (_, index) => ({
    company: index % 2 === 0 ? 'ACME-PT' : 'ACME-US',
    code: ['COST', 'AVAIL', 'FAIL'][index % 3] as string,
    date: `202${4 + (index % 2)}-${String((index % 12) + 1).padStart(2, '0')}-15`,
    value: index % 50,
  }));
  const result = await client.call('POST', `${BASE}/measurements`, { body: items });
  expect(result.status, result.text).toBe(200);
});

describe('concurrent recalculations of one tenant/org', () => {
  it('all answer true, never overlap, and leave the same materialized data as one run', async () => {
    const before = await readRunCount(client);
    const answers = await Promise.all(Array.from({ length: 8 }, () => client.call('POST', `${BASE}/assetsRecalculateKPIs/default`)));
    expect(answers.map((answer) => [answer.status, answer.body])).toEqual(Array.from({ length: 8 }, () => [200, true]));
    const runs = (await readRunCount(client)) - before;
    expect(runs).toBeGreaterThanOrEqual(1);
    expect(runs).toBeLessThanOrEqual(8);
    const summary = await client.call<Record<string, unknown>>('GET', `${BASE}/getIndicatorSummaryByCode/ACME-US/FAIL`);
    expect(summary.body.value).toBe(50);
  });

  it('join a recalculation that is queued and not yet started: one run answers them all', async () => {
    const before = await readRunCount(client);
    const outcomes = await runInDurableObject(coordinatorOf(client), (instance: TenantCoordinator) =>
      Promise.all(Array.from({ length: 5 }, () => instance.handle(command(client, 'default')))),
    );
    expect(outcomes).toEqual(Array.from({ length: 5 }, () => ({ status: 'done', series: 6 })));
    expect((await readRunCount(client)) - before).toBe(1);
  });

  it('queue behind a running recalculation instead of joining it (it may miss newer measurements)', async () => {
    const before = await readRunCount(client);
    const outcomes = await runInDurableObject(coordinatorOf(client), async (instance: TenantCoordinator) => {
      const first = instance.handle(command(client, 'default'));
      // handle() queued the first on the idle lane: it starts in the microtask queued before this await resumes,
      // and is then waiting on D1. The two sent next cannot join it: they share one new run.
      await Promise.resolve();
      return Promise.all([first, instance.handle(command(client, 'default')), instance.handle(command(client, 'default'))]);
    });
    expect(outcomes).toHaveLength(3);
    expect((await readRunCount(client)) - before).toBe(2);
  });

  it('do not join recalculations of different configurations', async () => {
    const before = await readRunCount(client);
    const outcomes = await runInDurableObject(coordinatorOf(client), (instance: TenantCoordinator) =>
      Promise.all([
        instance.handle(command(client, 'default')),
        instance.handle(command(client, 'pt-cost')),
        instance.handle(command(client, 'nope')),
      ]),
    );
    expect(outcomes).toEqual([{ status: 'done', series: 6 }, { status: 'done', series: 1 }, { status: 'unknownConfiguration' }]);
    expect((await readRunCount(client)) - before).toBe(2);
  });
});
