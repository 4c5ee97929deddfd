import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { BASE, createDocument, LOOKUP } from '../helpers/exchange-rates';
import type { Answer } from '../helpers/exchange-rates';
import { freshTenant } from '../helpers/tenants';

async function lookup(as: TenantClient, from: string, to: string, date?: string) {
  return as.call<Answer>('POST', LOOKUP, { body: { currencyFromKey: from, currencyToKey: to, ...(date ? { referencedDate: date } : {}) } });
}

/** The exchangeRate exactly as written in the answer's JSON text. */
function rawRate(text: string): string {
  return /"exchangeRate":([^,}]+)/.exec(text)?.[1] ?? '';
}

describe('lookup rules', () => {
  let client: TenantClient;

  beforeEach(async () => {
    client = await freshTenant('xr-rules');
    await createDocument(client, 1, '2026-01-01', [
      ['EUR', 'USD', '1.10'],
      ['EUR', 'GBP', '0.85'],
    ]);
    await createDocument(client, 2, '2026-02-01', [['USD', 'EUR', '0.8']]);
    await createDocument(client, 4, '2026-03-01', [['EUR', 'USD', '1.37']]);
    await createDocument(client, 3, '2026-03-01', [['EUR', 'USD', '1.30']]);
    await createDocument(client, 5, '2026-04-01', [['EUR', 'JPY', '160.5']]);
    await createDocument(client, 6, '2026-05-01', [['EUR', 'USD', '9.99']]);
    expect((await client.call('PUT', `${BASE}/6/isActive`, { body: false })).status).toBe(200);
    await createDocument(client, 7, '2026-06-01T12:00:00Z', [
      ['EUR', 'CHF', '0.95'],
      ['CHF', 'USD', '1.2'],
      ['GBP', 'CHF', '1.125'],
    ]);
  });

  it.each([
    ['direct line', 'EUR', 'USD', '2026-01-15', '1.10', '2026-01-01T00:00:00.000Z'],
    ['validFrom is inclusive', 'EUR', 'USD', '2026-01-01T00:00:00Z', '1.10', '2026-01-01T00:00:00.000Z'],
    ['inverse line (1/0.8)', 'EUR', 'USD', '2026-02-15', '1.25', '2026-02-01T00:00:00.000Z'],
    ['direct line of the same document the other way', 'USD', 'EUR', '2026-02-15', '0.8', '2026-02-01T00:00:00.000Z'],
    ['inverse with 20 significant digits', 'USD', 'EUR', '2026-01-15', '0.90909090909090909091', '2026-01-01T00:00:00.000Z'],
    ['ties on validFrom: the highest number', 'EUR', 'USD', '2026-03-02', '1.37', '2026-03-01T00:00:00.000Z'],
    ['a document that cannot answer is skipped', 'EUR', 'USD', '2026-04-15', '1.37', '2026-03-01T00:00:00.000Z'],
    ['an inactive document is ignored', 'EUR', 'USD', '2026-05-15', '1.37', '2026-03-01T00:00:00.000Z'],
    ['before the time of day of validFrom', 'EUR', 'USD', '2026-06-01T11:59:59Z', '1.37', '2026-03-01T00:00:00.000Z'],
    ['cross rate through a shared currency', 'EUR', 'USD', '2026-06-02', '1.14', '2026-06-01T12:00:00.000Z'],
    ['cross rate with inverse legs', 'USD', 'GBP', '2026-06-02', '0.74074074074074074074', '2026-06-01T12:00:00.000Z'],
    ['older document for another pair', 'GBP', 'EUR', '2026-03-02', '1.1764705882352941176', '2026-01-01T00:00:00.000Z'],
    ['same currency is 1 on the date asked', 'JPY', 'JPY', '2020-01-01', '1', '2020-01-01T00:00:00.000Z'],
  ])('%s', async (_name, from, to, date, rate, rateDate) => {
    const result = await lookup(client, from, to, date);
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({ currencyFromKey: from, currencyToKey: to, exchangeRateDate: rateDate });
    expect(rawRate(result.text)).toBe(rate);
  });

  it.each([
    ['before every document', 'EUR', 'USD', '2025-12-31T23:59:59Z'],
    ['no document links the pair', 'JPY', 'GBP', '2026-06-02'],
    ['a known currency without lines', 'EUR', 'BRL', '2026-06-02'],
  ])('404 RecordNotFound: %s', async (_name, from, to, date) => {
    const result = await lookup(client, from, to, date);
    expect(result.status).toBe(404);
    expect((result.body as unknown as Problem).code).toBe('RecordNotFound');
  });

  it('takes the inputs from the query string too (the body wins)', async () => {
    const query = await client.call<Answer>('POST', `${LOOKUP}?currencyFromKey=EUR&currencyToKey=USD&referencedDate=2026-01-15`);
    expect(query.status, query.text).toBe(200);
    expect(rawRate(query.text)).toBe('1.10');
    const mixed = await client.call<Answer>('POST', `${LOOKUP}?currencyFromKey=EUR&currencyToKey=GBP&referencedDate=2026-01-15`, {
      body: { currencyToKey: 'USD' },
    });
    expect(mixed.body.currencyToKey).toBe('USD');
    const custom = await client.call('POST', LOOKUP, {
      body: { currencyFromKey: 'EUR', currencyToKey: 'USD', referencedDate: '2026-01-15', customAttributes: { custom_channel: 'x' } },
    });
    expect(custom.status).toBe(200);
  });

  it('defaults referencedDate to now', async () => {
    const tenant = await freshTenant('xr-now');
    await createDocument(tenant, 1, '2001-01-01', [['EUR', 'USD', '1.01']]);
    await createDocument(tenant, 2, '2999-01-01', [['EUR', 'USD', '2.02']]);
    const result = await lookup(tenant, 'EUR', 'USD');
    expect(rawRate(result.text)).toBe('1.01');
    expect(result.body.exchangeRateDate).toBe('2001-01-01T00:00:00.000Z');
  });

  it('names every bad input: missing, unknown names, bad dates, unknown currencies', async () => {
    const missing = await client.call<Problem>('POST', LOOKUP, { body: { referencedDate: 'soon', bogus: 1 } });
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('ValidationFailed');
    expect(missing.body.errors.map((error) => error.path).sort()).toEqual(['bogus', 'currencyFromKey', 'currencyToKey', 'referencedDate']);
    const notObject = await client.call<Problem>('POST', LOOKUP, { body: ['EUR'] });
    expect(notObject.status).toBe(400);
    const unknown = await client.call<Problem>('POST', LOOKUP, { body: { currencyFromKey: 'XXQ', currencyToKey: 'QQX' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('UnknownReference');
    expect(unknown.body.errors.map((error) => error.path)).toEqual(['currencyFromKey', 'currencyToKey']);
    const unknownSame = await client.call<Problem>('POST', LOOKUP, { body: { currencyFromKey: 'XXQ', currencyToKey: 'XXQ' } });
    expect([unknownSame.status, unknownSame.body.code]).toEqual([400, 'UnknownReference']);
  });
});

describe('exactness', () => {
  it('answers a 12-decimal factor digit for digit, and its inverse from the exact value', async () => {
    const client = await freshTenant('xr-exact');
    const rawBody =
      '{"number":1,"validFrom":"2026-01-01","exchangeRateType":1,"isExternallyManaged":false,"exchangeRateDocumentRates":[{"fromCurrency":"EUR","toCurrency":"USD","conversionFactor":1.123456789012}]}';
    expect((await client.call('POST', BASE, { rawBody, headers: { 'content-type': 'application/json' } })).status).toBe(201);
    expect(rawRate((await lookup(client, 'EUR', 'USD', '2026-02-01')).text)).toBe('1.123456789012');
    expect(rawRate((await lookup(client, 'USD', 'EUR', '2026-02-01')).text)).toBe('0.89010989099049245347');
  });
});
