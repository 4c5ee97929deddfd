/**
 * Atomic groups of `$batch` (issue 28) over routes, their members, reference data and custom attributes: a route and
 * its members, the company and locations they need, in ONE group, committed together or not at all. The cross-row
 * rules (a member of the route's company, a reference in use) hold inside a group as between requests: the failing
 * request answers its own error, as alone, the others 424, and nothing of the group is written (no change event).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { sendBatch } from '../helpers/batch';
import type { BatchAnswer } from '../helpers/batch';
import { readAllChanges } from '../helpers/events';
import { createRoute, readReferenceId, ROUTES, routeBody, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

const ROUTES_URL = ROUTES.slice(1);

interface Member {
  id: string;
  key: string;
  description: string;
}
type RouteResource = Record<string, unknown> & { locations: Member[]; equipmentItems: Member[]; tools: Member[]; version: number };

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('batch-routes');
  await seedRouteReferenceData(client);
});

function statusesOf(responses: readonly BatchAnswer[]): number[] {
  return responses.map((response) => response.status);
}

async function readRoute(path: string, as: TenantClient = client) {
  return as.call<RouteResource>('GET', `${ROUTES}/${path}`);
}

const keysOf = (members: readonly Member[]) => members.map((member) => member.key);

async function changes(as: TenantClient = client): Promise<string[]> {
  return (await readAllChanges(as)).map((item) => `${item.resource}:${item.changeType}:${item.key}`);
}

describe('a route and its members in one atomic group', () => {
  it('creates a route and adds its locations and equipment items: one group, answered as alone, committed together', async () => {
    const before = await changes();
    const answer = await sendBatch(client, [
      { id: '1', method: 'POST', url: ROUTES_URL, atomicityGroup: 'g', body: routeBody({ routeKey: 'R7', tools: ['T1'] }) },
      {
        id: '2',
        method: 'POST',
        url: `${ROUTES_URL}/R7/locations/add?companyKey=C1`,
        atomicityGroup: 'g',
        dependsOn: ['1'],
        body: ['L2', 'L1'],
      },
      { id: '3', method: 'POST', url: `${ROUTES_URL}/R7/equipmentitems/add`, atomicityGroup: 'g', body: { value: ['Q1'] } },
      { id: '4', method: 'POST', url: `${ROUTES_URL}/R7/locations/add`, atomicityGroup: 'g', body: ['L1'] },
      {
        id: '5',
        method: 'PUT',
        url: `${ROUTES_URL}/C1/R7/description`,
        atomicityGroup: 'g',
        headers: { 'if-match': '"3"' },
        body: 'Daily',
      },
      { id: 'in', method: 'GET', url: `${ROUTES_URL}/C1/R7`, atomicityGroup: 'g' },
      { id: '6', method: 'GET', url: '$1', dependsOn: ['g'] },
    ]);
    expect(statusesOf(answer.body.responses), JSON.stringify(answer.body.responses)).toEqual([201, 200, 200, 200, 200, 200, 200]);
    // Each answered as alone: the add bumps the version, a second add of a member changes nothing.
    expect(answer.body.responses.slice(1, 5).map((response) => response.headers.ETag)).toEqual(['"2"', '"3"', '"3"', '"4"']);
    // Inside the group, a read sees the group's members; after it, the committed ones.
    const inside = answer.body.responses[5]?.body as RouteResource;
    expect(inside).toMatchObject({ routeKey: 'R7', description: 'Daily', version: 4 });
    expect([keysOf(inside.locations), keysOf(inside.equipmentItems)]).toEqual([['L1', 'L2'], ['Q1']]);
    const read = answer.body.responses[6]?.body as RouteResource;
    expect(read).toMatchObject({ id: answer.body.responses[0]?.body, routeKey: 'R7', description: 'Daily', version: 4 });
    expect(read.locations).toEqual([
      { id: await readReferenceId(client, 'locations', 'L1'), key: 'L1', description: 'Boiler room' },
      { id: await readReferenceId(client, 'locations', 'L2'), key: 'L2', description: 'Roof' },
    ]);
    expect(keysOf(read.equipmentItems)).toEqual(['Q1']);
    expect(keysOf(read.tools)).toEqual(['T1']);
    const route = 'assetManagementCore/routes';
    expect((await changes()).slice(before.length)).toEqual([
      `${route}:created:C1/R7`,
      `${route}:updated:C1/R7`,
      `${route}:updated:C1/R7`,
      `${route}:updated:C1/R7`,
    ]);
  });

  it('adds by ids, removes members and sets custom attribute values of a stored route in one group', async () => {
    await createRoute(client, { routeKey: 'R2' });
    expect((await client.call('POST', `${ROUTES}/R2/locations/add`, { body: ['L1', 'L2'] })).status).toBe(200);
    const l3 = await readReferenceId(client, 'locations', 'L3');
    const answer = await sendBatch(client, [
      { id: 'rm', method: 'POST', url: `${ROUTES_URL}/R2/locations/remove`, atomicityGroup: 'g', body: ['L1'] },
      { id: 'none', method: 'POST', url: `${ROUTES_URL}/R2/locations/remove`, atomicityGroup: 'g', body: ['L1'] },
      {
        id: 'id',
        method: 'POST',
        url: `${ROUTES_URL}/R2/locations/addById`,
        atomicityGroup: 'g',
        body: { value: [l3.toUpperCase()], customAttributes: { custom_shift: 'night' } },
      },
      { id: 'c1', method: 'PUT', url: `${ROUTES_URL}/C1/R2/custom_owner`, atomicityGroup: 'g', body: { value: 'Ana' } },
      {
        id: 'c2',
        method: 'PUT',
        url: `${ROUTES_URL}/C1/R2/custom_shift`,
        atomicityGroup: 'g',
        headers: { 'if-match': '"5"' },
        body: 'day',
      },
      { id: 'same', method: 'PUT', url: `${ROUTES_URL}/C1/R2/custom_owner`, atomicityGroup: 'g', body: 'Ana' },
    ]);
    expect(statusesOf(answer.body.responses), JSON.stringify(answer.body.responses)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(answer.body.responses.map((response) => response.headers.ETag)).toEqual(['"3"', '"3"', '"4"', '"5"', '"6"', '"6"']);
    const read = await readRoute('C1/R2');
    expect(read.body).toMatchObject({ version: 6, custom_shift: 'day', custom_owner: 'Ana' });
    expect(keysOf(read.body.locations)).toEqual(['L2', 'L3']);
  });

  it('a member of another company fails its request as alone; the others answer 424 and nothing is written', async () => {
    const before = await changes();
    const answer = await sendBatch(client, [
      { id: '1', method: 'POST', url: ROUTES_URL, atomicityGroup: 'g', body: routeBody({ routeKey: 'R8' }) },
      { id: '2', method: 'POST', url: `${ROUTES_URL}/R8/locations/add`, atomicityGroup: 'g', body: ['L1'] },
      { id: '3', method: 'POST', url: `${ROUTES_URL}/R8/locations/add`, atomicityGroup: 'g', body: ['L2', 'L9'] },
      { id: '4', method: 'POST', url: `${ROUTES_URL}/R8/equipmentitems/add`, atomicityGroup: 'g', body: ['Q1'] },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 424, 400, 424]);
    expect((await readRoute('C1/R8')).status).toBe(404);
    expect(await changes()).toEqual(before);
    // Alone, the same request gets the same answer.
    await createRoute(client, { routeKey: 'R8' });
    const alone = await client.call<Problem>('POST', `${ROUTES}/R8/locations/add`, { body: ['L2', 'L9'] });
    expect(alone.status).toBe(400);
    expect(answer.body.responses[2]?.body).toMatchObject({ code: alone.body.code, status: 400, errors: alone.body.errors });
    expect(alone.body.errors.map((error) => error.path)).toEqual(['value[1]']);
  });

  it('a route the group deleted or never made is not found, as alone (400 RecordNotFound)', async () => {
    await createRoute(client, { routeKey: 'gone' });
    const answer = await sendBatch(client, [
      { id: 'del', method: 'DELETE', url: `${ROUTES_URL}/C1/gone`, atomicityGroup: 'g' },
      { id: 'add', method: 'POST', url: `${ROUTES_URL}/gone/locations/add`, atomicityGroup: 'g', body: ['L1'] },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 400]);
    expect((answer.body.responses[1]?.body as Problem).code).toBe('RecordNotFound');
    expect((await readRoute('C1/gone')).status).toBe(200);
  });

  it('keeps tenants apart: a group never sees nor changes another tenant/org’s route or records with the same keys', async () => {
    const other = await freshTenant('batch-routes-other');
    await seedRouteReferenceData(other);
    await createRoute(other, { routeKey: 'theirs' });
    const answer = await sendBatch(client, [
      { id: 'mine', method: 'POST', url: ROUTES_URL, atomicityGroup: 'g', body: routeBody({ routeKey: 'mine' }) },
      { id: 'add', method: 'POST', url: `${ROUTES_URL}/theirs/locations/add`, atomicityGroup: 'g', body: ['L1'] },
    ]);
    const alone = await client.call<Problem>('POST', `${ROUTES}/theirs/locations/add`, { body: ['L1'] });
    expect(statusesOf(answer.body.responses)).toEqual([424, alone.status]);
    expect(answer.body.responses[1]?.body).toMatchObject({ code: alone.body.code, errors: alone.body.errors });
    const theirs = await readRoute('C1/theirs', other);
    expect(theirs.body).toMatchObject({ version: 1, locations: [] });
    expect((await readRoute('C1/mine')).status).toBe(404);
  });
});

describe("a route's own rules in an atomic group", () => {
  it('its company cannot change while it has members the group added: the same 400 as alone, nothing written', async () => {
    const answer = await sendBatch(client, [
      { id: 'route', method: 'POST', url: ROUTES_URL, atomicityGroup: 'g', body: routeBody({ routeKey: 'R4' }) },
      { id: 'add', method: 'POST', url: `${ROUTES_URL}/R4/locations/add`, atomicityGroup: 'g', body: ['L1'] },
      { id: 'company', method: 'PUT', url: `${ROUTES_URL}/C1/R4/company`, atomicityGroup: 'g', body: 'C2' },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 424, 400]);
    expect((await readRoute('C1/R4')).status).toBe(404);
    await createRoute(client, { routeKey: 'R4' });
    expect((await client.call('POST', `${ROUTES}/R4/locations/add`, { body: ['L1'] })).status).toBe(200);
    const alone = await client.call<Problem>('PUT', `${ROUTES}/C1/R4/company`, { body: 'C2' });
    expect(alone.status).toBe(400);
    expect(answer.body.responses[2]?.body).toMatchObject({ code: alone.body.code, errors: alone.body.errors });
  });

  it('a brand and model the group created are the route’s; a brand that does not match the model fails as alone', async () => {
    const answer = await sendBatch(client, [
      { id: 'brand', method: 'PUT', url: 'referenceData/brands', atomicityGroup: 'g', body: [{ key: 'B3', description: 'Initech' }] },
      {
        id: 'model',
        method: 'PUT',
        url: 'referenceData/brandModels',
        atomicityGroup: 'g',
        body: [{ key: 'M3', description: 'I-1', brand: 'B3' }],
      },
      {
        id: 'route',
        method: 'POST',
        url: ROUTES_URL,
        atomicityGroup: 'g',
        body: routeBody({ routeKey: 'RB', brand: 'B3', brandModel: 'M3' }),
      },
    ]);
    expect(statusesOf(answer.body.responses), JSON.stringify(answer.body.responses)).toEqual([200, 200, 201]);
    const failed = await sendBatch(client, [
      {
        id: 'model',
        method: 'PUT',
        url: 'referenceData/brandModels',
        atomicityGroup: 'g',
        body: [{ key: 'M4', description: 'I-2', brand: 'B3' }],
      },
      { id: 'bm', method: 'PUT', url: `${ROUTES_URL}/C1/RB/brandModel`, atomicityGroup: 'g', body: 'M4' },
      { id: 'brand', method: 'PUT', url: `${ROUTES_URL}/C1/RB/brand`, atomicityGroup: 'g', body: 'B1' },
    ]);
    expect(statusesOf(failed.body.responses)).toEqual([424, 424, 400]);
    expect((await readRoute('C1/RB')).body).toMatchObject({ brand: 'B3', brandModel: 'M3', version: 1 });
    const alone = await client.call<Problem>('PUT', `${ROUTES}/C1/RB/brand`, { body: 'B1' });
    expect(alone.status).toBe(400);
    expect((failed.body.responses[2]?.body as Problem).code).toBe(alone.body.code);
    expect((failed.body.responses[2]?.body as Problem).errors.map((error) => error.path)).toEqual(['brand']);
  });
});

describe('reference data in an atomic group', () => {
  it('creates a company and its location, then a route of that company with that member, in one group', async () => {
    const answer = await sendBatch(client, [
      {
        id: 'co',
        method: 'PUT',
        url: 'referenceData/companies',
        atomicityGroup: 'g',
        body: [{ key: 'C5', name: 'Five', baseCurrency: 'EUR' }],
      },
      {
        id: 'loc',
        method: 'PUT',
        url: 'referenceData/locations',
        atomicityGroup: 'g',
        body: [{ key: 'L5', description: 'Dock', company: 'C5' }],
      },
      { id: 'route', method: 'POST', url: ROUTES_URL, atomicityGroup: 'g', body: routeBody({ routeKey: 'R5', company: 'C5' }) },
      { id: 'add', method: 'POST', url: `${ROUTES_URL}/R5/locations/add`, atomicityGroup: 'g', body: ['L5'] },
      {
        id: 'upd',
        method: 'PUT',
        url: 'referenceData/locations',
        atomicityGroup: 'g',
        body: [{ key: 'L5', description: 'Dock 2', company: 'C5' }],
      },
    ]);
    expect(statusesOf(answer.body.responses), JSON.stringify(answer.body.responses)).toEqual([200, 200, 201, 200, 200]);
    const read = await readRoute('C5/R5');
    expect(read.body.locations).toEqual([{ id: await readReferenceId(client, 'locations', 'L5'), key: 'L5', description: 'Dock 2' }]);
    const feed = await changes();
    expect(feed.filter((item) => item.startsWith('referenceData/locations:') && item.endsWith(':L5'))).toEqual([
      'referenceData/locations:created:L5',
      'referenceData/locations:updated:L5',
    ]);
  });

  it('answers the example of docs/api-reference.md (a company, its location, a route, its member and a custom attribute)', async () => {
    const answer = await sendBatch(client, [
      {
        id: 'co',
        method: 'PUT',
        url: 'referenceData/companies',
        atomicityGroup: 'g',
        body: [{ key: 'C5', name: 'Five', baseCurrency: 'EUR' }],
      },
      {
        id: 'loc',
        method: 'PUT',
        url: 'referenceData/locations',
        atomicityGroup: 'g',
        body: [{ key: 'L5', description: 'Dock', company: 'C5' }],
      },
      {
        id: '1',
        method: 'POST',
        url: ROUTES_URL,
        atomicityGroup: 'g',
        body: { routeKey: 'R5', description: 'Weekly round', company: 'C5', tools: ['T1'] },
      },
      { id: '2', method: 'POST', url: `${ROUTES_URL}/R5/locations/add?companyKey=C5`, atomicityGroup: 'g', dependsOn: ['1'], body: ['L5'] },
      { id: '3', method: 'PUT', url: `${ROUTES_URL}/C5/R5/custom_shift`, atomicityGroup: 'g', body: 'night' },
      { id: '4', method: 'GET', url: '$1', dependsOn: ['g'] },
    ]);
    expect(statusesOf(answer.body.responses), JSON.stringify(answer.body.responses)).toEqual([200, 200, 201, 200, 200, 200]);
    expect(answer.body.responses.slice(3, 5).map((response) => response.headers.ETag)).toEqual(['"2"', '"3"']);
    const route = answer.body.responses[5]?.body as RouteResource;
    expect(route).toMatchObject({ routeKey: 'R5', company: 'C5', custom_shift: 'night', version: 3 });
    expect([keysOf(route.locations), keysOf(route.tools)]).toEqual([['L5'], ['T1']]);
  });

  it('a route of a company the group did not create fails as alone (UnknownReference); the company is not written', async () => {
    const before = await changes();
    const answer = await sendBatch(client, [
      {
        id: 'co',
        method: 'PUT',
        url: 'referenceData/companies',
        atomicityGroup: 'g',
        body: [{ key: 'C6', name: 'Six', baseCurrency: 'EUR' }],
      },
      { id: 'route', method: 'POST', url: ROUTES_URL, atomicityGroup: 'g', body: routeBody({ routeKey: 'R6', company: 'C404' }) },
    ]);
    const alone = await client.call<Problem>('POST', ROUTES, { body: routeBody({ routeKey: 'R6', company: 'C404' }) });
    expect(alone.body.code).toBe('UnknownReference');
    expect(statusesOf(answer.body.responses)).toEqual([424, alone.status]);
    expect(answer.body.responses[1]?.body).toMatchObject({ code: alone.body.code, errors: alone.body.errors });
    const companies = await client.call<{ items: { key: string }[] }>('GET', '/referenceData/companies');
    expect(companies.body.items.map((item) => item.key)).not.toContain('C6');
    expect(await changes()).toEqual(before);
  });

  it('deleting a location a route of the group uses fails as alone (ReferenceInUse); nothing is written', async () => {
    const before = await changes();
    const answer = await sendBatch(client, [
      { id: 'route', method: 'POST', url: ROUTES_URL, atomicityGroup: 'g', body: routeBody({ routeKey: 'R9' }) },
      { id: 'add', method: 'POST', url: `${ROUTES_URL}/R9/locations/add`, atomicityGroup: 'g', body: ['L2'] },
      { id: 'del', method: 'DELETE', url: 'referenceData/locations/L2', atomicityGroup: 'g' },
    ]);
    expect(statusesOf(answer.body.responses)).toEqual([424, 424, 400]);
    expect(await changes()).toEqual(before);
    await createRoute(client, { routeKey: 'R9' });
    expect((await client.call('POST', `${ROUTES}/R9/locations/add`, { body: ['L2'] })).status).toBe(200);
    const alone = await client.call<Problem>('DELETE', '/referenceData/locations/L2');
    expect(alone.body.code).toBe('ReferenceInUse');
    expect(answer.body.responses[2]?.body).toMatchObject({ code: alone.body.code, status: alone.status, errors: alone.body.errors });
  });

  it("a location's company follows the group's membership changes: moved once removed, refused while a member", async () => {
    await createRoute(client, { routeKey: 'RM' });
    expect((await client.call('POST', `${ROUTES}/RM/locations/add`, { body: ['L1'] })).status).toBe(200);
    const moved = await sendBatch(client, [
      { id: 'rm', method: 'POST', url: `${ROUTES_URL}/RM/locations/remove`, atomicityGroup: 'g', body: ['L1'] },
      {
        id: 'move',
        method: 'PUT',
        url: 'referenceData/locations',
        atomicityGroup: 'g',
        body: [{ key: 'L1', description: 'Boiler room', company: 'C2' }],
      },
    ]);
    expect(statusesOf(moved.body.responses), JSON.stringify(moved.body.responses)).toEqual([200, 200]);
    const refused = await sendBatch(client, [
      { id: 'add', method: 'POST', url: `${ROUTES_URL}/RM/locations/add`, atomicityGroup: 'g', body: ['L2'] },
      {
        id: 'move',
        method: 'PUT',
        url: 'referenceData/locations',
        atomicityGroup: 'g',
        body: [{ key: 'L2', description: 'Roof', company: 'C2' }],
      },
    ]);
    expect(statusesOf(refused.body.responses)).toEqual([424, 400]);
    expect((await client.call('POST', `${ROUTES}/RM/locations/add`, { body: ['L2'] })).status).toBe(200);
    const alone = await client.call<Problem>('PUT', '/referenceData/locations', {
      body: [{ key: 'L2', description: 'Roof', company: 'C2' }],
    });
    expect(alone.body.code).toBe('ReferenceInUse');
    expect(refused.body.responses[1]?.body).toMatchObject({ code: alone.body.code, status: alone.status, errors: alone.body.errors });
  });

  it('a location the group removed from its route can be deleted in the same group; a deleted one is then unknown', async () => {
    await createRoute(client, { routeKey: 'R3' });
    expect((await client.call('POST', `${ROUTES}/R3/locations/add`, { body: ['L3'] })).status).toBe(200);
    const answer = await sendBatch(client, [
      { id: 'rm', method: 'POST', url: `${ROUTES_URL}/R3/locations/remove`, atomicityGroup: 'g', body: ['L3'] },
      { id: 'del', method: 'DELETE', url: 'referenceData/locations/L3', atomicityGroup: 'g' },
      { id: 'again', method: 'DELETE', url: 'referenceData/locations/L3', atomicityGroup: 'h' },
    ]);
    expect(statusesOf(answer.body.responses), JSON.stringify(answer.body.responses)).toEqual([200, 204, 404]);
    const locations = await client.call<{ items: { key: string }[] }>('GET', '/referenceData/locations');
    expect(locations.body.items.map((item) => item.key)).not.toContain('L3');
    const after = await sendBatch(client, [
      {
        id: 'loc',
        method: 'PUT',
        url: 'referenceData/locations',
        atomicityGroup: 'g',
        body: [{ key: 'L4', description: 'Yard', company: 'C1' }],
      },
      { id: 'del', method: 'DELETE', url: 'referenceData/locations/L4', atomicityGroup: 'g' },
      { id: 'add', method: 'POST', url: `${ROUTES_URL}/R3/locations/add`, atomicityGroup: 'g', body: ['L4'] },
    ]);
    const alone = await client.call<Problem>('POST', `${ROUTES}/R3/locations/add`, { body: ['L4'] });
    expect(statusesOf(after.body.responses)).toEqual([424, 424, alone.status]);
    expect(after.body.responses[2]?.body).toMatchObject({ code: alone.body.code, errors: alone.body.errors });
  });
});
