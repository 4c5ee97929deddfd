/** Storage of entity records in D1: every statement is scoped by tenant and org. */
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { D1_MAX_PARAMETERS, isUniqueViolation } from '../db/client';
import type { Database, TenantScope } from '../db/client';
import { runWrites } from '../db/writes';
import type { WriteStatement } from '../db/writes';
import { ApiError } from '../http/errors';
import { assertParameterLimit } from '../odata/compile';
import type { CompiledQuery } from '../odata/compile';
import type { EntityTable } from './table';
import type { EntitySpec } from './spec';

/** How a request names one record. */
export type RecordLookup =
  | { readonly by: 'id'; readonly id: string }
  | { readonly by: 'key'; readonly values: readonly unknown[] }
  /** A GUID segment tried as an id first, then as the single-field key. */
  | { readonly by: 'idOrKey'; readonly id: string; readonly key: string };

export type Row = Record<string, unknown>;

export interface EntityStore {
  readonly spec: EntitySpec;
  readonly table: EntityTable;
  readonly columns: Record<string, SQLiteColumn>;
}

export function buildEntityStore(spec: EntitySpec, table: EntityTable): EntityStore {
  return { spec, table, columns: getTableColumns(table) as Record<string, SQLiteColumn> };
}

function column(store: EntityStore, name: string): SQLiteColumn {
  const found = store.columns[name];
  if (!found) throw new Error(`${store.spec.table} has no column ${name}`);
  return found;
}

export function scopeCondition(store: EntityStore, scope: TenantScope): SQL {
  return and(eq(column(store, 'tenantKey'), scope.tenantKey), eq(column(store, 'orgKey'), scope.orgKey)) as SQL;
}

/** The WHERE condition of one lookup (without ordering). */
export function lookupCondition(store: EntityStore, scope: TenantScope, lookup: RecordLookup): SQL {
  const scoped = scopeCondition(store, scope);
  if (lookup.by === 'id') return and(scoped, eq(column(store, 'id'), lookup.id)) as SQL;
  if (lookup.by === 'key') {
    const parts = store.spec.key.map((name, index) => eq(column(store, name), lookup.values[index]));
    return and(scoped, ...parts) as SQL;
  }
  const keyName = store.spec.key[0] as string;
  return and(scoped, sql`(${column(store, 'id')} = ${lookup.id} OR ${column(store, keyName)} = ${lookup.key})`) as SQL;
}

/** A subquery selecting the one record's id: an id match wins over a key match. */
export function lookupIdSubquery(store: EntityStore, scope: TenantScope, lookup: RecordLookup): SQL {
  const table = store.table;
  const condition = lookupCondition(store, scope, lookup);
  if (lookup.by !== 'idOrKey') return sql`(SELECT ${column(store, 'id')} FROM ${table} WHERE ${condition} LIMIT 1)`;
  return sql`(SELECT ${column(store, 'id')} FROM ${table} WHERE ${condition} ORDER BY CASE WHEN ${column(store, 'id')} = ${lookup.id} THEN 0 ELSE 1 END LIMIT 1)`;
}

export async function readRow(db: Database, store: EntityStore, scope: TenantScope, lookup: RecordLookup): Promise<Row | undefined> {
  const query = db
    .select()
    .from(store.table)
    .where(lookupCondition(store, scope, lookup));
  const ordered = lookup.by === 'idOrKey' ? query.orderBy(sql`CASE WHEN ${column(store, 'id')} = ${lookup.id} THEN 0 ELSE 1 END`) : query;
  const rows = await ordered.limit(1);
  return rows[0] as Row | undefined;
}

/** Inserts the row plus dependent statements in one batch (one transaction). */
export async function insertRow(db: Database, store: EntityStore, row: Row, extra: readonly WriteStatement[] = []): Promise<void> {
  try {
    await runWrites(db, [db.insert(store.table).values(row), ...extra]);
  } catch (error) {
    if (isUniqueViolation(error))
      throw duplicateKey(
        store.spec,
        store.spec.key.map((name) => row[name]),
      );
    throw error;
  }
}

export function duplicateKey(spec: EntitySpec, values: readonly unknown[]): ApiError {
  const key = spec.key.map((name, index) => `${name} '${String(values[index])}'`).join(', ');
  return new ApiError('DuplicateKey', `${spec.title} with ${key} already exists.`, {
    errors: spec.key.map((name) => ({ path: name, message: 'already exists' })),
  });
}

