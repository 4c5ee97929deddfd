/**
 * Storage of entity records in D1: the store of a description, the point read and lookups; every statement is scoped by
 * tenant and org. Lists: list-queries.ts; writes are staged: record-writes.ts.
 */
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Placeholder, SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { bindCompiled, compileStatement } from '../../tenant/compiled';
import type { CompiledStatement } from '../../tenant/compiled';
import { defineCompiledFamily } from '../../tenant/compiled-families';
import { requireColumn } from '../../db/client';
import type { TenantScope } from '../../db/client';
import type { TenantReader } from '../../tenant/session';
import { rowsOf } from '../../tenant/unit-of-work';
import { buildResidentCondition } from '../../tenant/placement/guard';
import { ApiError } from '../../errors/api-error';
import type { AuditFieldName } from './audit';
import type { EntitySpec } from './spec';
import type { EntityTable } from './table';
import { message } from '../../messages/catalogue';

/** How a request (or, with placeholders for values, a compiled query) names one record. */
type LookupOf<V> =
  | { readonly by: 'id'; readonly id: V }
  | { readonly by: 'key'; readonly values: readonly unknown[] }
  /** A GUID segment tried as an id first, then as the single-field key. */
  | { readonly by: 'idOrKey'; readonly id: V; readonly key: V };

/** How a request names one record. */
export type RecordLookup = LookupOf<string>;

/** A lookup's or a scope's value, or the placeholder that stands for it in a compiled query. */
type Term = string | Placeholder;

/** The columns every entity table has, typed. */
type EntityCommonColumns = Pick<EntityTable, 'id' | 'tenantKey' | 'orgKey' | 'customAttributes' | AuditFieldName>;

/**
 * An entity's description with its table, for the generic operations: the typed common columns, and every column by
 * field name. (The service's own queries use its typed table, `defineEntityTable`'s result, directly.)
 */
export interface EntityStore<S extends EntitySpec = EntitySpec> {
  readonly spec: S;
  readonly table: SQLiteTable;
  readonly common: EntityCommonColumns;
  readonly columns: Readonly<Record<string, SQLiteColumn>>;
}

export function defineEntityStore<const S extends EntitySpec>(spec: S, table: SQLiteTable & EntityCommonColumns): EntityStore<S> {
  const { id, tenantKey, orgKey, customAttributes, isActive, createdOn, createdBy, modifiedOn, modifiedBy, version } = table;
  const common = { id, tenantKey, orgKey, customAttributes, isActive, createdOn, createdBy, modifiedOn, modifiedBy, version };
  const store: EntityStore<S> = { spec, table, common, columns: getTableColumns(table) };
  recordQueries.declare(store);
  return store;
}

/** Every column of a record, with the common ones typed. */
function selectionOf(store: EntityStore) {
  return { ...store.columns, ...store.common };
}

/** A stored record as the generic operations read it: its fields by name, the common columns typed. */
export type EntityRecord = Readonly<Record<string, unknown>> & {
  readonly id: string;
  readonly customAttributes: string | null;
  readonly isActive: boolean;
  readonly version: number;
};

function column(store: EntityStore, name: string): SQLiteColumn {
  return requireColumn(store.columns, store.spec.table, name);
}

/** The WHERE condition of one lookup (without ordering). */
function lookupCondition(
  store: EntityStore,
  scope: { readonly tenantKey: Term; readonly orgKey: Term },
  lookup: LookupOf<Term>,
): SQL | undefined {
  const scoped = and(eq(store.common.tenantKey, scope.tenantKey), eq(store.common.orgKey, scope.orgKey));
  if (lookup.by === 'id') return and(scoped, eq(store.common.id, lookup.id));
  if (lookup.by === 'key') return and(scoped, ...store.spec.key.map((name, index) => eq(column(store, name), lookup.values[index])));
  const [keyName = 'key'] = store.spec.key;
  return and(scoped, sql`(${store.common.id} = ${lookup.id} OR ${column(store, keyName)} = ${lookup.key})`);
}

