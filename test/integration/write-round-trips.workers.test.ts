/**
 * A create is one D1 round trip (the request log's `d1RoundTrips`, counted by the D1 meter): definitions come from
 * the isolate's cache, reference keys and rules are conditions of the insert's batch. So is a KPI ingestion, its
 * reference check included. Counts, never timings.
 */
import { describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { BASE as DOCUMENTS } from '../helpers/exchange-rates';
import { fetchLogged } from '../helpers/request-log';
import { ROUTES, routeBody, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';
import { readReceived, receiverUrl, subscribe } from '../helpers/webhooks';

const TEMPLATES = '/operations/emailTemplates';

/** POSTs a body through the app and answers the status and the D1 round trips its log line counted. */
async function postCounted(client: TenantClient, path: string, body: unknown): Promise<{ status: number; roundTrips: unknown }> {
  const { response, lines } = await fetchLogged(`${client.base}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(lines).toHaveLength(1);
  return { status: response.status, roundTrips: lines[0]?.d1RoundTrips };
}

function templateBody(templateKey: string, extra: Record<string, unknown> = {}) {
  return { templateKey, subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US', ...extra };
}

describe('D1 round trips of a create', () => {
  it('an email template create is one round trip once the isolate knows the definitions', async () => {
    // The standard lists (cultures) are read once per isolate: by another tenant/org's create here.
    expect((await postCounted(await freshTenant('rt-warm'), TEMPLATES, templateBody('w1'))).status).toBe(201);
    const client = await freshTenant('rt-tpl');
    const defined = await client.call('PUT', '/referenceData/customAttributes', {
      body: [{ key: 'emailTemplates.channel', entity: 'emailTemplates', name: 'channel', type: 'string', required: true }],
    });
    expect(defined.status, defined.text).toBe(200);
    // The first create of the tenant/org on this isolate reads the definitions: two round trips.
    expect(await postCounted(client, TEMPLATES, templateBody('t1', { custom_channel: 'mail' }))).toEqual({ status: 201, roundTrips: 2 });
    for (const key of ['t2', 't3']) {
      expect(await postCounted(client, TEMPLATES, templateBody(key, { custom_channel: 'mail' }))).toEqual({ status: 201, roundTrips: 1 });
    }
  });

  it('with a webhook subscription, a create is still one round trip: the subscriptions behind are read in its batch', async () => {
    const client = await freshTenant('rt-hook');
    expect((await postCounted(client, TEMPLATES, templateBody('h0'))).status).toBe(201);
    const subscription = await subscribe(client, receiverUrl('rt-hook'));
    expect(await postCounted(client, TEMPLATES, templateBody('h1'))).toEqual({ status: 201, roundTrips: 1 });
    // The batch's read found the subscription behind: its delivery job went out after the commit.
    expect((await readReceived(subscription.notificationUrl, 1)).length).toBeGreaterThanOrEqual(1);
  });

  it('a route create with references, tools and a brand model is one round trip', async () => {
    const client = await freshTenant('rt-route');
    await seedRouteReferenceData(client);
    const body = (routeKey: string) =>
      routeBody({ routeKey, locationFunction: 'LF1', family: 'F1', brand: 'B1', brandModel: 'M1', responsible: 'E1', tools: ['T1', 'T2'] });
    expect((await postCounted(client, ROUTES, body('R1'))).status).toBe(201);
    expect(await postCounted(client, ROUTES, body('R2'))).toEqual({ status: 201, roundTrips: 1 });
  });

  it('an exchange rates document create with lines is one round trip', async () => {
    const client = await freshTenant('rt-doc');
    const body = (number: number) => ({
      number,
      validFrom: '2026-01-01T00:00:00Z',
      exchangeRateType: 1,
      isExternallyManaged: false,
      exchangeRateDocumentRates: [
        { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.08 },
        { fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: 0.85 },
      ],
    });
    expect((await postCounted(client, DOCUMENTS, body(1))).status).toBe(201);
    expect(await postCounted(client, DOCUMENTS, body(2))).toEqual({ status: 201, roundTrips: 1 });
  });

  it('a definition changed elsewhere costs the next create one refused batch and the reads that explain it', async () => {
    const client = await freshTenant('rt-stale');
    expect((await postCounted(client, TEMPLATES, templateBody('s1'))).status).toBe(201);
    expect(await postCounted(client, TEMPLATES, templateBody('s2'))).toEqual({ status: 201, roundTrips: 1 });
    const defined = await client.call('PUT', '/referenceData/customAttributes', {
      body: [{ key: 'emailTemplates.channel', entity: 'emailTemplates', name: 'channel', type: 'string' }],
    });
    expect(defined.status, defined.text).toBe(200);
    // This isolate forgot its definitions when they were written: one read, then the batch.
    expect(await postCounted(client, TEMPLATES, templateBody('s3', { custom_channel: 'x' }))).toEqual({ status: 201, roundTrips: 2 });
    expect(await postCounted(client, TEMPLATES, templateBody('s4', { custom_channel: 'x' }))).toEqual({ status: 201, roundTrips: 1 });
  });

  it('a KPI ingestion of 5000 measurements is one round trip, its reference check included', async () => {
    const client = await freshTenant('rt-kpi');
    expect((await client.call('PUT', '/referenceData/companies', { body: [{ key: 'CO', name: 'Co', baseCurrency: 'EUR' }] })).status).toBe(
      200,
    );
    const definitions = [{ key: 'K', name: 'K', valueType: 'Number', valueFractionDigits: 2, aggregation: 'sum' }];
    expect((await client.call('PUT', '/referenceData/kpiDefinitions', { body: definitions })).status).toBe(200);
    const items = Array.from({ length: 5000 }, (_, n) => ({ company: 'CO', code: 'K', date: '2026-01-01T00:00:00.000Z', value: n }));
    expect(await postCounted(client, '/maintenance/indicators/measurements', items)).toEqual({ status: 200, roundTrips: 1 });
  });
});
