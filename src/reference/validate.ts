/** Validation of reference records, derived from the kind's description (valibot). */
import * as v from 'valibot';
import type { FieldError } from '../errors/api-error';
import { validationError } from '../errors/api-error';
import { issuesToErrors } from '../validation/issues';
import { canonicalizeReferenceKey } from './kinds';
import type { ReferenceFieldSpec, ReferenceInput, ReferenceKindSpec } from './spec';

export const MAX_REFERENCE_RECORDS = 5000;
const KEY_SCHEMA = v.pipe(
  v.string('key must be a string'),
  v.minLength(1, 'key must not be empty'),
  v.maxLength(100, 'key must be at most 100 characters'),
);

type AnySchema = v.GenericSchema<unknown, unknown>;

function buildValueSchema(name: string, field: ReferenceFieldSpec): AnySchema {
  switch (field.kind) {
    case 'int':
      return v.pipe(v.number(`${name} must be an integer`), v.integer(`${name} must be an integer`));
    case 'bool':
      return v.boolean(`${name} must be true or false`);
    case 'stringList':
      return v.array(v.pipe(v.string(`${name} items must be strings`), v.minLength(1)), `${name} must be an array of strings`);
    case 'choice': {
      const choices = field.choices ?? [];
      return v.pipe(
        v.string(`${name} must be one of ${choices.join(', ')}`),
        v.transform((input) => choices.find((choice) => choice.toLowerCase() === input.toLowerCase())),
        v.check((out) => out !== undefined, `${name} must be one of ${choices.join(', ')}`),
      );
    }
    case 'string': {
      const reference = field.reference;
      const text = v.pipe(v.string(`${name} must be a string`), v.maxLength(field.maxLength ?? 255, `${name} is too long`));
      // Keys of a kind that compares case-insensitively (currencies) are stored in their canonical spelling.
      return reference
        ? v.pipe(
            text,
            v.transform((key) => canonicalizeReferenceKey(reference, key)),
          )
        : text;
    }
  }
}

function buildFieldSchema(name: string, field: ReferenceFieldSpec): AnySchema {
  const base = buildValueSchema(name, field);
  if (field.required) return base;
  if (field.kind === 'stringList') return v.optional(base, []);
  if (field.kind === 'bool') return v.optional(base, false);
  return v.optional(v.nullable(base), null);
}

const schemas = new WeakMap<ReferenceKindSpec, v.StrictObjectSchema<Record<string, AnySchema>, string>>();

/** The schema of one record of the kind (the OpenAPI document shows this one). */
export function buildReferenceSchema(spec: ReferenceKindSpec): v.StrictObjectSchema<Record<string, AnySchema>, string> {
  let schema = schemas.get(spec);
  if (!schema) {
    const entries: Record<string, AnySchema> = { id: v.optional(v.string()), key: KEY_SCHEMA };
    for (const [name, field] of Object.entries(spec.fields)) entries[name] = buildFieldSchema(name, field);
    schema = v.strictObject(entries, 'Unknown property.');
    schemas.set(spec, schema);
  }
  return schema;
}

/** Validates a bulk upsert body: an array of at most 5000 records with distinct keys; names every bad field. */
export function parseReferenceRecords(spec: ReferenceKindSpec, body: unknown): ReferenceInput[] {
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
    const key = String(result.output.key);
    const record: ReferenceInput = { ...result.output, key };
    const problem = spec.check?.(record);
    if (problem) errors.push({ path: `[${index}].${problem.path}`, message: problem.message });
    if (seen.has(key)) errors.push({ path: `[${index}].key`, message: `Key '${key}' appears more than once.` });
    seen.add(key);
    records.push(record);
  });
  if (errors.length > 0) throw validationError(errors);
  return records;
}
