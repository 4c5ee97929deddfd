/**
 * Recalculation of a tenant/org's KPIs (runs inside its Durable Object, one at a time): aggregates each
 * series in SQL, computes the figures with the pure KPI math and replaces the materialized rows.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { chunkRows } from '../../db/client';
import type { Database } from '../../db/client';
import { runWrites } from '../../db/writes';
import type { WriteStatement } from '../../db/writes';
import type { TenantScope } from '../../db/client';
import { readStandardList } from '../../reference/store';
import { readReferenceTable } from '../../reference/tables';
import { buildAggregateQuery, readRawAggregates } from './aggregate';
import type { SeriesKey } from './aggregate';
import { buildPeriodFigures, buildSummary, readAggregateValue } from './kpi-math';
import type { Aggregation, KpiDefinition } from './kpi-math';
import { kpiPendingOrgs, kpiPeriods, kpiSeries, kpiSummaries } from './tables';

/** Series aggregated per D1 round trip (their writes share one batch too). */
const SERIES_PER_BATCH = 8;

export interface RecalculationRequest {
  /** A worker configuration key, or null for every series of the tenant/org. */
  readonly configurationKey: string | null;
  /** Only series with measurements newer than their last recalculation (the cron trigger). */
  readonly onlyChanged: boolean;
}

export type RecalculationOutcome = { readonly status: 'done'; readonly series: number } | { readonly status: 'unknownConfiguration' };

interface Definition extends KpiDefinition {
  readonly aggregation: Aggregation;
}

interface SeriesRow extends SeriesKey {
  readonly version: number;
  readonly calculatedVersion: number;
}

function scoped(kind: string, scope: TenantScope) {
  const table = readReferenceTable(kind);
  const columns = table as unknown as Record<string, SQLiteColumn>;
  return {
    table,
    columns,
    where: and(eq(columns.tenantKey as SQLiteColumn, scope.tenantKey), eq(columns.orgKey as SQLiteColumn, scope.orgKey)),
  };
}

async function readInputs(db: Database, scope: TenantScope, configurationKey: string | null) {
  const configurations = scoped('workerConfigurations', scope);
  const definitions = scoped('kpiDefinitions', scope);
  const companies = scoped('companies', scope);
  const keyColumn = configurations.columns.key as SQLiteColumn;
  const [configurationRows, pendingRows, seriesRows, definitionRows, companyRows] = await db.batch([
    db
      .select()
      .from(configurations.table)
      .where(and(configurations.where, eq(keyColumn, configurationKey ?? ''))),
    db
      .select()
      .from(kpiPendingOrgs)
      .where(and(eq(kpiPendingOrgs.tenantKey, scope.tenantKey), eq(kpiPendingOrgs.orgKey, scope.orgKey))),
    db
      .select()
      .from(kpiSeries)
      .where(and(eq(kpiSeries.tenantKey, scope.tenantKey), eq(kpiSeries.orgKey, scope.orgKey))),
    db.select().from(definitions.table).where(definitions.where),
    db.select().from(companies.table).where(companies.where),
  ]);
  const currencies = await readStandardList(db, 'currencies');
  const symbols = new Map(
    (companyRows as Record<string, unknown>[]).map((row) => [
      String(row.key),
      (currencies.get(String(row.baseCurrency))?.symbol as string | undefined) ?? null,
    ]),
  );
  const definitionMap = new Map<string, Definition>(
    (definitionRows as Record<string, unknown>[]).map((row) => [
      String(row.key),
      {
        valueType: row.valueType as Definition['valueType'],
        valueFractionDigits: Number(row.valueFractionDigits),
        aggregation: row.aggregation as Aggregation,
        higherIsBetter: Boolean(row.higherIsBetter),
      },
    ]),
  );
  const configuration = configurationRows[0] as { companies?: string[]; codes?: string[] } | undefined;
  return { configuration, pendingVersion: pendingRows[0]?.version, series: seriesRows as SeriesRow[], definitions: definitionMap, symbols };
}