export interface AuditStamp {
  readonly on: string;
  readonly by: string;
}

/**
 * Updates columns of one record, bumping `version` and the audit fields, in one statement.
 * Returns the new version, or undefined when no row matched (missing, or `expectedVersion` differs).
 */
export async function updateRow(
  db: Database,
  store: EntityStore,
  scope: TenantScope,
  lookup: RecordLookup,
  set: Record<string, unknown | SQL>,
  stamp: AuditStamp,
  expectedVersion?: number,
): Promise<number | undefined> {
  const condition = and(
    eq(column(store, 'id'), lookupIdSubquery(store, scope, lookup)),
    ...(expectedVersion === undefined ? [] : [eq(column(store, 'version'), expectedVersion)]),
  );
  const values = { ...set, version: sql`${column(store, 'version')} + 1`, modifiedOn: stamp.on, modifiedBy: stamp.by };
  try {
    const [rows] = await runWrites(db, [
      db
        .update(store.table)
        .set(values)
        .where(condition)
        .returning({ version: column(store, 'version') }),
    ]);
    return rows[0]?.version as number | undefined;
  } catch (error) {
    if (isUniqueViolation(error)) {
      const keyValues = store.spec.key.map((name) => (name in set ? set[name] : '(unchanged)'));
      throw duplicateKey(store.spec, keyValues);
    }
    throw error;
  }
}

/** Deletes one record (children go by ON DELETE CASCADE); returns whether a row was deleted. */
export async function deleteRow(
  db: Database,
  store: EntityStore,
  scope: TenantScope,
  lookup: RecordLookup,
  expectedVersion?: number,
): Promise<boolean> {
  const condition = and(
    eq(column(store, 'id'), lookupIdSubquery(store, scope, lookup)),
    ...(expectedVersion === undefined ? [] : [eq(column(store, 'version'), expectedVersion)]),
  );
  const [rows] = await runWrites(db, [
    db
      .delete(store.table)
      .where(condition)
      .returning({ id: column(store, 'id') }),
  ]);
  return rows.length > 0;
}

export interface ListPage {
  readonly rows: Row[];
  readonly hasMore: boolean;
  readonly count?: number;
}

export interface ListRequest {
  readonly top: number;
  readonly skip: number;
  readonly count: boolean;
  readonly select?: readonly string[];
}

/**
 * The page query (LIMIT top+1 tells whether more rows exist) and the count query of one OData list.
 * Refuses, with 400 InvalidODataQuery, a page query that would bind more parameters than D1 allows.
 */
export function buildListQueries(db: Database, store: EntityStore, scope: TenantScope, compiled: CompiledQuery, page: ListRequest) {
  const where = compiled.where ? and(scopeCondition(store, scope), compiled.where) : scopeCondition(store, scope);
  const selection = page.select ? Object.fromEntries(page.select.map((name) => [name, column(store, name)])) : undefined;
  const base = selection ? db.select(selection).from(store.table) : db.select().from(store.table);
  const rowsQuery = base
    .where(where)
    .orderBy(compiled.orderBy)
    .limit(page.top + 1)
    .offset(page.skip);
  assertParameterLimit(rowsQuery.toSQL().params.length, compiled, D1_MAX_PARAMETERS);
  const countQuery = db
    .select({ count: sql<number>`count(*)` })
    .from(store.table)
    .where(where);
  return { rowsQuery, countQuery };
}

/** One page in one D1 query; with `count`, the count rides in the same batch as a second statement. */
export async function listRows(
  db: Database,
  store: EntityStore,
  scope: TenantScope,
  compiled: CompiledQuery,
  page: ListRequest,
): Promise<ListPage> {
  const { rowsQuery, countQuery } = buildListQueries(db, store, scope, compiled, page);
  if (!page.count) {
    const rows = (page.top === 0 ? [] : await rowsQuery) as Row[];
    return { rows: rows.slice(0, page.top), hasMore: page.top > 0 && rows.length > page.top };
  }
  if (page.top === 0) {
    const counted = await countQuery;
    return { rows: [], hasMore: false, count: Number(counted[0]?.count ?? 0) };
  }
  const [rows, counted] = await db.batch([rowsQuery, countQuery]);
  const list = rows as Row[];
  return { rows: list.slice(0, page.top), hasMore: list.length > page.top, count: Number(counted[0]?.count ?? 0) };
}
