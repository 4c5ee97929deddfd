/** Value kinds and the parsing shared by entity fields, OData literals and service inputs. Pure. */
import Decimal from 'decimal.js';

/** The kinds of value a field or an OData property holds (`stringList`: a JSON array of strings; `choice`: one of a list). */
export type FieldKind = 'string' | 'int' | 'bool' | 'decimal' | 'datetime' | 'guid' | 'enum' | 'choice' | 'stringList';

const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL_PATTERN = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const INTEGER_PATTERNS = { none: /^\d+$/, minus: /^-?\d+$/, any: /^[+-]?\d+$/ } as const;
/** Every date-time the API accepts (bodies, query strings, OData literals) lies in these years, UTC. */
export const MIN_YEAR = 1900;
export const MAX_YEAR = 9999;
const MIN_MILLIS = Date.UTC(MIN_YEAR, 0, 1);
const MAX_MILLIS = Date.UTC(MAX_YEAR, 11, 31, 23, 59, 59, 999);

export function isGuid(value: string): boolean {
  return GUID_PATTERN.test(value);
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Integer text -> its number: digits, with the signs `signs` allows (`none`, a leading `-`, or `+`/`-`); undefined for
 * anything else. Large values are not refused here: check `Number.isSafeInteger` where the range matters.
 */
export function parseInteger(text: string, signs: keyof typeof INTEGER_PATTERNS): number | undefined {
  return INTEGER_PATTERNS[signs].test(text) ? Number(text) : undefined;
}

/**
 * ISO 8601 input (no offset = UTC) -> `YYYY-MM-DDTHH:mm:ss.sssZ`, or undefined when not a date or outside the
 * years MIN_YEAR to MAX_YEAR (after applying the offset), so every stored date has a 4-digit year.
 */
export function normalizeDateTime(input: string): string | undefined {
  const text = input.trim();
  if (!ISO_DATE_PATTERN.test(text)) return undefined;
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(text) && text.includes('T');
  const withTime = text.includes('T') ? text : `${text}T00:00:00`;
  const millis = Date.parse(hasOffset ? withTime : `${withTime}Z`);
  if (Number.isNaN(millis) || millis < MIN_MILLIS || millis > MAX_MILLIS) return undefined;
  const [datePart] = text.split('T');
  const [year, month, day] = (datePart ?? '').split('-').map(Number);
  // Date.parse rolls 2026-02-30 over to March; refuse such dates.
  const check = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1));
  if (check.getUTCMonth() !== (month ?? 1) - 1 || check.getUTCDate() !== day) return undefined;
  return new Date(millis).toISOString();
}

/** A decimal as an exact string: the digits that were sent, without exponent. */
export function normalizeDecimal(input: number | string): string | undefined {
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return undefined;
    const text = String(input);
    return /e/i.test(text) ? new Decimal(text).toFixed() : text;
  }
  const text = input.trim();
  if (!DECIMAL_PATTERN.test(text)) return undefined;
  return /e/i.test(text) ? new Decimal(text).toFixed() : text.replace(/^\+/, '');
}
