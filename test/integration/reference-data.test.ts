import { beforeEach, describe, expect, it } from 'vitest';
import { tenantClient } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { createRoute, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant, siblingOrg } from '../helpers/tenants';

type Items = { items: (Record<string, unknown> & { id: string; key: string })[] };

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** One record per tenant kind (in dependency order) and what GET answers for it. */
const SAMPLES: [string, Record<string, unknown>, Record<string, unknown>][] = [
  ['companies', { key: 'CO', name: 'Company', baseCurrency: 'EUR' }, { name: 'Company', baseCurrency: 'EUR' }],
  ['employees', { key: 'EM', name: 'Eve' }, { name: 'Eve', company: null }],
  ['locations', { key: 'LO', description: 'Hall', company: 'CO' }, { description: 'Hall', company: 'CO' }],
  ['equipmentItems', { key: 'EQ', description: 'Pump', company: 'CO' }, { description: 'Pump', company: 'CO' }],
  ['tools', { key: 'TO', description: 'Wrench' }, { description: 'Wrench' }],
  ['locationFunctions', { key: 'LF', description: 'Storage' }, { description: 'Storage' }],
  ['families', { key: 'FA', description: 'Pumps' }, { description: 'Pumps' }],
  ['brands', { key: 'BR', description: 'Acme' }, { description: 'Acme' }],
  ['brandModels', { key: 'BM', description: 'Acme 1', brand: 'BR' }, { description: 'Acme 1', brand: 'BR' }],
  [
    'kpiDefinitions',
    { key: 'MTBF', name: 'Mean time between failures', valueType: 'duration', valueFractionDigits: 1, aggregation: 'AVG' },
    { name: 'Mean time between failures', valueType: 'Duration', valueFractionDigits: 1, aggregation: 'avg', higherIsBetter: false },
  ],
  ['workerConfigurations', { key: 'WC', companies: ['CO'] }, { companies: ['CO'], codes: [] }],
  [
    'customAttributes',
    { key: 'routes.shift', entity: 'routes', name: 'shift', type: 'string', required: false },
    { entity: 'routes', name: 'shift', type: 'string', required: false },
  ],
];

let admin: TenantClient;

beforeEach(async () => {
  admin = await freshTenant('acme');
});

describe('every kind', () => {
  it('upserts and lists each tenant kind with a server-made id and its record shape', async () => {
    for (const [kind, record, expected] of SAMPLES) {
      const put = await admin.call<{ upserted: number }>('PUT', `/referenceData/${kind}`, { body: [record] });
      expect(put.status, `${kind}: ${put.text}`).toBe(200);
      expect(put.body).toEqual({ upserted: 1 });
      const list = await admin.call<Items>('GET', `/referenceData/${kind}`);
      expect(list.status).toBe(200);
      expect(list.body.items).toHaveLength(1);
      expect(list.body.items[0]).toEqual({ id: expect.stringMatching(GUID), key: record.key, ...expected });
    }
  });

  it('upserts by key: the id stays, fields change, new keys are added, the list is ordered by key', async () => {
    const scoped = await freshTenant('acme');
    await scoped.call('PUT', '/referenceData/tools', { body: [{ key: 'b', description: 'B' }] });
    const before = (await scoped.call<Items>('GET', '/referenceData/tools')).body.items[0];
    const put = await scoped.call<{ upserted: number }>('PUT', '/referenceData/tools', {
      body: [
        { key: 'b', description: 'B2', id: 'ignored' },
        { key: 'a', description: 'A' },
      ],
    });
    expect(put.body).toEqual({ upserted: 2 });
    const after = (await scoped.call<Items>('GET', '/referenceData/tools')).body.items;
    expect(after.map((item) => [item.key, item.description])).toEqual([
      ['a', 'A'],
      ['b', 'B2'],
    ]);
    expect(after[1]?.id).toBe(before?.id);
    expect((await scoped.call<{ upserted: number }>('PUT', '/referenceData/tools', { body: [] })).body).toEqual({ upserted: 0 });
  });

  it('answers 404 for an unknown kind', async () => {
    const result = await admin.call<Problem>('GET', '/referenceData/unicorns');
    expect(result.status).toBe(404);
    expect(result.body.detail).toContain('companies');
  });
});

