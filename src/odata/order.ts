/** The total order of a list (the user's keys, then tie-breakers), its ORDER BY and the keyset condition of `$skiptoken`. */
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { ODataField, OrderTerm, SortOrders } from './types';

/** One column of a list's total order: the user's keys, then the `created_on` and `id` tie-breakers. */
export interface OrderColumn {
  readonly field: ODataField;
  readonly descending: boolean;
}

const TIE_BREAKERS: readonly ODataField[] = [
  { name: 'createdOn', kind: 'datetime', column: 'created_on' },
  { name: 'id', kind: 'guid', column: 'id' },
];

/**
 * The user's keys (a repeated key counts once), then `created_on` and `id` as tie-breakers so the order is
 * total and paging stable. The tie-breakers follow the direction of the last user key, so an index ending
 * in (created_on, id) can be read in one direction.
 */
export function listOrderColumns(terms: readonly OrderTerm[]): OrderColumn[] {
  const columns: OrderColumn[] = [];
  let descending = false;
  for (const term of terms) {
    if (columns.some((column) => column.field.column === term.field.column)) continue;
    descending = term.descending;
    columns.push(term);
  }
  for (const field of TIE_BREAKERS) {
    if (!columns.some((column) => column.field.column === field.column)) columns.push({ field, descending });
  }
  return columns;
}

function orderExpression(field: ODataField): SQL {
  const column = sql.identifier(field.column);
  return field.kind === 'decimal' ? sql`CAST(${column} AS NUMERIC)` : sql`${column}`;
}

export function compileOrderBy(terms: readonly OrderTerm[]): SQL {
  return sql.join(
    listOrderColumns(terms).map(({ field, descending }) => sql`${orderExpression(field)} ${sql.raw(descending ? 'DESC' : 'ASC')}`),
    sql`, `,
  );
}

/** A value of an order column as stored (booleans as 0/1), as a `$skiptoken` carries it. */
export type CursorValue = string | number | null;

/**
 * Whether an index reads the list in this order without a sort: the columns (the keys, then the tie-breakers) are
 * those of one of `orders`, all in one direction. SQLite reads an index forwards with NULL first and
 * backwards with NULL last, which is the order `ORDER BY` defines, so null-able columns are served too.
 */
export function isServedByIndex(columns: readonly OrderColumn[], orders: SortOrders): boolean {
  const first = columns[0];
  if (!first || columns.some((column) => column.descending !== first.descending || column.field.kind === 'decimal')) return false;
  // The columns are the keys then the tie-breakers (createdOn, id) not among them, as an order's fields are.
  return orders.some(
    (order) => order.fields.length === columns.length && columns.every((column, index) => column.field.name === order.fields[index]),
  );
}

/** `column` strictly after `value` in its direction: NULL first ascending, last descending. */
function compileAfter(column: OrderColumn, value: CursorValue): SQL | undefined {
  const expression = orderExpression(column.field);
  if (value === null) return column.descending ? undefined : sql`${expression} IS NOT NULL`;
  if (!column.descending) return sql`${expression} > ${value}`;
  return column.field.nullable ? sql`(${expression} < ${value} OR ${expression} IS NULL)` : sql`${expression} < ${value}`;
}

/** `column` equal to `value` (NULL equal to NULL). */
function compileEqual(column: OrderColumn, value: CursorValue): SQL {
  const expression = orderExpression(column.field);
  return value === null ? sql`${expression} IS NULL` : sql`${expression} = ${value}`;
}

/**
 * A range on the first column every row after the position is in, so SQLite seeks into the index instead of reading it
 * from its start: `>= v` ascending, `<= v` descending over a column without NULLs, `IS NULL` descending after a NULL.
 */
function compileSeek(column: OrderColumn, value: CursorValue): SQL | undefined {
  const expression = orderExpression(column.field);
  if (value === null) return column.descending ? sql`${expression} IS NULL` : undefined;
  if (!column.descending) return sql`${expression} >= ${value}`;
  return column.field.nullable ? undefined : sql`${expression} <= ${value}`;
}

/**
 * The rows after `values` in the order of `columns`. In one direction over columns without NULLs it is one row-value
 * comparison, which SQLite answers with a seek in the index that serves the order: a page after the millionth row costs
 * what the first costs. Otherwise (mixed directions, null-able columns) it is the OR of each column's step: the columns
 * before it equal, it after (`a > x OR (a = x AND b < y) OR ...`, NULL first ascending and last descending), with a
 * range on the first column so the index is still entered at the position.
 */
export function compileKeyset(columns: readonly OrderColumn[], values: readonly CursorValue[]): SQL {
  const first = columns[0];
  if (
    first &&
    columns.every((column) => column.descending === first.descending && !column.field.nullable) &&
    values.every((value) => value !== null)
  ) {
    const left = sql.join(
      columns.map((column) => orderExpression(column.field)),
      sql`, `,
    );
    const right = sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
    return sql`((${left}) ${sql.raw(first.descending ? '<' : '>')} (${right}))`;
  }
  const branches: SQL[] = [];
  columns.forEach((column, index) => {
    const after = compileAfter(column, values[index] ?? null);
    if (!after) return;
    const equal = columns.slice(0, index).map((prefix, at) => compileEqual(prefix, values[at] ?? null));
    branches.push(sql.join([...equal, after], sql` AND `));
  });
  if (branches.length === 0) return sql`(0 = 1)`;
  const any = sql`((${sql.join(branches, sql`) OR (`)}))`;
  const seek = first ? compileSeek(first, values[0] ?? null) : undefined;
  return seek ? sql`(${seek} AND ${any})` : any;
}
