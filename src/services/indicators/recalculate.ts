/**
 * Recalculation of a tenant/org's KPIs (runs inside its Durable Object, one at a time): aggregates each
 * series in SQL, computes the figures with the pure KPI math and replaces the materialized rows.
 */
import { and, eq, sql } from 'drizzle-orm';
import { chunkForParameters, scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import { runReads } from '../../db/reads';
import { runWrites } from '../../db/writes';
import type { WriteStatement } from '../../db/writes';
import { buildEventInsert } from '../../events/outbox';
import { kpiDefinitionsKind } from '../../reference/kinds';
import { loadStandardList } from '../../reference/store';
import { refCompanies, refKpiDefinitions, refWorkerConfigurations } from '../../reference/tables';
import { buildAggregateQuery, toRawAggregates } from './aggregate';
import type { SeriesKey } from './aggregate';
import { buildPeriodFigures, buildSummary, computeAggregateValue } from './kpi-math';
import type { Aggregation, KpiDefinition } from './kpi-math';
import { kpiPendingOrgs, kpiPeriods, kpiSeries, kpiSummaries } from './tables';

/** The change feed's resource of KPI recalculations (one event per recalculated series, key `company/code`). */
export const INDICATORS_RESOURCE = 'maintenance/indicators';
/** The actor of recalculation events: the tenant/org's coordinator, asked by the cron trigger or a request. */
const RECALCULATION_ACTOR = 'system';

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
async function loadInputs(db: Database, scope: TenantScope, configurationKey: string | null) {
  const scoped = (table: Parameters<typeof scopeCondition>[0]) => scopeCondition(table, scope);
  const [configurationRows, pendingRows, seriesRows, definitionRows, companyRows] = await db.batch([
    db
      .select()
      .from(refWorkerConfigurations)
      .where(and(scoped(refWorkerConfigurations), eq(refWorkerConfigurations.key, configurationKey ?? ''))),
    db.select().from(kpiPendingOrgs).where(scoped(kpiPendingOrgs)),
    db.select().from(kpiSeries).where(scoped(kpiSeries)),
    db.select().from(refKpiDefinitions).where(scoped(refKpiDefinitions)),
    db.select().from(refCompanies).where(scoped(refCompanies)),
  ]);
  const currencies = await loadStandardList(db, 'currencies');
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
  // Every recalculation of a series is an event carrying its new figures (version: the event's sequence).
  const seriesKey = `${series.company}/${series.code}`;
  const event = buildEventInsert(
    db,
    { tenantKey: scope.tenantKey, orgKey: scope.orgKey, occurredOn: summary.calculatedOn, actor: RECALCULATION_ACTOR },
    {
      resource: INDICATORS_RESOURCE,
      changeType: 'updated',
      recordId: seriesKey,
      key: seriesKey,
      version: 'sequence',
      changes: JSON.stringify({ recalculated: { ...summary, measurementsVersion: series.version } }),
    },
  );
  return [
    db.delete(kpiPeriods).where(where),
    ...chunkForParameters(periodRows, 8).map((chunk) => db.insert(kpiPeriods).values(chunk)),
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
    event,
  ];
}

/** A series to recalculate, with its KPI definition. */
interface SeriesJob {
  readonly series: SeriesRow;
  readonly definition: Definition;
}

/** Recalculates the series in groups: one batch of aggregate queries, then one batch of writes, per group. */
async function recalculateSeries(
  db: Database,
  scope: TenantScope,
  jobs: readonly SeriesJob[],
  inputs: Awaited<ReturnType<typeof loadInputs>>,
  now: Date,
): Promise<void> {
  for (let start = 0; start < jobs.length; start += SERIES_PER_BATCH) {
    const group = jobs.slice(start, start + SERIES_PER_BATCH);
    const results = await runReads(
      db,
      group.map(({ series, definition }) => buildAggregateQuery(db, scope, series, definition.aggregation)),
    );
    const writes = group.flatMap(({ series, definition }, index) => {
      const raw = toRawAggregates(definition.aggregation, results[index] ?? []);
      const values = new Map(raw.map((aggregate) => [aggregate.period, computeAggregateValue(definition.aggregation, aggregate)]));
      return buildWrites(db, scope, series, definition, values, inputs.symbols.get(series.company) ?? null, now);
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
  const inputs = await loadInputs(db, scope, request.configurationKey);
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
  await recalculateSeries(db, scope, jobs, inputs, now);
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
  return { status: 'done', series: jobs.length };
}
