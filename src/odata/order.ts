/** The total order of a list (the user's keys, then tie-breakers), its ORDER BY and the keyset condition of `$skiptoken`. */
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { ODataField, OrderTerm } from './types';

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
 * The rows after `values` in the order of `columns`. In one direction it is one row-value comparison, which SQLite
 * answers with a seek in the index that serves the order: a page after the millionth row costs what the first costs.
 * Keys in mixed directions (refused by the sortable-order check, kept correct here) expand to an OR of prefixes.
 */
export function compileKeyset(columns: readonly OrderColumn[], values: readonly CursorValue[]): SQL {
  const operator = (descending: boolean) => sql.raw(descending ? '<' : '>');
  const first = columns[0];
  if (first && columns.every((column) => column.descending === first.descending)) {
    const left = sql.join(
      columns.map((column) => orderExpression(column.field)),
      sql`, `,
    );
    const right = sql.join(
      values.map((value) => sql`${value}`),
      sql`, `,
    );
    return sql`((${left}) ${operator(first.descending)} (${right}))`;
  }
  const branches = columns.map((column, index) => {
    const equal = columns.slice(0, index).map((prefix, at) => sql`${orderExpression(prefix.field)} = ${values[at] ?? null}`);
    return sql.join([...equal, sql`${orderExpression(column.field)} ${operator(column.descending)} ${values[index] ?? null}`], sql` AND `);
  });
  return sql`((${sql.join(branches, sql`) OR (`)}))`;
}
