/** Storage of entity records in D1: every statement is scoped by tenant and org; writes are staged (record-writes.ts). */
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Placeholder, SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import type { SQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import { compileStatement, runCompiledSelect } from '../tenant/compiled';
import type { CompiledStatement } from '../tenant/compiled';
import { defineCompiledFamily } from '../tenant/compiled-families';
import { D1_MAX_PARAMETERS, requireColumn, scopeCondition } from '../db/client';
import type { Database, TenantScope } from '../db/client';
import { buildResidentCondition } from '../platform/placement/guard';
import { ApiError } from '../errors/api-error';
import { checkParameterLimit } from '../odata/compile';
import type { CompiledQuery } from '../odata/compile';
import { odataError } from '../odata/lexer';
import { compileKeyset, compileKeysetArms, isServedByIndex } from '../odata/order';
import type { CursorValue } from '../odata/order';
import { SORT_ROW_BUDGET } from '../odata/types';
import { listSortOrders } from './odata-fields';
import type { AuditFieldName } from './audit';
import { buildCountQuery } from './counts';
import { buildTextSearchArms } from './text-search';
import { declareRecordWrites } from './record-writes';
import type { EntitySpec } from './spec';
import type { EntityTable } from './table';
import { message } from '../messages/catalogue';

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
export type EntityCommonColumns = Pick<EntityTable, 'id' | 'tenantKey' | 'orgKey' | 'customAttributes' | AuditFieldName>;

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
  declareRecordWrites(store);
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
export function lookupCondition(
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
  compile: (_db: Database, store: EntityStore, by: RecordLookup['by']) => compileRecordQuery(store, by),
  statementsOf: (query: RecordQuery) => [query],
});

/** The placeholders' values of one lookup. */
function lookupValues(lookup: RecordLookup): Record<string, unknown> {
  if (lookup.by === 'id') return { id: lookup.id };
  if (lookup.by === 'key') return Object.fromEntries(lookup.values.map((value, index) => [`k${index}`, value]));
  return { id: lookup.id, key: lookup.key };
}

