/**
 * The writes of one recalculated series, staged in the recalculation's unit of work (src/tenant/unit-of-work.ts):
 * its monthly figures replaced, its summary upserted, its series marked calculated, and its `updated` event (built by
 * the commit path) carrying the new figures. Planned at commit: the unit's stamp is the calculation's time.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { chunkForParameters } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { WriteStatement } from '../../db/writes';
import { planStatement, stageStatements } from '../../tenant/staged-statements';
import type { StagedWrite } from '../../tenant/unit-of-work';
import type { SeriesKey } from './aggregate';
import { buildPeriodFigures, buildSummary } from './kpi-math';
import type { KpiDefinition } from './kpi-math';
import { kpiPendingOrgs, kpiPeriods, kpiSeries, kpiSummaries } from './tables';

/** The change feed's resource of KPI recalculations (one event per recalculated series, key `company/code`). */
const INDICATORS_RESOURCE = 'maintenance/indicators';

/** A series' figures to write: its key and measurements version, its definition, its values per period, its symbol. */
interface SeriesFigures {
  readonly series: SeriesKey & { readonly version: number };
  readonly definition: KpiDefinition;
  readonly values: ReadonlyMap<string, string>;
  readonly symbol: string | null;
}

/** The summary columns of a series (its key apart), in the order its event lists them. */
type SummaryColumns = Omit<typeof kpiSummaries.$inferInsert, 'tenantKey' | 'orgKey' | 'company' | 'code'>;

function buildSummaryColumns(figures: SeriesFigures, calculatedOn: string): SummaryColumns {
  const { period, value, homologValue, variation, trend, result, valueType, valueFractionDigits, currencySymbol } = buildSummary(
    figures.values,
    figures.definition,
    figures.symbol,
  );
  return { period, value, homologValue, variation, trend, result, valueType, valueFractionDigits, currencySymbol, calculatedOn };
}

function seriesCondition(table: typeof kpiPeriods | typeof kpiSeries, scope: TenantScope, series: SeriesKey): SQL | undefined {
  return and(
    eq(table.tenantKey, scope.tenantKey),
    eq(table.orgKey, scope.orgKey),
    eq(table.company, series.company),
    eq(table.code, series.code),
  );
}

/** The series' monthly figures replaced, its summary upserted and its series marked calculated up to its version. */
function buildSeriesWrites(scope: TenantScope, figures: SeriesFigures, summary: SummaryColumns): WriteStatement[] {
  const { series } = figures;
  const key = { tenantKey: scope.tenantKey, orgKey: scope.orgKey, company: series.company, code: series.code };
  const periodRows = buildPeriodFigures(figures.values).map((row): typeof kpiPeriods.$inferInsert => ({ ...key, ...row }));
  const summaryKey = [kpiSummaries.tenantKey, kpiSummaries.orgKey, kpiSummaries.company, kpiSummaries.code];
  return [
    sqlBuilder.delete(kpiPeriods).where(seriesCondition(kpiPeriods, scope, series)),
    ...chunkForParameters(periodRows, 8).map((chunk) => sqlBuilder.insert(kpiPeriods).values(chunk)),
    sqlBuilder
      .insert(kpiSummaries)
      .values({ ...key, ...summary })
      .onConflictDoUpdate({ target: summaryKey, set: summary }),
    sqlBuilder
      .update(kpiSeries)
      .set({ calculatedVersion: sql`MAX(${kpiSeries.calculatedVersion}, ${series.version})` })
      .where(seriesCondition(kpiSeries, scope, series)),
  ];
}

/** A series' writes and its event (every recalculation of a series is one, carrying its new figures). */
export function stageSeriesRecalculation(figures: SeriesFigures): StagedWrite<void> {
  return {
    plan({ scope, stamp }) {
      const summary = buildSummaryColumns(figures, stamp.on);
      const seriesKey = `${figures.series.company}/${figures.series.code}`;
      const changes = JSON.stringify({ recalculated: { ...summary, measurementsVersion: figures.series.version } });
      const event = {
        resource: INDICATORS_RESOURCE,
        changeType: 'updated' as const,
        recordId: seriesKey,
        key: seriesKey,
        version: 'sequence' as const,
        changes,
      };
      return {
        table: 'kpi_summaries',
        statements: [...buildSeriesWrites(scope, figures, summary).map(planStatement), { event: { fields: event } }],
        settle: () => undefined,
      };
    },
  };
}

/** The tenant/org no longer pending, unless measurements ingested meanwhile bumped its version. */
export function stagePendingClear(pendingVersion: number): StagedWrite<void> {
  return stageStatements('kpi_pending_orgs', ({ scope }) => [
    sqlBuilder
      .delete(kpiPendingOrgs)
      .where(
        and(
          eq(kpiPendingOrgs.tenantKey, scope.tenantKey),
          eq(kpiPendingOrgs.orgKey, scope.orgKey),
          eq(kpiPendingOrgs.version, pendingVersion),
        ),
      ),
  ]);
}
