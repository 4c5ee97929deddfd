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

/** `(a, b) > (?, ?)`: the columns, in one direction and never NULL, after the values (one range of an index). */
function compileRowValue(columns: readonly OrderColumn[], values: readonly CursorValue[]): SQL {
  const operator = sql.raw(columns[0]?.descending ? '<' : '>');
  if (columns.length === 1 && columns[0]) return sql`${orderExpression(columns[0].field)} ${operator} ${values[0] ?? null}`;
  const left = sql.join(
    columns.map((column) => orderExpression(column.field)),
    sql`, `,
  );
  const right = sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );
  return sql`(${left}) ${operator} (${right})`;
}

/**
 * The steps of a position, any of which puts a row after it: for each column, the columns before it equal and it after
 * (`a > x`, `a = x AND b < y`, ...; NULL first ascending, last descending). The longest tail of columns in one direction
 * that can hold no NULL is one step of a row-value comparison (`a = x AND (created_on, id) > (?, ?)`), a range in the
 * index after the equal columns.
 */
function compileSteps(columns: readonly OrderColumn[], values: readonly CursorValue[]): { steps: SQL[]; tail: number } {
  const last = columns.at(-1);
  let tail = columns.length;
  for (let index = columns.length - 1; index >= 0; index -= 1) {
    const column = columns[index];
    if (!column || !last || column.field.nullable || values[index] === null || column.descending !== last.descending) break;
    tail = index;
  }
  const equalBefore = (index: number) => columns.slice(0, index).map((prefix, at) => compileEqual(prefix, values[at] ?? null));
  const steps: SQL[] = [];
  columns.slice(0, tail).forEach((column, index) => {
    const after = compileAfter(column, values[index] ?? null);
    if (after) steps.push(sql.join([...equalBefore(index), after], sql` AND `));
  });
  if (tail < columns.length) {
    steps.push(sql.join([...equalBefore(tail), compileRowValue(columns.slice(tail), values.slice(tail))], sql` AND `));
  }
  return { steps, tail };
}

/**
 * The rows after `values` in the order of `columns`. In one direction over columns without NULLs it is one row-value
 * comparison, which SQLite answers with a seek in the index that serves the order: a page after the millionth row costs
 * what the first costs. Otherwise (mixed directions, null-able columns) it is the OR of each column's step (see
 * `compileSteps`), with a range on the first column so the index is still entered at the position.
 */
export function compileKeyset(columns: readonly OrderColumn[], values: readonly CursorValue[]): SQL {
  const { steps, tail } = compileSteps(columns, values);
  const [only] = steps;
  if (only === undefined) return sql`(0 = 1)`;
  const any = steps.length === 1 ? sql`(${only})` : sql`((${sql.join(steps, sql`) OR (`)}))`;
  const first = columns[0];
  // One step is a range already (equal columns, then a row value); an OR of steps is entered at the first column's.
  const seek = first && tail > 0 && steps.length > 1 ? compileSeek(first, values[0] ?? null) : undefined;
  return seek ? sql`(${seek} AND ${any})` : any;
}

/**
 * For an order an index serves whose first column may be NULL, the rows after the position as two conditions that are
 * each a range of the index, every row of the first before every row of the second in the order (an index holds the
 * NULLs apart, before the values): ascending after a NULL, the rest of the NULLs then the values; descending after a
 * value, the rest of the values down from it then the NULLs. The page is their `UNION ALL` in the order (a merge of
 * two seeks), where one OR would read the index from the start of the order. Undefined when one range does already.
 */
export function compileKeysetArms(columns: readonly OrderColumn[], values: readonly CursorValue[]): readonly [SQL, SQL] | undefined {
  const [first, ...rest] = columns;
  const [value = null, ...restValues] = values;
  if (!first?.field.nullable || rest.length === 0 || first.descending !== (value !== null)) return undefined;
  const expression = orderExpression(first.field);
  const restAfter = compileKeyset(rest, restValues);
  if (value === null) return [sql`(${expression} IS NULL AND ${restAfter})`, sql`(${expression} IS NOT NULL)`];
  return [
    sql`(${expression} <= ${value} AND ((${expression} < ${value}) OR (${expression} = ${value} AND ${restAfter})))`,
    sql`(${expression} IS NULL)`,
  ];
}