describe('standard lists', () => {
  it('serves ISO 4217 currencies and common cultures, read-only', async () => {
    const currencies = await admin.call<Items>('GET', '/referenceData/currencies');
    expect(currencies.body.items.length).toBeGreaterThan(150);
    expect(currencies.body.items.find((item) => item.key === 'EUR')).toEqual({
      id: expect.stringMatching(GUID),
      key: 'EUR',
      name: 'Euro',
      symbol: '€',
      decimalPlaces: 2,
    });
    expect(currencies.body.items.find((item) => item.key === 'JPY')?.decimalPlaces).toBe(0);
    expect(currencies.body.items.find((item) => item.key === 'KWD')?.decimalPlaces).toBe(3);
    const cultures = await admin.call<Items>('GET', '/referenceData/cultures');
    expect(cultures.body.items.map((item) => item.key)).toEqual(expect.arrayContaining(['en-US', 'pt-PT', 'de-DE', 'ja-JP']));
    expect(cultures.body.items.find((item) => item.key === 'pt-PT')?.name).toBe('European Portuguese');
    const put = await admin.call<Problem>('PUT', '/referenceData/currencies', {
      body: [{ key: 'XXX', name: 'x', symbol: 'x', decimalPlaces: 0 }],
    });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET');
    expect((await admin.call('DELETE', '/referenceData/cultures/en-US')).status).toBe(405);
    const stranger = await freshTenant('globex', 'application');
    expect((await stranger.call<Items>('GET', '/referenceData/currencies')).body.items).toHaveLength(currencies.body.items.length);
  });
});

describe('scope', () => {
  it('lets the application scope read; writes need admin (403)', async () => {
    const reader = await tenantClient(admin.tenant, admin.org, 'application');
    expect((await reader.call('GET', '/referenceData/tools')).status).toBe(200);
    const put = await reader.call<Problem>('PUT', '/referenceData/tools', { body: [{ key: 'x', description: 'x' }] });
    expect(put.status).toBe(403);
    expect(put.body.code).toBe('Forbidden');
    expect((await reader.call('DELETE', '/referenceData/tools/TO')).status).toBe(403);
  });
});

describe('validation', () => {
  it('names every bad field of every record', async () => {
    const result = await admin.call<Problem>('PUT', '/referenceData/kpiDefinitions', {
      body: [
        { key: 'K1', name: 'ok', valueType: 'Number', valueFractionDigits: 0, aggregation: 'sum' },
        { key: '', name: 3, valueType: 'Speed', valueFractionDigits: 1.5, aggregation: 'sum', extra: true },
        { key: 'K1', name: 'again', valueType: 'Number', valueFractionDigits: 0, aggregation: 'sum' },
      ],
    });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('ValidationFailed');
    expect(result.body.errors.map((error) => error.path).sort()).toEqual(
      ['[1].extra', '[1].key', '[1].name', '[1].valueFractionDigits', '[1].valueType', '[2].key'].sort(),
    );
  });

  it('names exactly the unknown properties of a record, never its valid fields', async () => {
    const result = await admin.call<Problem>('PUT', '/referenceData/companies', {
      body: [
        { key: 'CO', name: 'Company', baseCurrency: 'EUR', description: 'not a company field' },
        { Key: 'C2', NAME: 'Second', baseCurrency: 'EUR', colour: 'red', Description: 'x' },
      ],
    });
    expect(result.status, result.text).toBe(400);
    expect(result.body.errors).toEqual([
      { path: '[0].description', message: 'description is not a property of this request: remove it or correct its name' },
      { path: '[1].colour', message: 'colour is not a property of this request: remove it or correct its name' },
      { path: '[1].Description', message: 'Description is not a property of this request: remove it or correct its name' },
    ]);
    expect(result.body.detail).toBe('3 fields are not valid: [0].description, [1].colour, [1].Description');
  });

  it('refuses a body that is not an array, and a customAttributes key that does not match entity.name', async () => {
    expect((await admin.call<Problem>('PUT', '/referenceData/tools', { body: { key: 'x' } })).status).toBe(400);
    const mismatch = await admin.call<Problem>('PUT', '/referenceData/customAttributes', {
      body: [{ key: 'routes.other', entity: 'routes', name: 'shift', type: 'string' }],
    });
    expect(mismatch.body.errors.map((error) => error.path)).toEqual(['[0].key']);
  });

  it('answers 400 UnknownReference naming each unknown key, and writes nothing', async () => {
    const scoped = await freshTenant('acme');
    const result = await scoped.call<Problem>('PUT', '/referenceData/companies', {
      body: [
        { key: 'GOOD', name: 'Good', baseCurrency: 'EUR' },
        { key: 'BAD', name: 'Bad', baseCurrency: 'XYZ' },
      ],
    });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('UnknownReference');
    expect(result.body.errors).toEqual([{ path: '[1].baseCurrency', message: expect.stringContaining('XYZ') }]);
    expect((await scoped.call<Items>('GET', '/referenceData/companies')).body.items).toEqual([]);
    const list = await scoped.call<Problem>('PUT', '/referenceData/workerConfigurations', {
      body: [{ key: 'W', companies: ['GOOD'], codes: ['NOPE'] }],
    });
    expect(list.body.errors.map((error) => error.path).sort()).toEqual(['[0].codes[0]', '[0].companies[0]']);
  });
});

