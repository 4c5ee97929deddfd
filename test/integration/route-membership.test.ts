import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { createRoute, readReferenceId, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant, siblingOrg } from '../helpers/tenants';

interface Member {
  id: string;
  key: string;
  description: string;
}
type RouteResource = Record<string, unknown> & { locations: Member[]; equipmentItems: Member[]; version: number };

let client: TenantClient;
let other: TenantClient;

beforeEach(async () => {
  client = await freshTenant('acme');
  other = await siblingOrg(client);
  await seedRouteReferenceData(client);
  await seedRouteReferenceData(other);
});

async function readRoute(path: string, as: TenantClient = client): Promise<RouteResource> {
  const result = await as.call<RouteResource>('GET', `${ROUTES}/${path}`);
  expect(result.status, result.text).toBe(200);
  return result.body;
}

const keysOf = (members: Member[]) => members.map((member) => member.key);

describe('add and remove by keys', () => {
  it('adds locations and equipment items, lists them as {id, key, description} by key, and removes them', async () => {
    await createRoute(client, { routeKey: 'm-keys' });
    const add = await client.call('POST', `${ROUTES}/m-keys/locations/add`, { body: ['L2', 'L1'] });
    expect(add.status, add.text).toBe(200);
    expect(add.text).toBe('');
    expect((await client.call('POST', `${ROUTES}/m-keys/equipmentitems/add`, { body: { value: ['Q2', 'Q1'] } })).status).toBe(200);
    const read = await readRoute('C1/m-keys');
    expect(read.locations).toEqual([
      { id: await readReferenceId(client, 'locations', 'L1'), key: 'L1', description: 'Boiler room' },
      { id: await readReferenceId(client, 'locations', 'L2'), key: 'L2', description: 'Roof' },
    ]);
    expect(keysOf(read.equipmentItems)).toEqual(['Q1', 'Q2']);
    expect(read.version).toBe(3);
    expect((await client.call('POST', `${ROUTES}/m-keys/locations/remove`, { body: ['L1'] })).status).toBe(200);
    expect((await client.call('POST', `${ROUTES}/m-keys/equipmentitems/remove`, { body: ['Q1', 'Q2'] })).status).toBe(200);
    const after = await readRoute('C1/m-keys');
    expect(keysOf(after.locations)).toEqual(['L2']);
    expect(after.equipmentItems).toEqual([]);
  });

  it('is idempotent: adding twice or removing a non-member changes nothing, not even the version', async () => {
    await createRoute(client, { routeKey: 'm-idem' });
    expect((await client.call('POST', `${ROUTES}/m-idem/locations/add`, { body: ['L1', 'L1'] })).status).toBe(200);
    const first = await readRoute('C1/m-idem');
    expect((await client.call('POST', `${ROUTES}/m-idem/locations/add`, { body: ['L1'] })).status).toBe(200);
    expect((await client.call('POST', `${ROUTES}/m-idem/locations/remove`, { body: ['L3'] })).status).toBe(200);
    expect((await client.call('POST', `${ROUTES}/m-idem/equipmentitems/remove`, { body: ['Q1'] })).status).toBe(200);
    const second = await readRoute('C1/m-idem');
    expect(keysOf(second.locations)).toEqual(['L1']);
    expect(second.version).toBe(first.version);
  });
});

describe('add and remove by ids', () => {
  it('adds and removes by reference record ids (case-insensitive)', async () => {
    await createRoute(client, { routeKey: 'm-ids' });
    const l3 = await readReferenceId(client, 'locations', 'L3');
    const q2 = await readReferenceId(client, 'equipmentItems', 'Q2');
    expect((await client.call('POST', `${ROUTES}/m-ids/locations/addById`, { body: [l3.toUpperCase()] })).status).toBe(200);
    expect((await client.call('POST', `${ROUTES}/m-ids/equipmentitems/addById`, { body: { value: [q2] } })).status).toBe(200);
    const read = await readRoute('C1/m-ids');
    expect(read.locations).toEqual([{ id: l3, key: 'L3', description: 'Basement' }]);
    expect(keysOf(read.equipmentItems)).toEqual(['Q2']);
    expect((await client.call('POST', `${ROUTES}/m-ids/locations/removeById`, { body: [l3] })).status).toBe(200);
    expect((await client.call('POST', `${ROUTES}/m-ids/equipmentitems/removeById`, { body: [q2] })).status).toBe(200);
    const after = await readRoute('C1/m-ids');
    expect(after.locations).toEqual([]);
    expect(after.equipmentItems).toEqual([]);
  });

  it('refuses values that are not GUIDs, naming each', async () => {
    await createRoute(client, { routeKey: 'm-bad-ids' });
    const result = await client.call<Problem>('POST', `${ROUTES}/m-bad-ids/locations/addById`, { body: ['L1', crypto.randomUUID(), 5] });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('ValidationFailed');
    expect(result.body.errors.map((error) => error.path)).toEqual(['value[0]', 'value[2]']);
  });
});

