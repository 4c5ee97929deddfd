/** Validation derived from the entity description: create bodies and attribute values, and the references they use. */
import * as v from 'valibot';
import type { FieldError } from '../../errors/api-error';
import { validationError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { ReferenceUse } from '../reference/store';
import { issuesToErrors } from '../../validation/issues';
import { bindPropertyNames } from '../../validation/property-names';
import { requireValue } from '../../validation/required';
import { isPlainObject } from '../../validation/values';
import { CUSTOM_ATTRIBUTES_PROPERTY, CUSTOM_PREFIX, isCustomProperty, parseCustomName } from './custom-attributes';
import type { CustomValues } from './custom-attributes';
import { AUDIT_FIELDS } from './audit';
import { buildFieldSchema } from './field-schema';
import type { EntitySpec, FieldSpec, InputDescription, Values } from './spec';

type AnySchema = v.GenericSchema<unknown, unknown>;
type ObjectSchema = v.ObjectSchema<Record<string, AnySchema>, undefined>;

const createSchemas = new WeakMap<InputDescription, ObjectSchema>();

/** The valibot schema of a create body's fields, derived once per entity (the OpenAPI document shows this one). */
export function buildCreateSchema(spec: InputDescription): ObjectSchema {
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

export interface CreateBodyOptions {
  /** Properties the service reads itself (e.g. nested rate lines). */
  readonly extraProperties?: readonly string[];
  /** Validates the extra properties together with the declared fields (every bad field in one answer). */
  readonly validateExtra?: (extra: Record<string, unknown>) => FieldError[];
  /** The body may set `isActive` (entity creates; default true). */
  readonly isActive?: boolean;
}

/** `isActive` in a create body: optional, a boolean (or 1/0). */
export const IS_ACTIVE_INPUT = v.optional(buildFieldSchema('isActive', AUDIT_FIELDS.isActive));

/**
 * Splits and validates a create body: declared fields, `custom_*` properties (top level or inside
 * `customAttributes`), and `extraProperties` the service handles itself. Property names bind case-insensitively
 * (`bindPropertyNames`); unknown properties are refused. Throws one ValidationFailed naming every bad field.
 */
export function parseCreateBody(spec: InputDescription, body: unknown, options: CreateBodyOptions = {}): CreateInput {
  if (!isPlainObject(body)) throw validationError([{ path: '', message: message('bodyMustBeObject') }]);
  const extraProperties = options.extraProperties ?? [];
  const declared = [
    ...Object.keys(spec.fields),
    ...(options.isActive ? ['isActive'] : []),
    ...extraProperties,
    ...(spec.customAttributes ? [CUSTOM_ATTRIBUTES_PROPERTY] : []),
  ];
  const bound = bindPropertyNames(body, declared);
  const errors: FieldError[] = [...bound.errors];
  const fieldInput: Record<string, unknown> = {};
  const extra: Record<string, unknown> = {};
  const customs = collectCustomValues(spec, errors);
  for (const [key, value] of Object.entries(bound.values)) {
    if (Object.hasOwn(spec.fields, key) || (options.isActive && key === 'isActive')) fieldInput[key] = value;
    else if (extraProperties.includes(key)) extra[key] = value;
    else if (!customs.take(key, value)) errors.push({ path: key, message: message('unknownProperty', { field: key }) });
  }
  customs.finish();
  const schema = options.isActive ? v.object({ ...buildCreateSchema(spec).entries, isActive: IS_ACTIVE_INPUT }) : buildCreateSchema(spec);
  const result = v.safeParse(schema, fieldInput, { abortEarly: false });
  if (!result.success) errors.push(...issuesToErrors(result.issues));
  if (options.validateExtra) errors.push(...options.validateExtra(extra));
  if (errors.length > 0 || !result.success) throw validationError(errors);
  const values: Values = {};
  for (const [name, value] of Object.entries(result.output)) if (value !== undefined) values[name] = value;
  return { values, custom: customs.custom, extra };
}

/** Collects a body's custom attribute values into `custom`; problems go to the body's `errors`. */
interface CustomCollector {
  readonly custom: CustomValues;
  /** Takes a `custom_<name>` property or the `customAttributes` object (true), else leaves the property (false). */
  take(key: string, value: unknown): boolean;
  /** Names every custom attribute set more than once (top level and inside customAttributes, in any spelling). */
  finish(): void;
}

export function collectCustomValues(spec: InputDescription, errors: FieldError[]): CustomCollector {
  const custom: CustomValues = {};
  // Paths that set each custom attribute (by lower-case name): top level and inside customAttributes, in any spelling.
  const customPaths = new Map<string, string[]>();
  const addCustom = (raw: string, value: unknown, path: string) => {
    const name = parseCustomName(raw);
    if (!spec.customAttributes) errors.push({ path, message: message('noCustomAttributes', { entity: spec.title, field: path }) });
    else if (!name) errors.push({ path, message: message('customAttributeName', { field: path }) });
    else {
      custom[name] = value;
      customPaths.set(name.toLowerCase(), [...(customPaths.get(name.toLowerCase()) ?? []), path]);
    }
  };
  return {
    custom,
    take(key, value) {
      if (isCustomProperty(key)) addCustom(key, value, key);
      else if (key !== CUSTOM_ATTRIBUTES_PROPERTY) return false;
      else if (value === null || value === undefined) return true;
      else if (!isPlainObject(value)) errors.push({ path: key, message: message('mustBeObject', { field: key }) });
      else for (const [name, item] of Object.entries(value)) addCustom(name, item, `${key}.${name}`);
      return true;
    },
    finish: () => errors.push(...findRepeatedCustom(customPaths)),
  };
}

/** A custom attribute set more than once in one body is refused, naming every place that sets it. */
function findRepeatedCustom(customPaths: ReadonlyMap<string, readonly string[]>): FieldError[] {
  return [...customPaths].flatMap(([name, paths]) => {
    if (paths.length < 2) return [];
    const names = paths.map((path) => `'${path}'`).join(', ');
    return paths.map((path) => ({ path, message: message('sameProperty', { names, field: `${CUSTOM_PREFIX}${name}` }) }));
  });
}

/** Attribute PUT bodies are the bare value or `{"value": X}` (the property name in any case). */
export function unwrapValue(body: unknown): unknown {
  if (!isPlainObject(body)) return body;
  const keys = Object.keys(body);
  const [only] = keys;
  return keys.length === 1 && only !== undefined && only.toLowerCase() === 'value' ? body[only] : body;
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

/** Reference uses of declared fields (`reference` kinds) for the values given. */
export function collectReferenceUses(spec: EntitySpec, values: Values): ReferenceUse[] {
  const uses: ReferenceUse[] = [];
  for (const [name, field] of Object.entries(spec.fields)) {
    const value = values[name];
    if (field.reference && typeof value === 'string' && value !== '') uses.push({ kind: field.reference, key: value, path: name });
  }
  return uses;
}
