/**
 * Literal path segments (modules, resources, operations, attributes, reference kinds) match in any case, as the
 * product family routes; keys and ids stay exact. Another tenant/org still sees nothing.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../helpers/api';
import { freshTenant, siblingOrg } from '../helpers/tenants';
import type { Problem, TenantClient } from '../helpers/api';
import { createDocument } from '../helpers/exchange-rates';
import type { LineResource } from '../helpers/exchange-rates';
import { createRoute, seedRouteReferenceData } from '../helpers/routes';

let client: TenantClient;
let stranger: TenantClient;

beforeAll(async () => {
  client = await freshTenant('paths');
  stranger = await siblingOrg(client);
  await seedRouteReferenceData(client);
  const created = await client.call('POST', '/operations/emailTemplates', {
    body: { templateKey: 'welcome', subject: 'Hi', emailTemplateType: 1, notificationBody: 'Hello', culture: 'en-US' },
  });
  expect(created.status, created.text).toBe(201);
  await createRoute(client, { routeKey: 'R1' });
  await createDocument(client, 1, '2026-01-01', [['EUR', 'USD', '1.1']]);
});

describe('literal segments match in any case', () => {
  it.each([
    ['/operations/emailtemplates/odata'],
    ['/Operations/EmailTemplates/OData'],
    ['/OPERATIONS/EMAILTEMPLATES/ODATA?$top=1'],
    ['/assetmanagementcore/routes/odata'],
    ['/businesscore/exchangeratesdocuments/odata'],
  ])('GET %s lists', async (path) => {
    const result = await client.call<{ items: unknown[] }>('GET', path);
    expect(result.status, result.text).toBe(200);
    expect(result.body.items).toHaveLength(1);
  });

  it('reads, updates attributes and custom attributes, and creates through any spelling; Location stays canonical', async () => {
    expect((await client.call('GET', '/operations/EMAILTEMPLATES/welcome')).status).toBe(200);
    expect((await client.call('PUT', '/operations/emailtemplates/welcome/SUBJECT', { body: 'Hello again' })).status).toBe(200);
    expect((await client.call('PUT', '/operations/emailtemplates/welcome/isactive', { body: false })).status).toBe(200);
    expect((await client.call('PUT', '/operations/emailtemplates/welcome/Custom_channel', { body: { value: 'sms' } })).status).toBe(200);
    const read = await client.call<Record<string, unknown>>('GET', '/operations/emailTemplates/welcome');
    expect(read.body).toMatchObject({ subject: 'Hello again', isActive: false, custom_channel: 'sms' });
    const created = await client.call<string>('POST', '/OPERATIONS/emailtemplates', {
      body: { templateKey: 'second', subject: 'S', emailTemplateType: 2, notificationBody: 'B', culture: 'en-US' },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.headers.get('location')).toBe(`https://api.test${client.base}/operations/emailTemplates/${created.body}`);
  });

  it('routes operations, membership and attribute PUTs', async () => {
    const added = await client.call('POST', '/assetManagementCore/routes/R1/LOCATIONS/Add', { body: ['L1'] });
    expect(added.status, added.text).toBe(200);
    expect((await client.call('PUT', '/assetmanagementcore/routes/C1/R1/DESCRIPTION', { body: 'Renamed' })).status).toBe(200);
    const parameters = await client.call(
      'GET',
      '/assetManagementCore/routes/getmaintenancenotificationtemplateparameters/C1/R1?cultureKey=en-US',
    );
    expect(parameters.status, parameters.text).toBe(200);
    const read = await client.call<{ description: string; locations: { key: string }[] }>('GET', '/assetManagementCore/routes/C1/R1');
    expect(read.body.description).toBe('Renamed');
    expect(read.body.locations.map((location) => location.key)).toEqual(['L1']);
  });

  it('exchange rate lines, their attributes and the lookups', async () => {
    const inserted = await client.call('POST', '/businessCore/exchangeRatesDocuments/1/exchangeratedocumentrates', {
      body: { fromCurrency: 'EUR', toCurrency: 'GBP', conversionFactor: '0.85' },
    });
    expect(inserted.status, inserted.text).toBe(204);
    const document = await client.call<{ exchangeRateDocumentRates: LineResource[] }>('GET', '/businessCore/exchangeRatesDocuments/1');
    const line = document.body.exchangeRateDocumentRates.find((item) => item.toCurrency === 'GBP');
    const base = `/businesscore/EXCHANGERATESDOCUMENTS/1/ExchangeRateDocumentRates/${line?.id ?? ''}`;
    expect((await client.call('PUT', `${base}/CONVERSIONFACTOR`, { body: '0.86' })).status).toBe(200);
    expect((await client.call('PUT', `${base}/CUSTOM_source`, { body: 'ECB' })).status).toBe(200);
    const after = await client.call<{ exchangeRateDocumentRates: LineResource[] }>('GET', '/businessCore/exchangeRatesDocuments/1');
    expect(after.body.exchangeRateDocumentRates.find((item) => item.id === line?.id)).toMatchObject({
      conversionFactor: 0.86,
      custom_source: 'ECB',
    });
    const lookup = await client.call('POST', '/businessCore/exchangeRatesDocuments/GETCURRENCYEXCHANGERATES', {
      body: { currencyFromKey: 'EUR', currencyToKey: 'USD', referencedDate: '2026-02-01' },
    });
    expect(lookup.status, lookup.text).toBe(200);
  });

  it('import and indicator operations', async () => {
    expect((await client.call('GET', '/corepatterns/importdatainfos/getlastimports?templateId=x')).status).toBe(200);
    const recalc = await client.call<Problem>('POST', '/maintenance/INDICATORS/assetsrecalculatekpis/none');
    expect(recalc.status).toBe(400);
    expect(recalc.body.code).toBe('RecordNotFound');
  });

  it('reference data kinds', async () => {
    const list = await client.call<{ items: { key: string }[] }>('GET', '/referencedata/Companies');
    expect(list.status, list.text).toBe(200);
    expect(list.body.items.map((item) => item.key)).toEqual(['C1', 'C2']);
    expect((await client.call('DELETE', '/REFERENCEDATA/TOOLS/T3')).status).toBe(204);
    const readOnly = await client.call<Problem>('PUT', '/referenceData/CULTURES', { body: [] });
    expect(readOnly.status).toBe(405);
    expect(readOnly.headers.get('allow')).toBe('GET');
  });

  it('public routes', async () => {
    expect((await call('GET', '/HEALTH')).status).toBe(200);
  });
});

describe('keys, ids and unknown paths stay exact', () => {
  it('keys and ids match exactly', async () => {
    expect((await client.call('GET', '/operations/emailtemplates/WELCOME')).status).toBe(404);
    expect((await client.call('GET', '/assetManagementCore/routes/c1/r1')).status).toBe(404);
    expect((await client.call('DELETE', '/referenceData/tools/t1')).status).toBe(404);
  });

  it('a wrong method is still 405 with Allow, an unknown resource still 404', async () => {
    const wrong = await client.call<Problem>('DELETE', '/Operations/EmailTemplates');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('POST');
    expect((await client.call('GET', '/operations/emailTemplatez/odata')).status).toBe(404);
  });

  it("another tenant/org sees nothing through any spelling, and a token for one cannot use the other's path", async () => {
    expect((await stranger.call('GET', '/OPERATIONS/emailtemplates/welcome')).status).toBe(404);
    expect((await stranger.call<{ items: unknown[] }>('GET', '/operations/EMAILTEMPLATES/odata')).body.items).toEqual([]);
    const foreign = await call<Problem>('GET', `/API/${client.tenant}/${client.org}/operations/emailtemplates/welcome`, {
      token: stranger.token,
    });
    expect(foreign.status).toBe(403);
  });
});
