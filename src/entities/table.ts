/** Derives an entity's D1 table (drizzle) from its description. */
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { SQLiteColumnBuilderBase } from 'drizzle-orm/sqlite-core';
import type { EntitySpec, FieldSpec } from './spec';

function buildColumn(field: FieldSpec): SQLiteColumnBuilderBase {
  switch (field.kind) {
    case 'int':
    case 'enum':
      return field.required ? integer(field.column).notNull() : integer(field.column);
    case 'bool':
      return field.required ? integer(field.column, { mode: 'boolean' }).notNull() : integer(field.column, { mode: 'boolean' });
    default:
      // Strings, GUIDs, ISO date-times (sortable text) and decimals (exact text).
      return field.required ? text(field.column).notNull() : text(field.column);
  }
}

/** The columns every entity row carries besides its fields. */
export function buildCommonColumns(): Record<string, SQLiteColumnBuilderBase> {
  return {
    id: text('id').primaryKey(),
    tenantKey: text('tenant_key').notNull(),
    orgKey: text('org_key').notNull(),
  };
}

export function buildAuditColumns(customAttributes: boolean): Record<string, SQLiteColumnBuilderBase> {
  return {
    ...(customAttributes ? { customAttributes: text('custom_attributes') } : {}),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    version: integer('version').notNull().default(1),
    createdOn: text('created_on').notNull(),
    createdBy: text('created_by').notNull(),
    modifiedOn: text('modified_on').notNull(),
    modifiedBy: text('modified_by').notNull(),
  };
}

export function defineEntityTable(spec: EntitySpec) {
  const columns: Record<string, SQLiteColumnBuilderBase> = { ...buildCommonColumns() };
  for (const [name, field] of Object.entries(spec.fields)) columns[name] = buildColumn(field);
  Object.assign(columns, buildAuditColumns(spec.customAttributes));
  return sqliteTable(spec.table, columns, (table) => {
    const col = (name: string) => {
      const found = table[name];
      if (!found) throw new Error(`${spec.table}: unknown column ${name}`);
      return found;
    };
    const scope = [col('tenantKey'), col('orgKey')] as const;
    const keyColumns = spec.key.map(col);
    const [firstKey, ...restKey] = keyColumns;
    if (!firstKey) throw new Error(`${spec.table}: an entity needs a key`);
    // Each declared index ends with (created_on, id), the default order's tie-breakers, so a filter on its
    // columns is also read in the default (or reversed) order without a sort.
    const extra = (spec.indexes ?? []).map((fields) => {
      const names = [...fields, ...['createdOn', 'id'].filter((name) => !fields.includes(name))];
      const [first, ...rest] = names.map(col);
      if (!first) throw new Error(`${spec.table}: empty index`);
      return index(`${spec.table}_${fields.map((name) => col(name).name).join('_')}_idx`).on(...scope, first, ...rest);
    });
    return [
      uniqueIndex(`${spec.table}_key_uq`).on(...scope, firstKey, ...restKey),
      index(`${spec.table}_created_idx`).on(...scope, col('createdOn'), col('id')),
      ...extra,
    ];
  });
}

export type EntityTable = ReturnType<typeof defineEntityTable>;
