/**
 * The operator API (`/admin`, scope `operator`): placements (one, paged list, databases), its errors, and the
 * separation of scopes both ways. Runs in both runtimes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { call, mintToken, tenantClient } from '../helpers/api';
import type { Problem } from '../helpers/api';
import { callAdmin } from '../helpers/operator';
import type { PlacementBody } from '../helpers/operator';
import { findTenantDatabase, readTestDatabases } from '../helpers/tenant-db';
import { countTenantRows } from '../helpers/tenant-rows';
import { uniqueKey } from '../helpers/tenants';

interface Page {
  items: PlacementBody[];
  nextPageLink?: string;
}

/** This test's tenant: five orgs of it are placed (each with one company) before every test. */
let tenant: string;
const ORGS = ['o1', 'o2', 'o3', 'o4', 'o5'];

beforeEach(async () => {
  tenant = uniqueKey('admin');
  for (const org of ORGS) {
    const client = await tenantClient(tenant, org);
    const created = await client.call('PUT', '/referenceData/companies', { body: [{ key: `C-${org}`, name: org, baseCurrency: 'EUR' }] });
    expect(created.status, created.text).toBe(200);
  }
});

const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

describe('operator API', () => {
  it('answers the placement of a tenant/org: database, rows, movedOn', async () => {
    const placement = await callAdmin<PlacementBody>('GET', `/admin/placements/${tenant}/o1`);
    expect(placement.status).toBe(200);
    const database = await findTenantDatabase({ tenantKey: tenant, orgKey: 'o1' });
    const db = readTestDatabases().tenants.get(database ?? '') as D1Database;
    expect(placement.body).toMatchObject({ tenantKey: tenant, orgKey: 'o1', database, movedOn: null, epoch: 1, move: null });
    expect(placement.body.rows).toBe(await countTenantRows(db, { tenantKey: tenant, orgKey: 'o1' }));
    expect(placement.body.rows).toBeGreaterThan(0);
  });

  it('answers 404 for a tenant/org never written to', async () => {
    const missing = await callAdmin<Problem>('GET', `/admin/placements/${tenant}/nobody`);
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('RecordNotFound');
    expect(missing.headers.get('content-type')).toContain('application/problem+json');
    expect(
      (await callAdmin<Problem>('POST', `/admin/placements/${tenant}/nobody/move`, { body: { database: readTestDatabases().names[0] } }))
        .status,
    ).toBe(404);
  });

  it('lists placements in pages ($top, $skip, nextPageLink) and by database', async () => {
    const seen: PlacementBody[] = [];
    let path: string | undefined = '/admin/placements?$top=2';
    while (path) {
      const page: { status: number; body: Page } = await callAdmin<Page>('GET', path);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items);
      path = page.body.nextPageLink ? pathOf(page.body.nextPageLink) : undefined;
    }
    const keys = seen.map((item) => `${item.tenantKey}/${item.orgKey}`);
    expect(keys).toEqual([...keys].sort());
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys).toEqual(expect.arrayContaining(ORGS.map((org) => `${tenant}/${org}`)));
    expect(seen.every((item) => item.rows > 0)).toBe(true);

    for (const name of readTestDatabases().names) {
      const filtered = await callAdmin<Page>('GET', `/admin/placements?database=${name}&$top=1000`);
      expect(filtered.body.items.every((item) => item.database === name)).toBe(true);
      expect(filtered.body.items.length).toBe(seen.filter((item) => item.database === name).length);
    }
    const databases = await callAdmin<{ items: { database: string; placements: number }[] }>('GET', '/admin/databases');
    expect(databases.body.items.map((item) => item.database)).toEqual(readTestDatabases().names);
    expect(databases.body.items.reduce((sum, item) => sum + item.placements, 0)).toBe(seen.length);
  });

  it('refuses bad paging, an unknown database and a bad move body with 400 naming each field', async () => {
    const paging = await callAdmin<Problem>('GET', '/admin/placements?$top=0&$skip=x&database=NOPE&other=1');
    expect(paging.status).toBe(400);
    expect(paging.body.errors.map((error) => error.path).sort()).toEqual(['$skip', '$top', 'database', 'other']);
    expect((await callAdmin<Problem>('GET', '/admin/placements?$top=1001')).status).toBe(400);
    const unknown = await callAdmin<Problem>('POST', `/admin/placements/${tenant}/o1/move`, { body: { database: 'TENANT_DB_404' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((error) => error.path)).toEqual(['database']);
    const empty = await callAdmin<Problem>('POST', `/admin/placements/${tenant}/o1/move`, { body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.map((error) => error.path)).toEqual(['database']);
    expect(
      (await callAdmin<Problem>('POST', `/admin/placements/${tenant}/o1/move`, { body: { database: 'TENANT_DB_1', extra: 1 } })).status,
    ).toBe(400);
  });

  it('drains a database: every tenant/org moves off it online, its records intact; 400 for an unknown one', async () => {
    const [from] = readTestDatabases().names;
    const path = `/admin/placements?database=${from}&$top=1000`;
    expect((await callAdmin<Page>('GET', path)).body.items.length).toBeGreaterThan(0);
    for (let round = 0; round < 10; round += 1) {
      const drained = await callAdmin<{ database: string; moving: PlacementBody[]; remaining: number }>(
        'POST',
        `/admin/databases/${from}/drain`,
      );
      expect(drained.status, drained.text).toBe(202);
      if (drained.body.remaining === 0) break;
      expect(drained.body.moving.every((move) => move.database !== from)).toBe(true);
      for (const move of drained.body.moving) {
        for (let attempt = 0; attempt < 20_000; attempt += 1) {
          const placement = await callAdmin<PlacementBody>('GET', `/admin/placements/${move.tenantKey}/${move.orgKey}`);
          if (placement.body.database !== from && placement.body.move === null) break;
        }
      }
    }
    expect((await callAdmin<Page>('GET', path)).body.items).toEqual([]);
    for (const org of ORGS) {
      const companies = await (await tenantClient(tenant, org)).call<{ items: { key: string }[] }>('GET', '/referenceData/companies');
      expect(companies.body.items.map((item) => item.key)).toContain(`C-${org}`);
    }
    expect((await callAdmin<Problem>('POST', '/admin/databases/TENANT_DB_404/drain')).body.errors.map((error) => error.path)).toEqual([
      'binding',
    ]);
  });

  it('closes a drained database to new tenant/orgs until it is opened again; 400 for an unknown one', async () => {
    const [from] = readTestDatabases().names;
    const databases = () =>
      callAdmin<{ items: { database: string; placements: number; closedOn: string | null }[] }>('GET', '/admin/databases');
    const placeNew = async () => {
      const org = uniqueKey('fresh');
      const client = await tenantClient(tenant, org);
      expect((await client.call('PUT', '/referenceData/companies', { body: [{ key: 'C', name: 'C', baseCurrency: 'EUR' }] })).status).toBe(
        200,
      );
      return (await callAdmin<PlacementBody>('GET', `/admin/placements/${tenant}/${org}`)).body.database;
    };
    try {
      expect((await callAdmin('POST', `/admin/databases/${from}/drain`)).status).toBe(202);
      const closed = (await databases()).body.items.find((item) => item.database === from);
      expect(closed?.closedOn).toEqual(expect.any(String));
      // Whatever the loads, no new tenant/org goes to the closed database.
      for (let index = 0; index < 3; index += 1) expect(await placeNew()).not.toBe(from);
    } finally {
      const opened = await callAdmin<{ database: string; closedOn: string | null }>('POST', `/admin/databases/${from}/open`);
      expect(opened.status, opened.text).toBe(200);
      expect(opened.body).toMatchObject({ database: from, closedOn: null });
    }
    expect((await databases()).body.items.find((item) => item.database === from)?.closedOn).toBeNull();
    expect((await callAdmin<Problem>('POST', '/admin/databases/TENANT_DB_404/open')).body.errors.map((error) => error.path)).toEqual([
      'binding',
    ]);
  });

  it('answers 401 without a token, 404/405 for unknown operator paths', async () => {
    expect((await callAdmin('GET', '/admin/placements', { token: null })).status).toBe(401);
    expect((await callAdmin('GET', '/admin/nothing')).status).toBe(404);
    expect((await callAdmin('DELETE', `/admin/placements/${tenant}/o1`)).status).toBe(405);
  });

  it('is forbidden to tenant tokens (403), even with every org and the admin scope', async () => {
    const tenantToken = await mintToken({ orgs: ['*'], scope: 'application admin' });
    for (const [method, path] of [
      ['GET', '/admin/placements'],
      ['GET', `/admin/placements/${tenant}/o1`],
      ['POST', `/admin/placements/${tenant}/o1/move`],
      ['GET', '/admin/databases'],
      ['GET', '/admin/nothing'],
    ] as const) {
      const answer = await callAdmin<Problem>(method, path, {
        token: tenantToken,
        body: method === 'POST' ? { database: 'TENANT_DB_1' } : undefined,
      });
      expect(answer.status, `${method} ${path}`).toBe(403);
      expect(answer.body.code).toBe('Forbidden');
    }
  });

  it('gives the operator scope no tenant data (403 on /api), even with every org', async () => {
    for (const token of [await mintToken({ scope: 'operator', orgs: [] }), await mintToken({ scope: 'operator', orgs: ['*'] })]) {
      const list = await call<Problem>('GET', `/api/${tenant}/o1/referenceData/companies`, { token });
      expect(list.status).toBe(403);
      const write = await call<Problem>('PUT', `/api/${tenant}/o1/referenceData/companies`, { token, body: [{ key: 'X', name: 'X' }] });
      expect(write.status).toBe(403);
    }
  });
});
