/** Derives each reference kind's D1 table from its description; column and row types follow the spec. */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { requireColumn } from '../db/client';
import type { ReferenceFieldKind, ReferenceFieldSpec, ReferenceFieldSpecs, ReferenceKindSpec } from './spec';

const COLUMN_BUILDERS = {
  int: { optional: (name: string) => integer(name), required: (name: string) => integer(name).notNull() },
  bool: {
    optional: (name: string) => integer(name, { mode: 'boolean' }).notNull().default(false),
    required: (name: string) => integer(name, { mode: 'boolean' }).notNull().default(false),
  },
  // List fields (workerConfigurations.companies, .codes) are JSON arrays of keys.
  stringList: {
    optional: (name: string) => text(name, { mode: 'json' }).$type<string[]>().notNull().default([]),
    required: (name: string) => text(name, { mode: 'json' }).$type<string[]>().notNull().default([]),
  },
  string: { optional: (name: string) => text(name), required: (name: string) => text(name).notNull() },
  choice: { optional: (name: string) => text(name), required: (name: string) => text(name).notNull() },
} satisfies Record<ReferenceFieldKind, unknown>;

type ColumnOf<F extends ReferenceFieldSpec> = ReturnType<
  (typeof COLUMN_BUILDERS)[F['kind']][F['required'] extends true ? 'required' : 'optional']
>;

type ColumnsOf<F extends ReferenceFieldSpecs> = { -readonly [K in keyof F]: ColumnOf<F[K]> };

function buildColumns<F extends ReferenceFieldSpecs>(fields: F): ColumnsOf<F> {
  const columns: Record<string, ColumnOf<ReferenceFieldSpec>> = {};
  for (const [name, field] of Object.entries(fields))
    columns[name] = COLUMN_BUILDERS[field.kind][field.required ? 'required' : 'optional'](field.column);
  // Built field by field with the mapping ColumnsOf spells out.
  return columns as ColumnsOf<F>;
}

function buildIdColumn() {
  return text('id').primaryKey();
}

function buildKeyColumn() {
  return text('key').notNull();
}

function buildScopeColumns() {
  return { tenantKey: text('tenant_key').notNull(), orgKey: text('org_key').notNull() };
}

type StandardColumns<S extends ReferenceKindSpec> = {
  id: ReturnType<typeof buildIdColumn>;
  key: ReturnType<typeof buildKeyColumn>;
} & ColumnsOf<S['fields']>;

type TenantColumns<S extends ReferenceKindSpec> = { id: ReturnType<typeof buildIdColumn> } & ReturnType<typeof buildScopeColumns> & {
    key: ReturnType<typeof buildKeyColumn>;
  } & ColumnsOf<S['fields']>;

/** A standard list's table (global, read-only): `id`, `key` (unique), its fields. */
export function defineStandardTable<const S extends ReferenceKindSpec>(spec: S) {
  const columns: StandardColumns<S> = Object.assign({ id: buildIdColumn(), key: buildKeyColumn() }, buildColumns(spec.fields));
  // Explicit type arguments: drizzle would otherwise resolve the generic column map too early and lose the fields.
  return sqliteTable<S['table'], StandardColumns<S>>(spec.table, columns, (table) => [uniqueIndex(`${spec.table}_key_uq`).on(table.key)]);
}

/** A tenant kind's table: `id`, `tenant_key`, `org_key`, `key` (unique per tenant/org), its fields. */
export function defineTenantReferenceTable<const S extends ReferenceKindSpec>(spec: S) {
  const columns: TenantColumns<S> = Object.assign(
    { id: buildIdColumn() },
    buildScopeColumns(),
    { key: buildKeyColumn() },
    buildColumns(spec.fields),
  );
  return sqliteTable<S['table'], TenantColumns<S>>(spec.table, columns, (table) => {
    // Columns holding keys of another kind are indexed for the in-use check of deletes (usage.ts).
    const referenceIndexes = Object.entries(spec.fields)
      .filter(([, field]) => field.reference && field.kind !== 'stringList')
      .map(([name, field]) =>
        index(`${spec.table}_${field.column}_idx`).on(table.tenantKey, table.orgKey, requireColumn(table, spec.table, name)),
      );
    return [uniqueIndex(`${spec.table}_key_uq`).on(table.tenantKey, table.orgKey, table.key), ...referenceIndexes];
  });
}

export type StandardTable<S extends ReferenceKindSpec = ReferenceKindSpec> = ReturnType<typeof defineStandardTable<S>>;
export type TenantReferenceTable<S extends ReferenceKindSpec = ReferenceKindSpec> = ReturnType<typeof defineTenantReferenceTable<S>>;
