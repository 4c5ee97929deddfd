import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { ORIGIN } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { freshTenant } from '../helpers/tenants';
import { BASE } from '../helpers/exchange-rates';
import type { LineResource } from '../helpers/exchange-rates';

type DocumentResource = Record<string, unknown> & { id: string; exchangeRateDocumentRates: LineResource[] };

function documentBody(number: number, overrides: Record<string, unknown> = {}) {
  return {
    number,
    validFrom: '2026-03-01T00:00:00Z',
    exchangeRateType: 1,
    isExternallyManaged: false,
    exchangeRateDocumentRates: [
      { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.0825 },
      { fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: '0.8571' },
    ],
    ...overrides,
  };
}

let client: TenantClient;
let other: TenantClient;

beforeEach(async () => {
  client = await freshTenant('xr-docs');
  other = await freshTenant('xr-docs-other');
});

async function createDocument(number: number, overrides: Record<string, unknown> = {}, as: TenantClient = client): Promise<string> {
  const result = await as.call<string>('POST', BASE, { body: documentBody(number, overrides) });
  expect(result.status, result.text).toBe(201);
  return result.body;
}

async function readDocument(segment: string | number, as: TenantClient = client) {
  return as.call<DocumentResource>('GET', `${BASE}/${segment}`);
}

