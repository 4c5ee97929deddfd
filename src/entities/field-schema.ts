/** The valibot schema of each field kind, and the conversions it makes on input. */
import * as v from 'valibot';
import { canonicalizeReferenceKey } from '../reference/kinds';
import { describeEnum, ENUM_METADATA, parseEnumValue } from '../validation/enums';
import { parseOrIssue } from '../validation/issues';
import { isGuid, normalizeDateTime, normalizeDecimal, parseInteger } from '../validation/values';
import type { FieldSpec } from './spec';

export const DEFAULT_STRING_MAX = 255;

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
        parseOrIssue((input: number | string) => {
          const value = typeof input === 'number' ? input : parseInteger(input, 'any');
          return value !== undefined && Number.isSafeInteger(value) ? value : undefined;
        }, `${name} must be an integer`),
      );
    case 'bool':
      return v.boolean(`${name} must be true or false`);
    case 'decimal':
      return v.pipe(
        v.union([v.number(), v.string()], `${name} must be a decimal number`),
        parseOrIssue(normalizeDecimal, `${name} must be a decimal number`),
      );
    case 'datetime':
      return v.pipe(
        v.string(`${name} must be an ISO 8601 date-time`),
        parseOrIssue(normalizeDateTime, `${name} must be an ISO 8601 date-time`),
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
        parseOrIssue((input: number | string) => parseEnumValue(spec, input), message),
      );
    }
  }
}
