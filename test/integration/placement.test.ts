/**
 * Tenant/orgs spread over the tenant databases: placement on the first write, each tenant/org's rows in exactly one
 * database, reads of an unplaced tenant/org, and read-your-writes bookmarks (`x-d1-bookmark`). Runs in both runtimes.
 */
import { describe, expect, it } from 'vitest';
import { call, mintToken, tenantClient } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { kpiReferenceData } from '../helpers/indicators';
import { changeImport, IMPORTS, registerImport } from '../helpers/imports';
import { createRoute, seedRouteReferenceData } from '../helpers/routes';
import { findTenantDatabase, readTestDatabases } from '../helpers/tenant-db';
import { readResidency, snapshotRows } from '../helpers/tenant-rows';
import { freshTenant, uniqueKey } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';
const BOOKMARK = /^(TENANT_DB_[A-Z0-9_]+):([0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32})$/;

async function createTemplate(client: TenantClient, key: string, headers: Record<string, string> = {}) {
  const created = await client.call<string>('POST', TEMPLATES, {
    headers,
    body: { templateKey: key, subject: `Hello ${key}`, emailTemplateType: 1, notificationBody: 'Body', culture: 'en-US' },
  });
  expect(created.status, created.text).toBe(201);
  return created;
}

const scopeOf = (client: TenantClient) => ({ tenantKey: client.tenant, orgKey: client.org });

describe('placement of tenant/orgs', () => {
  it('spreads 10 new tenant/orgs over both tenant databases', async () => {
    const placed: string[] = [];
    const tenant = uniqueKey('spread');
    for (let index = 0; index < 10; index += 1) {
      const client = await tenantClient(tenant, uniqueKey(`org${index}`));
      await createTemplate(client, 'first');
      placed.push((await findTenantDatabase(scopeOf(client))) ?? 'none');
    }
    const names = readTestDatabases().names;
    expect(new Set(placed)).toEqual(new Set(names));
    const counts = names.map((name) => placed.filter((database) => database === name).length);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(2);
  });

  it('keeps every row of a tenant/org, of every service, in exactly one database', async () => {
    const client = await freshTenant('single');
    await kpiReferenceData(client);
    await seedRouteReferenceData(client);
    await createRoute(client);
    await createTemplate(client, 'one');
    const importId = await registerImport(client, { importDataTemplate: 'customers' });
    expect((await changeImport(client, { importId, importDataState: 2 })).status).toBe(200);
    const measured = await client.call('POST', '/maintenance/indicators/measurements', {
      body: [{ company: 'ACME-PT', code: 'COST', date: '2026-01-10', value: 3 }],
    });
    expect(measured.status).toBe(200);

    const home = await findTenantDatabase(scopeOf(client));
    for (const [name, db] of readTestDatabases().tenants) {
      const rows = Object.entries(await snapshotRows(db, scopeOf(client))).filter(([, tableRows]) => tableRows.length > 0);
      if (name === home) {
        expect(rows.map(([table]) => table)).toEqual(
          expect.arrayContaining(['email_templates', 'import_data_infos', 'kpi_measurements', 'ref_companies', 'routes']),
        );
        expect(await readResidency(db, scopeOf(client))).toBe('active');
      } else {
        expect(rows, name).toEqual([]);
        expect(await readResidency(db, scopeOf(client))).toBeNull();
      }
    }
  });

  it('answers reads of a tenant/org never written to as empty, without placing it; standard lists still answer', async () => {
    const client = await freshTenant('unplaced');
    const list = await client.call<{ items: unknown[] }>('GET', `${TEMPLATES}/odata`);
    expect(list.status).toBe(200);
    expect(list.body.items).toEqual([]);
    expect((await client.call('GET', `${TEMPLATES}/nothing`)).status).toBe(404);
    const currencies = await client.call<{ items: { key: string }[] }>('GET', '/referenceData/currencies');
    expect(currencies.body.items.map((item) => item.key)).toContain('EUR');
    expect(await findTenantDatabase(scopeOf(client))).toBeNull();
  });
});

describe('x-d1-bookmark', () => {
  it('answers a bookmark of the tenant/org database; sending it back reads your own writes', async () => {
    const client = await freshTenant('bookmarks');
    const created = await createTemplate(client, 'mine');
    const home = await findTenantDatabase(scopeOf(client));
    const header = created.headers.get('x-d1-bookmark') ?? '';
    expect(header).toMatch(BOOKMARK);
    expect(BOOKMARK.exec(header)?.[1]).toBe(home);

    const read = await client.call<{ id: string; subject: string }>('GET', `${TEMPLATES}/mine`, { headers: { 'x-d1-bookmark': header } });
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(created.body);
    const next = read.headers.get('x-d1-bookmark') ?? '';
    expect(next).toMatch(BOOKMARK);
    expect(next >= header).toBe(true);

    // A write through the Durable Object answers the bookmark of its own D1 write.
    const importId = await registerImport(client);
    const changed = await changeImport(client, { importId, importDataState: 2 });
    const afterCommand = changed.headers.get('x-d1-bookmark') ?? '';
    expect(BOOKMARK.exec(afterCommand)?.[1]).toBe(home);
    const state = await client.call<{ importDataState: number }>('GET', `${IMPORTS}/${importId}`, {
      headers: { 'x-d1-bookmark': afterCommand },
    });
    expect(state.body.importDataState).toBe(2);
  });

  it('reads correctly with a bookmark of another database, and refuses a malformed one (400 naming the header)', async () => {
    const client = await freshTenant('bookmarks');
    await createTemplate(client, 'k');
    const home = await findTenantDatabase(scopeOf(client));
    const elsewhere = readTestDatabases().names.find((name) => name !== home) ?? '';
    const foreign = `${elsewhere}:00000000-00000001-00000000-${'0'.repeat(32)}`;
    const read = await client.call<{ subject: string }>('GET', `${TEMPLATES}/k`, { headers: { 'x-d1-bookmark': foreign } });
    expect(read.status).toBe(200);
    expect(read.body.subject).toBe('Hello k');
    expect(BOOKMARK.exec(read.headers.get('x-d1-bookmark') ?? '')?.[1]).toBe(home);

    const bad = await client.call<Problem>('GET', `${TEMPLATES}/k`, { headers: { 'x-d1-bookmark': 'not a bookmark' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error) => error.path)).toEqual(['x-d1-bookmark']);
  });

  it('is not answered to a request that is not authorized', async () => {
    const client = await freshTenant('bookmarks');
    await createTemplate(client, 'k');
    const anonymous = await call('GET', `${client.base}${TEMPLATES}/k`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.has('x-d1-bookmark')).toBe(false);
    const stranger = await call('GET', `${client.base}${TEMPLATES}/k`, { token: await mintToken({ tenant: 'someone', org: 'else' }) });
    expect(stranger.status).toBe(403);
    expect(stranger.headers.has('x-d1-bookmark')).toBe(false);
  });
});
