/**
 * Reads of the history for a restore in place (revert-steps.ts): the rows of a table the history changed after the
 * restored position, each found once, at its first entry after that position. A row whose first entry after it is an
 * `insert` did not exist at the position; one whose first entry is an `update` or a `delete` did, as its last entry at
 * or before the position left it (or, when the history before the position was pruned, as the snapshot holds it).
 */
import type { TenantScope } from '../../db/client';
import type { TenantTable } from '../placement/tenant-tables';

/** The positions a restore in place works with. */
export interface ChangeRange {
  /** The position restored. */
  readonly seq: number;
  /** The tenant/org's last position when the restore held it (later entries are the restore's own). */
  readonly head: number;
  /**
   * Entries after this one and up to `seq` tell a row's state at `seq`: the pruned position, or the table's last
   * `rebase` at or before `seq` (older entries name its rows by ids a move renumbered).
   */
  readonly lower: number;
}

const KEYS_PER_READ = 200;

/** `h` is an entry of the table after `?4` (up to `?5`), the first of its row after the restored position `?6`. */
const FIRST_AFTER = `h.tenant_key = ?1 AND h.org_key = ?2 AND h.table_name = ?3 AND h.seq > ?4 AND h.seq <= ?5 AND NOT EXISTS (SELECT 1 FROM tenant_history AS f WHERE f.tenant_key = ?1 AND f.org_key = ?2 AND f.table_name = ?3 AND f.row_key = h.row_key AND f.seq > ?6 AND f.seq < h.seq)`;

/** The image of the last entry of `h`'s row after `?7` and up to `?6` ('' for a delete; NULL: there is none). */
const LAST_BEFORE = `SELECT coalesce(x.row_image, '') FROM tenant_history AS x WHERE x.tenant_key = ?1 AND x.org_key = ?2 AND x.table_name = ?3 AND x.row_key = h.row_key AND x.seq > ?7 AND x.seq <= ?6 ORDER BY x.seq DESC LIMIT 1`;

/** Binds ?1 to ?6 (and ?7, `lower`, for statements that read a row's state at the position). */
function bindRange(
  statement: D1PreparedStatement,
  scope: TenantScope,
  table: TenantTable,
  range: ChangeRange,
  after: number,
  lower = true,
) {
  const values = [scope.tenantKey, scope.orgKey, table.name, Math.max(range.seq, after), range.head, range.seq];
  return statement.bind(...values, ...(lower ? [range.lower] : []));
}

/** The next keys (JSON arrays) of rows the history inserted after the position, in position order after `after`. */
export async function readInsertedKeys(
  db: D1Database,
  scope: TenantScope,
  table: TenantTable,
  range: ChangeRange,
  after: number,
): Promise<{ seq: number; key: string }[]> {
  const { results } = await bindRange(
    db.prepare(
      `SELECT h.seq AS seq, h.row_key AS k FROM tenant_history AS h WHERE ${FIRST_AFTER} AND h.operation = 'insert' ORDER BY h.seq LIMIT ${KEYS_PER_READ}`,
    ),
    scope,
    table,
    range,
    after,
    false,
  ).all<{ seq: number; k: string }>();
  return results.map((row) => ({ seq: Number(row.seq), key: row.k }));
}

/**
 * The next rows the history changed or deleted after the position whose state there it still holds, as `[key, image]`
 * JSON (the image of their last entry up to the position), in position order after `after`.
 */
export async function readPriorImages(
  db: D1Database,
  scope: TenantScope,
  table: TenantTable,
  range: ChangeRange,
  after: number,
): Promise<{ seq: number; pair: string; deleted: boolean }[]> {
  const { results } = await bindRange(
    db.prepare(
      `SELECT seq, json_array(json(k), json(nullif(image, ''))) AS p, image = '' AS d FROM (SELECT h.seq AS seq, h.row_key AS k, (${LAST_BEFORE}) AS image FROM tenant_history AS h WHERE ${FIRST_AFTER} AND h.operation IN ('update', 'delete')) WHERE image IS NOT NULL ORDER BY seq LIMIT ${KEYS_PER_READ}`,
    ),
    scope,
    table,
    range,
    after,
  ).all<{ seq: number; p: string; d: number }>();
  // `deleted`: the history says the row was gone at the position, yet changed after it (it cannot be, but say so).
  return results.map((row) => ({ seq: Number(row.seq), pair: row.p, deleted: Number(row.d) === 1 }));
}

/** How many rows the history changed or deleted after the position with no entry left at or before it (pruned). */
export async function countPrunedPriors(db: D1Database, scope: TenantScope, table: TenantTable, range: ChangeRange): Promise<number> {
  const row = await bindRange(
    db.prepare(
      `SELECT count(*) AS n FROM tenant_history AS h WHERE ${FIRST_AFTER} AND h.operation IN ('update', 'delete') AND NOT EXISTS (SELECT 1 FROM tenant_history AS x WHERE x.tenant_key = ?1 AND x.org_key = ?2 AND x.table_name = ?3 AND x.row_key = h.row_key AND x.seq > ?7 AND x.seq <= ?6)`,
    ),
    scope,
    table,
    range,
    0,
  ).first<{ n: number }>();
  return Number(row?.n ?? 0);
}

/** Whether a move renumbered any table after the position (a restore in place cannot map those rows: it rebuilds). */
export async function hasRebaseAfter(db: D1Database, scope: TenantScope, seq: number): Promise<boolean> {
  const row = await db
    .prepare("SELECT 1 AS found FROM tenant_history WHERE tenant_key = ? AND org_key = ? AND seq > ? AND operation = 'rebase' LIMIT 1")
    .bind(scope.tenantKey, scope.orgKey, seq)
    .first<{ found: number }>();
  return row !== null;
}

/** Of `tables`, those with entries after the position, up to `head`: one index probe each (`tenant_history_table_idx`). */
export async function listChangedTables(
  db: D1Database,
  scope: TenantScope,
  tables: readonly string[],
  range: { seq: number; head: number },
): Promise<string[]> {
  const { results } = await db
    .prepare(
      'SELECT t.value AS name FROM json_each(?1) AS t WHERE EXISTS (SELECT 1 FROM tenant_history AS h WHERE h.tenant_key = ?2 AND h.org_key = ?3 AND h.table_name = t.value AND h.seq > ?4 AND h.seq <= ?5)',
    )
    .bind(JSON.stringify(tables), scope.tenantKey, scope.orgKey, range.seq, range.head)
    .all<{ name: string }>();
  return results.map((row) => row.name);
}
