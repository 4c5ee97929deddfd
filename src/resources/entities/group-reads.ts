/**
 * Entity records as an atomic group of `$batch` sees them (src/tenant/atomic-group.ts): the point read by id or key
 * answers the group's after-image of a record its earlier requests created or updated, nothing for one they deleted,
 * else the stored record. The conditions a group write is predicted on are built here too.
 */
import { and, eq } from 'drizzle-orm';
import type { TenantScope } from '../../db/client';
import type { TenantReader } from '../../tenant/session';
import type { GroupCondition, GroupOverlay } from '../../tenant/atomic-group';
import { findRecord } from './store';
import type { EntityRecord, EntityStore, RecordLookup } from './store';

function sameKeyValue(stored: unknown, asked: unknown): boolean {
  return stored !== null && stored !== undefined && String(stored) === String(asked);
}

/** Whether an after-image is the record the lookup names (`idOrKey`: by id, then by the single-field key). */
function matchesLookup(store: EntityStore, image: Readonly<Record<string, unknown>>, lookup: RecordLookup, by: 'id' | 'key'): boolean {
  if (by === 'id') return lookup.by !== 'key' && image.id === lookup.id;
  if (lookup.by === 'id') return false;
  if (lookup.by === 'key') return store.spec.key.every((name, index) => sameKeyValue(image[name], lookup.values[index]));
  const [keyName = 'key'] = store.spec.key;
  return sameKeyValue(image[keyName], lookup.key);
}

function findInOverlay(store: EntityStore, overlay: GroupOverlay, lookup: RecordLookup): EntityRecord | undefined {
  const images = [...overlay.list(store.spec.table).values()].filter((image): image is Readonly<Record<string, unknown>> => image !== null);
  const found =
    images.find((image) => matchesLookup(store, image, lookup, 'id')) ?? images.find((image) => matchesLookup(store, image, lookup, 'key'));
  // After-images are stored records (a read's row, or a create's values) with the writes of the group applied.
  return found as EntityRecord | undefined;
}

/** The record the lookup names as the group leaves it: its after-image, else the stored one unless the group deleted it. */
export async function findThroughGroup(
  tenant: TenantReader,
  store: EntityStore,
  overlay: GroupOverlay,
  lookup: RecordLookup,
): Promise<EntityRecord | undefined> {
  const written = findInOverlay(store, overlay, lookup);
  if (written) return written;
  const stored = await findRecord(tenant, store, lookup);
  if (!stored) return undefined;
  const image = overlay.read(store.spec.table, stored.id);
  if (image === undefined) return stored;
  // Deleted by the group, or its key changed by the group (then the lookup by the old key finds nothing).
  if (image === null || !(matchesLookup(store, image, lookup, 'id') || matchesLookup(store, image, lookup, 'key'))) return undefined;
  return image as EntityRecord;
}

/** The record is stored (in the group's batch, where the condition is checked) at exactly this version. */
export function recordAtVersion(store: EntityStore, scope: TenantScope, id: string, version: number): GroupCondition {
  return {
    table: store.table,
    where: and(
      eq(store.common.tenantKey, scope.tenantKey),
      eq(store.common.orgKey, scope.orgKey),
      eq(store.common.id, id),
      eq(store.common.version, version),
    ),
    exists: true,
  };
}
