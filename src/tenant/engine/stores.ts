/**
 * Where each described resource is stored: its drizzle table (derived from the description, src/model/table.ts) and
 * its columns by field name. Each service's table module binds its resources (`bindResource`); the engine finds a
 * resource's store by the description or by its name (an import's ledger names resources by name).
 */
import { getTableColumns } from 'drizzle-orm';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Resource } from '../../model/resource';

export interface ResourceStore<R extends Resource = Resource> {
  readonly resource: R;
  readonly table: SQLiteTable;
  /** Every column by field name: the storage's own (id, scope, audit, ...) and the description's fields. */
  readonly columns: Readonly<Record<string, SQLiteColumn>>;
}

const byName = new Map<string, ResourceStore>();
const byResource = new WeakMap<Resource, ResourceStore>();

/** Binds a resource to its table (once, where the table is defined). */
export function bindResource<const R extends Resource>(resource: R, table: SQLiteTable): ResourceStore<R> {
  const store: ResourceStore<R> = { resource, table, columns: getTableColumns(table) };
  if (byName.has(resource.name)) throw new Error(`The resource ${resource.name} is bound twice.`);
  byName.set(resource.name, store);
  byResource.set(resource, store);
  return store;
}

/** The store of a described resource (a resource never bound is a bug). */
export function requireStore<R extends Resource>(resource: R): ResourceStore<R> {
  const store = byResource.get(resource);
  if (!store) throw new Error(`The resource ${resource.name} has no table bound.`);
  // Bound with this very description (bindResource), so its store is of this resource.
  return store as ResourceStore<R>;
}

/** The store of a resource by name (an import's ledger, an operation decoded from JSON); undefined when unknown. */
export function findStoreByName(name: string): ResourceStore | undefined {
  return byName.get(name);
}

/** A column of the store by field name (names come from descriptions, so a miss is a bug). */
export function columnOf(store: ResourceStore, name: string): SQLiteColumn {
  const column = store.columns[name];
  if (!column) throw new Error(`${store.resource.table} has no column for ${name}.`);
  return column;
}
