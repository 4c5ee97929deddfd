/** Derives each reference kind's D1 table from its description. */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { SQLiteColumnBuilderBase } from 'drizzle-orm/sqlite-core';
import type { ReferenceFieldSpec, ReferenceKindSpec } from './spec';

function buildColumn(field: ReferenceFieldSpec): SQLiteColumnBuilderBase {
  switch (field.kind) {
    case 'int':
      return field.required ? integer(field.column).notNull() : integer(field.column);
    case 'bool':
      return integer(field.column, { mode: 'boolean' }).notNull().default(false);
    case 'stringList':
      return text(field.column, { mode: 'json' }).notNull().default([]);
    default:
      return field.required ? text(field.column).notNull() : text(field.column);
  }
}

export function defineReferenceTable(spec: ReferenceKindSpec) {
  const columns: Record<string, SQLiteColumnBuilderBase> = { id: text('id').primaryKey() };
  if (!spec.standard) {
    columns.tenantKey = text('tenant_key').notNull();
    columns.orgKey = text('org_key').notNull();
  }
  columns.key = text('key').notNull();
  for (const [name, field] of Object.entries(spec.fields)) columns[name] = buildColumn(field);
  return sqliteTable(spec.table, columns, (table) => {
    const key = table.key;
    if (!key) throw new Error(`${spec.table} has no key`);
    if (spec.standard) return [uniqueIndex(`${spec.table}_key_uq`).on(key)];
    const tenant = table.tenantKey;
    const org = table.orgKey;
    if (!tenant || !org) throw new Error(`${spec.table} has no scope`);
    // Columns holding keys of another kind are indexed for the in-use check of deletes (usage.ts).
    const referenceIndexes = Object.entries(spec.fields)
      .filter(([, field]) => field.reference && field.kind !== 'stringList')
      .map(([name, field]) => {
        const column = table[name];
        if (!column) throw new Error(`${spec.table} has no column ${name}`);
        return index(`${spec.table}_${field.column}_idx`).on(tenant, org, column);
      });
    return [uniqueIndex(`${spec.table}_key_uq`).on(tenant, org, key), ...referenceIndexes];
  });
}

export type ReferenceTable = ReturnType<typeof defineReferenceTable>;
