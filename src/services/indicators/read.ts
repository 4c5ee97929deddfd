/** Reads of materialized indicators: the summary and the chart series, each in one D1 batch (one round trip). */
import { and, asc, between, eq } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { TenantReader } from '../../tenant/session';
import { errorOfFields } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { loadStandardList } from '../../resources/reference/store';
import { refCompanies, refKpiDefinitions } from '../../resources/reference/tables';
import { FUTURE_PERIODS } from './kpi-math';
import type { ValueType } from './kpi-math';
import { listPeriods, shiftPeriod, shiftPeriodUpToLast } from './periods';
import { kpiPeriods, kpiSummaries } from './tables';
import { message } from '../../messages/catalogue';

/** Periods of the chart up to and including the reference period. */
const CHART_PERIODS = 12;

interface SeriesAddress {
  readonly company: string;
  readonly code: string;
  /** Request names of the two inputs, for the errors. */
  readonly companyField: string;
  readonly codeField: string;
}

function selectCompany(scope: TenantScope, key: string) {
  return sqlBuilder
    .select()
    .from(refCompanies)
    .where(and(scopeCondition(refCompanies, scope), eq(refCompanies.key, key)));
}

function selectDefinition(scope: TenantScope, key: string) {
  return sqlBuilder
    .select()
    .from(refKpiDefinitions)
    .where(and(scopeCondition(refKpiDefinitions, scope), eq(refKpiDefinitions.key, key)));
}

function seriesWhere<T extends { tenantKey: SQLiteColumn; orgKey: SQLiteColumn; company: SQLiteColumn; code: SQLiteColumn }>(
  table: T,
  scope: TenantScope,
  address: SeriesAddress,
) {
  return and(
    eq(table.tenantKey, scope.tenantKey),
    eq(table.orgKey, scope.orgKey),
    eq(table.company, address.company),
    eq(table.code, address.code),
  );
}

/** 400 RecordNotFound naming the unknown company and/or KPI code (another org's keys are unknown too). */
function requireFound<C, D>(address: SeriesAddress, company: C | undefined, definition: D | undefined): { company: C; definition: D } {
  if (company !== undefined && definition !== undefined) return { company, definition };
  const errors: FieldError[] = [
    ...(company ? [] : [{ path: address.companyField, message: message('unknownReference', { kind: 'companies', key: address.company }) }]),
    ...(definition
      ? []
      : [{ path: address.codeField, message: message('unknownReference', { kind: 'kpiDefinitions', key: address.code }) }]),
  ];
  throw errorOfFields('RecordNotFound', errors);
}

const toNumber = (text: string | null): number | null => (text === null ? null : Number(text));

interface SummaryBody {
  value: number | null;
  homologValue: string | null;
  variation: number | null;
  trend: Sign | null;
  valueType: ValueType;
  valueFractionDigits: number;
  currencySymbol: string | null;
  result: Sign | null;
}

type Sign = -1 | 0 | 1;

/** A stored sign (trend, result: written as -1, 0 or 1) as the answer types it. */
function toSign(value: number | null): Sign | null {
  if (value === null) return null;
  return value > 0 ? 1 : value < 0 ? -1 : 0;
}

const VALUE_TYPES: readonly ValueType[] = ['Number', 'Percentage', 'Currency', 'Duration'];

/** A stored value type (written from the KPI definition's choices) as the answer types it. */
function toValueType(text: string): ValueType {
  const found = VALUE_TYPES.find((type) => type === text);
  if (!found) throw new Error(`Unknown KPI value type '${text}'.`);
  return found;
}

/** IndicatorSummary as materialized by the last recalculation; before any, only the definition's facts. */
export async function loadIndicatorSummary(tenant: TenantReader, address: SeriesAddress): Promise<SummaryBody> {
  const { scope } = tenant;
  const [companies, definitions, summaries] = await tenant.readBatch([
    selectCompany(scope, address.company),
    selectDefinition(scope, address.code),
    sqlBuilder
      .select()
      .from(kpiSummaries)
      .where(seriesWhere(kpiSummaries, scope, address)),
  ]);
  const { company, definition } = requireFound(address, companies[0], definitions[0]);
  const summary = summaries[0];
  if (summary) {
    return {
      value: toNumber(summary.value),
      homologValue: summary.homologValue,
      variation: toNumber(summary.variation),
      trend: toSign(summary.trend),
      valueType: toValueType(summary.valueType),
      valueFractionDigits: summary.valueFractionDigits,
      currencySymbol: summary.currencySymbol,
      result: toSign(summary.result),
    };
  }
  const { valueType } = definition;
  const symbol = valueType === 'Currency' ? (await loadStandardList(tenant, 'currencies')).get(company.baseCurrency)?.symbol : undefined;
  return {
    value: null,
    homologValue: null,
    variation: null,
    trend: null,
    valueType: toValueType(valueType),
    valueFractionDigits: definition.valueFractionDigits,
    currencySymbol: typeof symbol === 'string' ? symbol : null,
    result: null,
  };
}

type ChartPoint =
  | { period: string; value: number | null; homologous: number | null; forecast: number | null }
  | { period: string; forecast: number | null };

/** The 12 periods ending at `referencePeriod`, then 3 future periods with only the forecast. */
export async function loadKpiChart(tenant: TenantReader, address: SeriesAddress, referencePeriod: string): Promise<ChartPoint[]> {
  const { scope } = tenant;
  const first = shiftPeriod(referencePeriod, 1 - CHART_PERIODS);
  const last = shiftPeriodUpToLast(referencePeriod, FUTURE_PERIODS);
  const [companies, definitions, rows] = await tenant.readBatch([
    selectCompany(scope, address.company),
    selectDefinition(scope, address.code),
    sqlBuilder
      .select()
      .from(kpiPeriods)
      .where(and(seriesWhere(kpiPeriods, scope, address), between(kpiPeriods.period, first, last)))
      .orderBy(asc(kpiPeriods.period)),
  ]);
  requireFound(address, companies[0], definitions[0]);
  const byPeriod = new Map(rows.map((row) => [row.period, row]));
  return listPeriods(first, last).map((period, index) => {
    const row = byPeriod.get(period);
    const forecast = toNumber(row?.forecast ?? null);
    if (index >= CHART_PERIODS) return { period, forecast };
    return { period, value: toNumber(row?.value ?? null), homologous: toNumber(row?.homologous ?? null), forecast };
  });
}
