/** `POST /maintenance/indicators/measurements`: all-or-nothing ingestion of validated measurements (measurement-input.ts). */
import { sql } from 'drizzle-orm';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import { writeUnderRules } from '../../db/rules';
import type { WriteStatement } from '../../db/writes';
import { checkReferencesExist } from '../../resources/reference/store';
import { stageStatements } from '../../tenant/staged-statements';
import { commitAlone } from '../../tenant/unit-of-work';
import type { TenantReader, TenantSession } from '../../tenant/session';
import type { StagedWrite } from '../../tenant/unit-of-work';
import type { ReferenceUse } from '../../resources/reference/store';
import type { Measurement } from './measurement-input';
import { kpiMeasurements, kpiPendingOrgs, kpiSeries } from './tables';

/** 400 UnknownReference naming every measurement whose company or KPI code is unknown (reads). */
async function checkMeasurementReferences(tenant: TenantReader, measurements: readonly Measurement[]): Promise<void> {
  const uses: ReferenceUse[] = measurements.flatMap((measurement, index) => [
    { kind: 'companies', key: measurement.company, path: `[${index}].company` },
    { kind: 'kpiDefinitions', key: measurement.code, path: `[${index}].code` },
  ]);
  if (uses.length > 0) await checkReferencesExist(tenant, uses);
}

/**
 * Characters of JSON bound to one statement: D1 keeps a bound value under 2,000,000 bytes, and a UTF-16 unit is at
 * most 3 bytes of UTF-8. A batch of 5000 ordinary measurements fits in one statement.
 */
const MAX_JSON_CHARS = 600_000;

/** Splits encoded rows into JSON arrays of at most MAX_JSON_CHARS characters each, with the index of each one's first row. */
function buildJsonChunks(rows: readonly string[]): { json: string; first: number }[] {
  const chunks: { json: string; first: number }[] = [];
  let current: string[] = [];
  let size = 2;
  let first = 0;
  for (const row of rows) {
    if (current.length > 0 && size + row.length + 1 > MAX_JSON_CHARS) {
      chunks.push({ json: `[${current.join(',')}]`, first });
      first += current.length;
      current = [];
      size = 2;
    }
    current.push(row);
    size += row.length + 1;
  }
  if (current.length > 0) chunks.push({ json: `[${current.join(',')}]`, first });
  return chunks;
}

/**
 * The measurements' write, staged in the request's (or a file import's) unit of work: the rows travel as JSON, one bound value per
 * statement, and SQLite unpacks them with json_each: one `INSERT ... SELECT` for the measurements (per chunk of
 * MAX_JSON_CHARS) and one upsert for the series, whatever the batch size, instead of one statement per 14 rows (D1's
 * 100 bound parameters); then the mark of the tenant/org as pending for the cron trigger (at the unit's time). The
 * series upsert meets the trigger that refuses an unknown company or KPI code (`kpi_series_references_insert`,
 * rule:unknown_reference), which aborts the whole batch.
 */
export function stageIngestion(measurements: readonly Measurement[], firstId?: number): StagedWrite<void> {
  return stageStatements('kpi_measurements', ({ scope, stamp }) => buildIngestion(scope, measurements, stamp.on, firstId));
}

/** The ingestion's statements; with `firstId`, the measurements take the ids from it on, in body order (file imports). */
function buildIngestion(scope: TenantScope, measurements: readonly Measurement[], markedOn: string, firstId?: number): WriteStatement[] {
  const rows = measurements.map((m) => JSON.stringify([m.company, m.code, m.measuredAt, m.valueMicros]));
  const seriesJson = `[${[...new Set(measurements.map((m) => JSON.stringify([m.company, m.code])))].join(',')}]`;
  return [
    // id: NULL takes the next rowid (a file import gives its own, so that its ledger knows them); period is the UTC month (`YYYY-MM`) of the canonical date; the micros, bound as
    // text, are stored as an exact 64-bit integer by the column's INTEGER affinity. Rows go in the order of the
    // series index (fewer pages touched than in arrival order); measurements of one series at the same instant keep
    // their order in the body (`key`, the array index), so the later one still gets the higher id (`last`).
    ...buildJsonChunks(rows).map(({ json, first }) =>
      sqlBuilder
        .insert(kpiMeasurements)
        .select(
          sql`SELECT ${firstId === undefined ? sql`NULL` : sql`${firstId + first} + key`}, ${scope.tenantKey}, ${scope.orgKey}, value ->> 0, value ->> 1, value ->> 2, substr(value ->> 2, 1, 7), value ->> 3 FROM json_each(${json}) ORDER BY value ->> 0, value ->> 1, value ->> 2, key`,
        ),
    ),
    sqlBuilder
      .insert(kpiSeries)
      // `WHERE true` keeps SQLite from reading ON CONFLICT as part of the SELECT.
      .select(sql`SELECT ${scope.tenantKey}, ${scope.orgKey}, value ->> 0, value ->> 1, 1, 0 FROM json_each(${seriesJson}) WHERE true`)
      .onConflictDoUpdate({
        target: [kpiSeries.tenantKey, kpiSeries.orgKey, kpiSeries.company, kpiSeries.code],
        set: { version: sql`${kpiSeries.version} + 1` },
      }),
    sqlBuilder
      .insert(kpiPendingOrgs)
      .values({ tenantKey: scope.tenantKey, orgKey: scope.orgKey, version: 1, markedOn })
      .onConflictDoUpdate({
        target: [kpiPendingOrgs.tenantKey, kpiPendingOrgs.orgKey],
        set: { version: sql`${kpiPendingOrgs.version} + 1`, markedOn },
      }),
  ];
}

/**
 * Writes the measurements all-or-nothing in the unit of work (one batch: one transaction, one round trip; see
 * `stageIngestion`). When the database refuses an unknown company or KPI code, reads name every one (400
 * UnknownReference).
 */
export async function ingestMeasurements(unit: TenantSession, measurements: readonly Measurement[]): Promise<void> {
  if (measurements.length === 0) return;
  await writeUnderRules(
    () => commitAlone(unit, (batch) => batch.stage(stageIngestion(measurements))),
    () => checkMeasurementReferences(unit, measurements),
    ['company', 'code'],
  );
}