describe('all-or-nothing', () => {
  it('fails the whole request on any unknown key or id and changes nothing', async () => {
    await createRoute(client, { routeKey: 'm-aon' });
    const byKey = await client.call<Problem>('POST', `${ROUTES}/m-aon/locations/add`, { body: ['L1', 'NOPE', 'L2', 'ALSO-NOPE'] });
    expect(byKey.status).toBe(400);
    expect(byKey.body.code).toBe('UnknownReference');
    expect(byKey.body.errors.map((error) => error.path)).toEqual(['value[1]', 'value[3]']);
    const missingId = crypto.randomUUID();
    const byId = await client.call<Problem>('POST', `${ROUTES}/m-aon/equipmentitems/addById`, {
      body: [await readReferenceId(client, 'equipmentItems', 'Q1'), missingId],
    });
    expect(byId.status).toBe(400);
    expect(byId.body.errors).toEqual([{ path: 'value[1]', message: expect.stringContaining(missingId) }]);
    const read = await readRoute('C1/m-aon');
    expect(read.locations).toEqual([]);
    expect(read.equipmentItems).toEqual([]);
    expect(read.version).toBe(1);
    expect((await client.call('POST', `${ROUTES}/m-aon/locations/add`, { body: ['L1'] })).status).toBe(200);
    const remove = await client.call<Problem>('POST', `${ROUTES}/m-aon/locations/remove`, { body: ['L1', 'NOPE'] });
    expect(remove.status).toBe(400);
    expect(keysOf((await readRoute('C1/m-aon')).locations)).toEqual(['L1']);
  });

  it('refuses members of another company, naming each, and changes nothing', async () => {
    await createRoute(client, { routeKey: 'm-company' });
    const result = await client.call<Problem>('POST', `${ROUTES}/m-company/locations/add`, { body: ['L1', 'L9'] });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('ValidationFailed');
    expect(result.body.errors).toEqual([{ path: 'value[1]', message: expect.stringContaining("company 'C2'") }]);
    const equipment = await client.call<Problem>('POST', `${ROUTES}/m-company/equipmentitems/addById`, {
      body: [await readReferenceId(client, 'equipmentItems', 'Q9')],
    });
    expect(equipment.status).toBe(400);
    expect(equipment.body.errors[0]?.path).toBe('value[0]');
    expect((await readRoute('C1/m-company')).locations).toEqual([]);
  });
});

describe('finding the route', () => {
  it('needs ?companyKey= when two companies share the routeKey', async () => {
    await createRoute(client, { routeKey: 'shared' });
    await createRoute(client, { routeKey: 'shared', company: 'C2' });
    const ambiguous = await client.call<Problem>('POST', `${ROUTES}/shared/locations/add`, { body: ['L1'] });
    expect(ambiguous.status).toBe(400);
    expect(ambiguous.body.code).toBe('AmbiguousKey');
    expect(ambiguous.body.errors[0]?.path).toBe('companyKey');
    expect((await client.call('POST', `${ROUTES}/shared/locations/add?companyKey=C2`, { body: ['L9'] })).status).toBe(200);
    expect((await client.call('POST', `${ROUTES}/shared/locations/add?companyKey=C1`, { body: ['L1'] })).status).toBe(200);
    expect(keysOf((await readRoute('C2/shared')).locations)).toEqual(['L9']);
    expect(keysOf((await readRoute('C1/shared')).locations)).toEqual(['L1']);
  });

  it('answers 400 RecordNotFound for an unknown route or company', async () => {
    const unknown = await client.call<Problem>('POST', `${ROUTES}/no-route/locations/add`, { body: ['L1'] });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('RecordNotFound');
    await createRoute(client, { routeKey: 'only-c1' });
    const wrongCompany = await client.call<Problem>('POST', `${ROUTES}/only-c1/locations/add?companyKey=C2`, { body: ['L1'] });
    expect(wrongCompany.status).toBe(400);
    expect(wrongCompany.body.code).toBe('RecordNotFound');
  });
});

describe('bodies', () => {
  it('accepts customAttributes beside value and stores them on the route', async () => {
    await createRoute(client, { routeKey: 'm-custom' });
    const result = await client.call('POST', `${ROUTES}/m-custom/locations/add`, {
      body: { value: ['L1'], customAttributes: { custom_reason: 'audit' } },
    });
    expect(result.status, result.text).toBe(200);
    expect((await readRoute('C1/m-custom')).custom_reason).toBe('audit');
  });

  it('names every problem of a bad body', async () => {
    await createRoute(client, { routeKey: 'm-body' });
    const notArray = await client.call<Problem>('POST', `${ROUTES}/m-body/locations/add`, { body: { value: 'L1', extra: 1 } });
    expect(notArray.status).toBe(400);
    expect(notArray.body.errors.map((error) => error.path).sort()).toEqual(['extra', 'value']);
    const items = await client.call<Problem>('POST', `${ROUTES}/m-body/locations/add`, { body: ['', 4, 'L1'] });
    expect(items.body.errors.map((error) => error.path)).toEqual(['value[0]', 'value[1]']);
    const custom = await client.call<Problem>('POST', `${ROUTES}/m-body/locations/add`, {
      body: { value: ['L1'], customAttributes: { reason: 'x' } },
    });
    expect(custom.body.errors.map((error) => error.path)).toEqual(['customAttributes.reason']);
    const tooMany = await client.call<Problem>('POST', `${ROUTES}/m-body/locations/add`, {
      body: Array.from({ length: 1001 }, (_, i) => `L${i}`),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]?.path).toBe('value');
  });
});

