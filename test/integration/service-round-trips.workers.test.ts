/**
 * D1 round trips of the services' writes through the tenant unit of work (the request log's `d1RoundTrips`, counted
 * by the D1 meter; a coordinator command's included): route membership, reference data, KPI recalculation, imports,
 * API clients and webhook subscriptions. Each count is the one measured before these writes moved onto the unit of
 * work: staging them there adds no round trip. Counts, never timings; each after a first request of its kind.
 */
import { describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { API_CLIENTS } from '../helpers/identity';
import { IMPORTS } from '../helpers/imports';
import { kpiReferenceData } from '../helpers/indicators';
import { fetchLogged } from '../helpers/request-log';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';
import { receiverUrl } from '../helpers/webhooks';

interface Counted {
  readonly status: number;
  readonly roundTrips: unknown;
  readonly body: unknown;
}

/** Sends a request through the app; answers its status, its body and the D1 round trips its log line counted. */
async function callCounted(client: TenantClient, method: string, path: string, body?: unknown): Promise<Counted> {
  const { response, lines } = await fetchLogged(`${client.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${client.token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  expect(lines).toHaveLength(1);
  const text = await response.text();
  return { status: response.status, roundTrips: lines[0]?.d1RoundTrips, body: text === '' ? null : JSON.parse(text) };
}

/** The status and round trips of a counted request. */
function countOf({ status, roundTrips }: Counted) {
  return { status, roundTrips };
}

describe('D1 round trips of the services on the unit of work', () => {
  it('a route membership change is one round trip (two with custom attribute values)', async () => {
    const client = await freshTenant('rt-members');
    await seedRouteReferenceData(client);
    await createRoute(client, { routeKey: 'R1' });
    const defined = await client.call('PUT', '/referenceData/customAttributes', {
      body: [{ key: 'routes.note', entity: 'routes', name: 'note', type: 'string' }],
    });
    expect(defined.status, defined.text).toBe(200);
    expect((await callCounted(client, 'POST', `${ROUTES}/R1/locations/add`, ['L1'])).status).toBe(200);
    expect(countOf(await callCounted(client, 'POST', `${ROUTES}/R1/locations/add`, ['L2', 'L3']))).toEqual({ status: 200, roundTrips: 1 });
    expect(countOf(await callCounted(client, 'POST', `${ROUTES}/R1/locations/remove`, ['L3']))).toEqual({ status: 200, roundTrips: 1 });
    const custom = { value: ['L3'], customAttributes: { custom_note: 'n' } };
    expect((await callCounted(client, 'POST', `${ROUTES}/R1/locations/add`, custom)).status).toBe(200);
    // Custom attribute values: their definitions are read first (one round trip), then the batch.
    const again = { value: ['L1'], customAttributes: { custom_note: 'm' } };
    expect(countOf(await callCounted(client, 'POST', `${ROUTES}/R1/locations/remove`, again))).toEqual({ status: 200, roundTrips: 2 });
  });

  it('a reference data upsert is one round trip, a delete two', async () => {
    const client = await freshTenant('rt-reference');
    const companies = [
      { key: 'C1', name: 'One', baseCurrency: 'EUR' },
      { key: 'C2', name: 'Two', baseCurrency: 'USD' },
    ];
    expect((await callCounted(client, 'PUT', '/referenceData/companies', companies)).status).toBe(200);
    expect(countOf(await callCounted(client, 'PUT', '/referenceData/companies', companies))).toEqual({ status: 200, roundTrips: 1 });
    // A delete reads whether the record is in use, then writes.
    expect(countOf(await callCounted(client, 'DELETE', '/referenceData/companies/C2'))).toEqual({ status: 204, roundTrips: 2 });
  });

  it('a KPI recalculation, its coordinator command counted', async () => {
    const client = await freshTenant('rt-kpi');
    await kpiReferenceData(client);
    const measurements = ['ACME-PT', 'ACME-US'].flatMap((company) =>
      ['COST', 'FAIL'].map((code) => ({ company, code, date: '2026-01-15T00:00:00.000Z', value: 3 })),
    );
    expect((await callCounted(client, 'POST', '/maintenance/indicators/measurements', measurements)).status).toBe(200);
    // The command reads its inputs, aggregates the 4 series in one batch, writes them in one batch, and clears the
    // tenant/org's pending mark.
    expect(countOf(await callCounted(client, 'POST', '/maintenance/indicators/assetsRecalculateKPIs/default'))).toEqual({
      status: 200,
      roundTrips: 4,
    });
  });

  it('an import registration, its coordinator command counted', async () => {
    const client = await freshTenant('rt-imports');
    expect((await callCounted(client, 'POST', IMPORTS, { importDataTemplate: 'customers' })).status).toBe(201);
    // The register command reads whether it is a replay, then writes.
    expect(countOf(await callCounted(client, 'POST', IMPORTS, { importDataTemplate: 'customers' }))).toEqual({
      status: 201,
      roundTrips: 2,
    });
  });

  it('an API client created, given a new secret, revoked and deleted', async () => {
    const client = await freshTenant('rt-clients');
    expect((await callCounted(client, 'POST', API_CLIENTS, { name: 'warm' })).status).toBe(201);
    const created = await callCounted(client, 'POST', API_CLIENTS, { name: 'counted' });
    expect(countOf(created)).toEqual({ status: 201, roundTrips: 1 });
    const path = `${API_CLIENTS}/${String((created.body as { clientId: string }).clientId)}`;
    // Each of these reads the client first (404 when out of reach), then writes.
    expect(countOf(await callCounted(client, 'POST', `${path}/secret`))).toEqual({ status: 200, roundTrips: 2 });
    expect(countOf(await callCounted(client, 'POST', `${path}/revoke`))).toEqual({ status: 200, roundTrips: 2 });
    expect(countOf(await callCounted(client, 'DELETE', path))).toEqual({ status: 204, roundTrips: 2 });
  });

  it('a webhook subscription created, renewed and deleted', async () => {
    const client = await freshTenant('rt-subscriptions');
    const body = { notificationUrl: receiverUrl('rt-subscriptions'), resource: '*' };
    expect((await callCounted(client, 'POST', '/subscriptions', body)).status).toBe(201);
    const created = await callCounted(client, 'POST', '/subscriptions', body);
    expect(countOf(created)).toEqual({ status: 201, roundTrips: 1 });
    const path = `/subscriptions/${String((created.body as { id: string }).id)}`;
    // Renew and delete read the subscription first, then write.
    expect(countOf(await callCounted(client, 'POST', `${path}/renew`))).toEqual({ status: 200, roundTrips: 2 });
    expect(countOf(await callCounted(client, 'DELETE', path))).toEqual({ status: 204, roundTrips: 2 });
  });
});
