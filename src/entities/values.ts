/** Valibot schemas for each field kind, and the conversions they make on input. */
import Decimal from 'decimal.js';
import * as v from 'valibot';
import type { FieldError } from '../http/errors';
import { canonicalizeReferenceKey } from '../reference/kinds';
import type { EnumSpec, FieldSpec } from './spec';

export const GUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DECIMAL_PATTERN = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
export const DEFAULT_STRING_MAX = 255;
/** Metadata key marking an enum's schema with its EnumSpec (the OpenAPI document names the members). */
export const ENUM_METADATA = 'enumSpec';

export function isGuid(value: string): boolean {
  return GUID_PATTERN.test(value);
}

/** ISO 8601 input (no offset = UTC) -> `YYYY-MM-DDTHH:mm:ss.sssZ`, or undefined when not a date. */
export function normalizeDateTime(input: string): string | undefined {
  const text = input.trim();
  if (!ISO_DATE_PATTERN.test(text)) return undefined;
  const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(text) && text.includes('T');
  const withTime = text.includes('T') ? text : `${text}T00:00:00`;
  const millis = Date.parse(hasOffset ? withTime : `${withTime}Z`);
  if (Number.isNaN(millis)) return undefined;
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

/** Enum input by number or case-insensitive name -> number. */
export function readEnumValue(spec: EnumSpec, input: unknown): number | undefined {
  if (typeof input === 'number') return Object.values(spec.members).includes(input) ? input : undefined;
  if (typeof input === 'string') {
    const wanted = input.trim().toLowerCase();
    for (const [name, value] of Object.entries(spec.members)) {
      if (name.toLowerCase() === wanted || String(value) === wanted) return value;
    }
  }
  return undefined;
}

function describeEnum(spec: EnumSpec): string {
  return Object.entries(spec.members)
    .map(([name, value]) => `${value} (${name})`)
    .join(', ');
}

type AnySchema = v.GenericSchema<unknown, unknown>;

/** The valibot schema of one field's value (without optionality). */
export function buildFieldSchema(name: string, field: FieldSpec): AnySchema {
  switch (field.kind) {
    case 'string': {
      const max = field.maxLength ?? DEFAULT_STRING_MAX;
      const base = v.pipe(v.string(`${name} must be a string`), v.maxLength(max, `${name} must be at most ${max} characters`));
      const checked = field.required
        ? v.pipe(
            base,
            v.check((s) => s.trim() !== '', `${name} must not be empty`),
          )
        : base;
      // Keys of a kind that compares case-insensitively (cultures, currencies) are read in their canonical spelling.
      const reference = field.reference;
      return reference
        ? v.pipe(
            checked,
            v.transform((key) => canonicalizeReferenceKey(reference, key)),
          )
        : checked;
    }
    case 'int':
      return v.pipe(
        v.union([v.number(), v.pipe(v.string(), v.regex(/^[+-]?\d+$/))], `${name} must be an integer`),
        v.transform(Number),
        v.check((n) => Number.isSafeInteger(n), `${name} must be an integer`),
      );
    case 'bool':
      return v.boolean(`${name} must be true or false`);
    case 'decimal':
      return v.pipe(
        v.union([v.number(), v.string()], `${name} must be a decimal number`),
        v.transform((input) => normalizeDecimal(input)),
        v.check((out) => out !== undefined, `${name} must be a decimal number`),
      );
    case 'datetime':
      return v.pipe(
        v.string(`${name} must be an ISO 8601 date-time`),
        v.transform((input) => normalizeDateTime(input)),
        v.check((out) => out !== undefined, `${name} must be an ISO 8601 date-time`),
      );
    case 'guid':
      return v.pipe(
        v.string(`${name} must be a GUID`),
        v.check((s) => isGuid(s), `${name} must be a GUID`),
        v.transform((s) => s.toLowerCase()),
      );
    case 'enum': {
      const spec = field.enum;
      if (!spec) throw new Error(`Field ${name} is an enum without members`);
      const message = `${name} must be one of ${describeEnum(spec)}`;
      return v.pipe(
        v.union([v.number(), v.string()], message),
        v.metadata({ [ENUM_METADATA]: spec }),
        v.transform((input) => readEnumValue(spec, input)),
        v.check((out) => out !== undefined, message),
      );
    }
  }
}

export function issuesToErrors(issues: readonly v.BaseIssue<unknown>[], prefix = ''): FieldError[] {
  return issues.map((issue) => {
    const path = v.getDotPath(issue);
    const full = [prefix, path].filter((part) => part !== null && part !== '').join('.');
    return { path: full, message: issue.message };
  });
}
