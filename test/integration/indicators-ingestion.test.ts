/**
 * KPI ingestion in one batch: the rows travel as JSON through json_each (several statements when a batch's JSON is
 * large), the reference check rides in the same batch, and nothing is written unless everything is.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

const MEASUREMENTS = '/maintenance/indicators/measurements';
// Keys of 60 characters: 5000 measurements then take two statements of JSON (under the 1 MiB body limit).
const COMPANY = `C${'x'.repeat(59)}`;
const CODES = ['A', 'B', 'C'].map((letter) => `${letter}${'k'.repeat(59)}`);

let client: TenantClient;

async function queryAll<T>(query: string): Promise<T[]> {
  const db = await openClientD1(client);
  const { results } = await db.prepare(query).bind(client.tenant, client.org).all<T>();
  return results;
}

function bulk(count: number): { company: string; code: string; date: string; value: number | string }[] {
  return Array.from({ length: count }, (_, index) => ({
    company: COMPANY,
    code: CODES[index % CODES.length] ?? '',
    date: new Date(Date.UTC(2025, index % 12, 1 + (index % 28), index % 24)).toISOString(),
    value: index % 2 ? (index % 1000) / 8 : `-${index}.000001`,
  }));
}

beforeEach(async () => {
  client = await freshTenant('ingest');
  for (const [kind, body] of [
    ['companies', [{ key: COMPANY, name: 'Long company', baseCurrency: 'EUR' }]],
    ['kpiDefinitions', CODES.map((key) => ({ key, name: key, valueType: 'Number', valueFractionDigits: 2, aggregation: 'sum' }))],
  ] as const) {
    const result = await client.call('PUT', `/referenceData/${kind}`, { body });
    expect(result.status, result.text).toBe(200);
  }
});

describe('KPI ingestion', () => {
  it('stores 5000 measurements spread over two JSON statements exactly, and bumps each series once', async () => {
    const items = bulk(5000);
    expect(JSON.stringify(items.map((item) => [item.company, item.code, item.date, '-1234000001'])).length).toBeGreaterThan(600_000);
    const result = await client.call('POST', MEASUREMENTS, { body: items });
    expect(result.status, result.text).toBe(200);
    expect(result.body).toEqual({ accepted: 5000 });
    const expectedMicros = items.reduce((sum, item) => sum + BigInt(Math.round(Number(item.value) * 1e6)), 0n);
    const [totals] = await queryAll<{ n: number; micros: string; periods: number; kinds: string }>(
      `SELECT count(*) AS n, CAST(sum(value_micros) AS TEXT) AS micros, count(DISTINCT period) AS periods,
         group_concat(DISTINCT typeof(value_micros)) AS kinds FROM kpi_measurements WHERE tenant_key = ? AND org_key = ?`,
    );
    expect(totals).toEqual({ n: 5000, micros: String(expectedMicros), periods: 12, kinds: 'integer' });
    const mismatched = await queryAll(
      `SELECT 1 FROM kpi_measurements WHERE tenant_key = ? AND org_key = ? AND period <> substr(measured_at, 1, 7)`,
    );
    expect(mismatched).toEqual([]);
    expect((await client.call('POST', MEASUREMENTS, { body: bulk(3) })).status).toBe(200);
    const series = await queryAll<{ code: string; version: number }>(
      'SELECT code, version FROM kpi_series WHERE tenant_key = ? AND org_key = ? ORDER BY code',
    );
    expect(series).toEqual(CODES.map((code) => ({ code, version: 2 })));
  });

  it('keeps the extreme values exact', async () => {
    const items = [
      { company: COMPANY, code: CODES[0], date: '1900-01-01T00:00:00.000Z', value: '999999999999.999999' },
      { company: COMPANY, code: CODES[0], date: '9999-12-31T23:59:59.999Z', value: '-999999999999.999999' },
      { company: COMPANY, code: CODES[0], date: '2024-02-29', value: 0.000001 },
    ];
    expect((await client.call('POST', MEASUREMENTS, { body: items })).status).toBe(200);
    const rows = await queryAll<{ micros: string; period: string; measured_at: string }>(
      `SELECT CAST(value_micros AS TEXT) AS micros, period, measured_at FROM kpi_measurements
       WHERE tenant_key = ? AND org_key = ? ORDER BY measured_at`,
    );
    expect(rows).toEqual([
      { micros: '999999999999999999', period: '1900-01', measured_at: '1900-01-01T00:00:00.000Z' },
      { micros: '1', period: '2024-02', measured_at: '2024-02-29T00:00:00.000Z' },
      { micros: '-999999999999999999', period: '9999-12', measured_at: '9999-12-31T23:59:59.999Z' },
    ]);
  });

  it('refuses the whole batch when its last measurement names an unknown code: nothing of either statement is kept', async () => {
    const items = bulk(5000);
    items[4999] = { ...items[4999], code: 'UNKNOWN' } as (typeof items)[number];
    items[7] = { ...items[7], company: 'NOPE' } as (typeof items)[number];
    const result = await client.call<Problem>('POST', MEASUREMENTS, { body: items });
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('UnknownReference');
    expect(result.body.errors).toEqual([
      { path: '[7].company', message: expect.stringMatching(/companies.*'NOPE'/) },
      { path: '[4999].code', message: expect.stringMatching(/kpiDefinitions.*'UNKNOWN'/) },
    ]);
    const left = await queryAll('SELECT 1 FROM kpi_measurements WHERE tenant_key = ? AND org_key = ? LIMIT 1');
    const series = await queryAll('SELECT 1 FROM kpi_series WHERE tenant_key = ? AND org_key = ? LIMIT 1');
    const pending = await queryAll('SELECT 1 FROM kpi_pending_orgs WHERE tenant_key = ? AND org_key = ? LIMIT 1');
    expect([left, series, pending]).toEqual([[], [], []]);
  });

  it('keeps the body order of measurements of one series at the same instant (the later one is ingested last)', async () => {
    const at = '2026-05-01T08:00:00.000Z';
    const items = [
      { company: COMPANY, code: CODES[1], date: at, value: 1 },
      { company: COMPANY, code: CODES[0], date: at, value: 2 },
      { company: COMPANY, code: CODES[1], date: '2026-04-01T00:00:00.000Z', value: 3 },
      { company: COMPANY, code: CODES[1], date: at, value: 4 },
      { company: COMPANY, code: CODES[1], date: at, value: 5 },
    ];
    expect((await client.call('POST', MEASUREMENTS, { body: items })).status).toBe(200);
    const rows = await queryAll<{ micros: string }>(
      `SELECT CAST(value_micros AS TEXT) AS micros FROM kpi_measurements
       WHERE tenant_key = ? AND org_key = ? AND code = '${CODES[1]}' AND measured_at = '${at}' ORDER BY id`,
    );
    expect(rows.map((row) => row.micros)).toEqual(['1000000', '4000000', '5000000']);
  });
});
