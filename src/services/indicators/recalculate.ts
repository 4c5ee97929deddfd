/**
 * Recalculation of a tenant/org's KPIs (runs inside its Durable Object, one at a time): aggregates each
 * series in SQL, computes the figures with the pure KPI math and replaces the materialized rows.
 */
import { and, eq } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import { kpiDefinitionsKind } from '../../resources/reference/kinds';
import { loadStandardList } from '../../resources/reference/store';
import { refCompanies, refKpiDefinitions, refWorkerConfigurations } from '../../resources/reference/tables';
import { buildAggregateQuery, toRawAggregates } from './aggregate';
import type { SeriesKey } from './aggregate';
import { computeAggregateValue } from './kpi-math';
import type { Aggregation, KpiDefinition } from './kpi-math';
import { stagePendingClear, stageSeriesRecalculation } from './recalculate-writes';
import { kpiPendingOrgs, kpiSeries } from './tables';
import { commitAlone } from '../../tenant/unit-of-work';
import type { TenantReader, TenantSession } from '../../tenant/session';

/** The actor of recalculations (their audit stamp): the tenant/org's coordinator, asked by the cron trigger or a request. */
export const RECALCULATION_ACTOR = 'system';

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

const VALUE_TYPES = kpiDefinitionsKind.fields.valueType.choices;
const AGGREGATIONS = kpiDefinitionsKind.fields.aggregation.choices;

/** A stored definition as the KPI math takes it (stored choices are validated on upsert; anything else is skipped). */
function toDefinition(row: typeof refKpiDefinitions.$inferSelect): Definition | undefined {
  const valueType = VALUE_TYPES.find((choice) => choice === row.valueType);
  const aggregation = AGGREGATIONS.find((choice) => choice === row.aggregation);
  if (!valueType || !aggregation) return undefined;
  return { valueType, valueFractionDigits: row.valueFractionDigits, aggregation, higherIsBetter: row.higherIsBetter };
}

/** Everything a recalculation reads before it aggregates, in one batch. */
async function loadInputs(tenant: TenantReader, configurationKey: string | null) {
  const scoped = (table: Parameters<typeof scopeCondition>[0]) => scopeCondition(table, tenant.scope);
  const [configurationRows, pendingRows, seriesRows, definitionRows, companyRows] = await tenant.readBatch([
    sqlBuilder
      .select()
      .from(refWorkerConfigurations)
      .where(and(scoped(refWorkerConfigurations), eq(refWorkerConfigurations.key, configurationKey ?? ''))),
    sqlBuilder.select().from(kpiPendingOrgs).where(scoped(kpiPendingOrgs)),
    sqlBuilder.select().from(kpiSeries).where(scoped(kpiSeries)),
    sqlBuilder.select().from(refKpiDefinitions).where(scoped(refKpiDefinitions)),
    sqlBuilder.select().from(refCompanies).where(scoped(refCompanies)),
  ]);
  const currencies = await loadStandardList(tenant, 'currencies');
  const symbols = new Map(
    companyRows.map((row) => {
      const symbol = currencies.get(row.baseCurrency)?.symbol;
      return [row.key, typeof symbol === 'string' ? symbol : null];
    }),
  );
  const definitions = new Map<string, Definition>();
  for (const row of definitionRows) {
    const definition = toDefinition(row);
    if (definition) definitions.set(row.key, definition);
  }
  return { configuration: configurationRows[0], pendingVersion: pendingRows[0]?.version, series: seriesRows, definitions, symbols };
}

/** A series to recalculate, with its KPI definition. */
interface SeriesJob {
  readonly series: SeriesRow;
  readonly definition: Definition;
}

/** Recalculates the series in groups: one batch of aggregate queries, then one batch of the unit's writes, per group. */
async function recalculateSeries(
  unit: TenantSession,
  jobs: readonly SeriesJob[],
  symbols: ReadonlyMap<string, string | null>,
): Promise<void> {
  const { scope } = unit;
  for (let start = 0; start < jobs.length; start += SERIES_PER_BATCH) {
    const group = jobs.slice(start, start + SERIES_PER_BATCH);
    const results = await unit.readBatch(group.map(({ series, definition }) => buildAggregateQuery(scope, series, definition.aggregation)));
    const batch = unit.openBatch();
    group.forEach(({ series, definition }, index) => {
      const raw = toRawAggregates(definition.aggregation, results[index] ?? []);
      const values = new Map(raw.map((aggregate) => [aggregate.period, computeAggregateValue(definition.aggregation, aggregate)]));
      batch.stage(stageSeriesRecalculation({ series, definition, values, symbol: symbols.get(series.company) ?? null }));
    });
    await batch.commit();
  }
}

/**
 * Recalculates the tenant/org's KPIs in its unit of work (opened by its coordinator, stamped with the calculation's
 * time and `system`): the series selected, then the org's pending mark cleared when every series was asked for.
 */
export async function recalculateIndicators(unit: TenantSession, request: RecalculationRequest): Promise<RecalculationOutcome> {
  const inputs = await loadInputs(unit, request.configurationKey);
  if (request.configurationKey !== null && !inputs.configuration) return { status: 'unknownConfiguration' };
  const companies = new Set(inputs.configuration?.companies ?? []);
  const codes = new Set(inputs.configuration?.codes ?? []);
  const jobs = inputs.series.flatMap((series): SeriesJob[] => {
    // Definitions in use cannot be deleted; a series without one has nothing to compute.
    const definition = inputs.definitions.get(series.code);
    const selected =
      (companies.size === 0 || companies.has(series.company)) &&
      (codes.size === 0 || codes.has(series.code)) &&
      (!request.onlyChanged || series.version !== series.calculatedVersion);
    return definition && selected ? [{ series, definition }] : [];
  });
  await recalculateSeries(unit, jobs, inputs.symbols);
  const { pendingVersion } = inputs;
  if (companies.size === 0 && codes.size === 0 && pendingVersion !== undefined) {
    // Measurements ingested meanwhile bumped the version: the org then stays pending for the next run.
    await commitAlone(unit, (batch) => batch.stage(stagePendingClear(pendingVersion)));
  }
  return { status: 'done', series: jobs.length };
}
