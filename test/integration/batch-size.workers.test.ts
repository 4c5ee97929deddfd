/**
 * `$batch` at its maximum size (issue 28): 100 creates answer within the Worker's limits. Each inner request is logged
 * as a request of its own (id `<batch id>:<inner id>`) and costs what it costs alone: one D1 round trip per create,
 * so the whole batch stays near 100 D1 calls (a Worker may make 1,000). In an atomic group the writes of every
 * request commit as ONE D1 batch, counted on the batch's own log line: one round trip whatever the group's size.
 * Counts, never timings.
 */
import { describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { fetchLogged } from '../helpers/request-log';
import { templateBody } from '../helpers/batch';
import { ROUTES, routeBody, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

describe('$batch at 100 requests', () => {
  it('creates 100 records, one log line and one D1 round trip per create', async () => {
    const client = await freshTenant('batch-max');
    // The first create of a tenant/org on an isolate reads its definitions and places it: warm it outside the count.
    expect((await client.call('POST', '/operations/emailTemplates', { body: templateBody('warm') })).status).toBe(201);
    const requests = Array.from({ length: 100 }, (_, index) => ({
      id: `c${index}`,
      method: 'POST',
      url: 'operations/emailTemplates',
      body: templateBody(`max-${index}`),
    }));
    const { response, lines } = await fetchLogged(`${client.base}/$batch`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', 'x-request-id': 'batch-max' },
      body: JSON.stringify({ requests }),
    });
    expect(response.status).toBe(200);
    const answer = (await response.json()) as { responses: { id: string; status: number }[] };
    expect(answer.responses.map((entry) => entry.status)).toEqual(Array.from({ length: 100 }, () => 201));
    const inner = lines.filter((line) => String(line.requestId).startsWith('batch-max:'));
    expect(inner).toHaveLength(100);
    expect(inner.map((line) => line.d1RoundTrips)).toEqual(Array.from({ length: 100 }, () => 1));
    const outer = lines.find((line) => line.requestId === 'batch-max');
    expect(outer).toMatchObject({ status: 200, route: '/api/:tenantKey/:orgKey/$batch', d1RoundTrips: 0 });
  });
});

async function sendLogged(client: TenantClient, requestId: string, requests: readonly unknown[], headers: Record<string, string> = {}) {
  const { response, lines } = await fetchLogged(`${client.base}/$batch`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json', 'x-request-id': requestId, ...headers },
    body: JSON.stringify({ requests }),
  });
  expect(response.status).toBe(200);
  const answer = (await response.json()) as { responses: { id: string; status: number }[] };
  const inner = lines.filter((line) => String(line.requestId).startsWith(`${requestId}:`));
  const outer = lines.find((line) => line.requestId === requestId);
  return { statuses: answer.responses.map((entry) => entry.status), inner, outer };
}

describe('$batch atomic groups commit in one D1 round trip', () => {
  it('100 creates in one group: no round trip per create, one for the whole group', async () => {
    const client = await freshTenant('batch-group-max');
    expect((await client.call('POST', '/operations/emailTemplates', { body: templateBody('warm') })).status).toBe(201);
    const requests = Array.from({ length: 100 }, (_, index) => ({
      id: `c${index}`,
      method: 'POST',
      url: 'operations/emailTemplates',
      atomicityGroup: 'all',
      body: templateBody(`group-${index}`),
    }));
    const { statuses, inner, outer } = await sendLogged(client, 'group-max', requests);
    expect(statuses).toEqual(Array.from({ length: 100 }, () => 201));
    expect(inner.map((line) => line.d1RoundTrips)).toEqual(Array.from({ length: 100 }, () => 0));
    expect(outer).toMatchObject({ status: 200, d1RoundTrips: 1 });
    const list = await client.call<{ count: number }>('GET', '/operations/emailTemplates/odata?$count=true&$top=1');
    expect(list.body.count).toBe(101);
  });

  it('the same round trips for a group of 2 and of 20 updates: one read each, one commit', async () => {
    const client = await freshTenant('batch-group-updates');
    for (let index = 0; index < 20; index += 1) {
      expect((await client.call('POST', '/operations/emailTemplates', { body: templateBody(`u${index}`) })).status).toBe(201);
    }
    const updates = (count: number, tag: string) =>
      Array.from({ length: count }, (_, index) => ({
        id: `p${index}`,
        method: 'PUT',
        url: `operations/emailTemplates/u${index}/subject`,
        body: `${tag} ${index}`,
      }));
    for (const count of [2, 20]) {
      const { statuses, inner, outer } = await sendLogged(client, `group-updates-${count}`, updates(count, `S${count}`), {
        isolation: 'snapshot',
      });
      expect(statuses).toEqual(Array.from({ length: count }, () => 200));
      expect(inner.map((line) => line.d1RoundTrips)).toEqual(Array.from({ length: count }, () => 1));
      expect(outer).toMatchObject({ status: 200, d1RoundTrips: 1 });
    }
  });
});

