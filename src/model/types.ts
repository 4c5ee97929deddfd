/**
 * The types every description yields: its row schema (valibot) and the row type inferred from it, its input (what a
 * create writes) and its patch (what an update writes). Generic code over any resource handles `AnyRow`.
 */
import * as v from 'valibot';
import { buildStoredSchema } from './fields';
import type { FieldValue, Fields, StoredSchemaOf } from './fields';
import type { Resource } from './resource';

/** The columns an entity row has besides its fields, in answer order. */
const ENTITY_ENTRIES = {
  id: v.string(),
  customAttributes: v.nullable(v.string()),
  isActive: v.boolean(),
  createdOn: v.string(),
  createdBy: v.string(),
  modifiedOn: v.string(),
  modifiedBy: v.string(),
  version: v.number(),
};

const REFERENCE_ENTRIES = { id: v.string(), key: v.string() };

const LINE_ENTRIES = {
  id: v.string(),
  parentId: v.string(),
  position: v.number(),
  customAttributes: v.nullable(v.string()),
  createdOn: v.string(),
  createdBy: v.string(),
  modifiedOn: v.string(),
  modifiedBy: v.string(),
};

const ROWS_ENTRIES = { id: v.number() };

type FieldEntries<F extends Fields> = { -readonly [K in keyof F & string]: StoredSchemaOf<F[K]> };

/** The entries of a resource's row schema: its storage's columns and its fields. */
type RowEntries<R extends Resource> = (R['storage'] extends 'entity'
  ? typeof ENTITY_ENTRIES
  : R['storage'] extends 'line'
    ? typeof LINE_ENTRIES
    : R['storage'] extends 'rows'
      ? typeof ROWS_ENTRIES
      : typeof REFERENCE_ENTRIES) &
  FieldEntries<R['fields']>;

type RowSchema<R extends Resource> = v.ObjectSchema<RowEntries<R>, undefined>;

/** A stored record of the resource (scope columns aside), as its row schema describes it. */
export type Row<R extends Resource> = v.InferOutput<RowSchema<R>>;

/** A stored record of any resource, by field name. */
export type AnyRow = { readonly [name: string]: FieldValue };

const STORAGE_ENTRIES = {
  entity: ENTITY_ENTRIES,
  reference: REFERENCE_ENTRIES,
  standard: REFERENCE_ENTRIES,
  line: LINE_ENTRIES,
  rows: ROWS_ENTRIES,
} as const satisfies Record<Resource['storage'], v.ObjectEntries>;

const rowSchemas = new WeakMap<Resource, v.GenericSchema>();

/** The row schema of a resource (built once per description). */
export function buildRowSchema<const R extends Resource>(resource: R): RowSchema<R> {
  let schema = rowSchemas.get(resource);
  if (!schema) {
    const fields = Object.fromEntries(Object.entries(resource.fields).map(([name, field]) => [name, buildStoredSchema(field)]));
    schema = v.object({ ...STORAGE_ENTRIES[resource.storage], ...fields });
    rowSchemas.set(resource, schema);
  }
  // The entries are the storage's and the fields' stored schemas, as RowEntries spells them out.
  return schema as RowSchema<R>;
}

/** A field's value type. */
type ValueOf<F extends Fields, K extends keyof F> = v.InferOutput<StoredSchemaOf<F[K]>>;

type RequiredNames<F extends Fields> = { [K in keyof F]: F[K] extends { readonly required: true } ? K : never }[keyof F] & string;
type OptionalNames<F extends Fields> = Exclude<keyof F & string, RequiredNames<F>>;

/** What a create writes: required fields, and optional ones (absent or null: not set). */
export type Input<R extends Resource> = { readonly [K in RequiredNames<R['fields']>]: NonNullable<ValueOf<R['fields'], K>> } & {
  readonly [K in OptionalNames<R['fields']>]?: ValueOf<R['fields'], K> | null;
};

/** What an update writes: some of the fields. */
export type Patch<R extends Resource> = { readonly [K in keyof R['fields'] & string]?: ValueOf<R['fields'], K> };
