/**
 * Reads of a tenant/org's history (history-table.ts) and rows: its positions, the rows a range changed, and the last
 * image of each row a range wrote. Plain statements on the database that holds the tenant/org (like a move's).
 */
import type { TenantScope } from '../../db/client';
import type { TenantTable } from '../placement/tenant-tables';
import { quoteName, renderImageJson, renderKeyJson } from './tables';

/** The tenant/org's last position and the highest pruned one (0: never pruned, the history starts empty). */
export async function readPositions(db: D1Database, scope: TenantScope): Promise<{ last: number; pruned: number }> {
  const row = await db
    .prepare(
      'SELECT (SELECT max(seq) FROM tenant_history WHERE tenant_key = ?1 AND org_key = ?2) AS last, (SELECT pruned_seq FROM tenant_history_pruned WHERE tenant_key = ?1 AND org_key = ?2) AS pruned',
    )
    .bind(scope.tenantKey, scope.orgKey)
    .first<{ last: number | null; pruned: number | null }>();
  const pruned = Number(row?.pruned ?? 0);
  return { last: Math.max(Number(row?.last ?? 0), pruned), pruned };
}

/** The last position recorded at or before `at` (ISO 8601); 0 when none was. */
export async function findPositionAt(db: D1Database, scope: TenantScope, at: string): Promise<number> {
  const row = await db
    .prepare('SELECT max(seq) AS seq FROM tenant_history WHERE tenant_key = ? AND org_key = ? AND recorded_on <= ?')
    .bind(scope.tenantKey, scope.orgKey, at)
    .first<{ seq: number | null }>();
  return Number(row?.seq ?? 0);
}

/** The moment of a position (null: pruned or none). */
export async function findMomentOf(db: D1Database, scope: TenantScope, seq: number): Promise<string | null> {
  const row = await db
    .prepare('SELECT recorded_on AS at FROM tenant_history WHERE tenant_key = ? AND org_key = ? AND seq = ?')
    .bind(scope.tenantKey, scope.orgKey, seq)
    .first<{ at: string }>();
  return row?.at ?? null;
}

/** A range of positions: after `from`, up to and including `to`. */
interface PositionRange {
  readonly from: number;
  readonly to: number;
}

/** The indexes (in `pairs`, a JSON array of `[key, image]`) of the rows whose key the range wrote. */
export async function findChangedRows(
  db: D1Database,
  scope: TenantScope,
  table: TenantTable,
  range: PositionRange,
  pairs: string,
): Promise<number[]> {
  const { results } = await db
    .prepare(
      `SELECT c.key AS i FROM json_each(?1) AS c WHERE EXISTS (SELECT 1 FROM tenant_history AS h WHERE h.tenant_key = ?2 AND h.org_key = ?3 AND h.table_name = ?4 AND h.row_key = json_extract(c.value, '$[0]') AND h.seq > ?5 AND h.seq <= ?6)`,
    )
    .bind(pairs, scope.tenantKey, scope.orgKey, table.name, range.from, range.to)
    .all<{ i: number }>();
  return results.map((row) => Number(row.i));
}

const IMAGES_PER_READ = 200;

/**
 * The images of the rows of `table` as the range left them, in position order after `after`: each row's last entry in
 * the range, unless it deleted the row.
 */
export async function readLastImages(
  db: D1Database,
  scope: TenantScope,
  table: TenantTable,
  range: PositionRange,
  after: number,
): Promise<{ seq: number; image: string }[]> {
  const { results } = await db
    .prepare(
      `SELECT h.seq AS seq, h.row_image AS image FROM tenant_history AS h WHERE h.tenant_key = ?1 AND h.org_key = ?2 AND h.table_name = ?3 AND h.seq > max(?4, ?5) AND h.seq <= ?6 AND h.operation IN ('insert', 'update') AND NOT EXISTS (SELECT 1 FROM tenant_history AS l WHERE l.tenant_key = h.tenant_key AND l.org_key = h.org_key AND l.table_name = h.table_name AND l.row_key = h.row_key AND l.seq > h.seq AND l.seq <= ?6) ORDER BY h.seq LIMIT ${IMAGES_PER_READ}`,
    )
    .bind(scope.tenantKey, scope.orgKey, table.name, range.from, after, range.to)
    .all<{ seq: number; image: string }>();
  return results.map((row) => ({ seq: Number(row.seq), image: row.image }));
}