describe('$batch atomic groups of routes, members and reference data commit in one D1 round trip', () => {
  it('a route and its members: one read per membership change, no round trip for the create, one commit', async () => {
    const client = await freshTenant('batch-group-route');
    await seedRouteReferenceData(client);
    // Warm: the placement, the route definitions and the standard lists are then held by the isolate.
    expect((await client.call('POST', ROUTES, { body: routeBody({ routeKey: 'warm' }) })).status).toBe(201);
    const group = (size: number) => [
      { id: 'route', method: 'POST', url: ROUTES.slice(1), body: routeBody({ routeKey: `R${size}` }) },
      ...['L1', 'L2', 'L3', 'Q1', 'Q2'].slice(0, size).map((key, index) => ({
        id: `m${index}`,
        method: 'POST',
        url: `${ROUTES.slice(1)}/R${size}/${key.startsWith('L') ? 'locations' : 'equipmentitems'}/add`,
        body: [key],
      })),
    ];
    for (const size of [1, 5]) {
      const { statuses, inner, outer } = await sendLogged(client, `group-route-${size}`, group(size), { isolation: 'snapshot' });
      expect(statuses).toEqual([201, ...Array.from({ length: size }, () => 200)]);
      expect(inner.map((line) => line.d1RoundTrips)).toEqual([0, ...Array.from({ length: size }, () => 1)]);
      expect(outer).toMatchObject({ status: 200, d1RoundTrips: 1 });
    }
  });

  it('a company, its location and a route with that member: the reads each request makes, one commit', async () => {
    const client = await freshTenant('batch-group-reference');
    await seedRouteReferenceData(client);
    expect((await client.call('POST', ROUTES, { body: routeBody({ routeKey: 'warm' }) })).status).toBe(201);
    const { statuses, inner, outer } = await sendLogged(
      client,
      'group-reference',
      [
        { id: 'co', method: 'PUT', url: 'referenceData/companies', body: [{ key: 'C7', name: 'Seven', baseCurrency: 'EUR' }] },
        { id: 'loc', method: 'PUT', url: 'referenceData/locations', body: [{ key: 'L7', description: 'Dock', company: 'C7' }] },
        { id: 'route', method: 'POST', url: ROUTES.slice(1), body: routeBody({ routeKey: 'R7', company: 'C7' }) },
        { id: 'add', method: 'POST', url: `${ROUTES.slice(1)}/R7/locations/add`, body: ['L7'] },
        { id: 'del', method: 'DELETE', url: 'referenceData/tools/T3' },
      ],
      { isolation: 'snapshot' },
    );
    expect(statuses).toEqual([200, 200, 201, 200, 204]);
    // companies: the upsert's prediction reads the stored ids; locations: the company check, the routes' guard and
    // the prediction; the route create: none; the members: one; a delete: its in-use check and its prediction.
    expect(inner.map((line) => line.d1RoundTrips)).toEqual([1, 3, 0, 1, 2]);
    expect(outer).toMatchObject({ status: 200, d1RoundTrips: 1 });
  });
});
