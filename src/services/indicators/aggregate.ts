/**
 * Monthly aggregation of one series in SQL: D1 walks the covering index of kpi_measurements and returns one
 * row per month, so recalculation never loads measurements into memory.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { Aggregation, RawAggregate } from './kpi-math';
import { kpiMeasurements as m } from './tables';

export interface SeriesKey {
  readonly company: string;
  readonly code: string;
}

const MICROS_PER_UNIT = 1_000_000;

/** The SQL expressions one aggregation needs; the others stay NULL so SQLite does no extra work. */
function selectExpressions(aggregation: Aggregation): { units: SQL<string | null>; micros: SQL<string | null>; pick: SQL<string | null> } {
  const NONE = sql<string | null>`NULL`;
  switch (aggregation) {
    case 'sum':
    case 'avg':
      // Summing whole units and the remainders apart keeps each SQL sum far from 64-bit overflow.
      return {
        units: sql<string | null>`CAST(SUM(${m.valueMicros} / ${sql.raw(String(MICROS_PER_UNIT))}) AS TEXT)`,
        micros: sql<string | null>`CAST(SUM(${m.valueMicros} % ${sql.raw(String(MICROS_PER_UNIT))}) AS TEXT)`,
        pick: NONE,
      };
    case 'min':
      return { units: NONE, micros: NONE, pick: sql<string | null>`CAST(MIN(${m.valueMicros}) AS TEXT)` };
    case 'max':
      return { units: NONE, micros: NONE, pick: sql<string | null>`CAST(MAX(${m.valueMicros}) AS TEXT)` };
    case 'last':
      // The latest measured_at wins; ties go to the measurement ingested last (highest id).
      return {
        units: NONE,
        micros: NONE,
        pick: sql<string | null>`MAX(${m.measuredAt} || printf(' %020d ', ${m.id}) || ${m.valueMicros})`,
      };
    case 'count':
      return { units: NONE, micros: NONE, pick: NONE };
  }
}

/** One statement (batchable) that aggregates a series by month, oldest first. */
export function buildAggregateQuery(scope: TenantScope, series: SeriesKey, aggregation: Aggregation) {
  const { units, micros, pick } = selectExpressions(aggregation);
  // Every column has its own alias: D1 batches answer rows by column name.
  return sqlBuilder
    .select({
      period: m.period,
      count: sql<number>`COUNT(*)`.as('count'),
      units: units.as('units'),
      micros: micros.as('micros'),
      pick: pick.as('pick'),
    })
    .from(m)
    .where(and(eq(m.tenantKey, scope.tenantKey), eq(m.orgKey, scope.orgKey), eq(m.company, series.company), eq(m.code, series.code)))
    .groupBy(m.period)
    .orderBy(m.period);
}

/** Rows of `buildAggregateQuery` -> raw aggregates (the `last` pick is the value after the sort prefix). */
export function toRawAggregates(
  aggregation: Aggregation,
  rows: readonly { period: string; count: number; units: string | null; micros: string | null; pick: string | null }[],
): RawAggregate[] {
  return rows.map((row) => ({
    period: row.period,
    count: Number(row.count),
    units: row.units,
    micros: row.micros,
    pick: aggregation === 'last' && row.pick !== null ? (row.pick.split(' ').pop() ?? null) : row.pick,
  }));
}