describe('company changes and deletes', () => {
  it('refuses to change the company while the route has members, allows it once they are gone', async () => {
    await createRoute(client, { routeKey: 'm-move' });
    expect((await client.call('POST', `${ROUTES}/m-move/equipmentitems/add`, { body: ['Q1'] })).status).toBe(200);
    const refused = await client.call<Problem>('PUT', `${ROUTES}/C1/m-move/company`, { body: 'C2' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0]?.path).toBe('company');
    expect((await client.call('PUT', `${ROUTES}/C1/m-move/company`, { body: 'C1' })).status).toBe(200);
    expect((await client.call('POST', `${ROUTES}/m-move/equipmentitems/remove`, { body: ['Q1'] })).status).toBe(200);
    expect((await client.call('PUT', `${ROUTES}/C1/m-move/company`, { body: 'C2' })).status).toBe(200);
  });

  it('keeps members in use: a member cannot be deleted, and deleting the route frees it', async () => {
    const scoped = await freshTenant('acme');
    await seedRouteReferenceData(scoped);
    await createRoute(scoped, { routeKey: 'holder' });
    expect((await scoped.call('POST', `${ROUTES}/holder/locations/add`, { body: ['L1'] })).status).toBe(200);
    expect((await scoped.call('POST', `${ROUTES}/holder/equipmentitems/add`, { body: ['Q1'] })).status).toBe(200);
    const location = await scoped.call<Problem>('DELETE', '/referenceData/locations/L1');
    expect(location.status).toBe(400);
    expect(location.body.code).toBe('ReferenceInUse');
    expect(location.body.detail).toContain('routes.locations (C1/holder)');
    const equipment = await scoped.call<Problem>('DELETE', '/referenceData/equipmentItems/Q1');
    expect(equipment.body.detail).toContain('routes.equipmentItems (C1/holder)');
    expect((await scoped.call('DELETE', `${ROUTES}/C1/holder`)).status).toBe(204);
    expect((await scoped.call('DELETE', '/referenceData/locations/L1')).status).toBe(204);
    expect((await scoped.call('DELETE', '/referenceData/equipmentItems/Q1')).status).toBe(204);
  });
});

describe('reference data the routes depend on', () => {
  it('refuses an upsert that moves a member to another company or a used brand model to another brand', async () => {
    const scoped = await freshTenant('acme');
    await seedRouteReferenceData(scoped);
    await createRoute(scoped, { routeKey: 'G', brand: 'B1', brandModel: 'M1' });
    expect((await scoped.call('POST', `${ROUTES}/G/locations/add`, { body: ['L1'] })).status).toBe(200);
    const moved = await scoped.call<Problem>('PUT', '/referenceData/locations', {
      body: [
        { key: 'L2', description: 'Roof', company: 'C2' },
        { key: 'L1', description: 'Boiler room', company: 'C2' },
      ],
    });
    expect(moved.status).toBe(400);
    expect(moved.body.code).toBe('ReferenceInUse');
    expect(moved.body.errors).toEqual([{ path: '[1].company', message: expect.stringContaining('route C1/G') }]);
    const model = await scoped.call<Problem>('PUT', '/referenceData/brandModels', {
      body: [{ key: 'M1', description: 'Acme 3000', brand: 'B2' }],
    });
    expect(model.status).toBe(400);
    expect(model.body.errors[0]?.path).toBe('[0].brand');
    // Nothing was written; a change that keeps the company is fine.
    const locations = await scoped.call<{ items: { key: string; company: string; description: string }[] }>(
      'GET',
      '/referenceData/locations',
    );
    expect(locations.body.items.find((item) => item.key === 'L2')?.company).toBe('C1');
    const renamed = await scoped.call('PUT', '/referenceData/locations', {
      body: [{ key: 'L1', description: 'Boiler room (north)', company: 'C1' }],
    });
    expect(renamed.status, renamed.text).toBe(200);
    expect((await readRoute('C1/G', scoped)).locations[0]?.description).toBe('Boiler room (north)');
  });
});

describe('isolation between orgs', () => {
  it("another org's route, members and ids stay invisible", async () => {
    await createRoute(client, { routeKey: 'iso' });
    const fromOther = await other.call<Problem>('POST', `${ROUTES}/iso/locations/add`, { body: ['L1'] });
    expect(fromOther.status).toBe(400);
    expect(fromOther.body.code).toBe('RecordNotFound');
    // The other org's own location L1 has another id: it is unknown here.
    const foreignId = await readReferenceId(other, 'locations', 'L1');
    const byForeignId = await client.call<Problem>('POST', `${ROUTES}/iso/locations/addById`, { body: [foreignId] });
    expect(byForeignId.status).toBe(400);
    expect(byForeignId.body.code).toBe('UnknownReference');
    expect((await readRoute('C1/iso')).locations).toEqual([]);
  });
});
