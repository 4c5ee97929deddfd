/** Validation of reference records, derived from the kind's description (valibot). */
import * as v from 'valibot';
import type { FieldError } from '../http/errors';
import { validationError } from '../http/errors';
import { issuesToErrors } from '../entities/values';
import { canonicalizeReferenceKey } from './kinds';
import type { ReferenceFieldSpec, ReferenceKindSpec } from './spec';

export const MAX_REFERENCE_RECORDS = 5000;
const KEY_SCHEMA = v.pipe(
  v.string('key must be a string'),
  v.minLength(1, 'key must not be empty'),
  v.maxLength(100, 'key must be at most 100 characters'),
);

type AnySchema = v.GenericSchema<unknown, unknown>;

function fieldSchema(name: string, field: ReferenceFieldSpec): AnySchema {
  let base: AnySchema;
  switch (field.kind) {
    case 'int':
      base = v.pipe(v.number(`${name} must be an integer`), v.integer(`${name} must be an integer`)) as AnySchema;
      break;
    case 'bool':
      base = v.boolean(`${name} must be true or false`) as AnySchema;
      break;
    case 'stringList':
      base = v.array(v.pipe(v.string(`${name} items must be strings`), v.minLength(1)), `${name} must be an array of strings`) as AnySchema;
      break;
    case 'choice': {
      const choices = field.choices ?? [];
      base = v.pipe(
        v.string(`${name} must be one of ${choices.join(', ')}`),
        v.transform((input) => choices.find((choice) => choice.toLowerCase() === input.toLowerCase())),
        v.check((out) => out !== undefined, `${name} must be one of ${choices.join(', ')}`),
      ) as AnySchema;
      break;
    }
    default: {
      const reference = field.reference;
      const text = v.pipe(v.string(`${name} must be a string`), v.maxLength(field.maxLength ?? 255, `${name} is too long`));
      // Keys of a kind that compares case-insensitively (currencies) are stored in their canonical spelling.
      base = (
        reference
          ? v.pipe(
              text,
              v.transform((key) => canonicalizeReferenceKey(reference, key)),
            )
          : text
      ) as AnySchema;
    }
  }
  if (field.required) return base;
  if (field.kind === 'stringList') return v.optional(base, []) as AnySchema;
  if (field.kind === 'bool') return v.optional(base, false) as AnySchema;
  return v.optional(v.nullable(base), null) as AnySchema;
}

const schemas = new WeakMap<ReferenceKindSpec, AnySchema>();

export function buildReferenceSchema(spec: ReferenceKindSpec): AnySchema {
  let schema = schemas.get(spec);
  if (!schema) {
    const entries: Record<string, AnySchema> = { id: v.optional(v.string()) as AnySchema, key: KEY_SCHEMA as AnySchema };
    for (const [name, field] of Object.entries(spec.fields)) entries[name] = fieldSchema(name, field);
    schema = v.strictObject(entries, 'Unknown property.') as AnySchema;
    schemas.set(spec, schema);
  }
  return schema;
}

export type ReferenceInput = { key: string } & Record<string, unknown>;

/** Validates a bulk upsert body: an array of at most 5000 records with distinct keys; names every bad field. */
export function readReferenceRecords(spec: ReferenceKindSpec, body: unknown): ReferenceInput[] {
  if (!Array.isArray(body)) throw validationError([{ path: '', message: 'The body must be a JSON array of records.' }]);
  if (body.length > MAX_REFERENCE_RECORDS) {
    throw validationError([{ path: '', message: `At most ${MAX_REFERENCE_RECORDS} records per request (got ${body.length}).` }]);
  }
  const schema = buildReferenceSchema(spec);
  const errors: FieldError[] = [];
  const records: ReferenceInput[] = [];
  const seen = new Set<string>();
  body.forEach((item, index) => {
    const result = v.safeParse(schema, item, { abortEarly: false });
    if (!result.success) {
      errors.push(...issuesToErrors(result.issues, `[${index}]`));
      return;
    }
    const record = result.output as ReferenceInput;
    const problem = spec.check?.(record);
    if (problem) errors.push({ path: `[${index}].${problem.path}`, message: problem.message });
    if (seen.has(record.key)) errors.push({ path: `[${index}].key`, message: `Key '${record.key}' appears more than once.` });
    seen.add(record.key);
    records.push(record);
  });
  if (errors.length > 0) throw validationError(errors);
  return records;
}
