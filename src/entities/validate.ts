/** Validation derived from the entity description: create bodies and attribute values. */
import * as v from 'valibot';
import type { FieldError } from '../errors/api-error';
import { validationError } from '../errors/api-error';
import { issuesToErrors } from '../validation/issues';
import { requireValue } from '../validation/required';
import { isPlainObject } from '../validation/values';
import { CUSTOM_PREFIX, parseCustomName } from './custom-attributes';
import type { CustomValues } from './custom-attributes';
import { buildFieldSchema } from './field-schema';
import type { EntitySpec, FieldSpec, Values } from './spec';

type AnySchema = v.GenericSchema<unknown, unknown>;
type ObjectSchema = v.ObjectSchema<Record<string, AnySchema>, undefined>;

const createSchemas = new WeakMap<EntitySpec, ObjectSchema>();

/** The valibot schema of a create body's fields, derived once per entity (the OpenAPI document shows this one). */
export function buildCreateSchema(spec: EntitySpec): ObjectSchema {
  let schema = createSchemas.get(spec);
  if (!schema) {
    const entries: Record<string, AnySchema> = {};
    for (const [name, field] of Object.entries(spec.fields)) {
      const base = buildFieldSchema(name, field);
      entries[name] = field.required ? requireValue(name, base) : v.optional(v.nullable(base));
    }
    schema = v.object(entries);
    createSchemas.set(spec, schema);
  }
  return schema;
}

export interface CreateInput {
  readonly values: Values;
  readonly custom: CustomValues;
  /** Properties the entity's own rules read (e.g. nested lines), left for the service. */
  readonly extra: Record<string, unknown>;
}

/**
 * Splits and validates a create body: declared fields, `custom_*` properties (top level or inside
 * `customAttributes`), and `extraProperties` the service handles itself. Unknown properties are refused.
 * Throws one ValidationFailed naming every bad field.
 */
export function parseCreateBody(
  spec: EntitySpec,
  body: unknown,
  extraProperties: readonly string[] = [],
  validateExtra?: (extra: Record<string, unknown>) => FieldError[],
): CreateInput {
  if (!isPlainObject(body)) throw validationError([{ path: '', message: 'The body must be a JSON object.' }]);
  const errors: FieldError[] = [];
  const fieldInput: Record<string, unknown> = {};
  const custom: CustomValues = {};
  const extra: Record<string, unknown> = {};
  const addCustom = (raw: string, value: unknown, path: string) => {
    const name = parseCustomName(raw);
    if (!spec.customAttributes) errors.push({ path, message: `${spec.title} records have no custom attributes.` });
    else if (!name) errors.push({ path, message: 'Custom attribute names are letters, digits and _ (at most 64).' });
    else custom[name] = value;
  };
  for (const [key, value] of Object.entries(body)) {
    if (key in spec.fields) fieldInput[key] = value;
    else if (extraProperties.includes(key)) extra[key] = value;
    else if (key.startsWith(CUSTOM_PREFIX)) addCustom(key, value, key);
    else if (key === 'customAttributes' && spec.customAttributes) {
      if (value === null || value === undefined) continue;
      if (!isPlainObject(value)) errors.push({ path: key, message: 'customAttributes must be a JSON object.' });
      else for (const [name, item] of Object.entries(value)) addCustom(name, item, `customAttributes.${name}`);
    } else errors.push({ path: key, message: `Unknown property '${key}'.` });
  }
  const result = v.safeParse(buildCreateSchema(spec), fieldInput, { abortEarly: false });
  if (!result.success) errors.push(...issuesToErrors(result.issues));
  if (validateExtra) errors.push(...validateExtra(extra));
  if (errors.length > 0 || !result.success) throw validationError(errors);
  const values: Values = {};
  for (const [name, value] of Object.entries(result.output)) if (value !== undefined) values[name] = value;
  return { values, custom, extra };
}

/** Attribute PUT bodies are the bare value or `{"value": X}`. */
export function unwrapValue(body: unknown): unknown {
  if (isPlainObject(body) && 'value' in body && Object.keys(body).length === 1) return body.value;
  return body;
}

const attributeSchemas = new WeakMap<FieldSpec, AnySchema>();

/** The schema of one attribute's new value (null clears an optional attribute); the OpenAPI document shows this one. */
export function buildAttributeSchema(name: string, field: FieldSpec): AnySchema {
  let schema = attributeSchemas.get(field);
  if (!schema) {
    const base = buildFieldSchema(name, field);
    schema = field.required ? requireValue(name, base) : v.nullable(base);
    attributeSchemas.set(field, schema);
  }
  return schema;
}

/** Validates one attribute's new value from a PUT body (bare, or `{"value": X}`). */
export function parseAttributeValue(name: string, field: FieldSpec, body: unknown): unknown {
  const result = v.safeParse(buildAttributeSchema(name, field), unwrapValue(body), { abortEarly: false });
  if (!result.success) throw validationError(issuesToErrors(result.issues).map((error) => ({ ...error, path: error.path || name })));
  return result.output;
}
