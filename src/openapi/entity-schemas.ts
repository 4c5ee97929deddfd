/** valibot schemas of an entity's bodies and answers, derived from its EntitySpec (named for the document). */
import * as v from 'valibot';
import type { EntitySpec } from '../entities/spec';
import { buildCreateSchema } from '../entities/validate';
import { buildAnswerSchema, CUSTOM_PROPERTIES, DATE_TIME, GUID, INTEGER } from './values';

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

export interface EntitySchemas {
  readonly resource: AnySchema;
  readonly page: AnySchema;
  readonly create: AnySchema;
  readonly customValue: AnySchema;
  /** Every named schema above, by component name. */
  readonly named: Readonly<Record<string, AnySchema>>;
}

/** `{"value": X}` of a custom attribute PUT (SPEC 2.4). */
export const CUSTOM_ATTRIBUTE_VALUE = v.strictObject({
  value: v.pipe(v.unknown(), v.description('The custom attribute value')),
}) as AnySchema;

export function withCustom(schema: AnySchema, custom: boolean): AnySchema {
  return custom ? (v.pipe(schema, v.metadata({ patternProperties: CUSTOM_PROPERTIES })) as AnySchema) : schema;
}

/** A create body: the spec's fields (their validation schemas), custom attributes when the entity has them, and `extras`. */
export function buildCreateBody(spec: EntitySpec, extras: Readonly<Record<string, AnySchema>> = {}): AnySchema {
  const customEntries: Record<string, AnySchema> = spec.customAttributes
    ? { customAttributes: v.optional(v.nullable(v.record(v.string(), v.unknown()))) as AnySchema }
    : {};
  return withCustom(
    v.strictObject({ ...buildCreateSchema(spec).entries, ...customEntries, ...extras }) as AnySchema,
    spec.customAttributes,
  );
}

function buildResourceEntries(spec: EntitySpec, extras: Readonly<Record<string, AnySchema>>): Record<string, AnySchema> {
  const entries: Record<string, AnySchema> = { id: GUID };
  for (const [name, field] of Object.entries(spec.fields)) entries[name] = buildAnswerSchema(field);
  return {
    ...entries,
    ...extras,
    isActive: v.boolean() as AnySchema,
    createdOn: DATE_TIME,
    createdBy: v.string() as AnySchema,
    modifiedOn: DATE_TIME,
    modifiedBy: v.string() as AnySchema,
    version: v.pipe(v.number(), v.integer(), v.description('+1 on every change; also the ETag')) as AnySchema,
  };
}

const cache = new WeakMap<EntitySpec, EntitySchemas>();

export function buildEntitySchemas(spec: EntitySpec, options: EntityDocOptions = {}): EntitySchemas {
  const cached = cache.get(spec);
  if (cached) return cached;
  const entries = buildResourceEntries(spec, options.answerExtras ?? {});
  const resource = withCustom(v.strictObject(entries) as AnySchema, spec.customAttributes);
  const selected = v.pipe(
    v.strictObject(Object.fromEntries(Object.entries(entries).map(([name, schema]) => [name, v.optional(schema)]))),
    v.description('With $select: only the selected properties'),
  ) as AnySchema;
  const page = v.strictObject({
    items: v.array(v.union([resource, selected])),
    count: v.optional(v.pipe(INTEGER, v.description('Total matching records ($count=true or $inlinecount=allpages)'))),
    nextPageLink: v.optional(v.pipe(v.string(), v.url(), v.description('Absolute URL of the next page (only when more rows exist)'))),
  }) as AnySchema;
  const create = buildCreateBody(spec, options.createExtras);
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
