import { beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { createRoute, ROUTES, routeBody, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant, siblingOrg } from '../helpers/tenants';

type RouteResource = Record<string, unknown> & { id: string; locations: unknown[]; equipmentItems: unknown[]; tools: { key: string }[] };

let client: TenantClient;
let other: TenantClient;

beforeEach(async () => {
  client = await freshTenant('acme');
  other = await siblingOrg(client);
  await seedRouteReferenceData(client);
  await seedRouteReferenceData(other);
});

describe('create and read', () => {
  it('creates a route with every field and reads it by id and by companyKey/routeKey', async () => {
    const body = routeBody({
      routeKey: 'full',
      locationFunction: 'LF1',
      family: 'F1',
      brand: 'B1',
      brandModel: 'M1',
      tools: 'T2, T1',
      remarks: 'Check the valves',
      responsible: 'E1',
      custom_shift: 'night',
      customAttributes: { custom_priority: 2 },
    });
    const created = await client.call<string>('POST', ROUTES, { body });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(`${ORIGIN}${client.base}${ROUTES}/${created.body}`);
    const byId = await client.call<RouteResource>('GET', `${ROUTES}/${created.body}`);
    expect(byId.status).toBe(200);
    expect(byId.headers.get('etag')).toBe('"1"');
    expect(byId.body).toMatchObject({
      id: created.body,
      routeKey: 'full',
      description: 'Weekly round',
      company: 'C1',
      locationFunction: 'LF1',
      family: 'F1',
      brand: 'B1',
      brandModel: 'M1',
      remarks: 'Check the valves',
      responsible: 'E1',
      custom_shift: 'night',
      custom_priority: 2,
      isActive: true,
      version: 1,
      locations: [],
      equipmentItems: [],
    });
    expect(byId.body.tools.map((tool) => tool.key)).toEqual(['T1', 'T2']);
    expect(byId.body.tools[0]).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), key: 'T1', description: 'Torque wrench' });
    const byKey = await client.call<RouteResource>('GET', `${ROUTES}/C1/full`);
    expect(byKey.body).toEqual(byId.body);
  });

  it('accepts tools as an array and optional fields as absent or null', async () => {
    const id = await createRoute(client, { routeKey: 'tools-array', tools: ['T3', 'T1', 'T3'], family: null });
    const read = await client.call<RouteResource>('GET', `${ROUTES}/${id}`);
    expect(read.body.tools.map((tool) => tool.key)).toEqual(['T1', 'T3']);
    expect(read.body).toMatchObject({ family: null, brand: null, responsible: null, remarks: null });
  });

  it('names every invalid field at once, tools included', async () => {
    const result = await client.call<Problem>('POST', ROUTES, { body: { routeKey: '', company: 5, tools: 7, bogus: 1 } });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('ValidationFailed');
    expect(result.body.errors.map((error) => error.path).sort()).toEqual(['bogus', 'company', 'description', 'routeKey', 'tools']);
    const items = await client.call<Problem>('POST', ROUTES, { body: routeBody({ routeKey: 'bad-tools', tools: ['T1', 3, ''] }) });
    expect(items.body.errors.map((error) => error.path)).toEqual(['tools[1]', 'tools[2]']);
  });

  it('answers 400 UnknownReference naming every unknown key', async () => {
    const result = await client.call<Problem>('POST', ROUTES, {
      body: routeBody({
        routeKey: 'unknown-refs',
        company: 'NOPE',
        locationFunction: 'x-lf',
        family: 'x-f',
        brand: 'x-b',
        brandModel: 'x-m',
        responsible: 'x-e',
        tools: ['T1', 'x-t'],
      }),
    });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('UnknownReference');
    expect(result.body.errors.map((error) => error.path).sort()).toEqual([
      'brand',
      'brandModel',
      'company',
      'family',
      'locationFunction',
      'responsible',
      'tools[1]',
    ]);
    expect(result.body.errors.find((error) => error.path === 'tools[1]')?.message).toContain("'x-t'");
    const stringTools = await client.call<Problem>('POST', ROUTES, { body: routeBody({ routeKey: 'unknown-tool', tools: 'T1,x-t' }) });
    expect(stringTools.body.errors).toEqual([{ path: 'tools', message: expect.stringContaining("'x-t'") }]);
    expect((await client.call('GET', `${ROUTES}/C1/unknown-refs`)).status).toBe(404);
  });

  it('refuses a brand model of another brand, or without a brand', async () => {
    const other = await client.call<Problem>('POST', ROUTES, { body: routeBody({ routeKey: 'bm-1', brand: 'B1', brandModel: 'M2' }) });
    expect(other.status).toBe(400);
    expect(other.body.code).toBe('ValidationFailed');
    expect(other.body.errors).toEqual([{ path: 'brandModel', message: expect.stringContaining("belongs to brand 'B2'") }]);
    const none = await client.call<Problem>('POST', ROUTES, { body: routeBody({ routeKey: 'bm-2', brandModel: 'M1' }) });
    expect(none.status).toBe(400);
    expect(none.body.errors[0]?.path).toBe('brandModel');
  });

  it('refuses a duplicate (company, routeKey) but allows the routeKey in another company', async () => {
    await createRoute(client, { routeKey: 'dup' });
    const again = await client.call<Problem>('POST', ROUTES, { body: routeBody({ routeKey: 'dup' }) });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('DuplicateKey');
    await createRoute(client, { routeKey: 'dup', company: 'C2' });
  });

  it('answers 404 for an unknown id or key', async () => {
    expect((await client.call<Problem>('GET', `${ROUTES}/${crypto.randomUUID()}`)).status).toBe(404);
    const byKey = await client.call<Problem>('GET', `${ROUTES}/C1/nothing`);
    expect(byKey.status).toBe(404);
    expect(byKey.body.code).toBe('RecordNotFound');
    expect((await client.call('GET', `${ROUTES}/not-a-guid`)).status).toBe(404);
  });
});

