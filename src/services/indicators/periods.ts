/** Monthly KPI periods `YYYY-MM` (UTC): parsing, arithmetic and ranges. Pure. */
import { MAX_YEAR } from '../../validation/values';

const PERIOD_PATTERN = /^(\d{4})-(0[1-9]|1[0-2])$/;

/** Months since year 0: consecutive across year boundaries (2025-12 + 1 = 2026-01). */
export function parsePeriodIndex(period: string): number {
  const match = PERIOD_PATTERN.exec(period);
  if (!match) throw new Error(`Not a KPI period (YYYY-MM): '${period}'`);
  return Number(match[1]) * 12 + Number(match[2]) - 1;
}

export function formatPeriod(index: number): string {
  const year = Math.floor(index / 12);
  const month = index - year * 12 + 1;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
}

export function shiftPeriod(period: string, months: number): string {
  return formatPeriod(parsePeriodIndex(period) + months);
}

/** The last period there is: no date lies past MAX_YEAR, and forecasts and charts stop there too. */
const LAST_PERIOD = `${MAX_YEAR}-12`;

/** `shiftPeriod` forwards, stopping at LAST_PERIOD. */
export function shiftPeriodUpToLast(period: string, months: number): string {
  return formatPeriod(Math.min(parsePeriodIndex(period) + months, parsePeriodIndex(LAST_PERIOD)));
}

/** The UTC month of an ISO 8601 UTC date-time (`2026-03-31T23:59:59.000Z` -> `2026-03`). */
export function toPeriod(isoUtc: string): string {
  const period = isoUtc.slice(0, 7);
  parsePeriodIndex(period);
  return period;
}

/** Every period from `first` to `last`, both included. */
export function listPeriods(first: string, last: string): string[] {
  const periods: string[] = [];
  for (let index = parsePeriodIndex(first); index <= parsePeriodIndex(last); index += 1) periods.push(formatPeriod(index));
  return periods;
}