/** An id match ranks before a key match (`idOrKey` lookups). */
function idFirst(store: EntityStore, lookup: LookupOf<Term>): SQL {
  return sql`CASE WHEN ${store.common.id} = ${lookup.by === 'key' ? null : lookup.id} THEN 0 ELSE 1 END`;
}

/** A subquery selecting the one record's id: an id match wins over a key match. */
export function lookupIdSubquery(store: EntityStore, scope: TenantScope, lookup: RecordLookup): SQL {
  const condition = lookupCondition(store, scope, lookup);
  if (lookup.by !== 'idOrKey') return sql`(SELECT ${store.common.id} FROM ${store.table} WHERE ${condition} LIMIT 1)`;
  return sql`(SELECT ${store.common.id} FROM ${store.table} WHERE ${condition} ORDER BY ${idFirst(store, lookup)} LIMIT 1)`;
}

type RecordQuery = CompiledStatement<EntityRecord>;

/** A lookup of `by` whose values are placeholders (`id`, `key`, `k0`, `k1`, ...). */
function placeholderLookup(store: EntityStore, by: RecordLookup['by']): LookupOf<Placeholder> {
  if (by === 'id') return { by, id: sql.placeholder('id') };
  if (by === 'key') return { by, values: store.spec.key.map((_, index) => sql.placeholder(`k${index}`)) };
  return { by, id: sql.placeholder('id'), key: sql.placeholder('key') };
}

function compileRecordQuery(store: EntityStore, by: RecordLookup['by']): RecordQuery {
  const lookup = placeholderLookup(store, by);
  const scope = { tenantKey: sql.placeholder('tenantKey'), orgKey: sql.placeholder('orgKey') };
  const selection = selectionOf(store);
  // The read proves the tenant/org's residency itself (a row answered): run as a `residentRead` (guard.ts).
  const condition = and(lookupCondition(store, scope, lookup), buildResidentCondition(scope));
  const query = new QueryBuilder().select(selection).from(store.table).where(condition).$dynamic();
  return compileStatement((by === 'idOrKey' ? query.orderBy(idFirst(store, lookup)) : query).limit(sql.placeholder('limit')), selection);
}

/** `findRecord`'s query, by entity and lookup kind, compiled once per isolate (src/tenant/compiled.ts). */
const recordQueries = defineCompiledFamily({
  name: 'entity record reads',
  shapes: (): readonly RecordLookup['by'][] => ['id', 'key', 'idOrKey'],
  keyOf: (by: RecordLookup['by']) => by,
  compile: (store: EntityStore, by: RecordLookup['by']) => compileRecordQuery(store, by),
  statementsOf: (query: RecordQuery) => [query],
});

/** The placeholders' values of one lookup. */
function lookupValues(lookup: RecordLookup): Record<string, unknown> {
  if (lookup.by === 'id') return { id: lookup.id };
  if (lookup.by === 'key') return Object.fromEntries(lookup.values.map((value, index) => [`k${index}`, value]));
  return { id: lookup.id, key: lookup.key };
}

export async function findRecord(tenant: TenantReader, store: EntityStore, lookup: RecordLookup): Promise<EntityRecord | undefined> {
  const { scope } = tenant;
  const values = { tenantKey: scope.tenantKey, orgKey: scope.orgKey, limit: 1, ...lookupValues(lookup) };
  const statement = bindCompiled(recordQueries.read(store, lookup.by), values);
  // The read proves the tenant/org's residency itself (a row answered): declared a `residentRead`.
  const [rows] = await tenant.readBound('residentRead', [statement]);
  return rowsOf(statement, rows)[0];
}

export function duplicateKey(spec: EntitySpec, values: readonly unknown[]): ApiError {
  const key = spec.key.map((name, index) => `${name} '${String(values[index])}'`).join(', ');
  return new ApiError('DuplicateKey', `${spec.title} with ${key} already exists.`, {
    errors: spec.key.map((name, index) => ({
      path: name,
      message: message('alreadyExists', { field: name, value: String(values[index]) }),
    })),
  });
}

/** Who changes a record now (the unit of work's audit stamp). */
export type { AuditStamp } from '../../tenant/unit-of-work';