describe('create and read', () => {
  it('creates a document with its lines (201, id, Location) and reads it by id and by number', async () => {
    const result = await client.call<string>('POST', BASE, {
      body: documentBody(1, { externalId: 'ECB-1', externalVersion: 'v1', custom_source: 'ECB' }),
    });
    expect(result.status, result.text).toBe(201);
    expect(result.headers.get('location')).toBe(`${ORIGIN}${client.base}${BASE}/${result.body}`);
    const byId = await readDocument(result.body);
    const byNumber = await readDocument(1);
    expect(byId.status).toBe(200);
    expect(byNumber.body).toEqual(byId.body);
    expect(byId.headers.get('etag')).toBe('"1"');
    expect(byId.body).toMatchObject({
      id: result.body,
      number: 1,
      validFrom: '2026-03-01T00:00:00.000Z',
      exchangeRateType: 1,
      isExternallyManaged: false,
      externalId: 'ECB-1',
      externalVersion: 'v1',
      custom_source: 'ECB',
      isActive: true,
      version: 1,
    });
    const lines = byId.body.exchangeRateDocumentRates;
    expect(lines.map((line) => [line.fromCurrency, line.toCurrency, line.conversionFactor])).toEqual([
      ['EUR', 'USD', 1.0825],
      ['EUR', 'GBP', 0.8571],
    ]);
    expect(lines[0]?.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('stores and writes back a 12-decimal factor digit for digit, and more digits than a double holds', async () => {
    const rawBody = `{"number":2,"validFrom":"2026-03-01","exchangeRateType":"Market","isExternallyManaged":true,"exchangeRateDocumentRates":[
      {"fromCurrency":"EUR","toCurrency":"JPY","conversionFactor":162.123456789012},
      {"fromCurrency":"EUR","toCurrency":"CHF","conversionFactor":0.12345678901234567890123},
      {"fromCurrency":"EUR","toCurrency":"SEK","conversionFactor":11.500000000000}]}`;
    const created = await client.call<string>('POST', BASE, { rawBody, headers: { 'content-type': 'application/json' } });
    expect(created.status, created.text).toBe(201);
    const read = await readDocument(2);
    expect(read.text).toContain('"conversionFactor":162.123456789012,');
    expect(read.text).toContain('"conversionFactor":0.12345678901234567890123,');
    expect(read.text).toContain('"conversionFactor":11.500000000000,');
    const stored = await env.DB.prepare('SELECT conversion_factor AS f FROM exchange_rate_lines WHERE document_id = ? ORDER BY line_no')
      .bind(created.body)
      .all<{ f: string }>();
    expect(stored.results.map((row) => row.f)).toEqual(['162.123456789012', '0.12345678901234567890123', '11.500000000000']);
  });

  it('creates a document without lines', async () => {
    await createDocument(3, { exchangeRateDocumentRates: undefined });
    const read = await readDocument(3);
    expect(read.body.exchangeRateDocumentRates).toEqual([]);
  });

  it('names every invalid field, of the document and of each line, at once', async () => {
    const result = await client.call<Problem>('POST', BASE, {
      body: {
        number: 'x',
        exchangeRateType: 9,
        isExternallyManaged: 'yes',
        bogus: 1,
        exchangeRateDocumentRates: [
          { fromCurrency: 'EUR', toCurrency: 'EUR', conversionFactor: 1 },
          { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 0 },
          { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: -2, extra: true },
          { fromCurrency: 'USD', toCurrency: 'GBP', conversionFactor: 'abc', fromExchangeRateId: 'nope' },
          { toCurrency: 'GBP', conversionFactor: 1 },
          { fromCurrency: 'GBP', toCurrency: 'CHF', conversionFactor: 2 },
          { fromCurrency: 'GBP', toCurrency: 'CHF', conversionFactor: 3 },
          'line',
        ],
      },
    });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('ValidationFailed');
    expect(result.body.errors.map((error) => error.path).sort()).toEqual(
      [
        'bogus',
        'number',
        'validFrom',
        'exchangeRateType',
        'isExternallyManaged',
        'exchangeRateDocumentRates.0.toCurrency',
        'exchangeRateDocumentRates.1.conversionFactor',
        'exchangeRateDocumentRates.2.extra',
        'exchangeRateDocumentRates.2.conversionFactor',
        'exchangeRateDocumentRates.3.conversionFactor',
        'exchangeRateDocumentRates.3.fromExchangeRateId',
        'exchangeRateDocumentRates.4.fromCurrency',
        'exchangeRateDocumentRates.6',
        'exchangeRateDocumentRates.7',
      ].sort(),
    );
  });

  it('refuses unknown currencies with UnknownReference naming each, and lines that are not an array', async () => {
    const unknown = await client.call<Problem>('POST', BASE, {
      body: documentBody(4, {
        exchangeRateDocumentRates: [
          { fromCurrency: 'EUR', toCurrency: 'XXZ', conversionFactor: 1 },
          { fromCurrency: 'QQQ', toCurrency: 'USD', conversionFactor: 1 },
        ],
      }),
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('UnknownReference');
    expect(unknown.body.errors.map((error) => error.path)).toEqual([
      'exchangeRateDocumentRates.0.toCurrency',
      'exchangeRateDocumentRates.1.fromCurrency',
    ]);
    const notArray = await client.call<Problem>('POST', BASE, {
      body: documentBody(4, { exchangeRateDocumentRates: { fromCurrency: 'EUR' } }),
    });
    expect(notArray.status).toBe(400);
    expect(notArray.body.errors.map((error) => error.path)).toEqual(['exchangeRateDocumentRates']);
    expect((await readDocument(4)).status).toBe(404);
  });

  it('refuses a duplicate number with DuplicateKey and writes none of its lines; another org may reuse it', async () => {
    await createDocument(5);
    const again = await client.call<Problem>('POST', BASE, {
      body: documentBody(5, { exchangeRateDocumentRates: [{ fromCurrency: 'USD', toCurrency: 'CAD', conversionFactor: 1.3 }] }),
    });
    expect(again.status).toBe(400);
    expect(again.body.code).toBe('DuplicateKey');
    const cad = await env.DB.prepare("SELECT count(*) AS n FROM exchange_rate_lines WHERE tenant_key = ? AND to_currency = 'CAD'")
      .bind(client.tenant)
      .first<{ n: number }>();
    expect(cad?.n).toBe(0);
    await createDocument(5, {}, other);
  });

  it('creates a document with many lines in one atomic write (chunked under the parameter limit)', async () => {
    const codes = [
      'USD',
      'GBP',
      'CHF',
      'JPY',
      'SEK',
      'NOK',
      'DKK',
      'PLN',
      'CZK',
      'HUF',
      'RON',
      'BGN',
      'CAD',
      'AUD',
      'NZD',
      'CNY',
      'BRL',
      'MXN',
      'ZAR',
      'INR',
    ];
    const lines = codes.map((code, index) => ({ fromCurrency: 'EUR', toCurrency: code, conversionFactor: `${index + 1}.5` }));
    await createDocument(6, { exchangeRateDocumentRates: lines });
    const read = await readDocument(6);
    expect(read.body.exchangeRateDocumentRates.map((line) => line.toCurrency)).toEqual(codes);
  });

  it('answers 400 for a segment that is neither an integer nor a GUID, 404 for unknown ones', async () => {
    const bad = await client.call<Problem>('GET', `${BASE}/abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('ValidationFailed');
    expect((await client.call<Problem>('GET', `${BASE}/9999`)).status).toBe(404);
    const byId = await client.call<Problem>('GET', `${BASE}/${crypto.randomUUID()}`);
    expect(byId.status).toBe(404);
    expect(byId.body.code).toBe('RecordNotFound');
  });
});

describe('list (OData)', () => {
  it('lists documents with their lines, filters by number and validFrom, selects fields', async () => {
    const tenant = await freshTenant('xr-docs-list');
    await createDocument(10, { validFrom: '2026-01-01' }, tenant);
    await createDocument(11, { validFrom: '2026-02-01' }, tenant);
    const all = await tenant.call<{ items: DocumentResource[]; count: number }>('GET', `${BASE}/odata?$count=true`);
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(2);
    expect(all.body.items.map((item) => item.number)).toEqual([10, 11]);
    expect(all.body.items[0]?.exchangeRateDocumentRates).toHaveLength(2);
    expect(all.text).toContain('"conversionFactor":1.0825');
    const filtered = await tenant.call<{ items: DocumentResource[] }>(
      'GET',
      `${BASE}/odata?$filter=validFrom ge 2026-01-15T00:00:00Z and number gt 5`,
    );
    expect(filtered.body.items.map((item) => item.number)).toEqual([11]);
    const selected = await tenant.call<{ items: Record<string, unknown>[] }>(
      'GET',
      `${BASE}/odata?$select=number,validFrom&$orderby=number desc`,
    );
    expect(selected.body.items).toEqual([
      { number: 11, validFrom: '2026-02-01T00:00:00.000Z' },
      { number: 10, validFrom: '2026-01-01T00:00:00.000Z' },
    ]);
    const bad = await tenant.call<Problem>('GET', `${BASE}/odata?$filter=exchangeRateDocumentRates eq 1`);
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('InvalidODataQuery');
  });
});

describe('document attribute updates', () => {
  it('updates every attribute with a bare value or {"value"}, bumping version and ETag', async () => {
    await createDocument(20);
    const updates: [string, unknown, string, unknown][] = [
      ['validFrom', '2026-04-01', 'validFrom', '2026-04-01T00:00:00.000Z'],
      ['exchangeRateType', 'Organization', 'exchangeRateType', 2],
      ['isExternallyManaged', { value: true }, 'isExternallyManaged', true],
      ['externalId', 'EXT-9', 'externalId', 'EXT-9'],
      ['externalVersion', { value: '3' }, 'externalVersion', '3'],
      ['isActive', false, 'isActive', false],
      ['custom_source', { value: 'manual' }, 'custom_source', 'manual'],
    ];
    for (const [attribute, body, field, expected] of updates) {
      const result = await client.call('PUT', `${BASE}/20/${attribute}`, { body });
      expect(result.status, `${attribute}: ${result.text}`).toBe(200);
      expect(result.text).toBe('');
      expect((await readDocument(20)).body[field]).toEqual(expected);
    }
    expect((await readDocument(20)).body.version).toBe(1 + updates.length);
  });

  it('renumbers a document and refuses a clash with DuplicateKey', async () => {
    await createDocument(21);
    await createDocument(22);
    const renumber = await client.call('PUT', `${BASE}/21/number`, { body: 23 });
    expect(renumber.status).toBe(200);
    expect((await readDocument(23)).body.exchangeRateDocumentRates).toHaveLength(2);
    expect((await readDocument(21)).status).toBe(404);
    const clash = await client.call<Problem>('PUT', `${BASE}/23/number`, { body: 22 });
    expect(clash.status).toBe(400);
    expect(clash.body.code).toBe('DuplicateKey');
  });

  it('answers 400 RecordNotFound for an unknown number, 404 for isActive and custom attributes, 400 for bad values', async () => {
    const missing = await client.call<Problem>('PUT', `${BASE}/999/validFrom`, { body: '2026-01-01' });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('RecordNotFound');
    expect((await client.call('PUT', `${BASE}/999/isActive`, { body: true })).status).toBe(404);
    expect((await client.call('PUT', `${BASE}/999/custom_x`, { body: { value: 1 } })).status).toBe(404);
    await createDocument(24);
    const badDate = await client.call<Problem>('PUT', `${BASE}/24/validFrom`, { body: '2026-02-30' });
    expect(badDate.status).toBe(400);
    expect(badDate.body.errors[0]?.path).toBe('validFrom');
    const badType = await client.call<Problem>('PUT', `${BASE}/24/exchangeRateType`, { body: 7 });
    expect(badType.status).toBe(400);
    expect((await client.call('PUT', `${BASE}/abc/validFrom`, { body: '2026-01-01' })).status).toBe(400);
  });

  it('honours If-Match on attribute updates and deletes', async () => {
    await createDocument(25);
    const stale = await client.call<Problem>('PUT', `${BASE}/25/externalId`, { body: 'x', headers: { 'if-match': '"7"' } });
    expect(stale.status).toBe(412);
    const current = await client.call('PUT', `${BASE}/25/externalId`, { body: 'x', headers: { 'if-match': '"1"' } });
    expect(current.status).toBe(200);
    expect(current.headers.get('etag')).toBe('"2"');
    expect((await client.call('DELETE', `${BASE}/25`, { headers: { 'if-match': '"1"' } })).status).toBe(412);
    expect((await client.call('DELETE', `${BASE}/25`, { headers: { 'if-match': '"2"' } })).status).toBe(204);
  });
});

describe('delete', () => {
  it('deletes by number and by id (204) with the lines, then 404', async () => {
    const first = await createDocument(30);
    const second = await createDocument(31);
    expect((await client.call('DELETE', `${BASE}/30`)).status).toBe(204);
    expect((await client.call('DELETE', `${BASE}/${second}`)).status).toBe(204);
    expect((await client.call('DELETE', `${BASE}/30`)).status).toBe(404);
    expect((await client.call('DELETE', `${BASE}/${second}`)).status).toBe(404);
    const lines = await env.DB.prepare('SELECT count(*) AS n FROM exchange_rate_lines WHERE document_id IN (?, ?)')
      .bind(first, second)
      .first<{ n: number }>();
    expect(lines?.n).toBe(0);
    expect((await client.call<Problem>('DELETE', `${BASE}/abc`)).status).toBe(400);
  });
});

describe('routing', () => {
  it('answers 405 with Allow for a wrong method on a line path', async () => {
    const wrong = await client.call<Problem>('GET', `${BASE}/40/exchangeRateDocumentRates`);
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toContain('POST');
    expect(wrong.headers.get('allow')).not.toContain('GET');
  });
});
