/**
 * Every table that holds tenant/org rows (a `tenant_key` and an `org_key` column), read from the tenant schema
 * (src/schema.ts hands its tables to `describeTenantTables`, see src/tenant-tables.ts) so that a new table is moved
 * and counted without code here. Parents come before the tables whose foreign keys point at them (copies insert in
 * this order; deletes run in reverse).
 */
import { is } from 'drizzle-orm';
import { getTableConfig, SQLiteTable } from 'drizzle-orm/sqlite-core';

export interface TenantTable {
  readonly name: string;
  /** Columns a move copies, in table order. */
  readonly columns: readonly string[];
  /**
   * An INTEGER PRIMARY KEY that is only an insertion sequence (a rowid alias, e.g. measurement ids): a move leaves it
   * out and the target numbers the copied rows in their original order. null: every column is copied as is.
   */
  readonly sequence: string | null;
  /** The primary key's columns (the sequence for a table keyed by one); what the history names a row by. */
  readonly key: readonly string[];
}

/** Tables of the tenant schema that are not tenant/org data. */
const EXCLUDED = new Set(['tenant_residency']);

function describeTable(table: SQLiteTable): { table: TenantTable; parents: string[] } | null {
  const config = getTableConfig(table);
  const names = config.columns.map((column) => column.name);
  if (EXCLUDED.has(config.name) || !names.includes('tenant_key') || !names.includes('org_key')) return null;
  const integerKey = config.columns.find((column) => column.primary && column.columnType === 'SQLiteInteger');
  const sequence = integerKey && config.primaryKeys.length === 0 ? integerKey.name : null;
  const composite = config.primaryKeys[0]?.columns.map((column) => column.name);
  const key = composite ?? config.columns.filter((column) => column.primary).map((column) => column.name);
  return {
    table: { name: config.name, columns: names.filter((name) => name !== sequence), sequence, key },
    parents: config.foreignKeys.map((key) => getTableConfig(key.reference().foreignTable).name),
  };
}

function orderByForeignKeys(described: { table: TenantTable; parents: string[] }[]): TenantTable[] {
  const pending = new Map(described.map((entry) => [entry.table.name, entry]));
  const ordered: TenantTable[] = [];
  while (pending.size > 0) {
    const ready = [...pending.values()].filter((entry) =>
      entry.parents.every((parent) => parent === entry.table.name || !pending.has(parent)),
    );
    if (ready.length === 0) throw new Error(`Foreign keys form a cycle among ${[...pending.keys()].join(', ')}.`);
    for (const entry of ready.sort((a, b) => (a.table.name < b.table.name ? -1 : 1))) {
      ordered.push(entry.table);
      pending.delete(entry.table.name);
    }
  }
  return ordered;
}

/** The tenant/org tables among a schema module's exports (drizzle tables; anything else is ignored). */
export function describeTenantTables(schema: Readonly<Record<string, unknown>>): readonly TenantTable[] {
  return orderByForeignKeys(
    Object.values(schema).flatMap((value) => {
      const entry = is(value, SQLiteTable) ? describeTable(value) : null;
      return entry ? [entry] : [];
    }),
  );
}
