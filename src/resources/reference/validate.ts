/** Validation of reference records, derived from the kind's description (valibot). */
import * as v from 'valibot';
import type { FieldError } from '../../errors/api-error';
import { validationError } from '../../errors/api-error';
import { issueMessage, message } from '../../messages/catalogue';
import { buildBooleanSchema } from '../../validation/booleans';
import { parseStrictBody } from '../../validation/strict-body';
import { bindPropertyNames } from '../../validation/property-names';
import { isPlainObject } from '../../validation/values';
import { canonicalizeReferenceKey } from './kinds';
import type { ReferenceFieldSpec, ReferenceInput, ReferenceKindSpec } from './spec';

export const MAX_REFERENCE_RECORDS = 5000;
const KEY_MAX = 100;
const KEY_SCHEMA = v.pipe(
  v.string(issueMessage('mustBeString', { field: 'key' })),
  v.minLength(1, issueMessage('mustNotBeEmpty', { field: 'key' })),
  v.maxLength(KEY_MAX, issueMessage('tooLong', { field: 'key', max: KEY_MAX })),
);

type AnySchema = v.GenericSchema<unknown, unknown>;

function buildValueSchema(name: string, field: ReferenceFieldSpec): AnySchema {
  const named = { field: name };
  switch (field.kind) {
    case 'int':
      return v.pipe(v.number(issueMessage('mustBeInteger', named)), v.integer(issueMessage('mustBeInteger', named)));
    case 'bool':
      return buildBooleanSchema(issueMessage('mustBeBoolean', named));
    case 'stringList':
      return v.array(
        v.pipe(v.string(issueMessage('mustBeStringList', named)), v.minLength(1, issueMessage('mustBeStringList', named))),
        issueMessage('mustBeStringList', named),
      );
    case 'choice': {
      const choices = field.choices ?? [];
      const oneOf = issueMessage('mustBeOneOf', { ...named, choices: choices.join(', ') });
      return v.pipe(
        v.string(oneOf),
        v.transform((input) => choices.find((choice) => choice.toLowerCase() === input.toLowerCase())),
        v.check((out) => out !== undefined, oneOf),
      );
    }
    case 'string': {
      const reference = field.reference;
      const max = field.maxLength ?? 255;
      const text = v.pipe(v.string(issueMessage('mustBeString', named)), v.maxLength(max, issueMessage('tooLong', { ...named, max })));
      // Keys of a kind that compares case-insensitively (currencies) are stored in their canonical spelling.
      return reference
        ? v.pipe(
            text,
            v.transform((key) => canonicalizeReferenceKey(reference, key)),
          )
        : text;
    }
  }
  throw new Error(`A field of kind ${field.kind} has no schema here.`);
}

function buildFieldSchema(name: string, field: ReferenceFieldSpec): AnySchema {
  const base = buildValueSchema(name, field);
  if (field.required) return base;
  if (field.kind === 'stringList') return v.optional(base, []);
  if (field.kind === 'bool') return v.optional(base, false);
  return v.optional(v.nullable(base), null);
}

const schemas = new WeakMap<ReferenceKindSpec, v.StrictObjectSchema<Record<string, AnySchema>, undefined>>();

/** The schema of one record of the kind (the OpenAPI document shows this one). */
export function buildReferenceSchema(spec: ReferenceKindSpec): v.StrictObjectSchema<Record<string, AnySchema>, undefined> {
  let schema = schemas.get(spec);
  if (!schema) {
    const entries: Record<string, AnySchema> = { id: v.optional(v.string()), key: KEY_SCHEMA };
    for (const [name, field] of Object.entries(spec.fields)) entries[name] = buildFieldSchema(name, field);
    schema = v.strictObject(entries);
    schemas.set(spec, schema);
  }
  return schema;
}

/** Validates a bulk upsert body: an array of at most 5000 records with distinct keys; names every bad field. */
export function parseReferenceRecords(spec: ReferenceKindSpec, body: unknown): ReferenceInput[] {
  if (!Array.isArray(body)) throw validationError([{ path: '', message: message('bodyMustBeArray', { items: 'records' }) }]);
  if (body.length > MAX_REFERENCE_RECORDS) {
    throw validationError([
      { path: '', message: message('tooManyInBody', { max: MAX_REFERENCE_RECORDS, items: 'records', count: body.length }) },
    ]);
  }
  const schema = buildReferenceSchema(spec);
  const errors: FieldError[] = [];
  const records: ReferenceInput[] = [];
  const seen = new Set<string>();
  const names = Object.keys(schema.entries);
  body.forEach((item, index) => {
    // Property names bind case-insensitively (`Key`, `BaseCurrency`).
    const bound = isPlainObject(item) ? bindPropertyNames(item, names, `[${index}]`) : { values: item, errors: [] };
    errors.push(...bound.errors);
    const result = parseStrictBody(schema, bound.values, `[${index}]`);
    if (!result.success) {
      errors.push(...result.errors);
      return;
    }
    const key = String(result.output.key);
    const record: ReferenceInput = { ...result.output, key };
    const problem = spec.check?.(record);
    if (problem) errors.push({ path: `[${index}].${problem.path}`, message: problem.message });
    if (seen.has(key)) errors.push({ path: `[${index}].key`, message: message('repeatedKey', { key }) });
    seen.add(key);
    records.push(record);
  });
  if (errors.length > 0) throw validationError(errors);
  return records;
}
