/**
 * KPI math, pure: aggregated monthly values, homologous values, least-squares forecasts
 * and the indicator summary. Decimals are exact (decimal.js); computed values keep 6 fractional
 * digits (the precision of measurements), rounded half away from zero.
 */
import Decimal from 'decimal.js';
import type { kpiDefinitionsKind } from '../../resources/reference/kinds';
import { listPeriods, parsePeriodIndex, shiftPeriod, shiftPeriodUpToLast } from './periods';

const Exact = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_HALF_UP });

/** Fractional digits kept by measurements and computed values. */
export const VALUE_SCALE = 6;
const MICROS = new Exact(10).pow(VALUE_SCALE);
/** Periods before a period that its forecast looks at, and the fewest points it needs. */
const FORECAST_WINDOW = 12;
const FORECAST_MIN_POINTS = 3;
/** Periods after the latest measured one that are materialized with a forecast only. */
export const FUTURE_PERIODS = 3;

/** How a KPI definition aggregates a month, and how its values read: the choices of the `kpiDefinitions` kind. */
export type Aggregation = (typeof kpiDefinitionsKind.fields.aggregation.choices)[number];
export type ValueType = (typeof kpiDefinitionsKind.fields.valueType.choices)[number];

/** One period's aggregate as SQL returns it: exact integers in millionths, as text. */
export interface RawAggregate {
  readonly period: string;
  readonly count: number;
  /** sum and avg: SUM(value_micros / 1e6) and SUM(value_micros % 1e6), so the SQL sum never overflows. */
  readonly units: string | null;
  readonly micros: string | null;
  /** min, max and last: the chosen measurement's value in millionths. */
  readonly pick: string | null;
}

function toText(value: Decimal): string {
  return value.toDecimalPlaces(VALUE_SCALE).toFixed();
}

function fromMicros(micros: string | null): Decimal {
  return new Exact(micros ?? 0).div(MICROS);
}

/** The period's value per the definition's aggregation, as an exact decimal string. */
export function computeAggregateValue(aggregation: Aggregation, raw: RawAggregate): string {
  switch (aggregation) {
    case 'count':
      return String(raw.count);
    case 'min':
    case 'max':
    case 'last':
      return toText(fromMicros(raw.pick));
    case 'sum':
    case 'avg': {
      const sum = new Exact(raw.units ?? 0).plus(fromMicros(raw.micros));
      return toText(aggregation === 'sum' ? sum : sum.div(raw.count));
    }
  }
}

/**
 * Least-squares line over the periods with a value among the `FORECAST_WINDOW` periods before `period`,
 * evaluated at `period`; null with fewer than `FORECAST_MIN_POINTS` points. x is the month offset, so
 * gaps keep their distance and year boundaries are continuous.
 */
export function computeForecast(values: ReadonlyMap<string, string>, period: string): string | null {
  const points: { x: Decimal; y: Decimal }[] = [];
  for (let offset = 1; offset <= FORECAST_WINDOW; offset += 1) {
    const value = values.get(shiftPeriod(period, -offset));
    if (value !== undefined) points.push({ x: new Exact(-offset), y: new Exact(value) });
  }
  if (points.length < FORECAST_MIN_POINTS) return null;
  const n = points.length;
  let sumX = new Exact(0);
  let sumY = new Exact(0);
  let sumXY = new Exact(0);
  let sumXX = new Exact(0);
  for (const { x, y } of points) {
    sumX = sumX.plus(x);
    sumY = sumY.plus(y);
    sumXY = sumXY.plus(x.times(y));
    sumXX = sumXX.plus(x.times(x));
  }
  const slope = sumXY
    .times(n)
    .minus(sumX.times(sumY))
    .div(sumXX.times(n).minus(sumX.times(sumX)));
  // y = intercept + slope * x, and the period itself is x = 0.
  const intercept = sumY.minus(slope.times(sumX)).div(n);
  return toText(intercept);
}

interface PeriodFigures {
  readonly period: string;
  readonly value: string | null;
  readonly homologous: string | null;
  readonly forecast: string | null;
}

/**
 * Every period from the first measured one to `FUTURE_PERIODS` after the last: the value (null in a gap),
 * the homologous value (same month one year earlier) and the forecast.
 */
export function buildPeriodFigures(values: ReadonlyMap<string, string>): PeriodFigures[] {
  const periods = [...values.keys()].sort((a, b) => parsePeriodIndex(a) - parsePeriodIndex(b));
  const first = periods[0];
  const last = periods[periods.length - 1];
  if (first === undefined || last === undefined) return [];
  return listPeriods(first, shiftPeriodUpToLast(last, FUTURE_PERIODS)).map((period) => ({
    period,
    value: values.get(period) ?? null,
    homologous: values.get(shiftPeriod(period, -12)) ?? null,
    forecast: computeForecast(values, period),
  }));
}

export interface KpiDefinition {
  readonly valueType: ValueType;
  readonly valueFractionDigits: number;
  readonly higherIsBetter: boolean;
}

interface IndicatorSummary {
  readonly period: string | null;
  readonly value: string | null;
  readonly homologValue: string | null;
  readonly variation: string | null;
  readonly trend: number | null;
  readonly result: number | null;
  readonly valueType: ValueType;
  readonly valueFractionDigits: number;
  readonly currencySymbol: string | null;
}

function signOf(value: Decimal): number {
  return value.isZero() ? 0 : value.isPositive() ? 1 : -1;
}

/** A series' summary; the reference period is the latest period with a value. */
export function buildSummary(
  values: ReadonlyMap<string, string>,
  definition: KpiDefinition,
  currencySymbol: string | null,
): IndicatorSummary {
  const base = {
    valueType: definition.valueType,
    valueFractionDigits: definition.valueFractionDigits,
    currencySymbol: definition.valueType === 'Currency' ? currencySymbol : null,
  };
  const periods = [...values.keys()].sort((a, b) => parsePeriodIndex(a) - parsePeriodIndex(b));
  const period = periods[periods.length - 1];
  const current = period === undefined ? undefined : values.get(period);
  if (period === undefined || current === undefined) {
    return { period: null, value: null, homologValue: null, variation: null, trend: null, result: null, ...base };
  }
  const value = new Exact(current);
  const homologText = values.get(shiftPeriod(period, -12));
  const homolog = homologText === undefined ? undefined : new Exact(homologText);
  const previousText = values.get(shiftPeriod(period, -1));
  const variation =
    homolog === undefined || homolog.isZero() ? null : value.minus(homolog).div(homolog.abs()).times(100).toDecimalPlaces(2);
  const favourable = variation === null || variation.isZero() ? 0 : signOf(variation) === (definition.higherIsBetter ? 1 : -1) ? 1 : -1;
  return {
    period,
    value: current,
    homologValue: homolog === undefined ? null : homolog.toFixed(definition.valueFractionDigits),
    variation: variation === null ? null : variation.toFixed(),
    trend: previousText === undefined ? null : signOf(value.minus(new Exact(previousText))),
    result: favourable,
    ...base,
  };
}
