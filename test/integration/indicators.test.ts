import { env } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { kpiReferenceData, recalculate, type Measurement } from '../helpers/indicators';
import { freshTenant, siblingOrg } from '../helpers/tenants';

const BASE = '/maintenance/indicators';

let client: TenantClient;

async function ingest(items: Measurement[], as: TenantClient = client): Promise<void> {
  const result = await as.call<{ accepted: number }>('POST', `${BASE}/measurements`, { body: items });
  expect(result.status, result.text).toBe(200);
  expect(result.body).toEqual({ accepted: items.length });
}

async function countMeasurements(as: TenantClient): Promise<number> {
  const row = await env.DB.prepare('SELECT COUNT(*) AS n FROM kpi_measurements WHERE tenant_key = ? AND org_key = ?')
    .bind(as.tenant, as.org)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

const summaryOf = (as: TenantClient, company: string, code: string) =>
  as.call<Record<string, unknown>>('GET', `${BASE}/getIndicatorSummaryByCode/${company}/${code}`);

beforeEach(async () => {
  client = await freshTenant('acme');
  await kpiReferenceData(client);
  await ingest([
    { company: 'ACME-PT', code: 'COST', date: '2025-01-10', value: 100 },
    { company: 'ACME-PT', code: 'COST', date: '2025-01-20T12:00:00Z', value: '20.5' },
    { company: 'ACME-PT', code: 'COST', date: '2025-11-03', value: 200 },
    { company: 'ACME-PT', code: 'COST', date: '2025-12-01', value: 150.25 },
    { company: 'ACME-PT', code: 'COST', date: '2025-12-31T23:59:59Z', value: 49.75 },
    { company: 'ACME-PT', code: 'COST', date: '2026-01-15', value: 90 },
    // 23:30 at UTC-1 is already January in UTC.
    { company: 'ACME-PT', code: 'COST', date: '2025-12-31T23:30:00-01:00', value: '10' },
    { company: 'ACME-PT', code: 'AVAIL', date: '2025-02-01', value: 90 },
    { company: 'ACME-PT', code: 'AVAIL', date: '2025-02-28', value: 94 },
    { company: 'ACME-PT', code: 'AVAIL', date: '2026-01-02', value: 95 },
    { company: 'ACME-PT', code: 'AVAIL', date: '2026-01-03', value: 96 },
    { company: 'ACME-PT', code: 'AVAIL', date: '2026-01-04', value: 97 },
    { company: 'ACME-PT', code: 'AVAIL', date: '2026-02-01', value: 99.5 },
    { company: 'ACME-PT', code: 'AVAIL', date: '2026-02-02', value: 98 },
    { company: 'ACME-PT', code: 'FAIL', date: '2026-02-01', value: 1 },
    { company: 'ACME-PT', code: 'FAIL', date: '2026-02-11', value: 1 },
    { company: 'ACME-PT', code: 'FAIL', date: '2026-02-21', value: 1 },
    { company: 'ACME-US', code: 'COST', date: '2026-01-01', value: 500 },
    { company: 'ACME-US', code: 'COST', date: '2026-02-01', value: 0.1 },
    { company: 'ACME-US', code: 'COST', date: '2026-02-02', value: '0.2' },
    { company: 'ACME-US', code: 'LAST', date: '2026-03-05', value: 100 },
    { company: 'ACME-US', code: 'LAST', date: '2026-03-10', value: 5 },
    { company: 'ACME-US', code: 'LAST', date: '2026-03-20T08:00:00Z', value: 7 },
    { company: 'ACME-US', code: 'PEAK', date: '2026-03-01', value: 3 },
    { company: 'ACME-US', code: 'PEAK', date: '2026-03-02', value: -2 },
    { company: 'ACME-US', code: 'PEAK', date: '2026-03-03', value: 11 },
  ]);
  // Same instant, ingested later: `last` takes it.
  await ingest([{ company: 'ACME-US', code: 'LAST', date: '2026-03-20T08:00:00.000Z', value: 8 }]);
});

describe('measurements', () => {
  it('names every invalid field of every measurement', async () => {
    const result = await client.call<Problem>('POST', `${BASE}/measurements`, {
      body: [
        { code: 'COST', date: '2026-01-01', value: 1 },
        { company: 'ACME-PT', code: 'COST', date: '2026-02-30', value: 1 },
        { company: 'ACME-PT', code: 'COST', date: '2026-01-01', value: 'abc' },
        { company: 'ACME-PT', code: 'COST', date: '2026-01-01', value: 1e12 },
        { company: 'ACME-PT', code: 'COST', date: '2026-01-01', value: '0.1234567' },
        { company: 'ACME-PT', code: 'COST', date: '2026-01-01', value: 1, extra: true },
        { company: 'ACME-PT', code: '', date: 20260101, value: null },
      ],
    });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('ValidationFailed');
    expect(result.body.errors.map((error) => error.path).sort()).toEqual(
      ['[0].company', '[1].date', '[2].value', '[3].value', '[4].value', '[5].extra', '[6].code', '[6].date', '[6].value'].sort(),
    );
  });

  it('refuses a body that is not an array, or more than 5000 measurements', async () => {
    const notArray = await client.call<Problem>('POST', `${BASE}/measurements`, { body: { company: 'ACME-PT' } });
    expect(notArray.status).toBe(400);
    const many = Array.from({ length: 5001 }, () => ({ company: 'ACME-PT', code: 'COST', date: '2026-01-01', value: 1 }));
    const tooMany = await client.call<Problem>('POST', `${BASE}/measurements`, { body: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.detail + JSON.stringify(tooMany.body.errors)).toContain('5000');
  });

  it('is all-or-nothing: one unknown company or code refuses the whole request, naming each', async () => {
    const before = await countMeasurements(client);
    const result = await client.call<Problem>('POST', `${BASE}/measurements`, {
      body: [
        { company: 'ACME-PT', code: 'COST', date: '2026-01-01', value: 1 },
        { company: 'NOPE', code: 'COST', date: '2026-01-01', value: 1 },
        { company: 'ACME-PT', code: 'NOPE', date: '2026-01-01', value: 1 },
      ],
    });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('UnknownReference');
    expect(result.body.errors.map((error) => error.path).sort()).toEqual(['[1].company', '[2].code']);
    expect(await countMeasurements(client)).toBe(before);
  });

  it('stores 5000 measurements of one request (chunked inserts in one batch)', async () => {
    const bulk = await freshTenant('acme');
    await kpiReferenceData(bulk);
    const items = Array.from({ length: 5000 }, (_, index) => ({
      company: 'ACME-PT',
      code: 'FAIL',
      date: `2025-${String((index % 12) + 1).padStart(2, '0')}-01`,
      value: 1,
    }));
    await ingest(items, bulk);
    expect(await countMeasurements(bulk)).toBe(5000);
    expect(await recalculate(bulk, 'default')).toBe(200);
    const chart = await bulk.call<Record<string, unknown>[]>('GET', `${BASE}/kpiChart/ACME-PT/FAIL?referenceDate=2025-12-31`);
    expect(chart.body.slice(0, 12).map((point) => point.value)).toEqual(Array.from({ length: 12 }, (_, index) => (index < 8 ? 417 : 416)));
  });

  it('refuses to delete a company or KPI definition that has measurements', async () => {
    const company = await client.call<Problem>('DELETE', '/referenceData/companies/ACME-US');
    expect(company.status).toBe(400);
    expect(company.body.code).toBe('ReferenceInUse');
    const definition = await client.call<Problem>('DELETE', '/referenceData/kpiDefinitions/PEAK');
    expect(definition.body.code).toBe('ReferenceInUse');
  });
});

describe('before any recalculation', () => {
  it('answers a summary with only the definition facts', async () => {
    const result = await summaryOf(client, 'ACME-US', 'COST');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({
      value: null,
      homologValue: null,
      variation: null,
      trend: null,
      valueType: 'Currency',
      valueFractionDigits: 2,
      currencySymbol: '$',
      result: null,
    });
  });
});

describe('assetsRecalculateKPIs', () => {
  it('recalculates only the configuration companies and codes', async () => {
    expect(await recalculate(client, 'pt-cost')).toBe(200);
    expect((await summaryOf(client, 'ACME-PT', 'COST')).body.value).toBe(100);
    expect((await summaryOf(client, 'ACME-PT', 'AVAIL')).body.value).toBeNull();
  });

  it('answers 400 RecordNotFound for an unknown worker configuration', async () => {
    const result = await client.call<Problem>('POST', `${BASE}/assetsRecalculateKPIs/nope`);
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('RecordNotFound');
    expect(result.body.errors).toEqual([{ path: 'workerConfigurationKey', message: expect.stringContaining('nope') }]);
  });

  it('answers true once every series is materialized', async () => {
    const result = await client.call('POST', `${BASE}/assetsRecalculateKPIs/default`);
    expect(result.status).toBe(200);
    expect(result.body).toBe(true);
  });
});

describe('getIndicatorSummaryByCode', () => {
  // Each test has its own org: these read what a full recalculation materialized.
  beforeEach(async () => {
    expect(await recalculate(client, 'default')).toBe(200);
  });

  it('sums, compares with the homologous month and the previous one (lower is better)', async () => {
    const result = await summaryOf(client, 'ACME-PT', 'COST');
    expect(result.status).toBe(200);
    // 2026-01: 90 + 10 = 100; 2025-01: 120.5; (100 - 120.5) / 120.5 = -17.01 %; 2025-12: 200.
    expect(result.body).toEqual({
      value: 100,
      homologValue: '120.50',
      variation: -17.01,
      trend: -1,
      valueType: 'Currency',
      valueFractionDigits: 2,
      currencySymbol: '€',
      result: 1,
    });
  });

  it('averages (higher is better)', async () => {
    const result = await summaryOf(client, 'ACME-PT', 'AVAIL');
    expect(result.body).toEqual({
      value: 98.75,
      homologValue: '92.0',
      variation: 7.34,
      trend: 1,
      valueType: 'Percentage',
      valueFractionDigits: 1,
      currencySymbol: null,
      result: 1,
    });
  });

  it('counts, takes the maximum and the last measurement', async () => {
    expect((await summaryOf(client, 'ACME-PT', 'FAIL')).body).toMatchObject({
      value: 3,
      homologValue: null,
      variation: null,
      trend: null,
      result: 0,
    });
    expect((await summaryOf(client, 'ACME-US', 'PEAK')).body).toMatchObject({ value: 11, valueType: 'Number', valueFractionDigits: 0 });
    expect((await summaryOf(client, 'ACME-US', 'LAST')).body).toMatchObject({ value: 8 });
  });

  it('adds decimals exactly and uses the company base currency', async () => {
    expect((await summaryOf(client, 'ACME-US', 'COST')).body).toMatchObject({ value: 0.3, trend: -1, result: 0, currencySymbol: '$' });
  });

  it('answers 400 RecordNotFound naming an unknown company and code', async () => {
    const result = await summaryOf(client, 'NOPE', 'NADA');
    expect(result.status).toBe(400);
    expect((result.body as unknown as Problem).code).toBe('RecordNotFound');
    expect((result.body as unknown as Problem).errors.map((error) => error.path)).toEqual(['companyKey', 'code']);
    expect((await summaryOf(client, 'ACME-PT', 'NADA')).status).toBe(400);
  });
});

describe('kpiChart', () => {
  // Each test has its own org: these read what a full recalculation materialized.
  beforeEach(async () => {
    expect(await recalculate(client, 'default')).toBe(200);
  });

  it('answers the 12 periods ending at the reference month, then 3 forecast periods', async () => {
    const result = await client.call<Record<string, unknown>[]>('GET', `${BASE}/kpiChart/ACME-PT/COST?referenceDate=2026-01-20`);
    expect(result.status, result.text).toBe(200);
    const empty = (period: string) => ({ period, value: null, homologous: null, forecast: null });
    expect(result.body).toEqual([
      ...['2025-02', '2025-03', '2025-04', '2025-05', '2025-06', '2025-07', '2025-08', '2025-09', '2025-10'].map(empty),
      { period: '2025-11', value: 200, homologous: null, forecast: null },
      { period: '2025-12', value: 200, homologous: null, forecast: null },
      // Least squares over x = -12, -2, -1 (120.5, 200, 200): intercept 140593.5 / 666.
      { period: '2026-01', value: 100, homologous: 120.5, forecast: 211.101351 },
      // Over 2025-11, 2025-12, 2026-01 (200, 200, 100): slope -50.
      { period: '2026-02', forecast: 66.666667 },
      { period: '2026-03', forecast: 16.666667 },
      { period: '2026-04', forecast: -33.333333 },
    ]);
  });

  it('answers periods without materialized data as empty', async () => {
    const result = await client.call<Record<string, unknown>[]>('GET', `${BASE}/kpiChart/ACME-PT/COST?referenceDate=2020-06-01T00:00:00Z`);
    expect(result.body).toHaveLength(15);
    expect(result.body[0]).toEqual({ period: '2019-07', value: null, homologous: null, forecast: null });
    expect(result.body[14]).toEqual({ period: '2020-09', forecast: null });
  });

  it('answers 400 without or with an invalid referenceDate, and for an unknown company or code', async () => {
    const missing = await client.call<Problem>('GET', `${BASE}/kpiChart/ACME-PT/COST`);
    expect(missing.status).toBe(400);
    expect(missing.body.code).toBe('ValidationFailed');
    expect(missing.body.errors.map((error) => error.path)).toEqual(['referenceDate']);
    expect((await client.call<Problem>('GET', `${BASE}/kpiChart/ACME-PT/COST?referenceDate=2026-13-01`)).status).toBe(400);
    const unknown = await client.call<Problem>('GET', `${BASE}/kpiChart/ACME-XX/COST?referenceDate=2026-01-01`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors.map((error) => error.path)).toEqual(['company']);
  });
});

describe('new measurements', () => {
  // Each test has its own org: these read what a full recalculation materialized.
  beforeEach(async () => {
    expect(await recalculate(client, 'default')).toBe(200);
  });

  it('are reflected by the next recalculation', async () => {
    await ingest([{ company: 'ACME-PT', code: 'COST', date: '2026-01-31', value: 20.5 }]);
    expect((await summaryOf(client, 'ACME-PT', 'COST')).body.value).toBe(100);
    expect(await recalculate(client, 'default')).toBe(200);
    expect((await summaryOf(client, 'ACME-PT', 'COST')).body).toMatchObject({ value: 120.5, variation: 0, result: 0 });
  });
});

describe('isolation', () => {
  it('keeps the same keys of two orgs apart', async () => {
    // The state the other tests of this file leave: everything materialized, then 20.5 more in 2026-01.
    expect(await recalculate(client, 'default')).toBe(200);
    await ingest([{ company: 'ACME-PT', code: 'COST', date: '2026-01-31', value: 20.5 }]);
    expect(await recalculate(client, 'default')).toBe(200);
    const twin = await siblingOrg(client);
    await kpiReferenceData(twin);
    await ingest([{ company: 'ACME-PT', code: 'COST', date: '2026-01-10', value: 7 }], twin);
    expect(await recalculate(twin, 'default')).toBe(200);
    expect((await summaryOf(twin, 'ACME-PT', 'COST')).body).toMatchObject({ value: 7, homologValue: null });
    expect((await summaryOf(client, 'ACME-PT', 'COST')).body).toMatchObject({ value: 120.5, homologValue: '120.50' });
  });
});
