import { describe, expect, it } from 'vitest';
import { records } from '../../scripts/seed/exchange-rates.mjs';
import { referenceData as routesReferenceData } from '../../scripts/seed/routes.mjs';
import { applySeedModule } from '../../scripts/seed/apply.mjs';
import type { SeedModule } from '../../scripts/seed/apply.mjs';
import type { TenantClient } from '../helpers/api';
import { freshTenant } from '../helpers/tenants';

const BASE = '/businessCore/exchangeRatesDocuments';

/** Applies a service's demo data with the seeder of scripts/seed.mjs, through the Worker; returns how many records were written. */
function applySeed(client: TenantClient, module: SeedModule): Promise<number> {
  return applySeedModule(module, async (method, path, body) => {
    const result = await client.call(method, path, body === undefined ? {} : { body });
    return { status: result.status, text: result.text };
  });
}

function rawRate(text: string): string {
  return /"exchangeRate":([^,}]+)/.exec(text)?.[1] ?? '';
}

describe('demo seed of exchange rates documents', () => {
  it('seeds documents with their lines, idempotently, and answers lookups by company', async () => {
    const client = await freshTenant('demo');
    const companies = await client.call('PUT', '/referenceData/companies', { body: routesReferenceData.companies });
    expect(companies.status).toBe(200);
    expect(await applySeed(client, { records })).toBe(records.length);
    expect(await applySeed(client, { records })).toBe(0);
    const first = await client.call('GET', `${BASE}/1`);
    expect(first.text).toContain('"conversionFactor":162.123456789012,');
    const ask = (body: Record<string, string>) => client.call('POST', `${BASE}/getCurrencyExchangeRatesByCompany`, { body });
    expect(rawRate((await ask({ currencyKey: 'USD', companyKey: 'ACME-PT', referencedDate: '2026-03-01' })).text)).toBe(
      '0.92378752886836027714',
    );
    expect(rawRate((await ask({ currencyKey: 'EUR', companyKey: 'ACME-US', referencedDate: '2026-07-01' })).text)).toBe('1.1412');
    const brl = await client.call('POST', `${BASE}/getCurrencyExchangeRates`, {
      body: { currencyFromKey: 'USD', currencyToKey: 'BRL', referencedDate: '2026-07-01' },
    });
    expect(rawRate(brl.text)).toBe('5.52');
  });
});
