/** Derives each reference kind's D1 table from its description. */
import { integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
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
    return [uniqueIndex(`${spec.table}_key_uq`).on(tenant, org, key)];
  });
}

export type ReferenceTable = ReturnType<typeof defineReferenceTable>;
