/**
 * Request bodies bind property names case-insensitively (the exact spelling wins over another one; two other spellings
 * are refused naming both), take `isActive` on create, and booleans as true/false or 1/0; answers stay camelCase.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { freshTenant, siblingOrg } from '../helpers/tenants';
import type { Problem, TenantClient } from '../helpers/api';
import { BASE as DOCUMENTS, LOOKUP } from '../helpers/exchange-rates';
import type { LineResource } from '../helpers/exchange-rates';
import { createRoute, ROUTES, seedRouteReferenceData } from '../helpers/routes';

const TEMPLATES = '/operations/emailTemplates';

let client: TenantClient;

beforeAll(async () => {
  client = await freshTenant('binding');
  await seedRouteReferenceData(client);
});

describe('entity bodies', () => {
  it('take PascalCase and lower-case property names; answers stay camelCase', async () => {
    const pascal = await client.call('POST', TEMPLATES, {
      body: {
        TemplateKey: 'pascal',
        Subject: 'Hi',
        EmailTemplateType: 'html',
        NotificationBody: 'B',
        Culture: 'en-US',
        Custom_Channel: 'sms',
      },
    });
    expect(pascal.status, pascal.text).toBe(201);
    const lower = await client.call('POST', TEMPLATES, {
      body: {
        templatekey: 'lower',
        subject: 'Hi',
        emailtemplatetype: 2,
        notificationbody: 'B',
        culture: 'pt-pt',
        CustomAttributes: { Custom_Shift: 'day' },
      },
    });
    expect(lower.status, lower.text).toBe(201);
    const read = await client.call<Record<string, unknown>>('GET', `${TEMPLATES}/pascal`);
    expect(read.body).toMatchObject({
      templateKey: 'pascal',
      subject: 'Hi',
      emailTemplateType: 1,
      notificationBody: 'B',
      culture: 'en-US',
      custom_Channel: 'sms',
    });
    expect(Object.keys(read.body)).not.toContain('TemplateKey');
    expect((await client.call<Record<string, unknown>>('GET', `${TEMPLATES}/lower`)).body).toMatchObject({
      culture: 'pt-PT',
      custom_Shift: 'day',
    });
  });

  it('lets the exact spelling win; two other spellings of one property are 400 naming both', async () => {
    const exact = await client.call('POST', TEMPLATES, {
      body: { templateKey: 'exact', TemplateKey: 'ignored', subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' },
    });
    expect(exact.status, exact.text).toBe(201);
    expect((await client.call('GET', `${TEMPLATES}/exact`)).status).toBe(200);
    expect((await client.call('GET', `${TEMPLATES}/ignored`)).status).toBe(404);
    const twice = await client.call<Problem>('POST', TEMPLATES, {
      body: { TemplateKey: 'a', TEMPLATEKEY: 'b', subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' },
    });
    expect(twice.status).toBe(400);
    expect(twice.body.errors).toEqual([
      { path: 'TemplateKey', message: "'TemplateKey', 'TEMPLATEKEY' name the same property templateKey: send it once" },
      { path: 'TEMPLATEKEY', message: "'TemplateKey', 'TEMPLATEKEY' name the same property templateKey: send it once" },
    ]);
  });

  it('take isActive on create (default true), as true/false or 1/0 and nothing else', async () => {
    const body = (templateKey: string, extra: Record<string, unknown>) => ({
      body: { templateKey, subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US', ...extra },
    });
    expect((await client.call('POST', TEMPLATES, body('inactive', { isActive: false }))).status).toBe(201);
    expect((await client.call('POST', TEMPLATES, body('zero', { IsActive: 0 }))).status).toBe(201);
    expect((await client.call('POST', TEMPLATES, body('one', { isactive: 1 }))).status).toBe(201);
    expect((await client.call('POST', TEMPLATES, body('default', {}))).status).toBe(201);
    const active = async (key: string) => (await client.call<{ isActive: boolean }>('GET', `${TEMPLATES}/${key}`)).body.isActive;
    expect([await active('inactive'), await active('zero'), await active('one'), await active('default')]).toEqual([
      false,
      false,
      true,
      true,
    ]);
    for (const value of ['true', 2, null]) {
      const refused = await client.call<Problem>('POST', TEMPLATES, body(`bad-${String(value)}`, { isActive: value }));
      expect(refused.status, String(value)).toBe(400);
      expect(refused.body.errors).toEqual([{ path: 'isActive', message: 'isActive must be true or false (or 1 or 0)' }]);
    }
  });

  it('take 1/0 for boolean attributes and fields, and {"Value": x} wrappers', async () => {
    expect((await client.call('PUT', `${TEMPLATES}/default/isActive`, { body: 0 })).status).toBe(200);
    expect((await client.call<{ isActive: boolean }>('GET', `${TEMPLATES}/default`)).body.isActive).toBe(false);
    expect((await client.call('PUT', `${TEMPLATES}/default/isActive`, { body: { Value: 1 } })).status).toBe(200);
    expect((await client.call<{ isActive: boolean }>('GET', `${TEMPLATES}/default`)).body.isActive).toBe(true);
    expect((await client.call('PUT', `${TEMPLATES}/default/isActive`, { body: 'yes' })).status).toBe(400);
    expect((await client.call('PUT', `${TEMPLATES}/default/subject`, { body: { VALUE: 'Changed' } })).status).toBe(200);
    expect((await client.call<{ subject: string }>('GET', `${TEMPLATES}/default`)).body.subject).toBe('Changed');
    const document = await client.call('POST', DOCUMENTS, {
      body: { Number: 7, ValidFrom: '2026-01-01', ExchangeRateType: 'market', IsExternallyManaged: 1 },
    });
    expect(document.status, document.text).toBe(201);
    expect((await client.call<{ isExternallyManaged: boolean }>('GET', `${DOCUMENTS}/7`)).body.isExternallyManaged).toBe(true);
  });
});

describe('other bodies', () => {
  it('rate lines keep exact factors under any spelling of conversionFactor; lookups take any spelling of their inputs', async () => {
    const inserted = await client.call('POST', `${DOCUMENTS}/7/exchangeRateDocumentRates`, {
      rawBody: '{"FromCurrency":"eur","TOCURRENCY":"USD","ConversionFactor":1.1234567890123456789}',
      headers: { 'content-type': 'application/json' },
    });
    expect(inserted.status, inserted.text).toBe(204);
    const read = await client.call<{ exchangeRateDocumentRates: LineResource[] }>('GET', `${DOCUMENTS}/7`);
    expect(read.text).toContain('"conversionFactor":1.1234567890123456789');
    expect(read.body.exchangeRateDocumentRates[0]).toMatchObject({ fromCurrency: 'EUR', toCurrency: 'USD' });
    const lookup = await client.call('POST', LOOKUP, {
      body: { CurrencyFromKey: 'EUR', currencytokey: 'USD', ReferencedDate: '2026-02-01' },
    });
    expect(lookup.status, lookup.text).toBe(200);
  });

  it('reference records, memberships, measurements and import changes', async () => {
    const upsert = await client.call('PUT', '/referenceData/tools', { body: [{ Key: 'T9', Description: 'Saw' }] });
    expect(upsert.status, upsert.text).toBe(200);
    await createRoute(client, { routeKey: 'B1' });
    const added = await client.call('POST', `${ROUTES}/B1/locations/add`, { body: { Value: ['L1'] } });
    expect(added.status, added.text).toBe(200);
    const kpi = await client.call('PUT', '/referenceData/kpiDefinitions', {
      body: [{ key: 'COST', Name: 'Cost', ValueType: 'number', valueFractionDigits: 2, Aggregation: 'SUM', HigherIsBetter: 0 }],
    });
    expect(kpi.status, kpi.text).toBe(200);
    const measured = await client.call('POST', '/maintenance/indicators/measurements', {
      body: [{ Company: 'C1', CODE: 'COST', Date: '2026-01-01', Value: 3 }],
    });
    expect(measured.status, measured.text).toBe(200);
    const id = (await client.call<string>('POST', '/corePatterns/importDataInfos', { body: { ImportDataTemplate: 'customers' } })).body;
    const changed = await client.call('POST', '/corePatterns/importDataInfos/changeDataImport', {
      body: { ImportId: id, importdatastate: 'processing', DetailLog: '10%' },
    });
    expect(changed.status, changed.text).toBe(200);
  });
});

describe('tenant isolation', () => {
  it('another tenant/org sees none of these records', async () => {
    const other = await siblingOrg(client);
    expect((await other.call('GET', `${TEMPLATES}/pascal`)).status).toBe(404);
    expect((await other.call('GET', `${DOCUMENTS}/7`)).status).toBe(404);
  });
});
