/**
 * The after-images of a session's pending operations (an atomic group of `$batch`: its members' writes are held until
 * the group commits): per table and row key, the row as the operations leave it, or null for a row they deleted. A
 * session's reads see them in one place: a point read answers the image, a list merges stored rows with them.
 * Row keys: a record's id; a member row's `<ownerId>:<memberKey>` (memberRowKey).
 */
import type { AnyRow } from '../../model/types';

/** A row as the pending operations leave it, or null: deleted. */
export type AfterImage = AnyRow | null;

export interface Overlay {
  /** The after-image of a row the operations wrote; undefined when they have not written it. */
  read(table: string, key: string): AfterImage | undefined;
  /** Every row of the table the operations wrote, in the order first written. */
  list(table: string): ReadonlyMap<string, AfterImage>;
  write(table: string, key: string, image: AfterImage): void;
}

export function openOverlay(): Overlay {
  const tables = new Map<string, Map<string, AfterImage>>();
  return {
    read: (table, key) => tables.get(table)?.get(key),
    list: (table) => tables.get(table) ?? new Map<string, AfterImage>(),
    write(table, key, image) {
      let rows = tables.get(table);
      if (!rows) tables.set(table, (rows = new Map()));
      rows.set(key, image);
    },
  };
}

/** The overlay key of a member row: its owner's id and its member's key. */
export function memberRowKey(ownerId: string, memberKey: string): string {
  return `${ownerId}:${memberKey}`;
}

/**
 * Rows read as stored, as the pending operations leave them: a deleted row dropped, a changed one replaced by its
 * image (kept only while it still matches `wanted`), and rows the operations wrote that `wanted` names added, in the
 * order first written. `keyOf` gives a stored row's overlay key.
 */
export function mergeImages<T extends AnyRow>(
  overlay: Overlay,
  table: string,
  stored: readonly T[],
  keyOf: (row: T) => string,
  wanted: (image: AnyRow) => boolean,
): AnyRow[] {
  const written = overlay.list(table);
  if (written.size === 0) return [...stored];
  const seen = new Set<string>();
  const rows: AnyRow[] = [];
  for (const row of stored) {
    const key = keyOf(row);
    seen.add(key);
    const image = written.get(key);
    if (image === undefined) rows.push(row);
    else if (image !== null && wanted(image)) rows.push(image);
  }
  for (const [key, image] of written) if (image !== null && !seen.has(key) && wanted(image)) rows.push(image);
  return rows;
}

/** Whether a member row is there as the operations leave it (`stored`: it is stored). */
export function isMemberThere(overlay: Overlay, table: string, ownerId: string, memberKey: string, stored: boolean): boolean {
  const image = overlay.read(table, memberRowKey(ownerId, memberKey));
  return image === undefined ? stored : image !== null;
}
