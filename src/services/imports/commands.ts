/**
 * The import commands run by the tenant/org's coordinator (Durable Object), one at a time. Each reads the
 * import from D1, decides with the pure state machine, and writes the change (row + history) in one D1
 * transaction before answering. Every command carries a `commandId`: a replayed command (a retry after the
 * coordinator restarted between the D1 write and the answer) finds its history entry and changes nothing.
 */
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { CommandContext, CommandHandlers, CommandOf } from '../../coordinator/commands';
import { scopeCondition } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { TenantReader, TenantSession } from '../../tenant/session';
import { commitAlone } from '../../tenant/unit-of-work';
import {
  decideTransition,
  describeState,
  FAILED,
  FATAL,
  isImportState,
  isStaleProcessing,
  MAX_CONCURRENT_IMPORTS,
  PENDING,
  PROCESSING,
  UNDOING,
} from './states';
import type { ImportState } from './states';
import { findChangeByCommand, findImport, findImportForChange, findRevertCandidate, stageImportChange } from './store';
import { stageImportRegistration } from './registration';
import type { ChangeOrigin, ChangeRequest, ImportPatch, NewImport } from './store';
import { importDataInfos } from './table';
import type { ImportRow } from './table';

/** What every import command carries besides its type, tenant/org and payload. */
export interface ImportCommandFields {
  /** Fresh per request: the idempotency key of the command. */
  readonly commandId: string;
  readonly requestId: string;
  /** The token's subject (audit). */
  readonly by: string;
}

/** The state and text fields of an ImportInfoResource; absent properties stay as they are. */
export interface ImportChange {
  readonly importId: string;
  readonly importDataState?: ImportState;
  readonly cloudFileName?: string | null;
  readonly detailLog?: string | null;
  readonly error?: string | null;
  readonly drillDownOperation?: string | null;
}

interface RegisterOutcome {
  readonly id: string;
  readonly key: number;
  /** The import as stored. */
  readonly row: ImportRow;
}

type ChangeOutcome =
  | { readonly status: 'applied' | 'unchanged' | 'notFound' }
  | { readonly status: 'refused'; readonly from: ImportState; readonly to: ImportState }
  /** A file import's cloudFileName is the key of its own file: another one is refused. */
  | { readonly status: 'fileNameFixed'; readonly cloudFileName: string | null };

/** How many file imports of the tenant/org are Processing (third-party imports are not counted). */
async function countProcessing(tenant: TenantReader): Promise<number> {
  const rows = await tenant.read(
    sqlBuilder
      .select({ count: sql<number>`count(*)` })
      .from(importDataInfos)
      .where(
        and(
          scopeCondition(importDataInfos, tenant.scope),
          eq(importDataInfos.importDataState, PROCESSING),
          isNotNull(importDataInfos.fileFormat),
        ),
      ),
  );
  return rows[0]?.count ?? 0;
}

/** A file import's progress, reported by its processing (src/services/imports/process-steps.ts). */
export interface ImportProgress {
  readonly importId: string;
  /** Absent: the state stays. */
  readonly importDataState?: ImportState;
  readonly counts: { readonly rowsRead: number; readonly rowsCreated: number; readonly rowsUpdated: number; readonly rowsFailed: number };
  readonly detailLog?: string;
  readonly error?: string;
  /** The undo of what it wrote (a failOnErrors or Fatal end: done before the state changes). */
  readonly undoState?: number;
  readonly rowsUndone?: number;
  /**
   * A cancel (POST /{id}/cancel): a Processing file import's writes are then undone by its own run (undoState 1 and
   * `undoingLog` as its detailLog until they are), a Pending one wrote nothing (`detailLog`).
   */
  readonly cancel?: { readonly undoingLog: string };
}

/** What a run of undo steps reports (revert, cancel, failOnErrors, Fatal): any import, whatever its state. */
export interface ImportUndo {
  readonly importId: string;
  readonly undoState: number | null;
  readonly rowsUndone: number | null;
  readonly detailLog?: string;
  /** A revert's outcome (the RevertImport answer). */
  readonly revertResult?: { readonly revertedTypeMessage: number; readonly message: string };
  /** false: a revert that could not be started is taken back (the import is a revert candidate again). */
  readonly reverted?: boolean;
}

/**
 * `stopped`: the import is no longer Pending or Processing (cancelled, expired): its processing ends. `busy`: it stays
 * Pending, its tenant/org already runs MAX_CONCURRENT_IMPORTS file imports (its processing waits and asks again).
 */
export type ProgressOutcome = { readonly status: 'applied' | 'stopped' | 'notFound' | 'busy'; readonly row?: ImportRow };

type ExpireOutcome = { readonly status: 'found'; readonly row: ImportRow } | { readonly status: 'notFound' };

