/**
 * Dates are accepted in the years 1900 to 9999 (UTC) wherever they come in (issue 13, M1 and M2): a measurement at
 * the very end of the calendar no longer breaks every later recalculation, and chart dates outside it are 400s.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { BASE as RATES, createDocument, LOOKUP } from '../helpers/exchange-rates';
import { kpiReferenceData, recalculate } from '../helpers/indicators';
import { freshTenant } from '../helpers/tenants';

const INDICATORS = '/maintenance/indicators';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('dates');
  await kpiReferenceData(client);
  await createDocument(client, 1, '2026-01-01', [['EUR', 'USD', '1.1']]);
});

function expectDateRefused(result: { status: number; body: unknown; text: string }, path: string): void {
  expect(result.status, result.text).toBe(400);
  const problem = result.body as Problem;
  expect(problem.errors.map((error) => error.path)).toContain(path);
  expect(problem.errors.find((error) => error.path === path)?.message).toMatch(/years 1900 to 9999/);
}

/** Measurements of ACME-PT as [code, date, value]. */
function ingest(rows: [string, string, number][]) {
  const body = rows.map(([code, date, value]) => ({ company: 'ACME-PT', code, date, value }));
  return client.call('POST', `${INDICATORS}/measurements`, { body });
}

describe('maintenance indicators at the edges of the calendar', () => {
  it('recalculates after a measurement dated 9999-12-15; forecasts and charts stop at 9999-12 (M1)', async () => {
    const ingested = await ingest([
      ['COST', '9999-10-15', 10],
      ['COST', '9999-11-15', 20],
      ['COST', '9999-12-15', 30],
      ['FAIL', '1900-01-01', 1],
    ]);
    expect(ingested.status, ingested.text).toBe(200);
    expect(await recalculate(client, 'default')).toBe(200);
    expect(await recalculate(client, 'default')).toBe(200);
    const chart = await client.call<{ period: string; value?: number | null }[]>(
      'GET',
      `${INDICATORS}/kpiChart/ACME-PT/COST?referenceDate=9999-12-31T23:59:59.999Z`,
    );
    expect(chart.status, chart.text).toBe(200);
    expect(chart.body.map((point) => point.period)).toEqual(
      Array.from({ length: 12 }, (_, index) => `9999-${String(index + 1).padStart(2, '0')}`),
    );
    expect(chart.body.at(-1)?.value).toBe(30);
    const early = await client.call<{ period: string }[]>('GET', `${INDICATORS}/kpiChart/ACME-PT/FAIL?referenceDate=1900-01-01`);
    expect(early.status, early.text).toBe(200);
    expect(early.body[0]?.period).toBe('1899-02');
    expect((await client.call('GET', `${INDICATORS}/getIndicatorSummaryByCode/ACME-PT/COST`)).status).toBe(200);
  });

  it('refuses measurements and chart dates outside the years 1900 to 9999, naming the field (M2)', async () => {
    const refused = await ingest([
      ['COST', '1899-12-31T23:59:59Z', 1],
      ['COST', '9999-12-31T23:30:00-01:00', 1],
      ['COST', '0000-01-01', 1],
    ]);
    for (const index of [0, 1, 2]) expectDateRefused(refused, `[${index}].date`);
    for (const date of ['9999-12-31T23:00:00-05:00', '0000-01-01', '1899-12-31']) {
      expectDateRefused(
        await client.call('GET', `${INDICATORS}/kpiChart/ACME-PT/COST?referenceDate=${encodeURIComponent(date)}`),
        'referenceDate',
      );
    }
    // An offset that lands inside the range is fine.
    const inside = await client.call(
      'GET',
      `${INDICATORS}/kpiChart/ACME-PT/COST?referenceDate=${encodeURIComponent('1899-12-31T23:00:00-02:00')}`,
    );
    expect(inside.status, inside.text).toBe(200);
  });
});

describe('other dates', () => {
  it('refuses entity date-times, lookup dates and OData date literals outside the range', async () => {
    const create = await client.call('POST', RATES, {
      body: { number: 2, validFrom: '0001-01-01', exchangeRateType: 1, isExternallyManaged: false },
    });
    expectDateRefused(create, 'validFrom');
    expectDateRefused(await client.call('PUT', `${RATES}/1/validFrom`, { body: '9999-12-31T22:00:00-03:00' }), 'validFrom');
    expect((await client.call('PUT', `${RATES}/1/validFrom`, { body: '9999-12-31T23:59:59Z' })).status).toBe(200);
    const lookup = await client.call('POST', LOOKUP, {
      body: { currencyFromKey: 'EUR', currencyToKey: 'USD', referencedDate: '1066-10-14' },
    });
    expectDateRefused(lookup, 'referencedDate');
    const odata = await client.call<Problem>('GET', `${RATES}/odata?$filter=${encodeURIComponent('validFrom gt 1800-01-01')}`);
    expect(odata.status).toBe(400);
    expect(odata.body.code).toBe('InvalidODataQuery');
    expect(odata.body.detail).toMatch(/years 1900 to 9999/);
  });
});
