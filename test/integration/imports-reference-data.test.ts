/**
 * File imports of reference records (a template per reference kind): written as PUT /referenceData/{kind} writes them
 * (its checks and messages, its events), create and upsert modes, failOnErrors and dryRun, a revert that deletes what
 * the import created, restores what it updated and leaves what changed since or is in use; tenant/org isolation.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { readAllChanges } from '../helpers/events';
import { revertTemplate, uploadCsv, waitForImportEnd } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { freshTenant, siblingOrg } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('imp');
  const companies = await client.call('PUT', '/referenceData/companies', { body: [{ key: 'C1', name: 'One', baseCurrency: 'EUR' }] });
  expect(companies.status, companies.text).toBe(200);
});

type Item = Record<string, unknown> & { key: string };

async function listKind(kind: string, on: TenantClient = client): Promise<Item[]> {
  const result = await on.call<{ items: Item[] }>('GET', `/referenceData/${kind}`);
  expect(result.status, result.text).toBe(200);
  return result.body.items;
}

const failureLines = async (id: string) =>
  (await client.call<string>('GET', `${IMPORTS}/${id}/failures`)).text.trim().split('\r\n').slice(1);

describe('reference data templates', () => {
  it('creates the valid rows as PUT would (fields, defaults, events), reports the others with its messages', async () => {
    const csv = 'key,description,company\nL1,Boiler room,C1\nL2,Roof,C9\nL3,,C1\nL1,Again,C1\nL4,Yard,c1\n';
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=locations', csv)).id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 5, rowsCreated: 1, rowsUpdated: 0, rowsFailed: 4 });
    expect(await listKind('locations')).toMatchObject([{ key: 'L1', description: 'Boiler room', company: 'C1' }]);
    const lines = await failureLines(ended.id);
    expect(lines.map((line) => line.split(',').slice(0, 2).join(','))).toEqual(['3,company', '4,description', '5,key', '6,company']);
    expect(lines[0]).toContain("There is no companies record with key 'C9'");
    expect(lines[2]).toContain("Key 'L1' appears more than once");
    const events = await readAllChanges(client, 'referenceData/locations');
    expect(events.map((event) => [event.changeType, event.key])).toEqual([['created', 'L1']]);
  });

  it('create mode refuses a stored key; upsert sets every field as PUT does and leaves an equal record alone', async () => {
    const seeded = await client.call('PUT', '/referenceData/employees', {
      body: [
        { key: 'E1', name: 'Ana', company: 'C1' },
        { key: 'E2', name: 'Bob' },
      ],
    });
    expect(seeded.status).toBe(200);
    const refused = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=employees', 'key,name\nE1,Ana B\n')).id);
    expect(refused).toMatchObject({ importDataState: 3, rowsCreated: 0, rowsFailed: 1 });
    const csv = 'key,name,company\nE1,Ana B,\nE2,Bob,\nE3,Carla,C1\n';
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=employees&mode=upsert', csv)).id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 3, rowsCreated: 1, rowsUpdated: 1, rowsFailed: 0 });
    // As PUT: an absent optional field is set to its default (E1's company is gone).
    expect(await listKind('employees')).toMatchObject([
      { key: 'E1', name: 'Ana B', company: null },
      { key: 'E2', name: 'Bob', company: null },
      { key: 'E3', name: 'Carla', company: 'C1' },
    ]);
    const events = (await readAllChanges(client, 'referenceData/employees')).slice(2);
    expect(events.map((event) => [event.changeType, event.key]).sort()).toEqual([
      ['created', 'E3'],
      ['updated', 'E1'],
    ]);
  });

  it('revert deletes what it created, restores what it updated, leaves what changed since or is in use; twice: nothing', async () => {
    const seeded = await client.call('PUT', '/referenceData/tools', { body: [{ key: 'T1', description: 'Old' }] });
    expect(seeded.status).toBe(200);
    const csv = 'key,description\nT1,New\nT2,Two\nT3,Three\nT4,Four\n';
    const started = await uploadCsv(client, 'importDataTemplate=tools&mode=upsert', csv);
    expect(await waitForImportEnd(client, started.id)).toMatchObject({ importDataState: 3, rowsCreated: 3, rowsUpdated: 1 });
    const changed = await client.call('PUT', '/referenceData/tools', { body: [{ key: 'T3', description: 'Mine' }] });
    expect(changed.status).toBe(200);
    const route = await client.call('POST', '/assetManagementCore/routes', {
      body: { routeKey: 'R1', description: 'Uses T4', company: 'C1', tools: ['T4'] },
    });
    expect(route.status, route.text).toBe(201);
    const revert = await revertTemplate(client, 'tools');
    expect(revert.revertedTypeMessage).toBe(2);
    expect(revert.message).toContain('1 record(s) it created were deleted, 1 it updated got their values back.');
    expect(revert.message).toContain("tools 'T3'");
    expect(revert.message).toContain("tools 'T4' (in use)");
    expect((await listKind('tools')).map((item) => [item.key, item.description])).toEqual([
      ['T1', 'Old'],
      ['T3', 'Mine'],
      ['T4', 'Four'],
    ]);
    const events = await readAllChanges(client, 'referenceData/tools');
    expect(events.filter((event) => event.changeType === 'deleted').map((event) => event.key)).toEqual(['T2']);
    const again = await revertTemplate(client, 'tools');
    expect(again).toMatchObject({ revertedTypeMessage: 2 });
    expect(again.message).toContain('no succeeded import left');
    expect((await listKind('tools')).length).toBe(3);
  });

  it('failOnErrors leaves nothing written; dryRun writes nothing', async () => {
    const csv = 'key,description\nF1,One\nF2,\n';
    const failed = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=families&failOnErrors=true', csv)).id);
    expect(failed).toMatchObject({ importDataState: 4, rowsFailed: 1 });
    const dry = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=families&dryRun=true', csv)).id);
    expect(dry).toMatchObject({ importDataState: 3, rowsRead: 2, rowsCreated: 0, rowsFailed: 1 });
    expect(await listKind('families')).toEqual([]);
    const events = await readAllChanges(client, 'referenceData/families');
    expect(events.map((event) => event.changeType)).toEqual(['created', 'deleted']);
  });

  it("another tenant or org sees none of the import's records, and cannot read, cancel or revert it", async () => {
    const started = await uploadCsv(client, 'importDataTemplate=brands', 'key,description\nB1,Acme\n');
    expect(await waitForImportEnd(client, started.id)).toMatchObject({ importDataState: 3, rowsCreated: 1 });
    for (const other of [await freshTenant('imp'), await siblingOrg(client)]) {
      expect(await listKind('brands', other)).toEqual([]);
      expect((await other.call('GET', `${IMPORTS}/${started.id}`)).status).toBe(404);
      const revert = await other.call<{ revertedTypeMessage: number }>('POST', `${IMPORTS}/revertImportFile`, {
        body: { templateKey: 'brands' },
      });
      expect(revert.body.revertedTypeMessage).toBe(2);
    }
    expect(await listKind('brands')).toMatchObject([{ key: 'B1', description: 'Acme' }]);
  });
});
