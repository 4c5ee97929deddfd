import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { BASE, BY_COMPANY, createDocument, LOOKUP } from '../helpers/exchange-rates';
import type { Answer } from '../helpers/exchange-rates';
import { freshTenant } from '../helpers/tenants';

function rawRate(text: string): string {
  return /"exchangeRate":([^,}]+)/.exec(text)?.[1] ?? '';
}

async function rateOf(as: TenantClient, from: string, to: string, date = '2026-06-01'): Promise<string> {
  const result = await as.call<Answer>('POST', LOOKUP, { body: { currencyFromKey: from, currencyToKey: to, referencedDate: date } });
  return result.status === 200 ? rawRate(result.text) : `${result.status} ${(result.body as unknown as Problem).code}`;
}

async function firstLineId(as: TenantClient, number: number): Promise<string> {
  const read = await as.call<{ exchangeRateDocumentRates: { id: string }[] }>('GET', `${BASE}/${number}`);
  return read.body.exchangeRateDocumentRates[0]?.id ?? '';
}

describe('the lookup cache never answers with a rate older than an acknowledged write', () => {
  let client: TenantClient;

  beforeEach(async () => {
    client = await freshTenant('xr-cache');
    await createDocument(client, 1, '2026-01-01', [['EUR', 'USD', '1.10']]);
  });

  it('serves a repeated lookup from the cache, without reading D1', async () => {
    expect(await rateOf(client, 'EUR', 'USD')).toBe('1.10');
    // Change D1 behind the API's back (no acknowledged write, so no invalidation): the cached answer stays.
    await env.DB.prepare("UPDATE exchange_rate_lines SET conversion_factor = '7.77' WHERE tenant_key = ? AND to_currency = 'USD'")
      .bind(client.tenant)
      .run();
    expect(await rateOf(client, 'EUR', 'USD')).toBe('1.10');
    await vi.waitFor(async () => {
      const keys = await env.CACHE.list({ prefix: `xr/${client.tenant}/${client.org}/` });
      expect(keys.keys.map((key) => key.name)).toContain(`xr/${client.tenant}/${client.org}/g1/pair/EUR/USD`);
    });
    // Restore through the API: the write is acknowledged only after the generation moved on.
    const lineId = await firstLineId(client, 1);
    expect((await client.call('PUT', `${BASE}/1/exchangeRateDocumentRates/${lineId}/conversionFactor`, { body: '1.10' })).status).toBe(200);
    expect(await rateOf(client, 'EUR', 'USD')).toBe('1.10');
  });

  it('sees the new rate right after a line update between two lookups', async () => {
    const lineId = await firstLineId(client, 1);
    expect(await rateOf(client, 'EUR', 'USD')).toBe('1.10');
    expect(await rateOf(client, 'USD', 'EUR')).toBe('0.90909090909090909091');
    expect((await client.call('PUT', `${BASE}/1/exchangeRateDocumentRates/${lineId}/conversionFactor`, { body: 1.25 })).status).toBe(200);
    expect(await rateOf(client, 'EUR', 'USD')).toBe('1.25');
    expect(await rateOf(client, 'USD', 'EUR')).toBe('0.8');
  });

  it('sees every kind of write at once: new document, validFrom, isActive, renumber, line insert/delete, document delete', async () => {
    // Document 1 answers EUR -> USD with 1.25.
    const lineId = await firstLineId(client, 1);
    expect((await client.call('PUT', `${BASE}/1/exchangeRateDocumentRates/${lineId}/conversionFactor`, { body: 1.25 })).status).toBe(200);
    const steps: [string, () => Promise<unknown>, string][] = [
      ['new document', () => createDocument(client, 2, '2026-05-01', [['EUR', 'USD', '1.31']]), '1.31'],
      ['validFrom moved after the date', () => client.call('PUT', `${BASE}/2/validFrom`, { body: '2026-07-01' }), '1.25'],
      ['validFrom moved back', () => client.call('PUT', `${BASE}/2/validFrom`, { body: '2026-01-01' }), '1.31'],
      ['renumbered below the tie', () => client.call('PUT', `${BASE}/2/number`, { body: 0 }), '1.25'],
      ['renumbered above the tie', () => client.call('PUT', `${BASE}/0/number`, { body: 2 }), '1.31'],
      ['deactivated', () => client.call('PUT', `${BASE}/2/isActive`, { body: false }), '1.25'],
      ['reactivated', () => client.call('PUT', `${BASE}/2/isActive`, { body: true }), '1.31'],
      ['line deleted', async () => client.call('DELETE', `${BASE}/2/exchangeRateDocumentRates/${await firstLineId(client, 2)}`), '1.25'],
      [
        'inverse line inserted',
        () =>
          client.call('POST', `${BASE}/2/exchangeRateDocumentRates`, {
            body: { fromCurrency: 'USD', toCurrency: 'EUR', conversionFactor: '0.5' },
          }),
        '2',
      ],
      [
        'currency of a line changed',
        async () => client.call('PUT', `${BASE}/2/exchangeRateDocumentRates/${await firstLineId(client, 2)}/fromCurrency`, { body: 'GBP' }),
        '1.25',
      ],
      [
        'direct line inserted',
        () =>
          client.call('POST', `${BASE}/2/exchangeRateDocumentRates`, {
            body: { fromCurrency: 'EUR', toCurrency: 'USD', conversionFactor: '1.45' },
          }),
        '1.45',
      ],
      ['document deleted by number', () => client.call('DELETE', `${BASE}/2`), '1.25'],
      [
        'last document deleted by id',
        async () => client.call('DELETE', `${BASE}/${(await client.call<{ id: string }>('GET', `${BASE}/1`)).body.id}`),
        '404 RecordNotFound',
      ],
    ];
    for (const [name, write, expected] of steps) {
      expect(await rateOf(client, 'EUR', 'USD')).not.toBe(expected);
      const result = (await write()) as { status?: number } | string;
      if (typeof result !== 'string') expect(result.status, name).toBeLessThan(300);
      expect(await rateOf(client, 'EUR', 'USD'), name).toBe(expected);
    }
  });

  it('does not invalidate on a refused write', async () => {
    await createDocument(client, 10, '2026-01-01', [['EUR', 'CHF', '0.95']]);
    expect(await rateOf(client, 'EUR', 'CHF')).toBe('0.95');
    const generation = async () => (await env.CACHE.list({ prefix: `xr/${client.tenant}/${client.org}/` })).keys.map((key) => key.name);
    await vi.waitFor(async () => expect(await generation()).toContain(await keyOf('EUR', 'CHF')));
    const refused = await client.call('PUT', `${BASE}/10/validFrom`, { body: 'never' });
    expect(refused.status).toBe(400);
    const before = await keyOf('EUR', 'CHF');
    expect(await rateOf(client, 'EUR', 'CHF')).toBe('0.95');
    expect(await keyOf('EUR', 'CHF')).toBe(before);
  });

  async function keyOf(from: string, to: string): Promise<string> {
    const id = env.COORDINATOR.idFromName(`${client.tenant}/${client.org}`);
    const stub = env.COORDINATOR.get(id) as unknown as { handle(command: Record<string, unknown>): Promise<number> };
    const generation = await stub.handle({ type: 'generation.read', tenantKey: client.tenant, orgKey: client.org, name: 'exchangeRates' });
    return `xr/${client.tenant}/${client.org}/g${generation}/pair/${from}/${to}`;
  }
});

