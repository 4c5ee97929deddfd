/**
 * Concurrent writes (issue 13): without If-Match no write is ever refused with 412 (M7), and a write that changes
 * nothing never moves `version`, however many identical ones race (M8).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { BASE, createDocument } from '../helpers/exchange-rates';
import type { LineResource } from '../helpers/exchange-rates';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('races');
  await seedRouteReferenceData(client);
});

type Document = Record<string, unknown> & { version: number; exchangeRateDocumentRates: LineResource[] };

async function readDocument(number: number): Promise<Document> {
  const result = await client.call<Document>('GET', `${BASE}/${number}`);
  expect(result.status).toBe(200);
  return result.body;
}

function statuses(results: readonly { status: number }[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of results) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('writes without If-Match are never 412 (M7)', () => {
  it('inserts 10 rate lines of distinct pairs at once: every one 204, the version moves once per line', async () => {
    await createDocument(client, 1, '2026-01-01', [['EUR', 'USD', '1.1']]);
    const pairs = ['GBP', 'CHF', 'JPY', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'HUF', 'CAD'];
    const results = await Promise.all(
      pairs.map((to) =>
        client.call('POST', `${BASE}/1/exchangeRateDocumentRates`, { body: { fromCurrency: 'EUR', toCurrency: to, conversionFactor: 2 } }),
      ),
    );
    expect(statuses(results)).toEqual({ 204: 10 });
    const document = await readDocument(1);
    expect(document.exchangeRateDocumentRates).toHaveLength(11);
    expect(document.version).toBe(11);
  });

  it('takes 100 concurrent PUTs of a line attribute and 50 of line and document custom attributes: all 200, none lost', async () => {
    await createDocument(client, 2, '2026-01-01', [['EUR', 'USD', '1.1']]);
    const lineId = (await readDocument(2)).exchangeRateDocumentRates[0]?.id ?? '';
    const line = `${BASE}/2/exchangeRateDocumentRates/${lineId}`;
    const factors = await Promise.all(
      Array.from({ length: 100 }, (_, index) => client.call('PUT', `${line}/conversionFactor`, { body: `1.${index + 100}` })),
    );
    expect(statuses(factors)).toEqual({ 200: 100 });
    const customs = await Promise.all([
      ...Array.from({ length: 25 }, (_, index) => client.call('PUT', `${line}/custom_n${index}`, { body: index })),
      ...Array.from({ length: 25 }, (_, index) => client.call('PUT', `${BASE}/2/custom_d${index}`, { body: { value: index } })),
    ]);
    expect(statuses(customs)).toEqual({ 200: 50 });
    const document = await readDocument(2);
    const stored = document.exchangeRateDocumentRates[0] ?? ({} as LineResource);
    for (let index = 0; index < 25; index += 1) {
      expect(stored[`custom_n${index}`]).toBe(index);
      expect(document[`custom_d${index}`]).toBe(index);
    }
  });

  it('still answers 412 to a stale If-Match', async () => {
    await createDocument(client, 2, '2026-01-01', [['EUR', 'USD', '1.1']]);
    expect((await client.call('PUT', `${BASE}/2/custom_x`, { body: 0 })).status).toBe(200);
    const document = await readDocument(2);
    const stale = await client.call('PUT', `${BASE}/2/custom_x`, { body: 1, headers: { 'if-match': `"${document.version - 1}"` } });
    expect(stale.status).toBe(412);
    const lineId = document.exchangeRateDocumentRates[0]?.id ?? '';
    const line = await client.call('PUT', `${BASE}/2/exchangeRateDocumentRates/${lineId}/conversionFactor`, {
      body: '3',
      headers: { 'if-match': `"${document.version - 1}"` },
    });
    expect(line.status).toBe(412);
  });
});

describe('no-op writes never move the version (M8)', () => {
  it('leaves the route version alone under 100 concurrent identical locations/remove (and adds)', async () => {
    await createRoute(client);
    const add = await client.call('POST', `${ROUTES}/R1/locations/add`, { body: ['L1', 'L2'] });
    expect(add.headers.get('etag')).toBe('"2"');
    const removes = await Promise.all(
      Array.from({ length: 100 }, () => client.call('POST', `${ROUTES}/R1/locations/remove`, { body: ['L1'] })),
    );
    expect(statuses(removes)).toEqual({ 200: 100 });
    expect((await client.call<{ version: number }>('GET', `${ROUTES}/C1/R1`)).body.version).toBe(3);
    const adds = await Promise.all(
      Array.from({ length: 100 }, () => client.call('POST', `${ROUTES}/R1/locations/add`, { body: ['L3', 'L2'] })),
    );
    expect(statuses(adds)).toEqual({ 200: 100 });
    const route = await client.call<{ version: number; locations: { key: string }[] }>('GET', `${ROUTES}/C1/R1`);
    expect(route.body.version).toBe(4);
    expect(route.body.locations.map((location) => location.key)).toEqual(['L2', 'L3']);
  });

  it('leaves the version alone when an attribute, a custom attribute or a line gets the value it has', async () => {
    await createDocument(client, 3, '2026-01-01', [['EUR', 'USD', '1.5']]);
    const before = await readDocument(3);
    const lineId = before.exchangeRateDocumentRates[0]?.id ?? '';
    const puts = [
      await client.call('PUT', `${BASE}/3/validFrom`, { body: '2026-01-01T00:00:00Z' }),
      await client.call('PUT', `${BASE}/3/isActive`, { body: true }),
      await client.call('PUT', `${BASE}/3/exchangeRateDocumentRates/${lineId}/conversionFactor`, { body: '1.5' }),
    ];
    expect(puts.map((result) => [result.status, result.headers.get('etag')])).toEqual(Array(3).fill([200, `"${before.version}"`]));
    const first = await client.call('PUT', `${BASE}/3/custom_same`, { body: 'x' });
    const again = await Promise.all(Array.from({ length: 20 }, () => client.call('PUT', `${BASE}/3/custom_same`, { body: 'x' })));
    expect(new Set(again.map((result) => result.headers.get('etag')))).toEqual(new Set([first.headers.get('etag')]));
    expect((await readDocument(3)).version).toBe(before.version + 1);
  });
});
