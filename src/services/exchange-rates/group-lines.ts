/**
 * Rate lines as an atomic group of `$batch` sees them (src/tenant/atomic-group.ts): each line write of the group
 * records the line as it leaves it in the group's overlay (by line id: its row, as `listLinesOf` reads it, or null
 * for a deleted one), so later line writes of the group plan on it and reads of its documents show it.
 */
import type { Database, TenantScope } from '../../db/client';
import type { GroupOverlay } from '../../tenant/atomic-group';
import { findLine, listLinesOf } from './lines-store';
import type { RateLineRow } from './table';

/** The overlay's table of rate lines. */
const GROUP_LINES = 'exchange_rate_lines';

/** A line after a write, as the group's overlay holds it: its row, or null (deleted). */
export interface LineEffect {
  readonly id: string;
  readonly image: RateLineRow | null;
}

/** Records a line write's effect in the group's overlay. */
export function recordLineEffect(overlay: GroupOverlay, effect: LineEffect): void {
  overlay.write(GROUP_LINES, effect.id, effect.image);
}

/** An after-image of a line: the row a line write recorded. */
function toLine(image: Readonly<Record<string, unknown>>): RateLineRow {
  // The group records rows of the lines table only (recordLineEffect).
  return image as RateLineRow;
}

/** The line of the document, as the group leaves it when `overlay` is given, else as stored. */
export async function findLineThroughGroup(
  db: Database,
  scope: TenantScope,
  overlay: GroupOverlay | undefined,
  parentId: string,
  lineId: string,
): Promise<RateLineRow | undefined> {
  const image = overlay?.read(GROUP_LINES, lineId);
  if (image === null) return undefined;
  if (image !== undefined) return image.parentId === parentId ? toLine(image) : undefined;
  return findLine(db, scope, parentId, lineId);
}

/** The documents' lines (read as stored, `stored`) as the group leaves them, in line order. */
export function applyGroupToLines(overlay: GroupOverlay, documentIds: readonly string[], stored: readonly RateLineRow[]): RateLineRow[] {
  const written = overlay.list(GROUP_LINES);
  if (written.size === 0) return [...stored];
  const documents = new Set(documentIds);
  const kept = stored.flatMap((line) => {
    const image = written.get(line.id);
    if (image === undefined) return [line];
    return image === null ? [] : [toLine(image)];
  });
  const seen = new Set(stored.map((line) => line.id));
  const added = [...written].flatMap(([id, image]) =>
    image !== null && !seen.has(id) && documents.has(String(image.parentId)) ? [toLine(image)] : [],
  );
  return [...kept, ...added].sort((a, b) => (a.parentId === b.parentId ? a.position - b.position : a.parentId < b.parentId ? -1 : 1));
}

/** The line number the next insert of a document takes, as the group leaves its lines. */
export async function findNextLineNo(db: Database, scope: TenantScope, overlay: GroupOverlay, parentId: string): Promise<number> {
  const lines = applyGroupToLines(overlay, [parentId], await listLinesOf(db, scope, [parentId]));
  return lines.reduce((max, line) => Math.max(max, line.position), 0) + 1;
}
