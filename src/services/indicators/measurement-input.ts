/**
 * Validation of a measurements body: an array of at most 5000 `{company, code, date, value}`. Items already in
 * canonical form (a `YYYY-MM-DDTHH:mm:ss.sssZ` date, a plain decimal value) are accepted by a fast check that
 * builds no Decimal; every other item goes through the schema, which alone words the errors. The fast check only
 * accepts what the schema accepts, with the same output (a differential test holds them together).
 */
import Decimal from 'decimal.js';
import * as v from 'valibot';
import { validationError } from '../../errors/api-error';
import type { FieldError } from '../../errors/api-error';
import { issueMessage, message } from '../../messages/catalogue';
import { parseOrIssue } from '../../validation/issues';
import { parseStrictBody } from '../../validation/strict-body';
import { bindPropertyNames } from '../../validation/property-names';
import { isPlainObject, MIN_YEAR, normalizeDateTime, normalizeDecimal } from '../../validation/values';
import { VALUE_SCALE } from './kpi-math';

export const MAX_MEASUREMENTS = 5000;
/** Largest magnitude of a value: its millionths stay an exact 64-bit integer. */
const MAX_MAGNITUDE = new Decimal('1e12');
const KEY_MAX = 100;
const KEY = (field: string) =>
  v.pipe(
    v.string(issueMessage('mustBeString', { field })),
    v.minLength(1, issueMessage('mustNotBeEmpty', { field })),
    v.maxLength(KEY_MAX, issueMessage('tooLong', { field, max: KEY_MAX })),
  );
const VALUE = { field: 'value' };

export const MeasurementSchema = v.strictObject({
  company: KEY('company'),
  code: KEY('code'),
  date: v.pipe(
    v.string(issueMessage('mustBeDateTime', { field: 'date' })),
    parseOrIssue(normalizeDateTime, 'mustBeDateTime', { field: 'date' }),
  ),
  value: v.pipe(
    v.union([v.number(), v.string()], issueMessage('mustBeDecimal', VALUE)),
    parseOrIssue(normalizeDecimal, 'mustBeDecimal', VALUE),
    v.check((out) => new Decimal(out).decimalPlaces() <= VALUE_SCALE, issueMessage('decimalPlaces', { ...VALUE, max: VALUE_SCALE })),
    v.check((out) => new Decimal(out).abs().lt(MAX_MAGNITUDE), issueMessage('magnitude', VALUE)),
  ),
});
const MEASUREMENT_PROPERTIES = Object.keys(MeasurementSchema.entries);

export interface Measurement {
  readonly company: string;
  readonly code: string;
  /** `YYYY-MM-DDTHH:mm:ss.sssZ` */
  readonly measuredAt: string;
  /** The value in millionths, as exact integer text. */
  readonly valueMicros: string;
}

/** One item through the schema (Decimal arithmetic): the measurement, or its errors under `[index]`. */
function parseBySchema(item: unknown, index: number, errors: FieldError[]): Measurement | undefined {
  // Property names bind case-insensitively (`Company`, `VALUE`).
  const bound = isPlainObject(item) ? bindPropertyNames(item, MEASUREMENT_PROPERTIES, `[${index}]`) : { values: item, errors: [] };
  errors.push(...bound.errors);
  const result = parseStrictBody(MeasurementSchema, bound.values, `[${index}]`, { abortPipeEarly: true });
  if (!result.success) {
    errors.push(...result.errors);
    return undefined;
  }
  const { company, code, date, value } = result.output;
  return { company, code, measuredAt: date, valueMicros: new Decimal(value).times(10 ** VALUE_SCALE).toFixed(0) };
}

const CANONICAL_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** A plain decimal below 1e12 in magnitude with at most 6 fractional digits, no leading zeros, no exponent. */
const PLAIN_DECIMAL = /^(-?)(0|[1-9]\d{0,11})(?:\.(\d{1,6}))?$/;
const FIELDS = new Set(['company', 'code', 'date', 'value']);

function isKey(value: unknown): value is string {
  return typeof value === 'string' && value.length >= 1 && value.length <= KEY_MAX;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function countDays(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
}

/** A date already as the schema would store it (a real instant of the years accepted), else undefined. */
function readCanonicalDate(value: unknown): string | undefined {
  if (typeof value !== 'string' || !CANONICAL_DATE.test(value)) return undefined;
  const part = (start: number, end: number) => Number(value.slice(start, end));
  const [year, month, day] = [part(0, 4), part(5, 7), part(8, 10)];
  if (year < MIN_YEAR || month < 1 || month > 12 || day < 1 || day > countDays(year, month)) return undefined;
  return part(11, 13) <= 23 && part(14, 16) <= 59 && part(17, 19) <= 59 ? value : undefined;
}

/** Millionths of a plain decimal (a finite number written without exponent, or such text), else undefined. */
function readPlainMicros(value: unknown): string | undefined {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return undefined;
    text = String(value);
  } else if (typeof value === 'string') text = value;
  else return undefined;
  const match = PLAIN_DECIMAL.exec(text);
  if (!match) return undefined;
  const [, sign = '', whole = '', fraction = ''] = match;
  const digits = `${whole}${fraction.padEnd(VALUE_SCALE, '0')}`.replace(/^0+(?=\d)/, '');
  // Negative zero keeps the schema's own spelling: left to it.
  if (sign && digits === '0') return undefined;
  return `${sign}${digits}`;
}

/** The fast check: a canonical item (its properties spelled as declared) as its measurement, or undefined. */
function parseCanonical(item: unknown): Measurement | undefined {
  if (!isPlainObject(item)) return undefined;
  const names = Object.keys(item);
  if (names.length !== FIELDS.size || !names.every((name) => FIELDS.has(name))) return undefined;
  const { company, code, date, value } = item;
  if (!isKey(company) || !isKey(code)) return undefined;
  const measuredAt = readCanonicalDate(date);
  const valueMicros = measuredAt === undefined ? undefined : readPlainMicros(value);
  return measuredAt !== undefined && valueMicros !== undefined ? { company, code, measuredAt, valueMicros } : undefined;
}

function checkBodyShape(body: unknown): asserts body is unknown[] {
  const items = '{company, code, date, value}';
  if (!Array.isArray(body)) throw validationError([{ path: '', message: message('bodyMustBeArray', { items }) }]);
  if (body.length > MAX_MEASUREMENTS) {
    throw validationError([{ path: '', message: message('tooManyInBody', { max: MAX_MEASUREMENTS, items, count: body.length }) }]);
  }
}

function parseEach(body: unknown, parse: (item: unknown, index: number, errors: FieldError[]) => Measurement | undefined): Measurement[] {
  checkBodyShape(body);
  const errors: FieldError[] = [];
  const measurements: Measurement[] = [];
  body.forEach((item, index) => {
    const measurement = parse(item, index, errors);
    if (measurement) measurements.push(measurement);
  });
  if (errors.length > 0) throw validationError(errors);
  return measurements;
}

/** Validates the body: an array of at most 5000 measurements; names every bad field. */
export function parseMeasurements(body: unknown): Measurement[] {
  return parseEach(body, (item, index, errors) => parseCanonical(item) ?? parseBySchema(item, index, errors));
}

/** The same validation with every item through the schema (the reference the fast check is tested against). */
export function parseMeasurementsBySchema(body: unknown): Measurement[] {
  return parseEach(body, parseBySchema);
}
