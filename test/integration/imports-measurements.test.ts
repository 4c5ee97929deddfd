/**
 * File imports of KPI measurements (template `kpiMeasurements`): written as POST /maintenance/indicators/measurements
 * writes them (its checks and messages, the series marked for recalculation), a failing row skipped, a revert that
 * deletes what the import added (and a series it left empty), tenant/org isolation.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { revertTemplate, uploadCsv, waitForImportEnd } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { kpiReferenceData } from '../helpers/indicators';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant, siblingOrg } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('imp');
  await kpiReferenceData(client);
});

/** The tenant/org's measurements and series, straight from D1. */
async function readStored(on: TenantClient = client) {
  const db = await openClientD1(on);
  const measurements = await db
    .prepare(
      'SELECT company, code, measured_at AS measuredAt, value_micros AS micros FROM kpi_measurements WHERE tenant_key = ? AND org_key = ? ORDER BY id',
    )
    .bind(on.tenant, on.org)
    .all<{ company: string; code: string; measuredAt: string; micros: number }>();
  const series = await db
    .prepare('SELECT company, code FROM kpi_series WHERE tenant_key = ? AND org_key = ? ORDER BY company, code')
    .bind(on.tenant, on.org)
    .all<{ company: string; code: string }>();
  return { measurements: measurements.results, series: series.results };
}

const HEADER = 'company;code;date;value';

describe('kpiMeasurements template', () => {
  it('ingests the valid rows as POST /measurements would, reports the others with its messages', async () => {
    const csv = `${HEADER}\nACME-PT;COST;2026-01-15;12.5\nACME-PT;NOPE;2026-01-15;1\nACME-US;FAIL;2026-02-01T10:00:00Z;x\nACME-US;FAIL;2026-02-01T10:00:00Z;3\n`;
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=kpiMeasurements', csv)).id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 4, rowsCreated: 2, rowsFailed: 2 });
    const stored = await readStored();
    expect(stored.measurements).toEqual([
      { company: 'ACME-PT', code: 'COST', measuredAt: '2026-01-15T00:00:00.000Z', micros: 12_500_000 },
      { company: 'ACME-US', code: 'FAIL', measuredAt: '2026-02-01T10:00:00.000Z', micros: 3_000_000 },
    ]);
    expect(stored.series).toEqual([
      { company: 'ACME-PT', code: 'COST' },
      { company: 'ACME-US', code: 'FAIL' },
    ]);
    const failures = await client.call<string>('GET', `${IMPORTS}/${ended.id}/failures`);
    const lines = failures.text.trim().split('\r\n').slice(1);
    expect(lines.map((line) => line.split(',').slice(0, 2).join(','))).toEqual(['3,code', '4,value']);
    expect(lines[0]).toContain("There is no kpiDefinitions record with key 'NOPE'");
  });

  it('revert deletes the measurements it added and a series it left empty; the others stay; twice: nothing', async () => {
    const before = await client.call('POST', '/maintenance/indicators/measurements', {
      body: [{ company: 'ACME-PT', code: 'COST', date: '2026-01-01', value: 1 }],
    });
    expect(before.status, before.text).toBe(200);
    const csv = `${HEADER}\nACME-PT;COST;2026-01-20;2\nACME-US;PEAK;2026-01-20;7\n`;
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=kpiMeasurements', csv)).id);
    expect(ended).toMatchObject({ importDataState: 3, rowsCreated: 2 });
    expect((await readStored()).measurements).toHaveLength(3);
    const revert = await revertTemplate(client, 'kpiMeasurements');
    expect(revert).toMatchObject({ revertedTypeMessage: 1 });
    expect(revert.message).toContain('2 record(s) it created were deleted.');
    expect(await readStored()).toEqual({
      measurements: [{ company: 'ACME-PT', code: 'COST', measuredAt: '2026-01-01T00:00:00.000Z', micros: 1_000_000 }],
      series: [{ company: 'ACME-PT', code: 'COST' }],
    });
    // The company and KPI definition its series used are free again.
    expect((await client.call('DELETE', '/referenceData/kpiDefinitions/PEAK')).status).toBe(204);
    const again = await revertTemplate(client, 'kpiMeasurements');
    expect(again.message).toContain('no succeeded import left');
    expect((await readStored()).measurements).toHaveLength(1);
  });

  it('failOnErrors leaves nothing written', async () => {
    const csv = `${HEADER}\nACME-PT;COST;2026-01-20;2\nACME-PT;COST;not a date;2\n`;
    const ended = await waitForImportEnd(client, (await uploadCsv(client, 'importDataTemplate=kpiMeasurements&failOnErrors=true', csv)).id);
    expect(ended).toMatchObject({ importDataState: 4, rowsFailed: 1 });
    expect(await readStored()).toEqual({ measurements: [], series: [] });
  });

  it('another tenant or org gets none of the measurements, and cannot read the import', async () => {
    const started = await uploadCsv(client, 'importDataTemplate=kpiMeasurements', `${HEADER}\nACME-PT;COST;2026-01-20;2\n`);
    expect(await waitForImportEnd(client, started.id)).toMatchObject({ importDataState: 3, rowsCreated: 1 });
    for (const other of [await freshTenant('imp'), await siblingOrg(client)]) {
      expect(await readStored(other)).toEqual({ measurements: [], series: [] });
      expect((await other.call('GET', `${IMPORTS}/${started.id}`)).status).toBe(404);
      expect((await other.call('GET', `${IMPORTS}/${started.id}/failures`)).status).toBe(404);
    }
    expect((await readStored()).measurements).toHaveLength(1);
  });
});
