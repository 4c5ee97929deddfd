/**
 * What a restore request becomes (operations.ts): the target and its database, the position restored and the snapshot
 * to start from (the newest one at or before that position whose range the history still holds; none while the
 * history reaches back to the tenant/org's start).
 */
import type { TenantScope } from '../../db/client';
import { ApiError, recordNotFound } from '../../errors/api-error';
import { countRows } from '../placement/copy';
import { ensureResidency, findPlacement } from '../placement/directory';
import type { Placement } from '../placement/directory';
import type { TenantTable } from '../placement/tenant-tables';
import type { DatabaseSet } from '../d1/databases';
import { findMomentOf, findPositionAt, readPositions } from './history';
import { formatSnapshotPrefix } from './jobs';
import type { SnapshotManifest } from './jobs';
import type { BackupStore } from './store';

/** The complete snapshots of a tenant/org, oldest first. */
export async function listManifests(store: BackupStore, scope: TenantScope): Promise<SnapshotManifest[]> {
  const keys = (await store.list(formatSnapshotPrefix(scope))).filter((key) => key.endsWith('/manifest.json'));
  const texts = await Promise.all(keys.map((key) => store.get(key)));
  return texts
    .flatMap((text) => (text === null ? [] : [JSON.parse(text) as SnapshotManifest]))
    .sort((a, b) => a.seq - b.seq || (a.id < b.id ? -1 : 1));
}

export async function readManifest(store: BackupStore, scope: TenantScope, id: string): Promise<SnapshotManifest | null> {
  if (!/^[0-9TZ]+-[0-9a-f]{8}$/.test(id)) return null;
  const text = await store.get(`${formatSnapshotPrefix(scope)}${id}/manifest.json`);
  return text === null ? null : (JSON.parse(text) as SnapshotManifest);
}

function conflict(detail: string): ApiError {
  return new ApiError('Conflict', detail);
}

/** Places an unplaced target on `database` (the directory's triggers count it); answers where it is placed. */
async function placeOn(databases: DatabaseSet, scope: TenantScope, database: string, now: Date): Promise<string> {
  await databases.directory
    .prepare('INSERT INTO tenant_placements (tenant_key, org_key, database, placed_on) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING')
    .bind(scope.tenantKey, scope.orgKey, database, now.toISOString())
    .run();
  const placed = await findPlacement(databases.directory, scope);
  const db = placed ? databases.tenants.get(placed.database) : undefined;
  if (!placed || !db) throw new Error(`${scope.tenantKey}/${scope.orgKey} could not be placed.`);
  await ensureResidency(db, scope, now);
  return placed.database;
}

/**
 * The target's database: the source's own, or for another tenant/org the one that holds it (any database: a copy's
 * rows get ids of their own, row-ids.ts), where it has no rows yet; an unplaced target is placed on a database other
 * than the source's when there is one (spreading the load), else on the source's.
 */
export async function resolveTarget(
  databases: DatabaseSet,
  tables: readonly TenantTable[],
  source: Placement,
  target: TenantScope,
  now: Date,
): Promise<string> {
  if (target.tenantKey === source.tenantKey && target.orgKey === source.orgKey) return source.database;
  const placed = await findPlacement(databases.directory, target);
  if (placed) {
    if (placed.moveTarget) throw conflict(`${target.tenantKey}/${target.orgKey} is moving to ${placed.moveTarget}.`);
    const db = databases.tenants.get(placed.database);
    const counts = db ? await countRows(db, tables, target) : new Map<string, number>();
    if ([...counts.values()].some((n) => n > 0))
      throw conflict(`${target.tenantKey}/${target.orgKey} is not empty: restore into an empty tenant/org.`);
    return placed.database;
  }
  return placeOn(databases, target, databases.names.find((name) => name !== source.database) ?? source.database, now);
}

/** The position and the snapshot a restore of `source` to `asOf` starts from (409 when the history no longer covers it). */
export async function planMoment(
  db: D1Database,
  store: BackupStore,
  source: TenantScope,
  asOf: string,
): Promise<{ seq: number; snapshot: SnapshotManifest | null }> {
  // Entries at or before the pruned position are gone; a moment of the retention is never before them (cron.ts).
  const { pruned } = await readPositions(db, source);
  const seq = Math.max(await findPositionAt(db, source, asOf), pruned);
  const usable = (await listManifests(store, source)).filter((manifest) => manifest.seq <= seq && manifest.startSeq >= pruned);
  const snapshot = usable[usable.length - 1] ?? null;
  if (!snapshot && pruned > 0)
    throw conflict(`No snapshot of ${source.tenantKey}/${source.orgKey} covers ${asOf}: the history before it was pruned.`);
  return { seq, snapshot };
}

/** A snapshot's moment: the moment of its position when the history still has it, else when it was taken. */
export async function findSnapshotMoment(db: D1Database, manifest: SnapshotManifest): Promise<string> {
  return (await findMomentOf(db, manifest, manifest.seq)) ?? manifest.takenOn;
}

export function requireSnapshot(manifest: SnapshotManifest | null, id: string): SnapshotManifest {
  if (!manifest) throw recordNotFound(`Snapshot ${id}`, false, 'snapshot');
  return manifest;
}
