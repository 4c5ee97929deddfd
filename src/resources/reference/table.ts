/** Derives each reference kind's D1 table from its description; column and row types follow the spec. */
import { index, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { requireColumn } from '../../db/client';
import { buildFieldColumns, buildIdColumn, buildScopeColumns } from '../description/columns';
import type { ColumnOf, ColumnStorage } from '../description/columns';
import type { ReferenceFieldKind, ReferenceFieldSpecs, ReferenceKindSpec } from './spec';

/** How each field kind is stored; booleans are false and key lists empty unless set. */
const STORAGE = {
  int: 'integer',
  bool: 'flag',
  // List fields (workerConfigurations.companies, .codes) are JSON arrays of keys.
  stringList: 'keyList',
  string: 'text',
  choice: 'text',
} as const satisfies Record<ReferenceFieldKind, ColumnStorage>;

type ColumnsOf<F extends ReferenceFieldSpecs> = { -readonly [K in keyof F]: ColumnOf<(typeof STORAGE)[F[K]['kind']], F[K]> };

function buildColumns<F extends ReferenceFieldSpecs>(fields: F): ColumnsOf<F> {
  // Built field by field with the mapping ColumnsOf spells out.
  return buildFieldColumns(fields, (field) => STORAGE[field.kind]) as ColumnsOf<F>;
}

function buildKeyColumn() {
  return text('key').notNull();
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
