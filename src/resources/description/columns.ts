/**
 * How a description's fields become D1 columns, for entities (src/resources/entities/table.ts) and reference kinds
 * (src/resources/reference/table.ts) alike: each family maps its field kinds to one of these storages, and both build their
 * identity and scope columns here. Column types (and so row types) follow the description.
 */
import { integer, text } from 'drizzle-orm/sqlite-core';
import type { ResourceFieldSpec } from './spec';

/** The storages a field can have, each optional (nullable) or required (NOT NULL). */
const COLUMN_BUILDERS = {
  /** Integers and enums. */
  integer: { optional: (name: string) => integer(name), required: (name: string) => integer(name).notNull() },
  /** Booleans that may be absent (an entity's optional flag). */
  boolean: {
    optional: (name: string) => integer(name, { mode: 'boolean' }),
    required: (name: string) => integer(name, { mode: 'boolean' }).notNull(),
  },
  /** Flags that are false unless set (a reference kind's boolean fields). */
  flag: {
    optional: (name: string) => integer(name, { mode: 'boolean' }).notNull().default(false),
    required: (name: string) => integer(name, { mode: 'boolean' }).notNull().default(false),
  },
  /** Lists of keys, stored as JSON arrays; empty unless set. */
  keyList: {
    optional: (name: string) => text(name, { mode: 'json' }).$type<string[]>().notNull().default([]),
    required: (name: string) => text(name, { mode: 'json' }).$type<string[]>().notNull().default([]),
  },
  /** Strings, GUIDs, ISO date-times (sortable text) and decimals (exact text). */
  text: { optional: (name: string) => text(name), required: (name: string) => text(name).notNull() },
};

export type ColumnStorage = keyof typeof COLUMN_BUILDERS;

type Optionality<F extends ResourceFieldSpec> = F['required'] extends true ? 'required' : 'optional';

/** The drizzle column builder of a field stored as `S`. */
export type ColumnOf<S extends ColumnStorage, F extends ResourceFieldSpec> = ReturnType<(typeof COLUMN_BUILDERS)[S][Optionality<F>]>;

/** Builds the column of each field, by the storage its family gives its kind. */
export function buildFieldColumns<V extends ResourceFieldSpec>(
  fields: Readonly<Record<string, V>>,
  storageOf: (field: V) => ColumnStorage,
): Record<string, ColumnOf<ColumnStorage, ResourceFieldSpec>> {
  const columns: Record<string, ColumnOf<ColumnStorage, ResourceFieldSpec>> = {};
  for (const [name, field] of Object.entries(fields))
    columns[name] = COLUMN_BUILDERS[storageOf(field)][field.required ? 'required' : 'optional'](field.column);
  return columns;
}

/** `id`, the record's primary key (a GUID). */
export function buildIdColumn() {
  return text('id').primaryKey();
}

/** `tenant_key` and `org_key`: the tenant/org every tenant row belongs to. */
export function buildScopeColumns() {
  return { tenantKey: text('tenant_key').notNull(), orgKey: text('org_key').notNull() };
}
