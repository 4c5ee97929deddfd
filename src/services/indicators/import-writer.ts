/**
 * KPI measurements from a file (template `kpiMeasurements`: `company`, `code`, `date`, `value`), written as
 * POST /maintenance/indicators/measurements writes them: each row validated as one item of its body (the template's
 * check), its company and KPI code naming records that exist (`unknownReference`, as the API words it), then the
 * chunk's measurements ingested by the same statements (the series' versions, the tenant/org marked for the cron's
 * recalculation; the API writes no change event for measurements, and neither does the import). Measurements have no
 * natural key: both modes append. The chunk's measurements take ids from the table's highest on (read when the chunk
 * is planned; a measurement stored meanwhile refuses the chunk's batch, and the step runs again), and the ledger keeps
 * them with their values: an undo deletes as many equal measurements as the chunk added, its own ids first (a move of
 * the tenant/org renumbers them), marks their series for recalculation, and removes a series left without measurements
 * (with its materialized figures). No operation changes a measurement, so a revert never leaves one.
 */
import { and, inArray, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { FieldError } from '../../errors/api-error';
import { tryParse } from '../../resources/entities/import-template';
import type { ImportWriter, PlannedChunk, RowRefusal } from '../../resources/entities/import-writer';
import { message } from '../../messages/catalogue';
import { findReferences } from '../../resources/reference/store';
import type { FoundReferences } from '../../resources/reference/store';
import { stageStatements } from '../../tenant/staged-statements';
import type { TenantReader } from '../../tenant/session';
import type { Measurement } from './measurement-input';
import { parseMeasurements } from './measurement-input';
import { stageIngestion } from './measurements';
import { kpiMeasurements, kpiPendingOrgs, kpiPeriods, kpiSeries, kpiSummaries } from './tables';

async function planMeasurements(unit: TenantReader, rows: readonly { row: number; body: Readonly<Record<string, unknown>> }[]) {
  const refused: RowRefusal[] = [];
  const parsed: { row: number; measurement: Measurement }[] = [];
  for (const { row, body } of rows) {
    const { value: measurement, errors } = tryParse(() => parseMeasurements([body])[0]);
    if (errors.length > 0 || !measurement)
      refused.push({ row, errors: errors.map((error) => ({ ...error, path: error.path.replace(/^\[0\]\.?/, '') })) });
    else parsed.push({ row, measurement });
  }
  const uses = parsed.flatMap(({ measurement }) => [
    { kind: 'companies', key: measurement.company, path: 'company' },
    { kind: 'kpiDefinitions', key: measurement.code, path: 'code' },
  ]);
  const found: FoundReferences = uses.length > 0 ? await findReferences(unit, uses) : new Map();
  const accepted: Measurement[] = [];
  for (const { row, measurement } of parsed) {
    const errors: FieldError[] = [
      { kind: 'companies', key: measurement.company, path: 'company' },
      { kind: 'kpiDefinitions', key: measurement.code, path: 'code' },
    ]
      .filter((use) => !found.get(use.kind)?.has(use.key))
      .map((use) => ({ path: use.path, message: message('unknownReference', { kind: use.kind, key: use.key }) }));
    if (errors.length > 0) refused.push({ row, errors });
    else accepted.push(measurement);
  }
  return { refused, accepted };
}

/** The highest measurement id of the table (every tenant/org's: ids are the table's rowids). */
async function readLastId(unit: TenantReader): Promise<number> {
  const rows = await unit.read(sqlBuilder.select({ last: sql<number | null>`max(${kpiMeasurements.id})` }).from(kpiMeasurements));
  return rows[0]?.last ?? 0;
}

/** `(company, code) IN (...)` of a table's rows, for series given as `[[company, code], ...]`. */
function inSeries(table: { readonly company: SQLiteColumn; readonly code: SQLiteColumn }, pairs: string): SQL {
  return sql`(${table.company}, ${table.code}) IN (SELECT value ->> 0, value ->> 1 FROM json_each(${pairs}))`;
}

/** What the ledger keeps of each measurement a chunk added: `[company, code, measuredAt, valueMicros]`. */
type MeasurementImage = readonly [string, string, string, string];

/**
 * The delete of the stored measurements equal to one the import added (as many as it added), those with the ids it
 * gave them first: a move of the tenant/org renumbers measurements, and equal measurements are interchangeable.
 */
function buildMeasurementDelete(scope: TenantScope, image: MeasurementImage, count: number, ids: string) {
  const [company, code, measuredAt, micros] = image;
  const m = kpiMeasurements;
  const same = sql`${scopeCondition(m, scope)} AND ${m.company} = ${company} AND ${m.code} = ${code} AND ${m.period} = ${measuredAt.slice(0, 7)}
    AND ${m.measuredAt} = ${measuredAt} AND ${m.valueMicros} = ${micros}`;
  const chosen = sql`SELECT ${m.id} FROM ${m} WHERE ${same} ORDER BY ${m.id} IN (SELECT value FROM json_each(${ids})) DESC, ${m.id} DESC LIMIT ${count}`;
  return sqlBuilder.delete(m).where(inArray(m.id, sql`(${chosen})`));
}

/** The undo of measurements: deleted, their series marked, a series left empty removed with its figures, the tenant/org pending. */
function stageMeasurementsUndo(images: readonly MeasurementImage[], ids: readonly string[]) {
  const counts = new Map<string, { image: MeasurementImage; count: number }>();
  for (const image of images) {
    const key = JSON.stringify(image);
    counts.set(key, { image, count: (counts.get(key)?.count ?? 0) + 1 });
  }
  const pairs = JSON.stringify(
    [...new Set(images.map(([company, code]) => JSON.stringify([company, code])))].map((pair) => JSON.parse(pair) as unknown),
  );
  const idList = JSON.stringify(ids.map(Number));
  return stageStatements('kpi_measurements', ({ scope, stamp }) => {
    const empty = (table: typeof kpiSeries | typeof kpiPeriods | typeof kpiSummaries) =>
      and(
        scopeCondition(table, scope),
        inSeries(table, pairs),
        sql`NOT EXISTS (SELECT 1 FROM ${kpiMeasurements} WHERE ${scopeCondition(kpiMeasurements, scope)} AND ${kpiMeasurements.company} = ${table.company} AND ${kpiMeasurements.code} = ${table.code})`,
      );
    return [
      ...[...counts.values()].map(({ image, count }) => buildMeasurementDelete(scope, image, count, idList)),
      sqlBuilder
        .update(kpiSeries)
        .set({ version: sql`${kpiSeries.version} + 1` })
        .where(and(scopeCondition(kpiSeries, scope), inSeries(kpiSeries, pairs))),
      sqlBuilder.delete(kpiPeriods).where(empty(kpiPeriods)),
      sqlBuilder.delete(kpiSummaries).where(empty(kpiSummaries)),
      sqlBuilder.delete(kpiSeries).where(empty(kpiSeries)),
      sqlBuilder
        .insert(kpiPendingOrgs)
        .values({ tenantKey: scope.tenantKey, orgKey: scope.orgKey, version: 1, markedOn: stamp.on })
        .onConflictDoUpdate({
          target: [kpiPendingOrgs.tenantKey, kpiPendingOrgs.orgKey],
          set: { version: sql`${kpiPendingOrgs.version} + 1`, markedOn: stamp.on },
        }),
    ];
  });
}

export const measurementsImportWriter: ImportWriter = {
  async planChunk({ unit }, rows): Promise<PlannedChunk> {
    const { refused, accepted } = await planMeasurements(unit, rows);
    const firstId = accepted.length > 0 ? (await readLastId(unit)) + 1 : 0;
    const images: MeasurementImage[] = accepted.map((m) => [m.company, m.code, m.measuredAt, m.valueMicros]);
    return {
      refused,
      created: accepted.length,
      updated: 0,
      createdIds: accepted.map((_, index) => String(firstId + index)),
      changed: images,
      stage: (batch) => {
        if (accepted.length > 0) batch.stage(stageIngestion(accepted, firstId));
      },
    };
  },
  async planUndo(_unit, chunk) {
    const images = chunk.changed as MeasurementImage[];
    return {
      stage(batch) {
        if (images.length > 0) batch.stage(stageMeasurementsUndo(images, chunk.createdIds));
        return () => ({ deleted: images.length, restored: 0, kept: [] });
      },
    };
  },
};
