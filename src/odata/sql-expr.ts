/**
 * SQL fragments that know their expression-tree height. SQLite (and so D1) refuses expressions more than
 * 100 levels deep; the compiler tracks the height to refuse such filters with a 400 instead of a D1 error.
 */
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';

export interface Expr {
  readonly sql: SQL;
  /** Height of the expression tree SQLite builds for `sql` (a column or a value is 1). */
  readonly height: number;
}

export function leaf(fragment: SQL): Expr {
  return { sql: fragment, height: 1 };
}

/** One operator or function node over `children`. */
export function node(fragment: SQL, ...children: readonly Expr[]): Expr {
  return { sql: fragment, height: 1 + Math.max(0, ...children.map((child) => child.height)) };
}

/** Short chains are written flat; longer ones are split in halves so the tree height grows with log2(n), not n. */
const FLAT_CHAIN = 4;

export function joinBalanced(parts: readonly Expr[], operator: 'AND' | 'OR'): Expr {
  const glue = operator === 'AND' ? sql` AND ` : sql` OR `;
  if (parts.length <= FLAT_CHAIN) {
    const height = parts.length - 1 + Math.max(0, ...parts.map((part) => part.height));
    return {
      sql: sql`(${sql.join(
        parts.map((part) => part.sql),
        glue,
      )})`,
      height,
    };
  }
  const middle = Math.ceil(parts.length / 2);
  const left = joinBalanced(parts.slice(0, middle), operator);
  const right = joinBalanced(parts.slice(middle), operator);
  return node(sql`(${left.sql}${glue}${right.sql})`, left, right);
}
