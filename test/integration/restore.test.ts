/**
 * Point-in-time restores of one tenant/org (POST /admin/placements/{tenantKey}/{orgKey}/restore and /snapshots): a
 * history of creates, updates, deletes, route member changes, rate lines and imports with known moments, restored to
 * several of them (from the history alone, from a snapshot plus the history, to a snapshot, into an empty target):
 * every restored table identical to the state recorded at that moment, the neighbour on the same database untouched.
 * Runs in both runtimes.
 */
import { describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { createDocument } from '../helpers/exchange-rates';
import { readAllChanges } from '../helpers/events';
import { changeImport, registerImport } from '../helpers/imports';
import { kpiReferenceData } from '../helpers/indicators';
import { callAdmin, movePlacement } from '../helpers/operator';
import { deriveIdMapping } from '../../src/tenant/backup/row-ids';
import { tenantClient } from '../helpers/api';
import {
  expectStatus,
  followJob,
  mapRestoredRows,
  passMoment,
  readRestoredRows,
  readRowIds,
  restore,
  takeSnapshot,
} from '../helpers/restore';
import type { JobBody } from '../helpers/restore';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { findTenantDatabase, readTestDatabases } from '../helpers/tenant-db';
import { snapshotRows } from '../helpers/tenant-rows';
import { freshTenant, siblingOrg, uniqueKey } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';
const RATES = '/businessCore/exchangeRatesDocuments';

const templateBody = (key: string) => ({
  templateKey: key,
  subject: `Subject ${key}`,
  emailTemplateType: 1,
  notificationBody: `<p>${key}</p>`,
  culture: 'en-US',
  custom_channel: 'email',
});

async function measure(client: TenantClient, value: string): Promise<void> {
  const body = [{ company: 'ACME-PT', code: 'COST', date: '2026-01-10', value }];
  await expectStatus(client.call('POST', '/maintenance/indicators/measurements', { body }), 200);
}

/** Step 1: reference data, templates, a route with members, a rate document with lines, an import, a measurement. */
async function writeFirst(client: TenantClient): Promise<string> {
  await kpiReferenceData(client);
  await measure(client, '987654321098.765432');
  await seedRouteReferenceData(client);
  for (const key of ['t1', 't2', 't3']) await expectStatus(client.call('POST', TEMPLATES, { body: templateBody(key) }), 201);
  await createRoute(client, { routeKey: 'R1' });
  await expectStatus(client.call('POST', `${ROUTES}/R1/locations/add`, { body: ['L1', 'L2'] }), 200);
  await createDocument(client, 1, '2026-01-01T00:00:00Z', [
    ['EUR', 'USD', '1.1'],
    ['EUR', 'GBP', '0.85'],
  ]);
  return registerImport(client, { importDataTemplate: 'customers' });
}

/** Step 2: updates, member changes, a new rate line, an import state change, a delete. */
async function writeSecond(client: TenantClient, importId: string): Promise<void> {
  await expectStatus(client.call('PUT', `${TEMPLATES}/t1/subject`, { body: 'Changed subject' }), 200);
  await expectStatus(client.call('DELETE', `${TEMPLATES}/t2`), 204);
  await expectStatus(client.call('POST', `${ROUTES}/R1/locations/remove`, { body: ['L1'] }), 200);
  await expectStatus(client.call('POST', `${ROUTES}/R1/locations/add`, { body: ['L3'] }), 200);
  await expectStatus(client.call('POST', `${ROUTES}/R1/equipmentitems/add`, { body: ['Q1'] }), 200);
  await expectStatus(
    client.call('POST', `${RATES}/1/exchangeRateDocumentRates`, {
      body: { fromCurrency: 'USD', toCurrency: 'EUR', conversionFactor: 0.92 },
    }),
    204,
  );
  expect((await changeImport(client, { importId, importDataState: 2 })).status).toBe(200);
}

/** Step 3: the route deleted (its members with it), a template re-created under a deleted key, reference data changed. */
async function writeThird(client: TenantClient): Promise<void> {
  await expectStatus(client.call('DELETE', `${ROUTES}/C1/R1`), 204);
  await expectStatus(client.call('POST', TEMPLATES, { body: templateBody('t2') }), 201);
  await expectStatus(client.call('PUT', '/referenceData/tools', { body: [{ key: 'T4', description: 'Crane' }] }), 200);
  await createRoute(client, { routeKey: 'R2' });
  await measure(client, '4.5');
}

/** A tenant/org with a neighbour (another org of its tenant, with records of its own) on the same database. */
async function seedNeighbours() {
  const client = await freshTenant('restore');
  const neighbour = await siblingOrg(client);
  const scope = { tenantKey: client.tenant, orgKey: client.org };
  const neighbourScope = { tenantKey: neighbour.tenant, orgKey: neighbour.org };
  await seedRouteReferenceData(neighbour);
  await expectStatus(neighbour.call('POST', TEMPLATES, { body: templateBody('t1') }), 201);
  await expectStatus(client.call('POST', TEMPLATES, { body: templateBody('t0') }), 201);
  const home = (await findTenantDatabase(scope)) ?? '';
  if ((await findTenantDatabase(neighbourScope)) !== home)
    expect((await movePlacement(neighbour.tenant, neighbour.org, home)).status).toBe(200);
  const db = readTestDatabases().tenants.get(home) as D1Database;
  return { client, scope, neighbourScope, db, home };
}

describe('restoring a tenant/org to a moment', { timeout: 120_000 }, () => {
  it('rebuilds exactly the state of each moment, from the history, a snapshot or both, and leaves the neighbour as it was', async () => {
    const { client, scope, neighbourScope, db } = await seedNeighbours();
    const neighbourBefore = await snapshotRows(db, neighbourScope);
    const states: { at: string; rows: Record<string, string[]> }[] = [];
    const record = async () => states.push({ at: await passMoment(db, scope), rows: await readRestoredRows(db, scope) });
    const importId = await writeFirst(client);
    await record();
    await writeSecond(client, importId);
    await record();
    await writeThird(client);
    await record();
    const snapshot = await takeSnapshot(scope);
    await expectStatus(client.call('PUT', `${TEMPLATES}/t3/subject`, { body: 'After the snapshot' }), 200);
    await expectStatus(client.call('DELETE', `${TEMPLATES}/t0`), 204);
    await record();

    for (const index of [0, 2, 1, 3]) {
      const state = states[index];
      if (!state) throw new Error('no state');
      const done = await restore(scope, { asOf: state.at });
      expect(done.asOf).toBe(state.at);
      expect(done.method).toBe('changes');
      expect(await readRestoredRows(db, scope), `asOf ${state.at} (moment ${index + 1})`).toEqual(state.rows);
    }
    const toSnapshot = await restore(scope, { snapshot: snapshot.id });
    expect(toSnapshot.snapshot).toBe(snapshot.id);
    expect(await readRestoredRows(db, scope)).toEqual(states[2]?.rows);

    expect(await snapshotRows(db, neighbourScope)).toEqual(neighbourBefore);
    const restored = (await readAllChanges(client)).filter((event) => event.changeType === 'restored');
    expect(restored.length).toBe(5);
    // Writes go on after a restore, and are recorded: the restored tenant/org restores again.
    await expectStatus(client.call('POST', TEMPLATES, { body: templateBody('after') }), 201);
    const later = await passMoment(db, scope);
    const afterRows = await readRestoredRows(db, scope);
    await restore(scope, { asOf: states[0]?.at });
    await restore(scope, { asOf: later });
    expect(await readRestoredRows(db, scope)).toEqual(afterRows);
  });

  it('restores into an empty tenant/org on another database (with ids of its own), leaving the source as it is', async () => {
    const { client, scope, db } = await seedNeighbours();
    const importId = await writeFirst(client);
    const first = { at: await passMoment(db, scope), rows: await readRestoredRows(db, scope) };
    await writeSecond(client, importId);
    await passMoment(db, scope);
    const source = await readRestoredRows(db, scope);
    const target = { tenantKey: client.tenant, orgKey: uniqueKey('copy') };
    expect((await restore(scope, { asOf: first.at, target })).method).toBe('rebuild');
    const targetDb = readTestDatabases().tenants.get((await findTenantDatabase(target)) ?? '') as D1Database;
    expect(await readRestoredRows(targetDb, target)).toEqual(mapRestoredRows(first.rows, await deriveIdMapping(target)));
    expect(await readRestoredRows(db, scope)).toEqual(source);
  });

  it('restores one snapshot into several empty tenant/orgs on each database, each copy with ids of its own', async () => {
    const { client, scope, db } = await seedNeighbours();
    const importId = await writeFirst(client);
    const snapshot = await takeSnapshot(scope);
    // After the snapshot: the copies take these rows from the history, the rest from the snapshot.
    await writeSecond(client, importId);
    const moment = { at: await passMoment(db, scope), rows: await readRestoredRows(db, scope) };
    const sourceIds = await readRowIds(db, scope);
    const { names, tenants } = readTestDatabases();
    // Two targets placed on each database (the source's too) and one the restore places.
    const targets: { tenantKey: string; orgKey: string }[] = [];
    for (const name of names)
      for (const label of ['a', 'b']) {
        const target = { tenantKey: client.tenant, orgKey: uniqueKey(`copy-${label}`) };
        // Placed by a write (then undone: an empty tenant/org), then moved to the database wanted.
        const placing = await tenantClient(target.tenantKey, target.orgKey);
        await expectStatus(placing.call('POST', TEMPLATES, { body: templateBody('placing') }), 201);
        await expectStatus(placing.call('DELETE', `${TEMPLATES}/placing`), 204);
        if ((await findTenantDatabase(target)) !== name)
          expect((await movePlacement(target.tenantKey, target.orgKey, name)).status).toBe(200);
        targets.push(target);
      }
    targets.push({ tenantKey: client.tenant, orgKey: uniqueKey('copy-new') });
    const seen = new Set(sourceIds);
    for (const target of targets) {
      const done = await restore(scope, { asOf: moment.at, target });
      expect(done.snapshot).toBe(snapshot.id);
      const targetDb = tenants.get((await findTenantDatabase(target)) ?? '') as D1Database;
      expect(await readRestoredRows(targetDb, target)).toEqual(mapRestoredRows(moment.rows, await deriveIdMapping(target)));
      const ids = await readRowIds(targetDb, target);
      expect(ids.size).toBe(sourceIds.size);
      expect([...ids].filter((id) => seen.has(id))).toEqual([]);
      for (const id of ids) seen.add(id);
      // The copy answers as the source: the route with its members, the document with its lines.
      const copy = await tenantClient(target.tenantKey, target.orgKey);
      const route = await copy.call<{ locations: { key: string }[] }>('GET', `${ROUTES}/C1/R1`);
      expect(route.body.locations.map((location) => location.key).sort()).toEqual(['L2', 'L3']);
      expect((await copy.call<{ exchangeRateDocumentRates: unknown[] }>('GET', `${RATES}/1`)).body.exchangeRateDocumentRates).toHaveLength(
        3,
      );
      await expectStatus(copy.call('POST', TEMPLATES, { body: templateBody('after-copy') }), 201);
    }
    // A copy's history names its own ids: restored in place to before its own write, it is the copy again.
    const last = targets[targets.length - 1] ?? scope;
    const lastDb = tenants.get((await findTenantDatabase(last)) ?? '') as D1Database;
    const copyClient = await tenantClient(last.tenantKey, last.orgKey);
    await expectStatus(copyClient.call('DELETE', `${TEMPLATES}/after-copy`), 204);
    const copied = { at: await passMoment(lastDb, last), rows: await readRestoredRows(lastDb, last) };
    await expectStatus(copyClient.call('DELETE', `${ROUTES}/C1/R1`), 204);
    await restore(last, { asOf: copied.at });
    expect(await readRestoredRows(lastDb, last)).toEqual(copied.rows);
  });

  it('restores exactly across a move (insertion-sequence ids renumbered by the move)', async () => {
    const { client, scope, home } = await seedNeighbours();
    const importId = await writeFirst(client);
    const homeDb = readTestDatabases().tenants.get(home) as D1Database;
    const first = { at: await passMoment(homeDb, scope), rows: await readRestoredRows(homeDb, scope) };
    const away = readTestDatabases().names.find((name) => name !== home) ?? '';
    expect((await movePlacement(scope.tenantKey, scope.orgKey, away)).status).toBe(200);
    const db = readTestDatabases().tenants.get(away) as D1Database;
    await writeSecond(client, importId);
    await writeThird(client);
    const second = { at: await passMoment(db, scope), rows: await readRestoredRows(db, scope) };
    // Before the move: its renumbered ids cannot be reverted in place, so the restore rebuilds.
    expect((await restore(scope, { asOf: first.at })).method).toBe('rebuild');
    expect(await readRestoredRows(db, scope)).toEqual(first.rows);
    // After it: in place, each measurement's state read from its entries after the rebase.
    expect((await restore(scope, { asOf: second.at })).method).toBe('changes');
    expect(await readRestoredRows(db, scope)).toEqual(second.rows);
  });

  it('holds the writes sent while it runs and applies them after it: none is lost or undone', async () => {
    const { client, scope, db } = await seedNeighbours();
    await writeFirst(client);
    const moment = await passMoment(db, scope);
    await writeSecond(client, await registerImport(client, { importDataTemplate: 'customers' }));
    const started = await callAdmin<JobBody>('POST', `/admin/placements/${scope.tenantKey}/${scope.orgKey}/restore`, {
      body: { asOf: moment },
    });
    expect(started.status, started.text).toBe(202);
    // Sent after the 202: held until the restore ends, then written (or, past the hold, refused with 503).
    const held = await client.call('POST', TEMPLATES, { body: templateBody('held') });
    const job = await followJob(started.headers.get('location'));
    expect(job.state).toBe('done');
    expect(held.status, held.text).toBe(201);
    expect((await client.call('GET', `${TEMPLATES}/held`)).status).toBe(200);
  });

  it('answers 400 naming the field for a bad body, 404 for an unknown tenant/org or snapshot, 409 for a non-empty target', async () => {
    const { client, scope } = await seedNeighbours();
    const path = `/admin/placements/${scope.tenantKey}/${scope.orgKey}/restore`;
    const paths = async (body: unknown) =>
      (await callAdmin<{ errors: { path: string }[] }>('POST', path, { body })).body.errors.map((e) => e.path);
    expect(await paths({})).toEqual(['asOf']);
    expect(await paths({ asOf: 'yesterday' })).toEqual(['asOf']);
    expect(await paths({ asOf: '2001-01-01T00:00:00Z' })).toEqual(['asOf']);
    expect(await paths({ asOf: new Date().toISOString(), snapshot: 'x' })).toEqual(['asOf']);
    expect(await paths({ asOf: new Date().toISOString(), bogus: 1 })).toEqual(['bogus']);
    expect((await callAdmin('POST', `/admin/placements/nobody/none/restore`, { body: { asOf: new Date().toISOString() } })).status).toBe(
      404,
    );
    expect((await callAdmin('POST', path, { body: { snapshot: '20260101T000000000Z-00000000' } })).status).toBe(400);
    const neighbour = await siblingOrg(client);
    await expectStatus(neighbour.call('POST', TEMPLATES, { body: templateBody('x') }), 201);
    const conflict = await callAdmin('POST', path, {
      body: { asOf: new Date().toISOString(), target: { tenantKey: neighbour.tenant, orgKey: neighbour.org } },
    });
    expect(conflict.status).toBe(409);
  });
});
