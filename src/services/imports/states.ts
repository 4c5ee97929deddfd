/** The import state machine: pure rules, no I/O. */
import type { EnumSpec } from '../../validation/enums';

export const ImportDataState = {
  name: 'ImportDataState',
  members: { Pending: 1, Processing: 2, Succeeded: 3, Failed: 4, Fatal: 5 },
} as const satisfies EnumSpec;

/** ReturnMessageType of a RevertImport answer. */
export const ReturnMessageType = {
  name: 'ReturnMessageType',
  members: { Information: 1, Warning: 2, Error: 3 },
} as const satisfies EnumSpec;

/** The undo of what a file import wrote (revert, cancel, failOnErrors, Fatal): its durable steps run, then it is done. */
export const UndoState = {
  name: 'UndoState',
  members: { Undoing: 1, Undone: 2 },
} as const satisfies EnumSpec;

export const UNDOING = UndoState.members.Undoing;
export const UNDONE = UndoState.members.Undone;

export type ImportState = (typeof ImportDataState.members)[keyof typeof ImportDataState.members];

export const PENDING: ImportState = 1;
export const PROCESSING: ImportState = 2;
export const SUCCEEDED: ImportState = 3;
export const FAILED: ImportState = 4;
export const FATAL: ImportState = 5;

/** File imports a tenant/org processes at once; more wait in Pending (their processing asks again, up to every minute). */
export const MAX_CONCURRENT_IMPORTS = 2;

/** A Processing import with no progress for this long is marked Fatal by validateImportDataState. */
export const STALE_AFTER_MS = 30 * 60 * 1000;

const ALLOWED: Readonly<Record<ImportState, readonly ImportState[]>> = {
  1: [PROCESSING, FAILED, FATAL],
  2: [PROCESSING, SUCCEEDED, FAILED, FATAL],
  3: [],
  4: [],
  5: [],
};

const TERMINAL: readonly ImportState[] = [SUCCEEDED, FAILED, FATAL];

/** `apply`: write the change; `noop`: a terminal state given again (answer 200, change nothing); `refuse`: 400. */
type TransitionDecision = 'apply' | 'noop' | 'refuse';

export function decideTransition(from: ImportState, to: ImportState): TransitionDecision {
  if (ALLOWED[from].includes(to)) return 'apply';
  if (from === to && TERMINAL.includes(from)) return 'noop';
  return 'refuse';
}

export function isImportState(value: unknown): value is ImportState {
  return Object.values(ImportDataState.members).some((state) => state === value);
}

/** `Processing (2)`. */
export function describeState(state: ImportState): string {
  const name = Object.entries(ImportDataState.members).find(([, value]) => value === state)?.[0] ?? 'Unknown';
  return `${name} (${state})`;
}

interface ProgressClock {
  readonly importDataState: number;
  /** ISO 8601 of the last accepted change (null for rows that never had one). */
  readonly lastProgressUpdateOn: string | null;
  /** Fallback when lastProgressUpdateOn is null. */
  readonly modifiedOn: string;
}

/** True when a Processing import has had no progress for 30 minutes or more at `now`. */
export function isStaleProcessing(row: ProgressClock, now: Date): boolean {
  if (row.importDataState !== PROCESSING) return false;
  const last = Date.parse(row.lastProgressUpdateOn ?? row.modifiedOn);
  if (Number.isNaN(last)) return true;
  return now.getTime() - last >= STALE_AFTER_MS;
}
