/** valibot schemas of an entity's bodies and answers, derived from its EntitySpec (named for the OpenAPI document). */
import * as v from 'valibot';
import { CUSTOM_PROPERTIES, DATE_TIME, GUID, INTEGER } from '../../openapi/values';
import { ENUM_METADATA } from '../../validation/enums';
import { findRequiredBase } from '../../validation/required';
import { AUDIT_FIELDS } from './audit';
import type { Resource } from './resource';
import { CUSTOM_ATTRIBUTES_OBJECT } from './custom-attributes';
import type { EntitySpec, FieldSpec, FieldSpecs, InputDescription } from './spec';
import { buildAttributeSchema, buildCreateSchema, IS_ACTIVE_INPUT } from './validate';

type AnySchema = v.GenericSchema<unknown, unknown>;

export interface EntityDocOptions {
  /** Name of the create body's schema (default `Api<resourceName>Resource`). */
  readonly createName?: string;
  /** Properties that reads and lists add (route members, rate lines). */
  readonly answerExtras?: Readonly<Record<string, AnySchema>>;
  /** Properties a create body takes besides the fields (rate lines). */
  readonly createExtras?: Readonly<Record<string, AnySchema>>;
  /** Named schemas the extras use. */
  readonly schemas?: Readonly<Record<string, AnySchema>>;
}

/** A page of a list: the records (whole, or the `$select`ed properties), the total when asked, the next page's URL. */
export interface EntityPage {
  items: Resource[];
  count?: number;
  nextPageLink?: string;
}

/** A record as reads answer it (its properties come from the EntitySpec, known when the spec is built). */
type ResourceSchema = v.GenericSchema<unknown, Resource>;

interface EntitySchemas {
  readonly resource: ResourceSchema;
  readonly page: v.GenericSchema<unknown, EntityPage>;
  readonly create: AnySchema;
  readonly customValue: AnySchema;
  /** Every named schema above, by component name. */
  readonly named: Readonly<Record<string, AnySchema>>;
}

/** `{"value": X}` of a custom attribute PUT. */
export const CUSTOM_ATTRIBUTE_VALUE = v.strictObject({
  value: v.pipe(v.unknown(), v.description('The custom attribute value')),
});

/** A custom attribute PUT body: `{"value": X}`, or a bare X. */
export const CUSTOM_ATTRIBUTE_BODY = v.union([CUSTOM_ATTRIBUTE_VALUE, v.unknown()]);

/** An attribute PUT body: the attribute's validation schema, bare or as `{"value": ...}`. */
export function buildAttributeBody(name: string, field: FieldSpec | undefined): AnySchema {
  const schema = field ? buildAttributeSchema(name, field) : v.unknown();
  const value = findRequiredBase(schema) ?? schema;
  return v.union([value, v.strictObject({ value })]);
}

export function withCustom<T>(schema: v.GenericSchema<unknown, T>, custom: boolean): v.GenericSchema<unknown, T> {
  return custom ? v.pipe(schema, v.metadata({ patternProperties: CUSTOM_PROPERTIES })) : schema;
}

function buildAnswerValue(field: FieldSpec): AnySchema {
  const description = field.description ?? '';
  switch (field.kind) {
    case 'int':
      return v.pipe(v.number(), v.integer(), v.description(description));
    case 'bool':
      return v.pipe(v.boolean(), v.description(description));
    case 'decimal':
      return v.pipe(v.number(), v.description('A decimal number, exact to the digits stored'));
    case 'datetime':
      return DATE_TIME;
    case 'guid':
      return v.pipe(v.string(), v.uuid());
    case 'enum':
      return v.pipe(v.number(), v.integer(), v.metadata({ [ENUM_METADATA]: field.enum }));
    case 'string':
      return v.pipe(v.string(), v.description(description));
    case 'choice':
      return v.pipe(v.picklist(field.choices ?? []), v.description(description));
    case 'stringList':
      return v.pipe(v.array(v.string()), v.description(description));
  }
}

/** The value of a field as reads answer it (optional fields may be null). */
function buildAnswerSchema(field: FieldSpec): AnySchema {
  const schema = buildAnswerValue(field);
  return field.required ? schema : v.nullable(schema);
}

/** `{ name: answer schema }` of fields. */
export function buildAnswerEntries(fields: FieldSpecs): Record<string, AnySchema> {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, buildAnswerSchema(field)]));
}

/** A create body: the spec's fields (their validation schemas), custom attributes when the entity has them, and `extras`. */
export function buildCreateBody(spec: InputDescription, extras: Readonly<Record<string, AnySchema>> = {}): AnySchema {
  const customEntries: Record<string, AnySchema> = spec.customAttributes
    ? { customAttributes: v.optional(v.nullable(CUSTOM_ATTRIBUTES_OBJECT)) }
    : {};
  return withCustom(v.strictObject({ ...buildCreateSchema(spec).entries, ...customEntries, ...extras }), spec.customAttributes);
}

const cache = new WeakMap<EntitySpec, EntitySchemas>();

export function buildEntitySchemas(spec: EntitySpec, options: EntityDocOptions = {}): EntitySchemas {
  const cached = cache.get(spec);
  if (cached) return cached;
  const entries = { id: GUID, ...buildAnswerEntries(spec.fields), ...options.answerExtras, ...buildAnswerEntries(AUDIT_FIELDS) };
  const resource: ResourceSchema = withCustom(v.strictObject(entries), spec.customAttributes);
  const selected = v.pipe(
    v.strictObject(Object.fromEntries(Object.entries(entries).map(([name, schema]) => [name, v.optional(schema)]))),
    v.description('With $select: only the selected properties'),
  );
  const page = v.strictObject({
    items: v.array(v.union([resource, selected])),
    count: v.optional(v.pipe(INTEGER, v.description('Total matching records ($count=true or $inlinecount=allpages)'))),
    nextPageLink: v.optional(v.pipe(v.string(), v.url(), v.description('Absolute URL of the next page (only when more rows exist)'))),
  });
  const create = buildCreateBody(spec, { isActive: IS_ACTIVE_INPUT, ...options.createExtras });
  const resourceName = `${spec.resourceName}Resource`;
  const named: Record<string, AnySchema> = {
    [resourceName]: resource,
    [`${resourceName}Page`]: page,
    [options.createName ?? `Api${resourceName}`]: create,
    ...(spec.customAttributes ? { ExtensibilityCustomAttributeValueResource: CUSTOM_ATTRIBUTE_VALUE } : {}),
    ...options.schemas,
  };
  const schemas: EntitySchemas = { resource, page, create, customValue: CUSTOM_ATTRIBUTE_VALUE, named };
  cache.set(spec, schemas);
  return schemas;
}
