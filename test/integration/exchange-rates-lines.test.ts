import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { BASE } from '../helpers/exchange-rates';
import type { LineResource } from '../helpers/exchange-rates';
import { freshTenant } from '../helpers/tenants';

type DocumentResource = Record<string, unknown> & { exchangeRateDocumentRates: LineResource[]; version: number };

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('xr-lines');
});

async function createDocument(number: number): Promise<void> {
  const result = await client.call('POST', BASE, {
    body: {
      number,
      validFrom: '2026-03-01',
      exchangeRateType: 1,
      isExternallyManaged: false,
      exchangeRateDocumentRates: [{ fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1.08 }],
    },
  });
  expect(result.status, result.text).toBe(201);
}

async function readDocument(number: number) {
  return client.call<DocumentResource>('GET', `${BASE}/${number}`);
}

async function firstLineId(number: number): Promise<string> {
  return (await readDocument(number)).body.exchangeRateDocumentRates[0]?.id ?? '';
}

describe('insert a line', () => {
  it('answers 204 and appends the line, bare or wrapped in {"value"}, with custom attributes', async () => {
    await createDocument(1);
    const bare = await client.call('POST', `${BASE}/1/exchangeRateDocumentRates`, {
      body: {
        fromCurrency: 'EUR',
        toCurrency: 'GBP',
        conversionFactor: '0.8571',
        fromExchangeRateId: 'AAAAAAAA-1111-4111-8111-111111111111',
        custom_note: 'bank',
      },
    });
    expect(bare.status, bare.text).toBe(204);
    expect(bare.text).toBe('');
    const wrapped = await client.call('POST', `${BASE}/1/exchangeRateDocumentRates`, {
      body: { value: { fromCurrency: 'USD', toCurrency: 'JPY', conversionFactor: 149.5 }, customAttributes: { custom_source: 'fed' } },
    });
    expect(wrapped.status, wrapped.text).toBe(204);
    const read = await readDocument(1);
    expect(read.body.version).toBe(3);
    expect(read.body.exchangeRateDocumentRates.map((line) => [line.fromCurrency, line.toCurrency])).toEqual([
      ['EUR', 'USD'],
      ['EUR', 'GBP'],
      ['USD', 'JPY'],
    ]);
    expect(read.body.exchangeRateDocumentRates[1]).toMatchObject({
      fromExchangeRateId: 'aaaaaaaa-1111-4111-8111-111111111111',
      toExchangeRateId: null,
      custom_note: 'bank',
    });
    expect(read.body.exchangeRateDocumentRates[2]).toMatchObject({ conversionFactor: 149.5, custom_source: 'fed' });
  });

  it('keeps every digit of an inserted factor', async () => {
    await createDocument(2);
    const rawBody = '{"fromCurrency":"EUR","toCurrency":"CHF","conversionFactor":0.940000000001}';
    expect(
      (await client.call('POST', `${BASE}/2/exchangeRateDocumentRates`, { rawBody, headers: { 'content-type': 'application/json' } }))
        .status,
    ).toBe(204);
    expect((await readDocument(2)).text).toContain('"conversionFactor":0.940000000001,');
  });

  it('validates the line: factor > 0, known and different currencies, one line per pair', async () => {
    await createDocument(3);
    const path = `${BASE}/3/exchangeRateDocumentRates`;
    const invalid = await client.call<Problem>('POST', path, {
      body: { fromCurrency: 'EUR', toCurrency: 'EUR', conversionFactor: -1, bogus: 1 },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe('ValidationFailed');
    expect(invalid.body.errors.map((error) => error.path).sort()).toEqual(['bogus', 'conversionFactor', 'toCurrency']);
    const missing = await client.call<Problem>('POST', path, { body: {} });
    expect(missing.body.errors.map((error) => error.path).sort()).toEqual(['conversionFactor', 'fromCurrency', 'toCurrency']);
    const unknown = await client.call<Problem>('POST', path, { body: { fromCurrency: 'EUR', toCurrency: 'ZZZ', conversionFactor: 2 } });
    expect([unknown.status, unknown.body.code, unknown.body.errors[0]?.path]).toEqual([400, 'UnknownReference', 'toCurrency']);
    const duplicate = await client.call<Problem>('POST', path, { body: { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 2 } });
    expect([duplicate.status, duplicate.body.code]).toEqual([400, 'DuplicateKey']);
    const inverse = await client.call('POST', path, { body: { fromCurrency: 'USD', toCurrency: 'EUR', conversionFactor: 0.92 } });
    expect(inverse.status).toBe(204);
  });

  it('answers 400 RecordNotFound for an unknown document and 400 for a bad number', async () => {
    const missing = await client.call<Problem>('POST', `${BASE}/999/exchangeRateDocumentRates`, {
      body: { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1 },
    });
    expect([missing.status, missing.body.code]).toEqual([400, 'RecordNotFound']);
    const bad = await client.call<Problem>('POST', `${BASE}/x/exchangeRateDocumentRates`, {
      body: { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: 1 },
    });
    expect([bad.status, bad.body.errors[0]?.path]).toEqual([400, 'number']);
  });
});

describe('line attribute updates', () => {
  it('updates every line attribute (200, empty), keeping exact factors and bumping the document version', async () => {
    await createDocument(10);
    const lineId = await firstLineId(10);
    const path = `${BASE}/10/exchangeRateDocumentRates/${lineId}`;
    const rawFactor = await client.call('PUT', `${path}/conversionFactor`, {
      rawBody: '1.123456789012',
      headers: { 'content-type': 'application/json' },
    });
    expect(rawFactor.status, rawFactor.text).toBe(200);
    expect(rawFactor.text).toBe('');
    expect(rawFactor.headers.get('etag')).toBe('"2"');
    expect((await readDocument(10)).text).toContain('"conversionFactor":1.123456789012,');
    const wrapped = await client.call('PUT', `${path}/conversionFactor`, {
      rawBody: '{"value":2.000000000001}',
      headers: { 'content-type': 'application/json' },
    });
    expect(wrapped.status).toBe(200);
    expect((await readDocument(10)).text).toContain('"conversionFactor":2.000000000001,');
    const steps: [string, unknown, string, unknown][] = [
      ['fromCurrency', 'GBP', 'fromCurrency', 'GBP'],
      ['toCurrency', { value: 'CHF' }, 'toCurrency', 'CHF'],
      ['fromExchangeRateId', 'BBBBBBBB-2222-4222-8222-222222222222', 'fromExchangeRateId', 'bbbbbbbb-2222-4222-8222-222222222222'],
      ['toExchangeRateId', 'cccccccc-3333-4333-8333-333333333333', 'toExchangeRateId', 'cccccccc-3333-4333-8333-333333333333'],
      ['toExchangeRateId', null, 'toExchangeRateId', null],
      ['custom_note', { value: 'checked' }, 'custom_note', 'checked'],
      ['custom_rank', 3, 'custom_rank', 3],
    ];
    for (const [attribute, body, field, expected] of steps) {
      const result = await client.call('PUT', `${path}/${attribute}`, { body });
      expect(result.status, `${attribute}: ${result.text}`).toBe(200);
      expect((await readDocument(10)).body.exchangeRateDocumentRates[0]?.[field]).toEqual(expected);
    }
    expect((await readDocument(10)).body.version).toBe(3 + steps.length);
  });

  it('validates values and answers 400 RecordNotFound for a missing line or document, 404 for custom attributes', async () => {
    await createDocument(11);
    await client.call('POST', `${BASE}/11/exchangeRateDocumentRates`, {
      body: { fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: 0.85 },
    });
    const lineId = await firstLineId(11);
    const path = `${BASE}/11/exchangeRateDocumentRates/${lineId}`;
    const cases: [string, unknown, string][] = [
      ['conversionFactor', 0, 'ValidationFailed'],
      ['conversionFactor', 'abc', 'ValidationFailed'],
      ['conversionFactor', null, 'ValidationFailed'],
      ['toCurrency', 'EUR', 'ValidationFailed'],
      ['toCurrency', 'ZZZ', 'UnknownReference'],
      ['toCurrency', 'GBP', 'DuplicateKey'],
      ['fromExchangeRateId', 'not-a-guid', 'ValidationFailed'],
    ];
    for (const [attribute, body, code] of cases) {
      const result = await client.call<Problem>('PUT', `${path}/${attribute}`, { body });
      expect([attribute, result.status, result.body.code]).toEqual([attribute, 400, code]);
    }
    const otherLine = await client.call<Problem>('PUT', `${BASE}/11/exchangeRateDocumentRates/${crypto.randomUUID()}/conversionFactor`, {
      body: 2,
    });
    expect([otherLine.status, otherLine.body.code]).toEqual([400, 'RecordNotFound']);
    const notGuid = await client.call<Problem>('PUT', `${BASE}/11/exchangeRateDocumentRates/line-1/conversionFactor`, { body: 2 });
    expect([notGuid.status, notGuid.body.code]).toEqual([400, 'RecordNotFound']);
    const noDocument = await client.call<Problem>('PUT', `${BASE}/999/exchangeRateDocumentRates/${lineId}/conversionFactor`, { body: 2 });
    expect([noDocument.status, noDocument.body.code]).toEqual([400, 'RecordNotFound']);
    expect((await client.call('PUT', `${BASE}/999/exchangeRateDocumentRates/${lineId}/custom_x`, { body: 1 })).status).toBe(404);
    expect((await client.call('PUT', `${path.replace(lineId, crypto.randomUUID())}/custom_x`, { body: 1 })).status).toBe(404);
    expect((await client.call<Problem>('PUT', `${path}/unknownAttribute`, { body: 1 })).status).toBe(404);
    expect((await readDocument(11)).body.version).toBe(2);
  });

  it('honours If-Match (the document version) on line writes', async () => {
    await createDocument(12);
    const lineId = await firstLineId(12);
    const path = `${BASE}/12/exchangeRateDocumentRates/${lineId}`;
    const stale = await client.call<Problem>('PUT', `${path}/conversionFactor`, { body: 3, headers: { 'if-match': '"5"' } });
    expect([stale.status, stale.body.code, stale.headers.get('etag')]).toEqual([412, 'PreconditionFailed', '"1"']);
    expect((await client.call('PUT', `${path}/conversionFactor`, { body: 3, headers: { 'if-match': '"1"' } })).status).toBe(200);
    expect((await client.call('DELETE', path, { headers: { 'if-match': '"1"' } })).status).toBe(412);
    expect((await client.call('DELETE', path, { headers: { 'if-match': '"2"' } })).status).toBe(204);
  });
});

describe('delete a line', () => {
  it('answers 204, then 404; 404 for an unknown document', async () => {
    await createDocument(20);
    const lineId = await firstLineId(20);
    const path = `${BASE}/20/exchangeRateDocumentRates/${lineId}`;
    expect((await client.call('DELETE', path)).status).toBe(204);
    expect((await readDocument(20)).body.exchangeRateDocumentRates).toEqual([]);
    const again = await client.call<Problem>('DELETE', path);
    expect([again.status, again.body.code]).toEqual([404, 'RecordNotFound']);
    expect((await client.call('DELETE', `${BASE}/999/exchangeRateDocumentRates/${lineId}`)).status).toBe(404);
    expect((await client.call('DELETE', `${BASE}/x/exchangeRateDocumentRates/${lineId}`)).status).toBe(400);
    const rows = await env.DB.prepare('SELECT count(*) AS n FROM exchange_rate_lines WHERE id = ?').bind(lineId).first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });

  it("cannot reach another document's line through this document's number", async () => {
    await createDocument(21);
    await createDocument(22);
    const foreign = await firstLineId(22);
    expect((await client.call('DELETE', `${BASE}/21/exchangeRateDocumentRates/${foreign}`)).status).toBe(404);
    expect((await readDocument(22)).body.exchangeRateDocumentRates).toHaveLength(1);
  });
});
