/**
 * The daily backup pass of the cron trigger (src/jobs/backups.ts): every tenant/org active on a tenant database gets a
 * snapshot when its history moved since its last one and that one is a day old; then retention: the newest snapshot
 * taken before the retention's start is kept (a moment of the retention rebuilds from it), older ones are deleted with
 * the history entries that snapshot no longer needs (at or before its start position).
 */
import type { TenantScope } from '../../db/client';
import type { DatabaseSet } from '../d1/databases';
import { readPositions } from './history';
import { makeSnapshotId } from './jobs';
import type { SnapshotManifest } from './jobs';
import type { BackupCoordinator } from './operations';
import { listManifests } from './plan';
import { formatSnapshotFolder } from './snapshot-steps';
import type { BackupStore } from './store';

const DAY_MS = 86_400_000;
const PRUNE_ROWS = 500;

export interface BackupPassParts {
  readonly databases: DatabaseSet;
  readonly store: BackupStore;
  readonly coordinator: BackupCoordinator;
  readonly retentionDays: number;
}

/** What a pass did: snapshots started, snapshots deleted, history entries pruned. */
export interface BackupPassReport {
  snapshots: number;
  deleted: number;
  pruned: number;
}

async function listActive(db: D1Database): Promise<TenantScope[]> {
  const { results } = await db
    .prepare("SELECT tenant_key, org_key FROM tenant_residency WHERE state = 'active' ORDER BY tenant_key, org_key")
    .all<{ tenant_key: string; org_key: string }>();
  return results.map((row) => ({ tenantKey: row.tenant_key, orgKey: row.org_key }));
}

/** Deletes the history entries at or before `seq` (in chunks) and records the pruned position. */
async function pruneHistory(db: D1Database, scope: TenantScope, seq: number, now: Date): Promise<number> {
  let pruned = 0;
  for (;;) {
    const result = await db
      .prepare(
        `DELETE FROM tenant_history WHERE rowid IN (SELECT rowid FROM tenant_history WHERE tenant_key = ? AND org_key = ? AND seq <= ? LIMIT ${PRUNE_ROWS})`,
      )
      .bind(scope.tenantKey, scope.orgKey, seq)
      .run();
    const changes = result.meta.changes ?? 0;
    pruned += changes;
    if (changes < PRUNE_ROWS) break;
  }
  await db
    .prepare(
      'INSERT INTO tenant_history_pruned (tenant_key, org_key, pruned_seq, pruned_on) VALUES (?, ?, ?, ?) ON CONFLICT (tenant_key, org_key) DO UPDATE SET pruned_seq = max(pruned_seq, excluded.pruned_seq), pruned_on = excluded.pruned_on',
    )
    .bind(scope.tenantKey, scope.orgKey, seq, now.toISOString())
    .run();
  return pruned;
}

async function deleteSnapshot(store: BackupStore, manifest: SnapshotManifest): Promise<void> {
  const keys = await store.list(formatSnapshotFolder(manifest));
  // The manifest first: a snapshot without one is never used, even if the pass stops half way.
  await store.delete(keys.filter((key) => key.endsWith('/manifest.json')));
  await store.delete(keys.filter((key) => !key.endsWith('/manifest.json')));
}

/** Retention of one tenant/org; answers [snapshots deleted, entries pruned]. */
async function applyRetention(parts: BackupPassParts, db: D1Database, scope: TenantScope, manifests: SnapshotManifest[], now: Date) {
  const cutoff = new Date(now.getTime() - parts.retentionDays * DAY_MS).toISOString();
  const old = manifests.filter((manifest) => manifest.takenOn <= cutoff);
  const base = old[old.length - 1];
  if (!base) return [0, 0] as const;
  for (const manifest of old.slice(0, -1)) await deleteSnapshot(parts.store, manifest);
  const { pruned } = await readPositions(db, scope);
  const entries = base.startSeq > pruned ? await pruneHistory(db, scope, base.startSeq, now) : 0;
  return [old.length - 1, entries] as const;
}

/** The pass over every tenant database. */
export async function runBackupPass(parts: BackupPassParts, now: Date): Promise<BackupPassReport> {
  const report: BackupPassReport = { snapshots: 0, deleted: 0, pruned: 0 };
  for (const name of parts.databases.names) {
    const db = parts.databases.tenants.get(name);
    if (!db) continue;
    for (const scope of await listActive(db)) {
      const manifests = await listManifests(parts.store, scope);
      const last = manifests[manifests.length - 1];
      const { last: position } = await readPositions(db, scope);
      const due = !last || (position > last.seq && Date.parse(last.takenOn) <= now.getTime() - DAY_MS);
      if (due && position > 0 && 'started' in (await parts.coordinator.startSnapshot(scope, name, makeSnapshotId(now))))
        report.snapshots += 1;
      const [deleted, pruned] = await applyRetention(parts, db, scope, manifests, now);
      report.deleted += deleted;
      report.pruned += pruned;
    }
  }
  return report;
}
