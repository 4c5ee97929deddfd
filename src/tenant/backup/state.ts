/**
 * The daily pass's state per tenant/org (state-table.ts): one query per tenant database finds the tenant/orgs due,
 * most overdue first; snapshots (snapshot-steps.ts), the pass and retention (retention.ts) keep it up to date.
 */
import type { TenantScope } from '../../db/client';
import type { SnapshotManifest } from './jobs';

const DAY_MS = 86_400_000;
/** A snapshot the pass started is not started again for this long (it runs in alarm steps meanwhile). */
const STARTED_HOLD_MS = 2 * 3_600_000;

/** A tenant/org the pass has work for, and what work. */
export interface DueScope extends TenantScope {
  readonly database: string;
  /** Its history moved since its last snapshot, taken at least a day ago (or it has none). */
  readonly snapshotDue: boolean;
  /** Retention has work (a snapshot passed the retention's start) or never ran: the snapshot list is read. */
  readonly retentionDue: boolean;
  /** History entries at or before the pruned position are left to delete (a prune stopped by its budget). */
  readonly pruneLeft: boolean;
  /** The moment it became due (Julian day; 0: as early as can be): the most overdue is handled first. */
  readonly dueAt: number;
  /** The history position now. */
  readonly position: number;
}

const DUE_SQL = `WITH scopes AS (
  SELECT r.tenant_key, r.org_key, s.snapshot_on, s.snapshot_seq, s.started_on, s.expires_on, s.retained_on,
    max(coalesce((SELECT max(h.seq) FROM tenant_history AS h WHERE h.tenant_key = r.tenant_key AND h.org_key = r.org_key), 0), coalesce(p.pruned_seq, 0)) AS position,
    coalesce((SELECT min(h.seq) FROM tenant_history AS h WHERE h.tenant_key = r.tenant_key AND h.org_key = r.org_key) <= p.pruned_seq, 0) AS prune_left
  FROM tenant_residency AS r
  LEFT JOIN tenant_backup_state AS s ON s.tenant_key = r.tenant_key AND s.org_key = r.org_key
  LEFT JOIN tenant_history_pruned AS p ON p.tenant_key = r.tenant_key AND p.org_key = r.org_key
  WHERE r.state = 'active'
), flagged AS (
  SELECT *,
    position > coalesce(snapshot_seq, 0) AND coalesce(snapshot_on <= ?1, 1) AND NOT coalesce(started_on > ?2 AND (snapshot_on IS NULL OR started_on > snapshot_on), 0) AS snapshot_due,
    retained_on IS NULL OR coalesce(expires_on <= ?3, 0) AS retention_due
  FROM scopes
)
SELECT tenant_key, org_key, snapshot_due, retention_due, prune_left, position,
  min(CASE WHEN snapshot_due THEN coalesce(julianday(snapshot_on) + 1, 0) ELSE 1e9 END,
      CASE WHEN retained_on IS NULL THEN 0 WHEN prune_left THEN julianday(retained_on) WHEN coalesce(expires_on <= ?3, 0) THEN julianday(expires_on) + ?4 ELSE 1e9 END) AS due_at
FROM flagged WHERE snapshot_due OR retention_due OR prune_left
ORDER BY due_at, tenant_key, org_key LIMIT ?5`;

interface DueRow {
  tenant_key: string;
  org_key: string;
  snapshot_due: number;
  retention_due: number;
  prune_left: number;
  position: number;
  due_at: number;
}

/** Up to `limit` tenant/orgs of one tenant database that are due at `now`, most overdue first. */
export async function listDueScopes(
  db: D1Database,
  database: string,
  now: Date,
  retentionDays: number,
  limit: number,
): Promise<DueScope[]> {
  const at = (ms: number) => new Date(now.getTime() - ms).toISOString();
  const { results } = await db
    .prepare(DUE_SQL)
    .bind(at(DAY_MS), at(STARTED_HOLD_MS), at(retentionDays * DAY_MS), retentionDays, limit)
    .all<DueRow>();
  return results.map((row) => ({
    tenantKey: row.tenant_key,
    orgKey: row.org_key,
    database,
    snapshotDue: Number(row.snapshot_due) === 1,
    retentionDue: Number(row.retention_due) === 1,
    pruneLeft: Number(row.prune_left) === 1,
    dueAt: Number(row.due_at),
    position: Number(row.position),
  }));
}

