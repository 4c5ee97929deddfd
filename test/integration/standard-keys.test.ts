/**
 * Culture and currency keys compare case-insensitively everywhere: any spelling in (`PT-pt`, `eur`), the canonical
 * one (`pt-PT`, `EUR`) stored and answered; an unknown key is still 400 in any spelling; another tenant sees nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshTenant, siblingOrg } from '../helpers/tenants';
import type { Problem, TenantClient } from '../helpers/api';
import { BASE as DOCUMENTS, BY_COMPANY, createDocument, LOOKUP } from '../helpers/exchange-rates';
import type { Answer, LineResource } from '../helpers/exchange-rates';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';

const TEMPLATES = '/operations/emailTemplates';

let client: TenantClient;
let stranger: TenantClient;

beforeAll(async () => {
  client = await freshTenant('keys');
  stranger = await siblingOrg(client);
  await seedRouteReferenceData(client);
});

function templateBody(templateKey: string, culture: string): Record<string, unknown> {
  return { templateKey, subject: 'Hello', emailTemplateType: 'HTML', notificationBody: '<p>Hi</p>', culture };
}

describe('culture keys', () => {
  it('are read in any case on create and on PUT, and stored and answered canonical', async () => {
    const created = await client.call<string>('POST', TEMPLATES, { body: templateBody('pt-welcome', 'PT-pt') });
    expect(created.status, created.text).toBe(201);
    expect((await client.call<{ culture: string }>('GET', `${TEMPLATES}/pt-welcome`)).body.culture).toBe('pt-PT');
    const updated = await client.call('PUT', `${TEMPLATES}/pt-welcome/culture`, { body: 'EN-gb' });
    expect(updated.status, updated.text).toBe(200);
    expect((await client.call<{ culture: string }>('GET', `${TEMPLATES}/pt-welcome`)).body.culture).toBe('en-GB');
  });

  it('compare case-insensitively in OData filters', async () => {
    expect((await client.call('POST', TEMPLATES, { body: templateBody('de-welcome', 'de-de') })).status).toBe(201);
    for (const filter of ["culture eq 'DE-de'", "Culture in ('de-DE', 'xx-yy')", "'de-DE' eq culture"]) {
      const result = await client.call<{ items: { templateKey: string }[] }>(
        'GET',
        `${TEMPLATES}/odata?$filter=${encodeURIComponent(filter)}&$select=templateKey`,
      );
      expect(result.status, result.text).toBe(200);
      expect(result.body.items, filter).toEqual([{ templateKey: 'de-welcome' }]);
    }
  });

  it('stay unknown in any spelling (400 UnknownReference naming the field)', async () => {
    const result = await client.call<Problem>('POST', TEMPLATES, { body: templateBody('bad', 'XX-xx') });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('UnknownReference');
    expect(result.body.errors).toEqual([{ path: 'culture', message: expect.stringContaining('xx-XX') }]);
  });

  it('select the culture of getMaintenanceNotificationTemplateParameters in any case', async () => {
    await createRoute(client, { routeKey: 'K1', description: 'Boiler check' });
    const operation = `${ROUTES}/getMaintenanceNotificationTemplateParameters/C1/K1`;
    const canonical = await client.call<{ name: string; value: string | null }[]>('GET', `${operation}?cultureKey=pt-PT`);
    const other = await client.call<{ name: string; value: string | null }[]>('GET', `${operation}?cultureKey=PT-pt`);
    expect(other.status, other.text).toBe(200);
    expect(other.body).toEqual(canonical.body);
    const unknown = await client.call<Problem>('GET', `${operation}?cultureKey=PT-xx`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('UnknownReference');
  });

  it('leave another tenant/org alone: its token sees none of these records', async () => {
    expect((await stranger.call('GET', `${TEMPLATES}/pt-welcome`)).status).toBe(404);
    const list = await stranger.call<{ items: unknown[] }>('GET', `${TEMPLATES}/odata?$filter=${encodeURIComponent("culture eq 'de-DE'")}`);
    expect(list.body.items).toEqual([]);
  });
});

describe('currency keys', () => {
  it('are read in any case in rate lines, stored and answered upper-case', async () => {
    await createDocument(client, 1, '2026-01-01', [
      ['eur', 'Usd', '1.1'],
      ['EUR', 'gbp', '0.85'],
    ]);
    const read = await client.call<{ exchangeRateDocumentRates: LineResource[] }>('GET', `${DOCUMENTS}/1`);
    expect(read.body.exchangeRateDocumentRates.map((line) => `${line.fromCurrency}>${line.toCurrency}`).sort()).toEqual([
      'EUR>GBP',
      'EUR>USD',
    ]);
    const inserted = await client.call('POST', `${DOCUMENTS}/1/exchangeRateDocumentRates`, {
      body: { fromCurrency: 'chf', toCurrency: 'eur', conversionFactor: 1.05 },
    });
    expect(inserted.status, inserted.text).toBe(204);
    const line = (
      await client.call<{ exchangeRateDocumentRates: LineResource[] }>('GET', `${DOCUMENTS}/1`)
    ).body.exchangeRateDocumentRates.find((item) => item.fromCurrency === 'CHF');
    expect(line?.toCurrency).toBe('EUR');
    const renamed = await client.call('PUT', `${DOCUMENTS}/1/exchangeRateDocumentRates/${line?.id ?? ''}/fromCurrency`, { body: 'jpy' });
    expect(renamed.status, renamed.text).toBe(200);
    const after = await client.call<{ exchangeRateDocumentRates: LineResource[] }>('GET', `${DOCUMENTS}/1`);
    expect(after.body.exchangeRateDocumentRates.find((item) => item.id === line?.id)?.fromCurrency).toBe('JPY');
  });

  it('refuse a line whose two currencies are the same in different spellings', async () => {
    const sameBody = await client.call<Problem>('POST', `${DOCUMENTS}/1/exchangeRateDocumentRates`, {
      body: { fromCurrency: 'usd', toCurrency: 'USD', conversionFactor: 1 },
    });
    expect(sameBody.status).toBe(400);
    expect(sameBody.body.errors).toEqual([{ path: 'toCurrency', message: expect.stringContaining('differ') }]);
    const duplicate = await client.call<Problem>('POST', `${DOCUMENTS}/1/exchangeRateDocumentRates`, {
      body: { fromCurrency: 'eur', toCurrency: 'usd', conversionFactor: 1.2 },
    });
    expect(duplicate.status).toBe(400);
    expect(duplicate.body.code).toBe('DuplicateKey');
  });

  it('are read in any case by the lookups, which answer them canonical', async () => {
    const pair = await client.call<Answer>('POST', LOOKUP, {
      body: { currencyFromKey: 'eur', currencyToKey: 'usd', referencedDate: '2026-03-01' },
    });
    expect(pair.status, pair.text).toBe(200);
    expect(pair.body).toMatchObject({ currencyFromKey: 'EUR', currencyToKey: 'USD', exchangeRate: 1.1 });
    const byCompany = await client.call<Answer>('POST', `${BY_COMPANY}?currencyKey=usd&companyKey=C1&referencedDate=2026-03-01`);
    expect(byCompany.status, byCompany.text).toBe(200);
    expect(byCompany.body).toMatchObject({ currencyFromKey: 'USD', currencyToKey: 'EUR' });
    const unknown = await client.call<Problem>('POST', LOOKUP, { body: { currencyFromKey: 'eur', currencyToKey: 'xyz' } });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((error) => error.path)).toEqual(['currencyToKey']);
  });

  it('are stored upper-case as a company base currency', async () => {
    const upsert = await client.call('PUT', '/referenceData/companies', { body: [{ key: 'C3', name: 'Three', baseCurrency: 'gbp' }] });
    expect(upsert.status, upsert.text).toBe(200);
    const list = await client.call<{ items: { key: string; baseCurrency: string }[] }>('GET', '/referenceData/companies');
    expect(list.body.items.find((company) => company.key === 'C3')?.baseCurrency).toBe('GBP');
    const unknown = await client.call<Problem>('PUT', '/referenceData/companies', {
      body: [{ key: 'C4', name: 'Four', baseCurrency: 'gbx' }],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.code).toBe('UnknownReference');
  });

  it('leave another tenant/org alone: the lookup there knows no document', async () => {
    const result = await stranger.call<Problem>('POST', LOOKUP, { body: { currencyFromKey: 'eur', currencyToKey: 'usd' } });
    expect(result.status).toBe(404);
    expect(result.body.code).toBe('RecordNotFound');
  });
});