describe('bulk limits', () => {
  it('writes 5000 records in one all-or-nothing request (chunked under 100 parameters), and refuses 5001', async () => {
    const scoped = await freshTenant('acme');
    const companies = (suffix: string) =>
      Array.from({ length: 5000 }, (_, index) => ({
        key: `C${String(index).padStart(4, '0')}`,
        name: `Company ${index}${suffix}`,
        baseCurrency: 'EUR',
      }));
    const first = await scoped.call<{ upserted: number }>('PUT', '/referenceData/companies', { body: companies('') });
    expect(first.status, first.text).toBe(200);
    expect(first.body).toEqual({ upserted: 5000 });
    const listed = (await scoped.call<Items>('GET', '/referenceData/companies')).body.items;
    expect(listed).toHaveLength(5000);
    expect(listed[4999]).toMatchObject({ key: 'C4999', name: 'Company 4999' });

    // The last record is bad: nothing of the 5000 changes.
    const failing = companies(' v2');
    failing[4999] = { key: 'C4999', name: 'Company 4999 v2', baseCurrency: 'NOPE' };
    const refused = await scoped.call<Problem>('PUT', '/referenceData/companies', { body: failing });
    expect(refused.status).toBe(400);
    expect(refused.body.errors.map((error) => error.path)).toEqual(['[4999].baseCurrency']);
    const unchanged = (await scoped.call<Items>('GET', '/referenceData/companies')).body.items;
    expect(unchanged.filter((item) => String(item.name).endsWith(' v2'))).toEqual([]);

    const second = await scoped.call<{ upserted: number }>('PUT', '/referenceData/companies', { body: companies(' v2') });
    expect(second.body).toEqual({ upserted: 5000 });
    const updated = (await scoped.call<Items>('GET', '/referenceData/companies')).body.items;
    expect(updated.every((item, index) => item.name === `Company ${index} v2` && item.id === listed[index]?.id)).toBe(true);

    const tooMany = await scoped.call<Problem>('PUT', '/referenceData/tools', {
      body: Array.from({ length: 5001 }, (_, index) => ({ key: `T${index}`, description: 'x' })),
    });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0]?.message).toContain('5000');
  });
});

