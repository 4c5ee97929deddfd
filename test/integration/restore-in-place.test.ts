/**
 * Restores in place write only the rows the history changed after the moment (the `changes` method): a restore after
 * a few changes to a tenant/org of many rows writes those few rows; rows whose history before the moment was pruned
 * come from the snapshot; and when reverting in place would give one unique key to two rows at once, the restore
 * rebuilds instead. Every case ends exactly in the state of the moment. Runs in both runtimes.
 */
import { describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { sendBatch, templateBody as batchTemplateBody } from '../helpers/batch';
import { kpiReferenceData } from '../helpers/indicators';
import { callAdmin, movePlacement } from '../helpers/operator';
import { expectStatus, passMoment, readRestoredRows, restore, takeSnapshot } from '../helpers/restore';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { findTenantDatabase, openClientD1 } from '../helpers/tenant-db';
import { snapshotRows } from '../helpers/tenant-rows';
import { freshTenant, siblingOrg } from '../helpers/tenants';
import type { TenantScope } from '../../src/db/client';
import { pruneHistory } from '../../src/tenant/backup/retention';

const TEMPLATES = '/operations/emailTemplates';

const templateBody = (key: string) => batchTemplateBody(key, `Subject ${key}`);

async function createTemplates(client: TenantClient, keys: readonly string[]): Promise<void> {
  const requests = keys.map((key) => ({ id: key, method: 'POST', url: TEMPLATES.slice(1), body: templateBody(key) }));
  for (let start = 0; start < requests.length; start += 50) {
    const answer = await sendBatch(client, requests.slice(start, start + 50));
    expect(answer.status, answer.text).toBe(200);
    expect(
      answer.body.responses.every((response) => response.status === 201),
      answer.text,
    ).toBe(true);
  }
}

/** A tenant/org with a neighbour org of the same tenant (tenants start on one database per tenant here). */
async function seedTenant(prefix: string) {
  const client = await freshTenant(prefix);
  const neighbour = await siblingOrg(client);
  await expectStatus(neighbour.call('POST', TEMPLATES, { body: templateBody('n1') }), 201);
  return { client, neighbour, scope: { tenantKey: client.tenant, orgKey: client.org } };
}

async function measure(client: TenantClient, date: string): Promise<void> {
  const body = [{ company: 'ACME-PT', code: 'COST', date, value: '12.5' }];
  await expectStatus(client.call('POST', '/maintenance/indicators/measurements', { body }), 200);
}

async function readMeasurementIds(db: D1Database, scope: TenantScope): Promise<number[]> {
  const { results } = await db
    .prepare('SELECT id FROM kpi_measurements WHERE tenant_key = ? AND org_key = ? ORDER BY id')
    .bind(scope.tenantKey, scope.orgKey)
    .all<{ id: number }>();
  return results.map((row) => row.id);
}

describe('restoring a tenant/org in place', { timeout: 120_000 }, () => {
  it('writes only the rows changed since the moment: a few changes to 120 records are three rows written', async () => {
    const { client, neighbour, scope } = await seedTenant('inplace');
    await createTemplates(
      client,
      Array.from({ length: 120 }, (_, index) => `t${index}`),
    );
    const db = await openClientD1(client);
    const neighbourDb = await openClientD1(neighbour);
    const neighbourScope = { tenantKey: neighbour.tenant, orgKey: neighbour.org };
    const neighbourBefore = await snapshotRows(neighbourDb, neighbourScope);
    const moment = await passMoment(db, scope);
    const before = await readRestoredRows(db, scope);

    await expectStatus(client.call('PUT', `${TEMPLATES}/t5/subject`, { body: 'Changed' }), 200);
    await expectStatus(client.call('PUT', `${TEMPLATES}/t5/subject`, { body: 'Changed again' }), 200);
    await expectStatus(client.call('DELETE', `${TEMPLATES}/t6`), 204);
    await expectStatus(client.call('POST', TEMPLATES, { body: templateBody('late') }), 201);

    const later = await passMoment(db, scope);
    const after = await readRestoredRows(db, scope);

    const done = await restore(scope, { asOf: moment });
    expect(done.method).toBe('changes');
    // t5 written back, t6 written back, `late` deleted: three rows, however many the tenant/org holds.
    expect(done.rows).toBe(3);
    expect(await readRestoredRows(db, scope)).toEqual(before);
    expect(await snapshotRows(neighbourDb, neighbourScope)).toEqual(neighbourBefore);
    await expectStatus(client.call('GET', `${TEMPLATES}/late`), 404);
    expect((await client.call<{ subject: string }>('GET', `${TEMPLATES}/t5`)).body.subject).toBe('Subject t5');

    // The restore's own writes are history too: restoring to a moment after the changes brings them back, in place.
    const again = await restore(scope, { asOf: later });
    expect(again.method).toBe('changes');
    expect(again.rows).toBe(3);
    expect(await readRestoredRows(db, scope)).toEqual(after);
  });

  it('takes from the snapshot the rows whose history before the moment was pruned', async () => {
    const { client, scope } = await seedTenant('inplace-pruned');
    await createTemplates(client, ['t1', 't2', 't3', 't4']);
    const db = await openClientD1(client);
    const snapshot = await takeSnapshot(scope);
    const listed = await callAdmin<{ items: { id: string; startSeq: number }[] }>(
      'GET',
      `/admin/placements/${scope.tenantKey}/${scope.orgKey}/snapshots`,
    );
    const startSeq = listed.body.items.find((item) => item.id === snapshot.id)?.startSeq ?? 0;
    expect(startSeq).toBeGreaterThan(0);
    // What the daily pass does once the snapshot is the oldest one retention keeps: every entry up to its start goes.
    await db
      .prepare('INSERT INTO tenant_history_pruned (tenant_key, org_key, pruned_seq, pruned_on) VALUES (?, ?, ?, ?)')
      .bind(scope.tenantKey, scope.orgKey, startSeq, new Date().toISOString())
      .run();
    await pruneHistory(db, scope, { statements: 100 });
    await expectStatus(client.call('PUT', `${TEMPLATES}/t4/subject`, { body: 'Between' }), 200);
    const moment = await passMoment(db, scope);
    const before = await readRestoredRows(db, scope);

    // t1 and t3 were last written before the pruned position: only the snapshot knows them as they were.
    await expectStatus(client.call('PUT', `${TEMPLATES}/t1/subject`, { body: 'Changed' }), 200);
    await expectStatus(client.call('DELETE', `${TEMPLATES}/t3`), 204);
    await expectStatus(client.call('PUT', `${TEMPLATES}/t4/subject`, { body: 'After' }), 200);
    await expectStatus(client.call('POST', TEMPLATES, { body: templateBody('t9') }), 201);

    const done = await restore(scope, { asOf: moment });
    expect(done.method).toBe('changes');
    expect(done.snapshot).toBe(snapshot.id);
    expect(done.rows).toBe(4);
    expect(await readRestoredRows(db, scope)).toEqual(before);
  });

  it('rebuilds instead when reverting in place would give one unique key to two rows at once, and ends exact', async () => {
    const { client, scope } = await seedTenant('inplace-swap');
    await seedRouteReferenceData(client);
    await expectStatus(
      client.call('PUT', '/referenceData/companies', { body: [{ key: 'C3', name: 'Company Three', baseCurrency: 'EUR' }] }),
      200,
    );
    await createRoute(client, { routeKey: 'RX', company: 'C1' });
    await createRoute(client, { routeKey: 'RX', company: 'C2' });
    const db = await openClientD1(client);
    const moment = await passMoment(db, scope);
    const before = await readRestoredRows(db, scope);

    // The two routes swap companies (through C3): each one's company and key are the other's at the moment.
    await expectStatus(client.call('PUT', `${ROUTES}/C1/RX/company`, { body: 'C3' }), 200);
    await expectStatus(client.call('PUT', `${ROUTES}/C2/RX/company`, { body: 'C1' }), 200);
    await expectStatus(client.call('PUT', `${ROUTES}/C3/RX/company`, { body: 'C2' }), 200);

    const done = await restore(scope, { asOf: moment });
    expect(done.method).toBe('rebuild');
    expect(await readRestoredRows(db, scope)).toEqual(before);
  });

  it("never takes a neighbour's row: a measurement id freed since the moment and given to a neighbour makes it rebuild", async () => {
    const { client, neighbour, scope } = await seedTenant('inplace-ids');
    const neighbourScope = { tenantKey: neighbour.tenant, orgKey: neighbour.org };
    await kpiReferenceData(client);
    const home = (await findTenantDatabase(scope)) ?? '';
    if ((await findTenantDatabase(neighbourScope)) !== home)
      expect((await movePlacement(neighbour.tenant, neighbour.org, home)).status).toBe(200);
    await kpiReferenceData(neighbour);
    await measure(client, '2026-01-10');
    await measure(client, '2026-01-11');
    const db = await openClientD1(client);
    const ids = await readMeasurementIds(db, scope);
    const moment = await passMoment(db, scope);
    const before = await readRestoredRows(db, scope);

    // The measurements go (as an import's revert deletes them), and the neighbour's next ones take their ids.
    await db.prepare('DELETE FROM kpi_measurements WHERE tenant_key = ? AND org_key = ?').bind(scope.tenantKey, scope.orgKey).run();
    await measure(neighbour, '2026-01-10');
    await measure(neighbour, '2026-01-11');
    const neighbourIds = await readMeasurementIds(db, neighbourScope);
    expect(neighbourIds).toEqual(ids);
    const neighbourRows = await snapshotRows(db, neighbourScope);

    const done = await restore(scope, { asOf: moment });
    expect(done.method).toBe('rebuild');
    expect(done.error).toContain('rebuilt instead');
    expect(await readRestoredRows(db, scope)).toEqual(before);
    expect(await readMeasurementIds(db, neighbourScope)).toEqual(neighbourIds);
    expect(await snapshotRows(db, neighbourScope)).toEqual(neighbourRows);
  });
});
