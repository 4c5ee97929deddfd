/**
 * File imports of routes (members as columns of keys, a two-field natural key) and upserts by natural key: the
 * attributes that differ are updated as the attribute PUTs would, and a revert gives them their pre-import values back.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { readAllChanges } from '../helpers/events';
import { revertTemplate, uploadCsv, waitForImportEnd } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('imp');
});

type Member = { key: string };
type RouteResource = Record<string, unknown> & { locations: Member[]; equipmentItems: Member[]; tools: Member[]; version: number };

const keysOf = (members: Member[]) => members.map((member) => member.key).sort();

describe('routes', () => {
  it('creates routes with their members (keys as |-separated columns), each checked as the API checks it', async () => {
    await seedRouteReferenceData(client);
    const csv =
      'routeKey;description;company;tools;locations;equipmentItems\n' +
      'R1;Weekly;C1;T1|T2;L1|L2;Q1\n' +
      'R2;Other company member;C1;;L9;\n' +
      'R3;Unknown tool;C1;T9;;\n' +
      'R1;Again;C2;;;\n';
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=routes', csv)).id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 4, rowsCreated: 2, rowsFailed: 2 });
    const route = await client.call<RouteResource>('GET', `${ROUTES}/C1/R1`);
    expect(route.status, route.text).toBe(200);
    expect([keysOf(route.body.tools), keysOf(route.body.locations), keysOf(route.body.equipmentItems)]).toEqual([
      ['T1', 'T2'],
      ['L1', 'L2'],
      ['Q1'],
    ]);
    expect((await client.call('GET', `${ROUTES}/C2/R1`)).status).toBe(200);
    const failures = await client.call<string>('GET', `${IMPORTS}/${ended.id}/failures`);
    const lines = failures.text.trim().split('\r\n').slice(1);
    expect(lines.map((line) => line.split(',').slice(0, 2).join(','))).toEqual(['3,locations', '4,tools']);
    expect(lines[0]).toContain("belongs to company 'C2'");
    const events = await readAllChanges(client, 'assetManagementCore/routes');
    expect(events.map((event) => [event.changeType, event.key]).sort()).toEqual([
      ['created', 'C1/R1'],
      ['created', 'C2/R1'],
    ]);
  });

  it('upsert updates the attributes that differ; a revert gives them back and deletes what it created', async () => {
    await seedRouteReferenceData(client);
    const first = await uploadCsv(client, 'importDataTemplate=routes', 'routeKey,description,company,remarks\nU1,One,C1,Old\n');
    await waitForImportEnd(client, first.id);
    const csv = 'routeKey,description,company,remarks\nU1,One,C1,New\nU2,Two,C1,\n';
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=routes&mode=upsert', csv)).id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 2, rowsCreated: 1, rowsUpdated: 1, rowsFailed: 0 });
    const updated = await client.call<RouteResource>('GET', `${ROUTES}/C1/U1`);
    expect(updated.body).toMatchObject({ remarks: 'New', version: 2 });
    const revert = await revertTemplate(client, 'routes');
    expect(revert).toMatchObject({ revertedTypeMessage: 1 });
    expect(revert.message).toContain('1 record(s) it created were deleted, 1 it updated got their values back.');
    expect((await client.call<RouteResource>('GET', `${ROUTES}/C1/U1`)).body).toMatchObject({ remarks: 'Old', version: 3 });
    expect((await client.call('GET', `${ROUTES}/C1/U2`)).status).toBe(404);
    const events = await readAllChanges(client, 'assetManagementCore/routes');
    expect(events.map((event) => [event.changeType, event.key, event.version])).toEqual([
      ['created', 'C1/U1', 1],
      ['created', 'C1/U2', 1],
      ['updated', 'C1/U1', 2],
      ['updated', 'C1/U1', 3],
      ['deleted', 'C1/U2', 2],
    ]);
  });

  it('upsert adds the members a stored route does not hold (version + 1, an updated event); a revert removes them', async () => {
    await seedRouteReferenceData(client);
    await waitForImportEnd(
      client,
      (await uploadCsv(client, 'importDataTemplate=routes', 'routeKey,description,company,locations\nM1,One,C1,L1\n')).id,
    );
    const csv = 'routeKey,description,company,remarks,locations\nM1,One,C1,Imported,L1|L2\nM2,Two,C1,,L3\n';
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=routes&mode=upsert', csv)).id);
    expect(ended).toMatchObject({ importDataState: 3, rowsCreated: 1, rowsUpdated: 1, rowsFailed: 0 });
    const after = (await client.call<RouteResource>('GET', `${ROUTES}/C1/M1`)).body;
    expect([after.remarks, keysOf(after.locations), after.version]).toEqual(['Imported', ['L1', 'L2'], 3]);
    const revert = await revertTemplate(client, 'routes');
    expect(revert.message).toContain('1 record(s) it created were deleted, 1 it updated got their values back.');
    const reverted = (await client.call<RouteResource>('GET', `${ROUTES}/C1/M1`)).body;
    expect([reverted.remarks ?? null, keysOf(reverted.locations), reverted.version]).toEqual([null, ['L1'], 5]);
    const events = (await readAllChanges(client, 'assetManagementCore/routes')).filter((event) => event.key === 'C1/M1');
    expect(events.map((event) => [event.changeType, event.version, event.changes ?? null])).toEqual([
      ['created', 1, null],
      ['updated', 2, { attributes: ['remarks'] }],
      ['updated', 3, { members: { locations: { added: ['L2'] } } }],
      ['updated', 4, { attributes: ['remarks'] }],
      ['updated', 5, { members: { locations: { removed: ['L2'] } } }],
    ]);
  });

  it('a revert leaves a record changed since the import as it is (Warning), never half-reverted', async () => {
    await seedRouteReferenceData(client);
    await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=routes', 'routeKey,description,company\nW1,One,C1\n')).id);
    const csv = 'routeKey,description,company,remarks,locations\nW1,One,C1,Imported,L1\nW1x,One,C1,,\n';
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=routes&mode=upsert', csv)).id);
    expect(ended).toMatchObject({ rowsCreated: 1, rowsUpdated: 1, rowsFailed: 0 });
    const changed = await client.call('PUT', `${ROUTES}/C1/W1/remarks`, { body: { value: 'Mine' } });
    expect(changed.status, changed.text).toBeLessThan(300);
    const revert = await revertTemplate(client, 'routes');
    expect(revert.revertedTypeMessage).toBe(2);
    expect(revert.message).toContain('1 record(s) changed since the import were left as they are');
    const kept = (await client.call<RouteResource>('GET', `${ROUTES}/C1/W1`)).body;
    expect([kept.remarks, keysOf(kept.locations)]).toEqual(['Mine', ['L1']]);
    expect((await client.call('GET', `${ROUTES}/C1/W1x`)).status).toBe(404);
  });
});

describe('upsert of email templates', () => {
  const HEADER = 'templateKey,subject,emailTemplateType,notificationBody,culture';

  it('a row equal to its stored record changes nothing (no version, no event); a new key is created', async () => {
    await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=emailTemplates', `${HEADER}\nE1,S,HTML,B,pt-pt\n`)).id);
    const csv = `${HEADER}\nE1,S,HTML,B,pt-pt\nE1x,S,HTML,B,pt-pt\n`;
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=emailTemplates&mode=upsert', csv)).id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 2, rowsCreated: 1, rowsUpdated: 0, rowsFailed: 0 });
    const record = await client.call<{ version: number }>('GET', '/operations/emailTemplates/E1');
    expect(record.body.version).toBe(1);
  });
});
