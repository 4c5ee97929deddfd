/**
 * The body of a record's PATCH (merge) and PUT (replace): its updatable fields and `isActive` (each through the schema
 * of its attribute PUT), custom attribute values (`custom_<name>`, or a `customAttributes` object), and the properties a
 * read answers that the request cannot change (read-only ones, related lists), kept to be compared with the record.
 */
import * as v from 'valibot';
import type { FieldError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import { issuesToErrors } from '../../validation/issues';
import { bindPropertyNames } from '../../validation/property-names';
import { requireValue } from '../../validation/required';
import { isPlainObject } from '../../validation/values';
import { AUDIT_FIELDS } from './audit';
import { CUSTOM_ATTRIBUTES_PROPERTY } from './custom-attributes';
import type { CustomValues } from './custom-attributes';
import { buildFieldSchema } from './field-schema';
import type { EntitySpec, FieldSpec, Values } from './spec';
import { buildAttributeSchema, collectCustomValues, IS_ACTIVE_INPUT } from './validate';

type AnySchema = v.GenericSchema<unknown, unknown>;

/** `merge`: PATCH, the properties given change; `replace`: PUT, every updatable field is set (absent optional ones: null). */
export type UpdateMode = 'merge' | 'replace';

export interface UpdateInput {
  /** The values to write: updatable fields and `isActive` (replace: every one). */
  readonly values: Values;
  readonly custom: CustomValues;
  /** Read-only properties given (`id`, the stamps, `version`, fields that are not updatable), by declared name. */
  readonly readOnly: Readonly<Record<string, unknown>>;
  /** Related lists given (route members, rate lines), by declared name. */
  readonly related: Readonly<Record<string, unknown>>;
  /** Every problem of the body itself. */
  readonly errors: FieldError[];
}

const STAMPS = ['createdOn', 'createdBy', 'modifiedOn', 'modifiedBy', 'version'] as const;

/** The fields a PATCH or PUT sets. */
function listUpdatableFields(spec: EntitySpec): string[] {
  return Object.entries(spec.fields)
    .filter(([, field]) => field.updatable === true)
    .map(([name]) => name);
}

/** What a read answers that no PATCH or PUT changes, with the field each is read as. */
export function listReadOnlyFields(spec: EntitySpec): [string, FieldSpec][] {
  return [
    ['id', { kind: 'guid', column: 'id' }],
    ...Object.entries(spec.fields).filter(([, field]) => field.updatable !== true),
    ...STAMPS.map((name): [string, FieldSpec] => [name, AUDIT_FIELDS[name]]),
  ];
}

type ObjectSchema = v.ObjectSchema<Record<string, AnySchema>, undefined>;

const schemas = { merge: new WeakMap<EntitySpec, ObjectSchema>(), replace: new WeakMap<EntitySpec, ObjectSchema>() };

/**
 * The values' schema: merge, each attribute as its PUT takes it (optional; null clears an optional one); replace, as a
 * create takes them (required ones present).
 */
export function buildUpdateSchema(spec: EntitySpec, mode: UpdateMode): ObjectSchema {
  let schema = schemas[mode].get(spec);
  if (!schema) {
    const entries: Record<string, AnySchema> = {};
    for (const name of listUpdatableFields(spec)) {
      const field = spec.fields[name];
      if (!field) continue;
      if (mode === 'merge') entries[name] = v.optional(buildAttributeSchema(name, field));
      else
        entries[name] = field.required
          ? requireValue(name, buildFieldSchema(name, field))
          : v.optional(v.nullable(buildFieldSchema(name, field)));
    }
    entries.isActive = mode === 'merge' ? v.optional(buildAttributeSchema('isActive', AUDIT_FIELDS.isActive)) : IS_ACTIVE_INPUT;
    schema = v.object(entries);
    schemas[mode].set(spec, schema);
  }
  return schema;
}

/** The value a replace writes for an absent field: false for a defaulted boolean, else null. */
function absentValue(field: FieldSpec): unknown {
  return field.defaulted && field.kind === 'bool' ? false : null;
}

/**
 * The body without its instance annotations (`@odata.etag`, `name@odata.type`: OData clients send them back with what
 * they read); anything but an object as it is.
 */
export function dropAnnotations(body: unknown): unknown {
  return isPlainObject(body) ? Object.fromEntries(Object.entries(body).filter(([key]) => !key.includes('@'))) : body;
}

/**
 * Splits and validates a PATCH or PUT body. Property names bind case-insensitively; instance annotations
 * (`@odata.etag`, `name@odata.type`), which OData clients send back, are ignored; unknown properties are refused.
 * Answers every problem instead of throwing, so that the caller adds what it finds comparing with the record.
 */
export function parseUpdateBody(spec: EntitySpec, body: unknown, mode: UpdateMode, relatedNames: readonly string[]): UpdateInput {
  const empty = { values: {}, custom: {}, readOnly: {}, related: {} };
  if (!isPlainObject(body)) return { ...empty, errors: [{ path: '', message: message('bodyMustBeObject') }] };
  const updatable = listUpdatableFields(spec);
  const readOnlyNames = listReadOnlyFields(spec).map(([name]) => name);
  const declared = [
    ...updatable,
    'isActive',
    ...readOnlyNames,
    ...relatedNames,
    ...(spec.customAttributes ? [CUSTOM_ATTRIBUTES_PROPERTY] : []),
  ];
  const bound = bindPropertyNames(Object.fromEntries(Object.entries(body).filter(([key]) => !key.includes('@'))), declared);
  const errors: FieldError[] = [...bound.errors];
  const fieldInput: Record<string, unknown> = {};
  const readOnly: Record<string, unknown> = {};
  const related: Record<string, unknown> = {};
  const customs = collectCustomValues(spec, errors);
  for (const [key, value] of Object.entries(bound.values)) {
    if (updatable.includes(key) || key === 'isActive') fieldInput[key] = value;
    else if (readOnlyNames.includes(key)) readOnly[key] = value;
    else if (relatedNames.includes(key)) related[key] = value;
    else if (!customs.take(key, value)) errors.push({ path: key, message: message('unknownProperty', { field: key }) });
  }
  customs.finish();
  const result = v.safeParse(buildUpdateSchema(spec, mode), fieldInput, { abortEarly: false });
  if (!result.success) return { ...empty, errors: [...errors, ...issuesToErrors(result.issues)] };
  const output = isPlainObject(result.output) ? result.output : {};
  const values: Values = {};
  for (const name of [...updatable, 'isActive']) {
    const field = spec.fields[name];
    if (output[name] !== undefined) values[name] = output[name];
    else if (mode === 'replace') values[name] = name === 'isActive' ? true : field ? absentValue(field) : null;
  }
  return { values, custom: customs.custom, readOnly, related, errors };
}