function buildWrites(
  db: Database,
  scope: TenantScope,
  series: SeriesRow,
  definition: Definition,
  values: Map<string, string>,
  symbol: string | null,
  now: Date,
): WriteStatement[] {
  const key = { tenantKey: scope.tenantKey, orgKey: scope.orgKey, company: series.company, code: series.code };
  const where = and(
    eq(kpiPeriods.tenantKey, scope.tenantKey),
    eq(kpiPeriods.orgKey, scope.orgKey),
    eq(kpiPeriods.company, series.company),
    eq(kpiPeriods.code, series.code),
  );
  const periodRows = buildPeriodFigures(values).map((figures) => ({ ...key, ...figures }));
  const { period, value, homologValue, variation, trend, result, valueType, valueFractionDigits, currencySymbol } = buildSummary(
    values,
    definition,
    symbol,
  );
  const summary = {
    period,
    value,
    homologValue,
    variation,
    trend,
    result,
    valueType,
    valueFractionDigits,
    currencySymbol,
    calculatedOn: now.toISOString(),
  };
  return [
    db.delete(kpiPeriods).where(where),
    ...chunkRows(periodRows, 8).map((chunk) => db.insert(kpiPeriods).values(chunk)),
    db
      .insert(kpiSummaries)
      .values({ ...key, ...summary })
      .onConflictDoUpdate({ target: [kpiSummaries.tenantKey, kpiSummaries.orgKey, kpiSummaries.company, kpiSummaries.code], set: summary }),
    db
      .update(kpiSeries)
      .set({ calculatedVersion: sql`MAX(${kpiSeries.calculatedVersion}, ${series.version})` })
      .where(
        and(
          eq(kpiSeries.tenantKey, scope.tenantKey),
          eq(kpiSeries.orgKey, scope.orgKey),
          eq(kpiSeries.company, series.company),
          eq(kpiSeries.code, series.code),
        ),
      ),
  ];
}

/** Recalculates `series` in groups: one batch of aggregate queries, then one batch of writes, per group. */
async function recalculateSeries(
  db: Database,
  scope: TenantScope,
  series: readonly SeriesRow[],
  inputs: Awaited<ReturnType<typeof readInputs>>,
  now: Date,
): Promise<void> {
  for (let start = 0; start < series.length; start += SERIES_PER_BATCH) {
    const group = series.slice(start, start + SERIES_PER_BATCH);
    const queries = group.map((item) =>
      buildAggregateQuery(db, scope, item, (inputs.definitions.get(item.code) as Definition).aggregation),
    );
    const [first, ...rest] = queries;
    if (!first) continue;
    const results = await db.batch([first, ...rest]);
    const writes = group.flatMap((item, index) => {
      const definition = inputs.definitions.get(item.code) as Definition;
      const raw = readRawAggregates(definition.aggregation, results[index] ?? []);
      const values = new Map(raw.map((aggregate) => [aggregate.period, readAggregateValue(definition.aggregation, aggregate)]));
      return buildWrites(db, scope, item, definition, values, inputs.symbols.get(item.company) ?? null, now);
    });
    await runWrites(db, writes);
  }
}

export async function recalculateIndicators(
  db: Database,
  scope: TenantScope,
  request: RecalculationRequest,
  now: Date,
): Promise<RecalculationOutcome> {
  const inputs = await readInputs(db, scope, request.configurationKey);
  if (request.configurationKey !== null && !inputs.configuration) return { status: 'unknownConfiguration' };
  const companies = new Set(inputs.configuration?.companies ?? []);
  const codes = new Set(inputs.configuration?.codes ?? []);
  const selected = inputs.series.filter(
    (item) =>
      (companies.size === 0 || companies.has(item.company)) &&
      (codes.size === 0 || codes.has(item.code)) &&
      (!request.onlyChanged || item.version !== item.calculatedVersion) &&
      // Definitions in use cannot be deleted; a series without one has nothing to compute.
      inputs.definitions.has(item.code),
  );
  await recalculateSeries(db, scope, selected, inputs, now);
  if (companies.size === 0 && codes.size === 0 && inputs.pendingVersion !== undefined) {
    // Measurements ingested meanwhile bumped the version: the org then stays pending for the next run.
    await runWrites(db, [
      db
        .delete(kpiPendingOrgs)
        .where(
          and(
            eq(kpiPendingOrgs.tenantKey, scope.tenantKey),
            eq(kpiPendingOrgs.orgKey, scope.orgKey),
            eq(kpiPendingOrgs.version, inputs.pendingVersion),
          ),
        ),
    ]);
  }
  return { status: 'done', series: selected.length };
}