describe('delete', () => {
  it('deletes by key (204), then 404', async () => {
    const scoped = await freshTenant('acme');
    await scoped.call('PUT', '/referenceData/families', { body: [{ key: 'F', description: 'x' }] });
    expect((await scoped.call('DELETE', '/referenceData/families/F')).status).toBe(204);
    const again = await scoped.call<Problem>('DELETE', '/referenceData/families/F');
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('RecordNotFound');
  });

  it('refuses to delete a record still in use (400 ReferenceInUse), naming the user', async () => {
    const scoped = await freshTenant('acme');
    await seedRouteReferenceData(scoped);
    await createRoute(scoped, {
      routeKey: 'R1',
      family: 'F1',
      brand: 'B1',
      brandModel: 'M1',
      responsible: 'E2',
      locationFunction: 'LF1',
      tools: 'T2',
    });
    await scoped.call('PUT', '/referenceData/kpiDefinitions', {
      body: [{ key: 'K', name: 'k', valueType: 'Number', valueFractionDigits: 0, aggregation: 'sum' }],
    });
    await scoped.call('PUT', '/referenceData/workerConfigurations', { body: [{ key: 'W1', codes: ['K'], companies: ['C2'] }] });
    const cases: [string, string][] = [
      ['companies/C1', 'routes.company (C1/R1)'],
      ['companies/C2', 'locations.company (L9)'],
      ['employees/E2', 'routes.responsible (C1/R1)'],
      ['families/F1', 'routes.family (C1/R1)'],
      ['locationFunctions/LF1', 'routes.locationFunction (C1/R1)'],
      ['brands/B1', 'routes.brand (C1/R1)'],
      ['brandModels/M1', 'routes.brandModel (C1/R1)'],
      ['brands/B2', 'brandModels.brand (M2)'],
      ['tools/T2', 'routes.tools (C1/R1)'],
      ['kpiDefinitions/K', 'workerConfigurations.codes (W1)'],
    ];
    for (const [path, user] of cases) {
      const result = await scoped.call<Problem>('DELETE', `/referenceData/${path}`);
      expect(result.status, path).toBe(400);
      expect(result.body.code).toBe('ReferenceInUse');
      expect(result.body.detail, path).toContain(user);
      expect(result.body.errors).toContainEqual({ path: 'key', message: `It is used by ${user}` });
    }
    const companyUsers = await scoped.call<Problem>('DELETE', '/referenceData/companies/C1');
    expect(companyUsers.body.errors.map((error) => error.message)).toEqual(
      expect.arrayContaining([
        'It is used by routes.company (C1/R1)',
        'It is used by employees.company (E1)',
        'It is used by locations.company (L1)',
        'It is used by equipmentItems.company (Q1)',
      ]),
    );
    expect((await scoped.call<Items>('GET', '/referenceData/companies')).body.items.map((item) => item.key)).toEqual(['C1', 'C2']);
    // Unused records go.
    expect((await scoped.call('DELETE', '/referenceData/tools/T3')).status).toBe(204);
  });
});

describe('isolation between orgs', () => {
  it("keeps each org's records apart: same keys, different ids, no cross references or deletes", async () => {
    const one = await freshTenant('acme');
    const two = await siblingOrg(one);
    await one.call('PUT', '/referenceData/brands', { body: [{ key: 'B', description: 'one' }] });
    expect((await two.call<Items>('GET', '/referenceData/brands')).body.items).toEqual([]);
    const cross = await two.call<Problem>('PUT', '/referenceData/brandModels', { body: [{ key: 'M', description: 'm', brand: 'B' }] });
    expect(cross.status).toBe(400);
    expect(cross.body.code).toBe('UnknownReference');
    expect((await two.call('DELETE', '/referenceData/brands/B')).status).toBe(404);
    await two.call('PUT', '/referenceData/brands', { body: [{ key: 'B', description: 'two' }] });
    const [oneBrand] = (await one.call<Items>('GET', '/referenceData/brands')).body.items;
    const [twoBrand] = (await two.call<Items>('GET', '/referenceData/brands')).body.items;
    expect(oneBrand?.description).toBe('one');
    expect(twoBrand?.description).toBe('two');
    expect(oneBrand?.id).not.toBe(twoBrand?.id);
    // A record used in one org is free in the other.
    await one.call('PUT', '/referenceData/brandModels', { body: [{ key: 'M', description: 'm', brand: 'B' }] });
    expect((await one.call('DELETE', '/referenceData/brands/B')).status).toBe(400);
    expect((await two.call('DELETE', '/referenceData/brands/B')).status).toBe(204);
  });
});