/**
 * The position of the last `rebase` of `table` at or before `to` (0: none): a move renumbered the table's rows there
 * (src/tenant/placement/history-rebase.ts), so the table is rebuilt from the history after it alone.
 */
export async function findRebase(db: D1Database, scope: TenantScope, table: TenantTable, to: number): Promise<number> {
  if (table.sequence === null) return 0;
  const row = await db
    .prepare(
      "SELECT max(seq) AS seq FROM tenant_history WHERE tenant_key = ? AND org_key = ? AND table_name = ? AND seq <= ? AND operation = 'rebase'",
    )
    .bind(scope.tenantKey, scope.orgKey, table.name, to)
    .first<{ seq: number | null }>();
  return Number(row?.seq ?? 0);
}

/**
 * In one batch (one consistent read): the tenant/org's last position and, per insertion-sequence table, its highest
 * id (the rows a snapshot starting there holds; later rows are inserts the history records after that position).
 */
export async function readSnapshotStart(
  db: D1Database,
  scope: TenantScope,
  tables: readonly TenantTable[],
): Promise<{ last: number; bounds: Record<string, number> }> {
  const sequenced = tables.filter((table) => table.sequence !== null);
  const [positions, ...maxima] = await db.batch<{ n: number | null }>([
    db
      .prepare(
        'SELECT max(coalesce((SELECT max(seq) FROM tenant_history WHERE tenant_key = ?1 AND org_key = ?2), 0), coalesce((SELECT pruned_seq FROM tenant_history_pruned WHERE tenant_key = ?1 AND org_key = ?2), 0)) AS n',
      )
      .bind(scope.tenantKey, scope.orgKey),
    ...sequenced.map((table) =>
      db
        .prepare(`SELECT max(${quoteName(table.sequence ?? '')}) AS n FROM ${quoteName(table.name)} WHERE tenant_key = ? AND org_key = ?`)
        .bind(scope.tenantKey, scope.orgKey),
    ),
  ]);
  const bounds: Record<string, number> = {};
  sequenced.forEach((table, index) => {
    bounds[table.name] = Number(maxima[index]?.results[0]?.n ?? 0);
  });
  return { last: Number(positions?.results[0]?.n ?? 0), bounds };
}

const SNAPSHOT_ROWS = 500;

/** Up to SNAPSHOT_ROWS rows of `table` after rowid `after`, each as `[key, image]` JSON text made by SQLite. */
export async function readRowPairs(
  db: D1Database,
  scope: TenantScope,
  table: TenantTable,
  after: number,
  bound: number | undefined,
): Promise<{ rowid: number; pair: string }[]> {
  const limit = table.sequence !== null && bound !== undefined ? ` AND ${quoteName(table.sequence)} <= ${Math.trunc(bound)}` : '';
  const { results } = await db
    .prepare(
      `SELECT t.rowid AS n, json_array(json(${renderKeyJson(table, 't')}), json(${renderImageJson(table, 't')})) AS p FROM ${quoteName(table.name)} AS t WHERE t.tenant_key = ? AND t.org_key = ? AND t.rowid > ?${limit} ORDER BY t.rowid LIMIT ${SNAPSHOT_ROWS}`,
    )
    .bind(scope.tenantKey, scope.orgKey, after)
    .all<{ n: number; p: string }>();
  return results.map((row) => ({ rowid: Number(row.n), pair: row.p }));
}