describe('getCurrencyExchangeRatesByCompany', () => {
  let client: TenantClient;

  beforeEach(async () => {
    client = await freshTenant('xr-company');
    const companies = await client.call('PUT', '/referenceData/companies', {
      body: [
        { key: 'XR-PT', name: 'XR Portugal', baseCurrency: 'EUR' },
        { key: 'XR-US', name: 'XR United States', baseCurrency: 'USD' },
      ],
    });
    expect(companies.status, companies.text).toBe(200);
    await createDocument(client, 1, '2026-01-01', [
      ['EUR', 'USD', '1.08'],
      ['EUR', 'GBP', '0.86'],
    ]);
  });

  it("converts currencyKey into the company's base currency (body or query string)", async () => {
    const result = await client.call<Answer>('POST', BY_COMPANY, {
      body: { currencyKey: 'USD', companyKey: 'XR-PT', referencedDate: '2026-02-01' },
    });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toMatchObject({ currencyFromKey: 'USD', currencyToKey: 'EUR', exchangeRateDate: '2026-01-01T00:00:00.000Z' });
    expect(rawRate(result.text)).toBe('0.92592592592592592593');
    const query = await client.call<Answer>('POST', `${BY_COMPANY}?currencyKey=GBP&companyKey=XR-US&referencedDate=2026-02-01`);
    expect(query.body).toMatchObject({ currencyFromKey: 'GBP', currencyToKey: 'USD' });
    expect(rawRate(query.text)).toBe('1.255813953488372093');
    const same = await client.call<Answer>('POST', BY_COMPANY, {
      body: { currencyKey: 'EUR', companyKey: 'XR-PT', referencedDate: '2026-02-01' },
    });
    expect(rawRate(same.text)).toBe('1');
  });

  it('sees a change of the base currency right away', async () => {
    const ask = () =>
      client.call<Answer>('POST', BY_COMPANY, { body: { currencyKey: 'EUR', companyKey: 'XR-US', referencedDate: '2026-02-01' } });
    expect(rawRate((await ask()).text)).toBe('1.08');
    expect(
      (await client.call('PUT', '/referenceData/companies', { body: [{ key: 'XR-US', name: 'XR United States', baseCurrency: 'GBP' }] }))
        .status,
    ).toBe(200);
    const after = await ask();
    expect(after.body.currencyToKey).toBe('GBP');
    expect(rawRate(after.text)).toBe('0.86');
  });

  it('answers 400 for unknown companies and currencies and missing inputs, 404 when no rate exists', async () => {
    const noCompany = await client.call<Problem>('POST', BY_COMPANY, { body: { currencyKey: 'USD', companyKey: 'NOPE' } });
    expect([noCompany.status, noCompany.body.code, noCompany.body.errors[0]?.path]).toEqual([400, 'UnknownReference', 'companyKey']);
    const noCurrency = await client.call<Problem>('POST', BY_COMPANY, { body: { currencyKey: 'ZZZ', companyKey: 'XR-PT' } });
    expect([noCurrency.status, noCurrency.body.code, noCurrency.body.errors[0]?.path]).toEqual([400, 'UnknownReference', 'currencyKey']);
    const missing = await client.call<Problem>('POST', BY_COMPANY, { body: {} });
    expect(missing.body.errors.map((error) => error.path).sort()).toEqual(['companyKey', 'currencyKey']);
    const none = await client.call<Problem>('POST', BY_COMPANY, {
      body: { currencyKey: 'JPY', companyKey: 'XR-PT', referencedDate: '2026-02-01' },
    });
    expect([none.status, none.body.code]).toEqual([404, 'RecordNotFound']);
  });
});
