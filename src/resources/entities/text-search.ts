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
import { sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { TenantScope } from '../../db/client';
import type { TextSearchTerm } from '../../odata/compile';

/** How many index matches (in the whole database) the rowid arm reads at most; beyond, the page-order scan runs. */
export const TEXT_SEARCH_CANDIDATES = 1000;

/** The two arms' conditions on the tenant/org (each arm adds the filter and the keyset). */
interface TextSearchArms {
  readonly candidates: SQL;
  readonly scan: SQL;
}

function boundedMatches(term: TextSearchTerm, select: SQL, limit: SQL): SQL {
  return sql`SELECT ${select} FROM ${sql.identifier(term.index)} WHERE ${sql.identifier(term.column)} GLOB ${term.pattern} LIMIT ${limit}`;
}

/**
 * The conditions that pick an arm: `candidates` (rowid among the index's matches, scope without its index) and `scan`
 * (the scope as usual). The guard sits where SQLite computes a value once, before the loop, not in a WHERE term (a
 * subquery there is checked on every row): the candidates' LIMIT (0 when there are many) and the scan's seek key
 * (`tenant_key = NULL`, which seeks nothing, when there are few).
 */
export function buildTextSearchArms(
  term: TextSearchTerm,
  table: { readonly tenantKey: SQLiteColumn; readonly orgKey: SQLiteColumn },
  scope: TenantScope,
): TextSearchArms {
  const bound = sql.raw(String(TEXT_SEARCH_CANDIDATES + 1));
  const few = sql`(SELECT count(*) FROM (${boundedMatches(term, sql`1`, bound)})) <= ${sql.raw(String(TEXT_SEARCH_CANDIDATES))}`;
  const candidateRows = boundedMatches(term, sql`rowid`, sql`CASE WHEN ${few} THEN ${bound} ELSE 0 END`);
  const candidates = sql`(rowid IN (${candidateRows}) AND +${table.tenantKey} = ${scope.tenantKey} AND +${table.orgKey} = ${scope.orgKey})`;
  const scan = sql`(${table.tenantKey} = CASE WHEN ${few} THEN NULL ELSE ${scope.tenantKey} END AND ${table.orgKey} = ${scope.orgKey})`;
  return { candidates, scan };
}