type RevertOutcome =
  | {
      readonly status: 'reverted';
      readonly id: string;
      readonly key: number;
      readonly originalFileName: string | null;
      /** Its writes are to be undone by a revert run (a file import of a processed template). */
      readonly undo: boolean;
    }
  | { readonly status: 'nothing' };

declare module '../../coordinator/commands' {
  interface CommandCatalog {
    'imports.register': { payload: ImportCommandFields & { readonly import: NewImport }; result: RegisterOutcome };
    'imports.change': { payload: ImportCommandFields & { readonly change: ImportChange }; result: ChangeOutcome };
    /** `now`: ISO 8601 instant the 30-minute rule is judged at (the request's clock). */
    'imports.expire': { payload: ImportCommandFields & { readonly importId: string; readonly now: string }; result: ExpireOutcome };
    /** `undoFiles`: a file import found is marked for a revert run (undoState 1) rather than marked reverted alone. */
    'imports.revert': {
      payload: ImportCommandFields & { readonly templateKey: string; readonly undoFiles?: boolean };
      result: RevertOutcome;
    };
    'imports.progress': { payload: ImportCommandFields & { readonly progress: ImportProgress }; result: ProgressOutcome };
    'imports.undo': { payload: ImportCommandFields & { readonly undo: ImportUndo }; result: { readonly status: 'applied' | 'notFound' } };
  }
}

type ImportCommand = CommandOf<
  'imports.register' | 'imports.change' | 'imports.expire' | 'imports.revert' | 'imports.progress' | 'imports.undo'
>;

/** The command's session (its tenant/org, opened once, with the command's audit stamp) and its origin. */
function prepare({ tenant, now }: CommandContext, command: ImportCommand): TenantSession & { readonly origin: ChangeOrigin } {
  return {
    ...tenant.withStamp({ on: now().toISOString(), by: command.by }),
    origin: { commandId: command.commandId, requestId: command.requestId },
  };
}

function requireState(row: ImportRow): ImportState {
  if (!isImportState(row.importDataState)) throw new Error(`Import ${row.id} has an unknown state ${row.importDataState}.`);
  return row.importDataState;
}

/** Writes a change decided on `row`; the coordinator is the only writer, so the row cannot have moved on. */
async function applyChange(run: ReturnType<typeof prepare>, row: ImportRow, change: ChangeRequest): Promise<ImportRow> {
  const written = await commitAlone(run, (batch) => batch.stage(stageImportChange(row, change, run.origin)));
  if (!written) throw new Error(`Import ${row.id} changed outside its coordinator (version ${row.version}).`);
  return written;
}

async function registerImport(context: CommandContext, command: CommandOf<'imports.register'>): Promise<RegisterOutcome> {
  const run = prepare(context, command);
  const replayed = await findImport(run, command.import.id);
  if (replayed) return { id: replayed.id, key: replayed.key, row: replayed };
  const row = await commitAlone(run, (batch) => batch.stage(stageImportRegistration(command.import, run.origin)));
  return { id: command.import.id, key: row.key, row };
}

async function changeImport(context: CommandContext, command: CommandOf<'imports.change'>): Promise<ChangeOutcome> {
  const run = prepare(context, command);
  const { change } = command;
  const { row, replayed } = await findImportForChange(run, change.importId, command.commandId);
  if (replayed) return { status: 'applied' };
  if (!row) return { status: 'notFound' };
  if (row.fileFormat !== null && change.cloudFileName !== undefined && change.cloudFileName !== row.cloudFileName) {
    return { status: 'fileNameFixed', cloudFileName: row.cloudFileName };
  }
  const from = requireState(row);
  const to = change.importDataState ?? from;
  const decision = decideTransition(from, to);
  if (decision === 'refuse') return { status: 'refused', from, to };
  if (decision === 'noop') return { status: 'unchanged' };
  const patch: ImportPatch = { lastProgressUpdateOn: run.stamp.on };
  if (change.cloudFileName !== undefined) patch.cloudFileName = change.cloudFileName;
  if (change.detailLog !== undefined) patch.detailLog = change.detailLog;
  if (change.error !== undefined) patch.error = change.error;
  if (change.drillDownOperation !== undefined) patch.drillDownOperation = change.drillDownOperation;
  // A running file import stopped by Failed or Fatal: its own run undoes what it wrote, in steps (as a cancel does).
  if (row.fileFormat !== null && from === PROCESSING && (to === FAILED || to === FATAL))
    Object.assign(patch, { undoState: UNDOING, rowsUndone: 0 });
  await applyChange(run, row, { kind: 'change', toState: to, patch });
  return { status: 'applied' };
}