describe('list (OData)', () => {
  it('lists routes with their members, filters by company and selects fields', async () => {
    const scoped = await freshTenant('acme');
    await seedRouteReferenceData(scoped);
    await createRoute(scoped, { routeKey: 'A', tools: 'T1' });
    await createRoute(scoped, { routeKey: 'B', company: 'C2' });
    await createRoute(scoped, { routeKey: 'C', brand: 'B1' });
    const all = await scoped.call<{ items: RouteResource[] }>('GET', `${ROUTES}/odata`);
    expect(all.status).toBe(200);
    expect(all.body.items.map((item) => item.routeKey)).toEqual(['A', 'B', 'C']);
    expect(all.body.items[0]?.tools.map((tool) => tool.key)).toEqual(['T1']);
    expect(all.body.items[1]).toMatchObject({ locations: [], equipmentItems: [], tools: [] });
    const filtered = await scoped.call<{ items: Record<string, unknown>[]; count: number }>(
      'GET',
      `${ROUTES}/odata?$filter=Company eq 'C1'&$select=routeKey,brand&$orderby=routeKey desc&$count=true`,
    );
    expect(filtered.status, filtered.text).toBe(200);
    expect(filtered.body).toEqual({
      items: [
        { routeKey: 'C', brand: 'B1' },
        { routeKey: 'A', brand: null },
      ],
      count: 2,
    });
    const bad = await scoped.call<Problem>('GET', `${ROUTES}/odata?$filter=tools eq 'T1'`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('InvalidODataQuery');
  });
});

describe('attribute updates', () => {
  it('updates every attribute by companyKey/routeKey and bumps the version', async () => {
    await createRoute(client, { routeKey: 'upd' });
    const updates: [string, unknown, unknown][] = [
      ['description', 'Monthly round', 'Monthly round'],
      ['locationFunction', { value: 'LF1' }, 'LF1'],
      ['family', 'F1', 'F1'],
      ['brand', 'B2', 'B2'],
      ['brandModel', 'M2', 'M2'],
      ['remarks', 'Bring gloves', 'Bring gloves'],
      ['responsible', 'E2', 'E2'],
      ['isActive', false, false],
    ];
    let version = 1;
    for (const [attribute, body, expected] of updates) {
      const result = await client.call('PUT', `${ROUTES}/C1/upd/${attribute}`, { body });
      expect(result.status, `${attribute}: ${result.text}`).toBe(200);
      expect(result.text).toBe('');
      version += 1;
      const read = await client.call<Record<string, unknown>>('GET', `${ROUTES}/C1/upd`);
      expect(read.body[attribute]).toEqual(expected);
      expect(read.body.version).toBe(version);
    }
    expect((await client.call('PUT', `${ROUTES}/C1/upd/routeKey`, { body: 'upd-renamed' })).status).toBe(200);
    expect((await client.call('GET', `${ROUTES}/C1/upd-renamed`)).status).toBe(200);
    expect((await client.call('PUT', `${ROUTES}/C1/upd-renamed/company`, { body: 'C2' })).status).toBe(200);
    const moved = await client.call<Record<string, unknown>>('GET', `${ROUTES}/C2/upd-renamed`);
    expect(moved.body).toMatchObject({ company: 'C2', routeKey: 'upd-renamed' });
  });

  it('checks references and the brand model on update', async () => {
    await createRoute(client, { routeKey: 'upd-refs', brand: 'B1', brandModel: 'M1' });
    for (const attribute of ['company', 'locationFunction', 'family', 'brand', 'brandModel', 'responsible']) {
      const result = await client.call<Problem>('PUT', `${ROUTES}/C1/upd-refs/${attribute}`, { body: 'unknown-key' });
      expect(result.status, attribute).toBe(400);
      expect(result.body.code).toBe('UnknownReference');
      expect(result.body.errors).toEqual([{ path: attribute, message: expect.stringContaining('unknown-key') }]);
    }
    const wrongModel = await client.call<Problem>('PUT', `${ROUTES}/C1/upd-refs/brandModel`, { body: 'M2' });
    expect(wrongModel.status).toBe(400);
    expect(wrongModel.body.errors[0]?.path).toBe('brandModel');
    const wrongBrand = await client.call<Problem>('PUT', `${ROUTES}/C1/upd-refs/brand`, { body: 'B2' });
    expect(wrongBrand.status).toBe(400);
    expect(wrongBrand.body.errors[0]?.path).toBe('brand');
    // Clear the model, change the brand, then set a model of the new brand.
    expect(
      (await client.call('PUT', `${ROUTES}/C1/upd-refs/brandModel`, { rawBody: 'null', headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(200);
    expect((await client.call('PUT', `${ROUTES}/C1/upd-refs/brand`, { body: 'B2' })).status).toBe(200);
    expect((await client.call('PUT', `${ROUTES}/C1/upd-refs/brandModel`, { body: 'M2' })).status).toBe(200);
    const required = await client.call<Problem>('PUT', `${ROUTES}/C1/upd-refs/description`, {
      rawBody: 'null',
      headers: { 'content-type': 'application/json' },
    });
    expect(required.status).toBe(400);
    expect(required.body.errors[0]?.path).toBe('description');
  });

  it('refuses a rename onto an existing key', async () => {
    await createRoute(client, { routeKey: 'ren-a' });
    await createRoute(client, { routeKey: 'ren-b' });
    const clash = await client.call<Problem>('PUT', `${ROUTES}/C1/ren-a/routeKey`, { body: 'ren-b' });
    expect(clash.status).toBe(400);
    expect(clash.body.code).toBe('DuplicateKey');
  });

  it('answers 400 RecordNotFound for a missing route, 404 for isActive and custom attributes', async () => {
    const description = await client.call<Problem>('PUT', `${ROUTES}/C1/missing/description`, { body: 'x' });
    expect(description.status).toBe(400);
    expect(description.body.code).toBe('RecordNotFound');
    expect((await client.call('PUT', `${ROUTES}/C1/missing/isActive`, { body: true })).status).toBe(404);
    expect((await client.call('PUT', `${ROUTES}/C1/missing/custom_shift`, { body: { value: 'x' } })).status).toBe(404);
  });

  it('updates custom attributes; 404 for a name that is not custom_*', async () => {
    await createRoute(client, { routeKey: 'custom', custom_shift: 'day' });
    expect((await client.call('PUT', `${ROUTES}/C1/custom/custom_shift`, { body: { value: 'night' } })).status).toBe(200);
    expect((await client.call('PUT', `${ROUTES}/C1/custom/custom_crew`, { body: 3 })).status).toBe(200);
    const read = await client.call<Record<string, unknown>>('GET', `${ROUTES}/C1/custom`);
    expect(read.body).toMatchObject({ custom_shift: 'night', custom_crew: 3 });
    expect((await client.call('PUT', `${ROUTES}/C1/custom/bogus`, { body: 1 })).status).toBe(404);
  });

  it('honours If-Match', async () => {
    await createRoute(client, { routeKey: 'etag' });
    expect((await client.call('PUT', `${ROUTES}/C1/etag/description`, { body: 'x', headers: { 'if-match': '"9"' } })).status).toBe(412);
    expect((await client.call('PUT', `${ROUTES}/C1/etag/description`, { body: 'x', headers: { 'if-match': '"1"' } })).status).toBe(200);
  });
});

describe('delete', () => {
  it('deletes by id and by companyKey/routeKey (204), then 404; tools go with the route', async () => {
    const id = await createRoute(client, { routeKey: 'del-1', tools: 'T1' });
    await createRoute(client, { routeKey: 'del-2' });
    expect((await client.call('DELETE', `${ROUTES}/${id}`)).status).toBe(204);
    expect((await client.call('DELETE', `${ROUTES}/C1/del-2`)).status).toBe(204);
    expect((await client.call('GET', `${ROUTES}/C1/del-1`)).status).toBe(404);
    expect((await client.call('DELETE', `${ROUTES}/${id}`)).status).toBe(404);
    expect((await client.call('DELETE', `${ROUTES}/C1/del-2`)).status).toBe(404);
    // The tool is no longer in use once its route is gone.
    const scoped = await freshTenant('acme');
    await seedRouteReferenceData(scoped);
    await createRoute(scoped, { routeKey: 'uses-t3', tools: ['T3'] });
    expect((await scoped.call('DELETE', '/referenceData/tools/T3')).status).toBe(400);
    expect((await scoped.call('DELETE', `${ROUTES}/C1/uses-t3`)).status).toBe(204);
    expect((await scoped.call('DELETE', '/referenceData/tools/T3')).status).toBe(204);
  });
});

describe('isolation between orgs', () => {
  it("cannot reference another org's reference records", async () => {
    const lonely = await freshTenant('acme');
    const result = await lonely.call<Problem>('POST', ROUTES, { body: routeBody({ tools: 'T1' }) });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('UnknownReference');
    expect(result.body.errors.map((error) => error.path).sort()).toEqual(['company', 'tools']);
  });
});

describe('routing', () => {
  it('answers 405 with Allow for a wrong method on a known path', async () => {
    const result = await client.call<Problem>('POST', `${ROUTES}/C1/R1`);
    expect(result.status).toBe(405);
    expect(result.headers.get('allow')).toContain('GET');
    expect(result.headers.get('allow')).toContain('DELETE');
  });
});
