/**
 * Retention of one tenant/org (the daily pass, cron.ts): of the snapshots taken before the retention's start, the
 * newest is kept (a moment at the start of the retention rebuilds from it) and older ones are deleted; the history
 * entries at or before the kept one's start position are pruned, in chunks within the pass's budget.
 */
import type { TenantScope } from '../../db/client';
import type { SnapshotManifest } from './jobs';
import { formatSnapshotFolder } from './snapshot-steps';
import type { BackupStore } from './store';

const PRUNE_ROWS = 500;

/** What one pass may still spend on history prunes (statements); shared by every tenant/org of the pass. */
export interface PruneBudget {
  statements: number;
}

async function deleteSnapshot(store: BackupStore, manifest: SnapshotManifest): Promise<void> {
  const keys = await store.list(formatSnapshotFolder(manifest));
  // The manifest first: a snapshot without one is never used, even if the pass stops half way.
  await store.delete(keys.filter((key) => key.endsWith('/manifest.json')));
  await store.delete(keys.filter((key) => !key.endsWith('/manifest.json')));
}

/**
 * Raises the pruned position to `seq` before a single entry goes: from then on a restore counts every entry at or
 * before it as gone (plan.ts), so a prune that stops half way never leaves a history that looks complete.
 */
async function raisePrunedPosition(db: D1Database, scope: TenantScope, seq: number, now: Date): Promise<void> {
  await db
    .prepare(
      'INSERT INTO tenant_history_pruned (tenant_key, org_key, pruned_seq, pruned_on) VALUES (?, ?, ?, ?) ON CONFLICT (tenant_key, org_key) DO UPDATE SET pruned_seq = max(pruned_seq, excluded.pruned_seq), pruned_on = excluded.pruned_on',
    )
    .bind(scope.tenantKey, scope.orgKey, seq, now.toISOString())
    .run();
}

/**
 * Deletes history entries at or before the pruned position, PRUNE_ROWS per statement, while the budget lasts;
 * answers the entries deleted. What is left is found by the next pass (cron.ts: `prune_left`).
 */
export async function pruneHistory(db: D1Database, scope: TenantScope, budget: PruneBudget): Promise<number> {
  let pruned = 0;
  while (budget.statements > 0) {
    budget.statements -= 1;
    const result = await db
      .prepare(
        `DELETE FROM tenant_history WHERE rowid IN (SELECT rowid FROM tenant_history WHERE tenant_key = ?1 AND org_key = ?2 AND seq <= (SELECT pruned_seq FROM tenant_history_pruned WHERE tenant_key = ?1 AND org_key = ?2) LIMIT ${PRUNE_ROWS})`,
      )
      .bind(scope.tenantKey, scope.orgKey)
      .run();
    const changes = result.meta.changes ?? 0;
    pruned += changes;
    if (changes < PRUNE_ROWS) break;
  }
  return pruned;
}

/** Deletes the snapshots retention no longer needs and raises the pruned position; answers the snapshots kept and deleted. */
export async function applyRetention(
  db: D1Database,
  store: BackupStore,
  scope: TenantScope,
  manifests: readonly SnapshotManifest[],
  dates: { cutoff: string; now: Date },
): Promise<{ kept: SnapshotManifest[]; deleted: number }> {
  const old = manifests.filter((manifest) => manifest.takenOn <= dates.cutoff);
  const base = old[old.length - 1];
  if (!base) return { kept: [...manifests], deleted: 0 };
  await raisePrunedPosition(db, scope, base.startSeq, dates.now);
  const gone = old.slice(0, -1);
  for (const manifest of gone) await deleteSnapshot(store, manifest);
  return { kept: manifests.filter((manifest) => !gone.includes(manifest)), deleted: gone.length };
}