export async function findRecord(
  db: Database,
  store: EntityStore,
  scope: TenantScope,
  lookup: RecordLookup,
): Promise<EntityRecord | undefined> {
  const values = { tenantKey: scope.tenantKey, orgKey: scope.orgKey, limit: 1, ...lookupValues(lookup) };
  // The read proves the tenant/org's residency itself (a row answered): declared a `residentRead`.
  const rows = await runCompiledSelect(db, 'residentRead', recordQueries.read(db, store, lookup.by), values);
  return rows[0];
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
export type { AuditStamp } from '../tenant/unit-of-work';

export interface ListPage {
  /** The page's rows: every column by field name, or the `$select`ed ones. */
  readonly rows: readonly Readonly<Record<string, unknown>>[];
  readonly hasMore: boolean;
  readonly count?: number;
}

export interface ListRequest {
  readonly top: number;
  readonly skip: number;
  readonly count: boolean;
  /** Keyset position (`$skiptoken`): the page starts after the row with these order column values. */
  readonly after?: readonly CursorValue[];
}

/** The text-search arms of a list (src/entities/text-search.ts), when its filter has a term the index can look up. */
function findTextSearchArms(store: EntityStore, scope: TenantScope, compiled: CompiledQuery) {
  // A compound statement orders by its result columns: an order on an expression (a decimal's CAST) keeps the scan.
  if (!compiled.textSearch || compiled.orderColumns.some((order) => order.field.kind === 'decimal')) return undefined;
  return buildTextSearchArms(compiled.textSearch, store.common, scope);
}

/** The statement with the fewest bound values wins when `preferred` would bind more than D1 allows. */
function fitParameters<T extends { toSQL(): { params: unknown[] } }, F>(preferred: T | undefined, fallback: F): T | F {
  return preferred && preferred.toSQL().params.length <= D1_MAX_PARAMETERS ? preferred : fallback;
}

/**
 * The page query (LIMIT top+1 tells whether more rows exist) and the count query of one OData list; `select` limits
 * the page to those columns. Refuses, with 400 InvalidODataQuery, a page query that would bind more parameters than
 * D1 allows. A filter with a text term the trigram index can look up runs as the two arms of text-search.ts. An order
 * no index serves comes with `budget`: a query of the rows the filter selects, counted up to `SORT_ROW_BUDGET + 1` (the
 * maintained count without a filter), which `listRecordPage` checks before the page is sorted.
 */
export function buildListQueries(
  db: Database,
  store: EntityStore,
  scope: TenantScope,
  compiled: CompiledQuery,
  page: ListRequest,
  select?: readonly string[],
) {
  const scoped = scopeCondition(store.common, scope);
  // A `$select`ed page still reads the order columns: the next page's `$skiptoken` is made of the last row's values.
  const names = select ? [...new Set([...select, ...compiled.orderColumns.map((order) => order.field.name)])] : undefined;
  const selection = names ? Object.fromEntries(names.map((name) => [name, column(store, name)])) : store.columns;
  const keyset = page.after ? compileKeyset(compiled.orderColumns, page.after) : undefined;
  const selectRows = (condition: SQL | undefined, position = keyset) =>
    db
      .select(selection)
      .from(store.table)
      .where(and(condition, compiled.where, position));
  const scanRows = selectRows(scoped)
    .orderBy(compiled.orderBy)
    .limit(page.top + 1)
    .offset(page.skip);
  checkParameterLimit(scanRows.toSQL().params.length, compiled, D1_MAX_PARAMETERS);
  const arms = findTextSearchArms(store, scope, compiled);
  const served = isServedByIndex(compiled.orderColumns, listSortOrders(store.spec));
  // A position over a null-able first column read from its index: two seeks merged (`compileKeysetArms`).
  const positionArms = page.after && served && !arms ? compileKeysetArms(compiled.orderColumns, page.after) : undefined;
  const union = arms
    ? selectRows(arms.candidates).unionAll(selectRows(arms.scan))
    : positionArms && selectRows(scoped, positionArms[0]).unionAll(selectRows(scoped, positionArms[1]));
  const rowsQuery = fitParameters(
    union
      ?.orderBy(compiled.orderBy)
      .limit(page.top + 1)
      .offset(page.skip),
    scanRows,
  );
  // Unfiltered, the count is the maintained one (one row of entity_counts); filtered, it counts the matching rows.
  const selectOnes = (condition: SQL | undefined) =>
    db
      .select({ one: sql`1` })
      .from(store.table)
      .where(and(condition, compiled.where));
  const countQuery = compiled.where
    ? fitParameters(
        arms && db.select({ count: sql<number>`count(*)` }).from(sql`(${selectOnes(arms.candidates).unionAll(selectOnes(arms.scan))})`),
        db
          .select({ count: sql<number>`count(*)` })
          .from(store.table)
          .where(and(scoped, compiled.where)),
      )
    : buildCountQuery(db, store.spec.table, scope);
  if (served) return { rowsQuery, countQuery, budget: undefined };
  const bounded = (rows: SQL) => db.select({ count: sql<number>`count(*)` }).from(sql`(${rows})`);
  const budgetQuery = compiled.where
    ? fitParameters(
        arms &&
          bounded(
            sql`${selectOnes(arms.candidates)
              .unionAll(selectOnes(arms.scan))
              .limit(SORT_ROW_BUDGET + 1)}`,
          ),
        bounded(sql`${selectOnes(scoped).limit(SORT_ROW_BUDGET + 1)}`),
      )
    : buildCountQuery(db, store.spec.table, scope);
  return { rowsQuery, countQuery, budget: { query: budgetQuery, orderColumns: compiled.orderColumns } };
}

/** 400 naming `$filter` as what to add: the order is sorted and the list has more rows than a sort may take. */
function refuseOverBudget(orderColumns: CompiledQuery['orderColumns']): ApiError {
  const order = orderColumns.map((column) => `${column.field.name} ${column.descending ? 'desc' : 'asc'}`).join(', ');
  const budget = SORT_ROW_BUDGET.toLocaleString('en');
  return odataError(
    '$orderby',
    undefined,
    `no index serves the order ${order}, so it is sorted, and the list has more than ${budget} matching rows (the most a list sorts): add a $filter that selects at most ${budget} rows, or order by one indexed property (docs/odata.md, "Sorting")`,
  );
}

/** One page in one D1 query; with `count`, the count rides in the same batch as a second statement. */
export async function listRecordPage(db: Database, queries: ReturnType<typeof buildListQueries>, page: ListRequest): Promise<ListPage> {
  const { rowsQuery, countQuery } = queries;
  if (queries.budget && page.top > 0) {
    const [counted] = await queries.budget.query;
    if (Number(counted?.count ?? 0) > SORT_ROW_BUDGET) throw refuseOverBudget(queries.budget.orderColumns);
  }
  if (!page.count) {
    const rows = page.top === 0 ? [] : await rowsQuery;
    return { rows: rows.slice(0, page.top), hasMore: page.top > 0 && rows.length > page.top };
  }
  if (page.top === 0) {
    const [counted] = await countQuery;
    return { rows: [], hasMore: false, count: Number(counted?.count ?? 0) };
  }
  const [rows, counted] = await db.batch([rowsQuery, countQuery]);
  return { rows: rows.slice(0, page.top), hasMore: rows.length > page.top, count: Number(counted[0]?.count ?? 0) };
}