/** validateImportDataState: a Processing import with no progress for 30 minutes becomes Fatal. */
async function expireImport(context: CommandContext, command: CommandOf<'imports.expire'>): Promise<ExpireOutcome> {
  const run = prepare(context, command);
  const row = await findImport(run, command.importId);
  if (!row) return { status: 'notFound' };
  if (!isStaleProcessing(row, new Date(command.now))) return { status: 'found', row };
  if (decideTransition(requireState(row), FATAL) !== 'apply') return { status: 'found', row };
  const last = row.lastProgressUpdateOn ?? row.modifiedOn;
  const error = row.error ?? `No progress since ${last}: marked ${describeState(FATAL)} after 30 minutes.`;
  return { status: 'found', row: await applyChange(run, row, { kind: 'expire', toState: FATAL, patch: { error } }) };
}

async function revertImport(context: CommandContext, command: CommandOf<'imports.revert'>): Promise<RevertOutcome> {
  const run = prepare(context, command);
  const done = await findChangeByCommand(run, command.commandId);
  const replayed = done ? await findImport(run, done.importId) : undefined;
  if (replayed) {
    const { id, key, originalFileName } = replayed;
    return { status: 'reverted', id, key, originalFileName, undo: command.undoFiles === true && replayed.fileFormat !== null };
  }
  const row = await findRevertCandidate(run, command.templateKey);
  if (!row) return { status: 'nothing' };
  const undo = command.undoFiles === true && row.fileFormat !== null;
  const patch: ImportPatch = undo ? { reverted: true, undoState: UNDOING, rowsUndone: 0 } : { reverted: true };
  await applyChange(run, row, { kind: 'revert', toState: requireState(row), patch });
  return { status: 'reverted', id: row.id, key: row.key, originalFileName: row.originalFileName, undo };
}

/** A file import's processing reports its counts (and its state changes): refused once the import has ended. */
async function progressImport(context: CommandContext, command: CommandOf<'imports.progress'>): Promise<ProgressOutcome> {
  const run = prepare(context, command);
  const { progress } = command;
  const { row, replayed } = await findImportForChange(run, progress.importId, command.commandId);
  if (replayed) return { status: 'applied' };
  if (!row) return { status: 'notFound' };
  const from = requireState(row);
  const to = progress.importDataState ?? from;
  if (decideTransition(from, to) !== 'apply') return { status: 'stopped', row };
  // The coordinator runs one command at a time: the count cannot change between this read and the write.
  if (from === PENDING && to === PROCESSING && (await countProcessing(run)) >= MAX_CONCURRENT_IMPORTS) {
    return { status: 'busy', row };
  }
  const patch: ImportPatch = { lastProgressUpdateOn: run.stamp.on, ...progress.counts };
  if (progress.detailLog !== undefined) patch.detailLog = progress.detailLog;
  if (progress.error !== undefined) patch.error = progress.error;
  if (progress.undoState !== undefined) patch.undoState = progress.undoState;
  if (progress.rowsUndone !== undefined) patch.rowsUndone = progress.rowsUndone;
  if (progress.cancel && from === PROCESSING && row.fileFormat !== null)
    Object.assign(patch, { undoState: UNDOING, rowsUndone: 0, detailLog: progress.cancel.undoingLog });
  return { status: 'applied', row: await applyChange(run, row, { kind: 'change', toState: to, patch }) };
}

/** The undo steps of a file import report their progress and outcome (any state: the undo follows the state change). */
async function recordUndo(context: CommandContext, command: CommandOf<'imports.undo'>): Promise<{ status: 'applied' | 'notFound' }> {
  const run = prepare(context, command);
  const { undo } = command;
  const { row, replayed } = await findImportForChange(run, undo.importId, command.commandId);
  if (replayed) return { status: 'applied' };
  if (!row) return { status: 'notFound' };
  const patch: ImportPatch = { undoState: undo.undoState, rowsUndone: undo.rowsUndone };
  if (undo.detailLog !== undefined) patch.detailLog = undo.detailLog;
  if (undo.reverted !== undefined) patch.reverted = undo.reverted;
  if (undo.revertResult)
    Object.assign(patch, { revertMessageType: undo.revertResult.revertedTypeMessage, revertMessage: undo.revertResult.message });
  await applyChange(run, row, { kind: 'undo', toState: requireState(row), patch });
  return { status: 'applied' };
}

/** The import commands' handlers (registered with the coordinator through the service module). */
export const importCommands: Pick<CommandHandlers, ImportCommand['type']> = {
  'imports.register': registerImport,
  'imports.change': changeImport,
  'imports.expire': expireImport,
  'imports.revert': revertImport,
  'imports.progress': progressImport,
  'imports.undo': recordUndo,
};
