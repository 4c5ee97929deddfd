/**
 * A list filtered by a text term the trigram index can look up (`contains`/`startswith`/`endswith` of a `textSearch`
 * field, migration 0008) runs as one statement of two arms, `UNION ALL`, of which exactly one yields rows: a guard
 * that does not depend on the row (SQLite evaluates it once, before the loop) counts the index's matches of the term in
 * the whole database, bounded by `TEXT_SEARCH_CANDIDATES + 1`.
 * - At most `TEXT_SEARCH_CANDIDATES`: the rows are read by rowid from those candidates (the scope is written `+column`
 *   so that no index on it competes), then filtered and sorted: cost bounded by the candidates, whatever the
 *   tenant/org's size.
 * - More: today's scan of the tenant/org's rows in page order, which stops when the page is full (common terms).
 * Both arms apply the whole filter (the term's own GLOB included) and the scope, so the answer is the scan's.
 */
import { and, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { TenantScope } from '../db/client';
import type { TextSearchTerm } from '../odata/compile';

/** How many index matches (in the whole database) the rowid arm reads at most; beyond, the page-order scan runs. */
export const TEXT_SEARCH_CANDIDATES = 1000;

/** The two arms' extra conditions; `scopeCondition` is today's tenant/org condition (the scan arm's). */
export interface TextSearchArms {
  readonly candidates: SQL;
  readonly scan: SQL;
}

function boundedMatches(term: TextSearchTerm, select: SQL): SQL {
  const limit = sql.raw(String(TEXT_SEARCH_CANDIDATES + 1));
  return sql`SELECT ${select} FROM ${sql.identifier(term.index)} WHERE ${sql.identifier(term.column)} GLOB ${term.pattern} LIMIT ${limit}`;
}

/**
 * The conditions that pick an arm: `candidates` (few matches: rowid among them, scope without its index) and `scan`
 * (many: the scope as usual). `scope` holds the table's tenant and org columns.
 */
export function buildTextSearchArms(
  term: TextSearchTerm,
  table: { readonly tenantKey: SQLiteColumn; readonly orgKey: SQLiteColumn },
  scope: TenantScope,
  scopeCondition: SQL | undefined,
): TextSearchArms {
  const matches = sql`(SELECT count(*) FROM (${boundedMatches(term, sql`1`)}))`;
  const few = sql.raw(String(TEXT_SEARCH_CANDIDATES));
  const candidates = sql`(${matches} <= ${few} AND rowid IN (${boundedMatches(term, sql`rowid`)}) AND +${table.tenantKey} = ${scope.tenantKey} AND +${table.orgKey} = ${scope.orgKey})`;
  const scan = and(sql`(${matches} > ${few})`, scopeCondition) ?? sql`(${matches} > ${few})`;
  return { candidates, scan };
}
