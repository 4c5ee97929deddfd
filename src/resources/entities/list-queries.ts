/**
 * The queries of one OData list of an entity: the page, the count and, for an order no index serves, the sort budget;
 * and the page read with them. Every statement is scoped by tenant and org.
 */
import { and, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import { D1_MAX_PARAMETERS, requireColumn, scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { ApiError } from '../../errors/api-error';
import { checkParameterLimit } from '../../odata/compile';
import type { CompiledQuery } from '../../odata/compile';
import { odataError } from '../../odata/lexer';
import { compileKeyset, compileKeysetArms, isServedByIndex } from '../../odata/order';
import type { CursorValue } from '../../odata/order';
import { SORT_ROW_BUDGET } from '../../odata/types';
import { buildCountQuery } from './counts';
import { listSortOrders } from './odata-fields';
import type { EntityStore } from './store';
import { buildTextSearchArms } from './text-search';
import type { TenantReader } from '../../tenant/session';

interface ListPage {
  /** The page's rows: every column by field name, or the `$select`ed ones. */
  readonly rows: readonly Readonly<Record<string, unknown>>[];
  readonly hasMore: boolean;
  readonly count?: number;
}

interface ListRequest {
  readonly top: number;
  readonly skip: number;
  readonly count: boolean;
  /** Keyset position (`$skiptoken`): the page starts after the row with these order column values. */
  readonly after?: readonly CursorValue[];
}

/** The text-search arms of a list (src/resources/entities/text-search.ts), when its filter has a term the index can look up. */
function findTextSearchArms(store: EntityStore, scope: TenantScope, compiled: CompiledQuery) {
  // A compound statement orders by its result columns: an order on an expression (a decimal's CAST) keeps the scan.
  if (!compiled.textSearch || compiled.orderColumns.some((order) => order.field.kind === 'decimal')) return undefined;
  return buildTextSearchArms(compiled.textSearch, store.common, scope);
}

/** What every query of one list is made of. */
interface ListParts {
  readonly store: EntityStore;
  readonly scope: TenantScope;
  readonly compiled: CompiledQuery;
  /** The tenant/org's condition. */
  readonly scoped: SQL | undefined;
  /** The text-search arms, when the filter has a term the trigram index can look up. */
  readonly arms: ReturnType<typeof findTextSearchArms>;
}

/** The statement with the fewest bound values wins when `preferred` would bind more than D1 allows. */
function fitParameters<T extends { toSQL(): { params: unknown[] } }, F>(preferred: T | undefined, fallback: F): T | F {
  return preferred && preferred.toSQL().params.length <= D1_MAX_PARAMETERS ? preferred : fallback;
}

/**
 * The page query: LIMIT top+1 tells whether more rows exist; `select` limits it to those columns. Refuses, with 400
 * InvalidODataQuery, a page that would bind more parameters than D1 allows. A filter with a text term the trigram index
 * can look up runs as the two arms of text-search.ts; a position over a null-able first column an index serves, as two
 * seeks merged.
 */
function buildRowsQuery(parts: ListParts, page: ListRequest, served: boolean, select?: readonly string[]) {
  const { store, compiled, scoped, arms } = parts;
  // A `$select`ed page still reads the order columns: the next page's `$skiptoken` is made of the last row's values.
  const names = select ? [...new Set([...select, ...compiled.orderColumns.map((order) => order.field.name)])] : undefined;
  const selection = names
    ? Object.fromEntries(names.map((name) => [name, requireColumn(store.columns, store.spec.table, name)]))
    : store.columns;
  const keyset = page.after ? compileKeyset(compiled.orderColumns, page.after) : undefined;
  const selectRows = (condition: SQL | undefined, position = keyset) =>
    sqlBuilder
      .select(selection)
      .from(store.table)
      .where(and(condition, compiled.where, position));
  const scanRows = selectRows(scoped)
    .orderBy(compiled.orderBy)
    .limit(page.top + 1)
    .offset(page.skip);
  checkParameterLimit(scanRows.toSQL().params.length, compiled, D1_MAX_PARAMETERS);
  const positionArms = page.after && served && !arms ? compileKeysetArms(compiled.orderColumns, page.after) : undefined;
  const union = arms
    ? selectRows(arms.candidates).unionAll(selectRows(arms.scan))
    : positionArms && selectRows(scoped, positionArms[0]).unionAll(selectRows(scoped, positionArms[1]));
  return fitParameters(
    union
      ?.orderBy(compiled.orderBy)
      .limit(page.top + 1)
      .offset(page.skip),
    scanRows,
  );
}

/** A `1` for each row the filter selects under `condition`. */
function selectMatchingOnes(parts: ListParts, condition: SQL | undefined) {
  return sqlBuilder
    .select({ one: sql`1` })
    .from(parts.store.table)
    .where(and(condition, parts.compiled.where));
}

/** Unfiltered, the count is the maintained one (one row of entity_counts); filtered, it counts the matching rows. */
function buildCountOfList(parts: ListParts) {
  const { store, scope, compiled, scoped, arms } = parts;
  if (!compiled.where) return buildCountQuery(store.spec.table, scope);
  return fitParameters(
    arms &&
      sqlBuilder
        .select({ count: sql<number>`count(*)` })
        .from(sql`(${selectMatchingOnes(parts, arms.candidates).unionAll(selectMatchingOnes(parts, arms.scan))})`),
    sqlBuilder
      .select({ count: sql<number>`count(*)` })
      .from(store.table)
      .where(and(scoped, compiled.where)),
  );
}

/** The rows an unserved order would sort, counted up to `SORT_ROW_BUDGET + 1` (the maintained count without a filter). */
function buildBudgetQuery(parts: ListParts) {
  const { store, scope, compiled, scoped, arms } = parts;
  if (!compiled.where) return buildCountQuery(store.spec.table, scope);
  const bounded = (rows: SQL) => sqlBuilder.select({ count: sql<number>`count(*)` }).from(sql`(${rows})`);
  return fitParameters(
    arms &&
      bounded(
        sql`${selectMatchingOnes(parts, arms.candidates)
          .unionAll(selectMatchingOnes(parts, arms.scan))
          .limit(SORT_ROW_BUDGET + 1)}`,
      ),
    bounded(sql`${selectMatchingOnes(parts, scoped).limit(SORT_ROW_BUDGET + 1)}`),
  );
}

/**
 * The page query and the count query of one OData list (`buildRowsQuery`); an order no index serves comes with
 * `budget`: a query of the rows the filter selects, which `listRecordPage` checks before the page is sorted.
 */
export function buildListQueries(
  store: EntityStore,
  scope: TenantScope,
  compiled: CompiledQuery,
  page: ListRequest,
  select?: readonly string[],
) {
  const scoped = scopeCondition(store.common, scope);
  const served = isServedByIndex(compiled.orderColumns, listSortOrders(store.spec));
  const parts: ListParts = { store, scope, compiled, scoped, arms: findTextSearchArms(store, scope, compiled) };
  const rowsQuery = buildRowsQuery(parts, page, served, select);
  const countQuery = buildCountOfList(parts);
  if (served) return { rowsQuery, countQuery, budget: undefined };
  return { rowsQuery, countQuery, budget: { query: buildBudgetQuery(parts), orderColumns: compiled.orderColumns } };
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
export async function listRecordPage(
  tenant: TenantReader,
  queries: ReturnType<typeof buildListQueries>,
  page: ListRequest,
): Promise<ListPage> {
  const { rowsQuery, countQuery } = queries;
  if (queries.budget && page.top > 0) {
    const [counted] = await tenant.read(queries.budget.query);
    if (Number(counted?.count ?? 0) > SORT_ROW_BUDGET) throw refuseOverBudget(queries.budget.orderColumns);
  }
  if (!page.count) {
    const rows = page.top === 0 ? [] : await tenant.read(rowsQuery);
    return { rows: rows.slice(0, page.top), hasMore: page.top > 0 && rows.length > page.top };
  }
  if (page.top === 0) {
    const [counted] = await tenant.read(countQuery);
    return { rows: [], hasMore: false, count: Number(counted?.count ?? 0) };
  }
  const [rows, counted] = await tenant.readBatch([rowsQuery, countQuery]);
  return { rows: rows.slice(0, page.top), hasMore: rows.length > page.top, count: Number(counted[0]?.count ?? 0) };
}