const UPSERT =
  'INSERT INTO tenant_backup_state (tenant_key, org_key, snapshot_id, snapshot_on, snapshot_seq, started_on, expires_on, retained_on)';

/** A snapshot is complete (whoever started it): it is the tenant/org's last one, and the next one retention will meet. */
export async function recordSnapshot(db: D1Database, manifest: SnapshotManifest): Promise<void> {
  await db
    .prepare(
      `${UPSERT} VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?4, NULL) ON CONFLICT (tenant_key, org_key) DO UPDATE SET snapshot_id = excluded.snapshot_id, snapshot_on = excluded.snapshot_on, snapshot_seq = excluded.snapshot_seq, expires_on = coalesce(expires_on, excluded.expires_on) WHERE snapshot_on IS NULL OR snapshot_on <= excluded.snapshot_on`,
    )
    .bind(manifest.tenantKey, manifest.orgKey, manifest.id, manifest.takenOn, manifest.seq)
    .run();
}

/**
 * Snapshots the pass started on a tenant database that have not ended (started within the hold, no snapshot since):
 * the pass starts others only while fewer than its cap run (cron.ts).
 */
export async function countRunningSnapshots(db: D1Database, now: Date): Promise<number> {
  const row = await db
    .prepare('SELECT count(*) AS n FROM tenant_backup_state WHERE started_on > ?1 AND (snapshot_on IS NULL OR started_on > snapshot_on)')
    .bind(new Date(now.getTime() - STARTED_HOLD_MS).toISOString())
    .first<{ n: number }>();
  return Number(row?.n ?? 0);
}

/** The pass started a snapshot (or found a job of the tenant/org under way). */
export async function recordSnapshotStart(db: D1Database, scope: TenantScope, now: Date): Promise<void> {
  await db
    .prepare(
      `${UPSERT} VALUES (?1, ?2, NULL, NULL, NULL, ?3, NULL, NULL) ON CONFLICT (tenant_key, org_key) DO UPDATE SET started_on = excluded.started_on`,
    )
    .bind(scope.tenantKey, scope.orgKey, now.toISOString())
    .run();
}

const NEWER = '(snapshot_on IS NULL OR excluded.snapshot_on > snapshot_on)';
const KEEP_NEWER = ['snapshot_id', 'snapshot_on', 'snapshot_seq']
  .map((column) => `${column} = CASE WHEN ${NEWER} THEN excluded.${column} ELSE ${column} END`)
  .join(', ');

/**
 * Retention ran on `kept` (the snapshots left, oldest first; `cutoff` the retention's start): the state is learnt
 * again from the list (the newest snapshot, the first one after the cutoff).
 */
export async function recordRetention(
  db: D1Database,
  scope: TenantScope,
  kept: readonly SnapshotManifest[],
  cutoff: string,
  now: Date,
): Promise<void> {
  const newest = kept[kept.length - 1];
  // A snapshot that finished while the list was read is newer than the list's: kept as it is.
  const expires = kept.find((manifest) => manifest.takenOn > cutoff);
  await db
    .prepare(
      `${UPSERT} VALUES (?1, ?2, ?3, ?4, ?5, NULL, ?6, ?7) ON CONFLICT (tenant_key, org_key) DO UPDATE SET ${KEEP_NEWER}, expires_on = coalesce(excluded.expires_on, CASE WHEN snapshot_on > ?8 THEN snapshot_on END), retained_on = excluded.retained_on`,
    )
    .bind(
      scope.tenantKey,
      scope.orgKey,
      newest?.id ?? null,
      newest?.takenOn ?? null,
      newest?.seq ?? null,
      expires?.takenOn ?? null,
      now.toISOString(),
      cutoff,
    )
    .run();
}
