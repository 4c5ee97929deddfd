import { describe, expect, it } from 'vitest';
import { buildPeriodFigures, buildSummary, computeForecast, computeAggregateValue } from '../../src/services/indicators/kpi-math';
import type { KpiDefinition, RawAggregate } from '../../src/services/indicators/kpi-math';
import { formatPeriod, listPeriods, parsePeriodIndex, toPeriod, shiftPeriod } from '../../src/services/indicators/periods';

const series = (entries: Record<string, number | string>) =>
  new Map(Object.entries(entries).map(([period, value]) => [period, String(value)]));
const raw = (overrides: Partial<RawAggregate>): RawAggregate => ({
  period: '2026-01',
  count: 0,
  units: null,
  micros: null,
  pick: null,
  ...overrides,
});

describe('periods', () => {
  it('counts months continuously across a year boundary', () => {
    expect(parsePeriodIndex('2026-01') - parsePeriodIndex('2025-12')).toBe(1);
    expect(shiftPeriod('2025-11', 3)).toBe('2026-02');
    expect(shiftPeriod('2026-01', -13)).toBe('2024-12');
    expect(formatPeriod(parsePeriodIndex('0999-07'))).toBe('0999-07');
    expect(listPeriods('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });

  it('takes the UTC month of a date-time and refuses anything else', () => {
    expect(toPeriod('2026-03-31T23:59:59.999Z')).toBe('2026-03');
    expect(() => parsePeriodIndex('2026-13')).toThrow();
    expect(() => parsePeriodIndex('garbage')).toThrow();
  });
});

describe('computeAggregateValue', () => {
  it.each([
    ['sum', raw({ count: 2, units: '3', micros: '500000' }), '3.5'],
    // -1.5 + 0.25: SQLite truncates toward zero, so units -1 + 0 and remainders -500000 + 250000.
    ['sum', raw({ count: 2, units: '-1', micros: '-250000' }), '-1.25'],
    ['avg', raw({ count: 3, units: '10', micros: '0' }), '3.333333'],
    ['avg', raw({ count: 3, units: '2', micros: '0' }), '0.666667'],
    ['avg', raw({ count: 4, units: '1', micros: '500000' }), '0.375'],
    ['min', raw({ count: 5, pick: '-2500000' }), '-2.5'],
    ['max', raw({ count: 5, pick: '123456789012345678' }), '123456789012.345678'],
    ['last', raw({ count: 5, pick: '1' }), '0.000001'],
    ['count', raw({ count: 7 }), '7'],
  ] as const)('%s of %o is %s', (aggregation, aggregate, expected) => {
    expect(computeAggregateValue(aggregation, aggregate)).toBe(expected);
  });
});

describe('computeForecast', () => {
  it('extends a straight line', () => {
    expect(computeForecast(series({ '2025-01': 10, '2025-02': 20, '2025-03': 30 }), '2025-04')).toBe('40');
  });

  it('fits the least-squares line of points that are not on one line', () => {
    // x = -3, -2, -1; y = 1, 2, 4: slope 9/6 = 1.5, intercept (7 + 1.5 * 6) / 3 = 16/3.
    expect(computeForecast(series({ '2025-01': 1, '2025-02': 2, '2025-03': 4 }), '2025-04')).toBe('5.333333');
  });

  it('keeps the distance of gaps', () => {
    // x = -4, -2, -1; y = 10, 30, 34: slope 116/14, intercept (74 + 7 * 116/14) / 3 = 44.
    expect(computeForecast(series({ '2025-01': 10, '2025-03': 30, '2025-04': 34 }), '2025-05')).toBe('44');
  });

  it('is continuous across a year boundary', () => {
    expect(computeForecast(series({ '2025-11': 5, '2025-12': 7, '2026-01': 9 }), '2026-02')).toBe('11');
  });

  it('looks at the 12 preceding periods only', () => {
    expect(computeForecast(series({ '2024-12': 1000, '2025-10': 1, '2025-11': 2, '2025-12': 3 }), '2026-01')).toBe('4');
    expect(computeForecast(series({ '2025-01': 1, '2025-02': 2, '2025-03': 3 }), '2026-01')).toBe('13');
    // For 2026-02 the window starts at 2025-02: two points only.
    expect(computeForecast(series({ '2025-01': 1, '2025-02': 2, '2025-03': 3 }), '2026-02')).toBeNull();
  });

  it('needs three points', () => {
    expect(computeForecast(series({ '2025-01': 10, '2025-02': 20 }), '2025-03')).toBeNull();
    expect(computeForecast(series({}), '2025-03')).toBeNull();
  });
});

describe('buildPeriodFigures', () => {
  it('runs from the first period to three after the last, with gaps as null values', () => {
    const figures = buildPeriodFigures(series({ '2025-11': 5, '2026-01': 9, '2025-12': 7 }));
    expect(figures).toEqual([
      { period: '2025-11', value: '5', homologous: null, forecast: null },
      { period: '2025-12', value: '7', homologous: null, forecast: null },
      { period: '2026-01', value: '9', homologous: null, forecast: null },
      { period: '2026-02', value: null, homologous: null, forecast: '11' },
      { period: '2026-03', value: null, homologous: null, forecast: '13' },
      { period: '2026-04', value: null, homologous: null, forecast: '15' },
    ]);
  });

  it('takes the homologous value from the same month one year earlier', () => {
    const figures = buildPeriodFigures(series({ '2025-02': 4, '2025-04': 6, '2026-02': 8 }));
    const byPeriod = new Map(figures.map((row) => [row.period, row]));
    expect(byPeriod.get('2026-02')).toMatchObject({ value: '8', homologous: '4' });
    expect(byPeriod.get('2026-03')).toMatchObject({ value: null, homologous: null });
    expect(byPeriod.get('2026-04')).toMatchObject({ value: null, homologous: '6' });
    expect(byPeriod.get('2025-03')).toMatchObject({ value: null, homologous: null, forecast: null });
    expect(figures.at(-1)?.period).toBe('2026-05');
    expect(figures).toHaveLength(16);
  });

  it('is empty without values', () => {
    expect(buildPeriodFigures(new Map())).toEqual([]);
  });
});

describe('buildSummary', () => {
  const higher: KpiDefinition = { valueType: 'Percentage', valueFractionDigits: 2, higherIsBetter: true };
  const lower: KpiDefinition = { ...higher, higherIsBetter: false };

  it('compares the latest period with its homologous and previous periods', () => {
    const values = series({ '2025-03': 80, '2026-02': 90, '2026-03': 100 });
    expect(buildSummary(values, higher, '€')).toEqual({
      period: '2026-03',
      value: '100',
      homologValue: '80.00',
      variation: '25',
      trend: 1,
      result: 1,
      valueType: 'Percentage',
      valueFractionDigits: 2,
      currencySymbol: null,
    });
    expect(buildSummary(values, lower, null)).toMatchObject({ variation: '25', result: -1 });
  });

  it('divides by the magnitude of a negative homologous value', () => {
    const values = series({ '2025-01': -50, '2025-12': -20, '2026-01': -25 });
    expect(buildSummary(values, higher, null)).toMatchObject({ homologValue: '-50.00', variation: '50', trend: -1, result: 1 });
    expect(buildSummary(values, lower, null)).toMatchObject({ result: -1 });
  });

  it('rounds the variation to 2 decimals and the homologous value to the definition digits, half away from zero', () => {
    const values = series({ '2025-06': 3, '2026-06': 1 });
    expect(buildSummary(values, lower, null)).toMatchObject({ homologValue: '3.00', variation: '-66.67', result: 1 });
    const digits = buildSummary(series({ '2025-06': '2.345', '2026-06': '2.345' }), { ...higher, valueFractionDigits: 2 }, null);
    expect(digits).toMatchObject({ homologValue: '2.35', variation: '0', result: 0 });
    expect(buildSummary(series({ '2025-06': '2.5', '2026-06': 1 }), { ...higher, valueFractionDigits: 0 }, null).homologValue).toBe('3');
  });

  it('has no variation without a homologous value or with a zero one, and no trend without a previous period', () => {
    expect(buildSummary(series({ '2026-01': 5 }), higher, null)).toMatchObject({
      value: '5',
      homologValue: null,
      variation: null,
      trend: null,
      result: 0,
    });
    expect(buildSummary(series({ '2025-01': 0, '2025-12': 5, '2026-01': 5 }), higher, null)).toMatchObject({
      homologValue: '0.00',
      variation: null,
      trend: 0,
      result: 0,
    });
  });

  it('takes the reference period across a gap and a year boundary', () => {
    // The latest value is 2026-01; 2025-12 is a gap, so there is no trend.
    const summary = buildSummary(series({ '2025-01': 10, '2025-11': 12, '2026-01': 11 }), higher, null);
    expect(summary).toMatchObject({ period: '2026-01', value: '11', homologValue: '10.00', variation: '10', trend: null, result: 1 });
  });

  it('gives the currency symbol only to Currency KPIs', () => {
    const currency: KpiDefinition = { valueType: 'Currency', valueFractionDigits: 2, higherIsBetter: false };
    expect(buildSummary(series({ '2026-01': 5 }), currency, '$').currencySymbol).toBe('$');
    expect(buildSummary(series({ '2026-01': 5 }), higher, '$').currencySymbol).toBeNull();
  });

  it('has only the definition facts without values', () => {
    expect(buildSummary(new Map(), higher, null)).toEqual({
      period: null,
      value: null,
      homologValue: null,
      variation: null,
      trend: null,
      result: null,
      valueType: 'Percentage',
      valueFractionDigits: 2,
      currencySymbol: null,
    });
  });
});
