/**
 * Tenant reference records as an atomic group of `$batch` sees them (src/tenant/atomic-group.ts): the group's overlay
 * holds, per reference table and record id, the after-image a reference upsert of the group left (`{id, key, ...fields}`)
 * or null for a record it deleted. Stored records are read as alone; the group's images replace them, and records the
 * group created are added.
 */
import type { GroupOverlay } from '../../tenant/atomic-group';
import type { ReferenceRecord } from './spec';
import type { TenantReferenceStore } from './tables';

/** An after-image of a reference record (the group writes `id` and `key` in every one). */
function toReferenceRecord(image: Readonly<Record<string, unknown>>): ReferenceRecord {
  return { ...image, id: String(image.id), key: String(image.key) };
}

/**
 * The records of a tenant kind as the group leaves them: `stored` (read as alone) with the group's after-images
 * applied (a deleted one dropped), then the records the group wrote that `wanted` names and `stored` lacks.
 */
export function applyGroupToReferences(
  overlay: GroupOverlay,
  store: TenantReferenceStore,
  stored: readonly ReferenceRecord[],
  wanted: (record: ReferenceRecord) => boolean,
): ReferenceRecord[] {
  const table = store.spec.table;
  const seen = new Set<string>();
  const records: ReferenceRecord[] = [];
  for (const record of stored) {
    seen.add(record.id);
    const image = overlay.read(table, record.id);
    if (image === null) continue;
    records.push(image === undefined ? record : toReferenceRecord(image));
  }
  for (const [id, image] of overlay.list(table)) {
    if (image === null || seen.has(id)) continue;
    const record = toReferenceRecord(image);
    if (wanted(record)) records.push(record);
  }
  return records;
}

/** The id the group's records give a key of the kind: a record the group created or changed (none deleted). */
export function findGroupReferenceId(overlay: GroupOverlay, store: TenantReferenceStore, key: string): string | undefined {
  for (const [id, image] of overlay.list(store.spec.table)) if (image !== null && String(image.key) === key) return id;
  return undefined;
}
