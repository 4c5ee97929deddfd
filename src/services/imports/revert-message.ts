/** The RevertImport answers of revertImportFile: what a revert did, and that a revert was started. */
import { ReturnMessageType } from './states';
import type { ImportRow } from './table';
import type { UndoTotals } from './undo-outcome';
import { KEPT_NAMED } from './undo-steps';

interface RevertImport {
  readonly revertedTypeMessage: number;
  readonly message: string;
}

type RevertedImport = Pick<ImportRow, 'key' | 'originalFileName' | 'importDataTemplate'>;

function nameImport(row: RevertedImport): string {
  const file = row.originalFileName ? ` (${row.originalFileName})` : '';
  return `Import ${row.key}${file} of template '${row.importDataTemplate}'`;
}

/**
 * A revert's outcome: Information, with the records deleted and restored when its writes were undone; Warning when
 * records changed since the import were left as they are (the first KEPT_NAMED named).
 */
export function describeRevert(row: RevertedImport, undone?: UndoTotals): RevertImport {
  const deleted = undone
    ? ` ${undone.deleted} record(s) it created were deleted` +
      (undone.restored > 0 ? `, ${undone.restored} it updated got their values back.` : '.')
    : '';
  if (undone && undone.keptCount > 0) {
    const more = undone.keptCount > KEPT_NAMED ? ', ...' : '';
    return {
      revertedTypeMessage: ReturnMessageType.members.Warning,
      message:
        `${nameImport(row)} was reverted.${deleted} ${undone.keptCount} record(s) changed since the import were left as they are: ` +
        `${undone.kept.slice(0, KEPT_NAMED).join(', ')}${more}.`,
    };
  }
  return { revertedTypeMessage: ReturnMessageType.members.Information, message: `${nameImport(row)} was reverted.${deleted}` };
}

/** The answer of a revert whose undo runs in the background: where to watch it. */
export function describeRevertStarted(row: RevertedImport, location: string): RevertImport {
  return {
    revertedTypeMessage: ReturnMessageType.members.Information,
    message:
      `${nameImport(row)} is being reverted: GET ${location} shows undoState 1 (Undoing) and rowsUndone, the records undone ` +
      'so far; once undoState is 2 (Undone), revertResult holds the outcome (records changed since the import are left and named there).',
  };
}
