/**
 * The import commands run by the tenant/org's coordinator (Durable Object), one at a time. Each reads the
 * import from D1, decides with the pure state machine, and writes the change (row + history) in one D1
 * transaction before answering. Every command carries a `commandId`: a replayed command (a retry after the
 * coordinator restarted between the D1 write and the answer) finds its history entry and changes nothing.
 */
import type { CommandHandler } from '../../coordinator/commands';
import { readDatabase } from '../../db/client';
import type { Database } from '../../db/client';
import type { TenantScope } from '../../entities/repository';
import type { CoordinatorCommand, Platform } from '../../platform/types';
import { decideTransition, describeState, FATAL, isImportState, isStaleProcessing } from './states';
import type { ImportState } from './states';
import { findRevertCandidate, insertImport, readChangeByCommand, readImport, readImportForChange, writeImportChange } from './store';
import type { AuditStamp, ChangeOrigin, ChangeRequest, ImportPatch, NewImport } from './store';
import type { ImportRow } from './table';

export const IMPORT_COMMANDS = {
  register: 'imports.register',
  change: 'imports.change',
  expire: 'imports.expire',
  revert: 'imports.revert',
} as const;

interface ImportCommandBase extends CoordinatorCommand {
  readonly commandId: string;
  readonly requestId: string;
  /** The token's subject (audit). */
  readonly by: string;
}

export interface RegisterImportCommand extends ImportCommandBase {
  readonly type: typeof IMPORT_COMMANDS.register;
  readonly import: NewImport;
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

export interface ChangeImportCommand extends ImportCommandBase {
  readonly type: typeof IMPORT_COMMANDS.change;
  readonly change: ImportChange;
}

export interface ExpireImportCommand extends ImportCommandBase {
  readonly type: typeof IMPORT_COMMANDS.expire;
  readonly importId: string;
  /** ISO 8601 instant the 30-minute rule is judged at (the request's clock). */
  readonly now: string;
}

export interface RevertImportCommand extends ImportCommandBase {
  readonly type: typeof IMPORT_COMMANDS.revert;
  readonly templateKey: string;
}

export interface RegisterOutcome {
  readonly id: string;
  readonly key: number;
}

export type ChangeOutcome =
  | { readonly status: 'applied' | 'unchanged' | 'notFound' }
  | { readonly status: 'refused'; readonly from: ImportState; readonly to: ImportState };

export type ExpireOutcome = { readonly status: 'found'; readonly row: ImportRow } | { readonly status: 'notFound' };

export type RevertOutcome =
  | { readonly status: 'reverted'; readonly id: string; readonly key: number; readonly originalFileName: string | null }
  | { readonly status: 'nothing' };

function prepare(
  platform: Platform,
  command: ImportCommandBase,
): { db: Database; scope: TenantScope; origin: ChangeOrigin; stamp: AuditStamp } {
  return {
    db: readDatabase(platform.db),
    scope: { tenantKey: command.tenantKey, orgKey: command.orgKey },
    origin: { commandId: command.commandId, requestId: command.requestId },
    stamp: { on: platform.now().toISOString(), by: command.by },
  };
}

function readState(row: ImportRow): ImportState {
  if (!isImportState(row.importDataState)) throw new Error(`Import ${row.id} has an unknown state ${row.importDataState}.`);
  return row.importDataState;
}

/** Writes a change decided on `row`; the coordinator is the only writer, so the row cannot have moved on. */
async function applyChange(context: ReturnType<typeof prepare>, row: ImportRow, change: ChangeRequest): Promise<ImportRow> {
  const written = await writeImportChange(context.db, context.scope, row, change, context.origin, context.stamp);
  if (!written) throw new Error(`Import ${row.id} changed outside its coordinator (version ${row.version}).`);
  return written;
}

export async function registerImport(platform: Platform, command: RegisterImportCommand): Promise<RegisterOutcome> {
  const context = prepare(platform, command);
  const replayed = await readImport(context.db, context.scope, command.import.id);
  if (replayed) return { id: replayed.id, key: replayed.key };
  const key = await insertImport(context.db, context.scope, command.import, context.origin, context.stamp);
  return { id: command.import.id, key };
}

export async function changeImport(platform: Platform, command: ChangeImportCommand): Promise<ChangeOutcome> {
  const context = prepare(platform, command);
  const { change } = command;
  const { row, replayed } = await readImportForChange(context.db, context.scope, change.importId, command.commandId);
  if (replayed) return { status: 'applied' };
  if (!row) return { status: 'notFound' };
  const from = readState(row);
  const to = change.importDataState ?? from;
  const decision = decideTransition(from, to);
  if (decision === 'refuse') return { status: 'refused', from, to };
  if (decision === 'noop') return { status: 'unchanged' };
  const patch: ImportPatch = { lastProgressUpdateOn: context.stamp.on };
  if (change.cloudFileName !== undefined) patch.cloudFileName = change.cloudFileName;
  if (change.detailLog !== undefined) patch.detailLog = change.detailLog;
  if (change.error !== undefined) patch.error = change.error;
  if (change.drillDownOperation !== undefined) patch.drillDownOperation = change.drillDownOperation;
  await applyChange(context, row, { kind: 'change', toState: to, patch });
  return { status: 'applied' };
}

/** validateImportDataState: a Processing import with no progress for 30 minutes becomes Fatal. */
export async function expireImport(platform: Platform, command: ExpireImportCommand): Promise<ExpireOutcome> {
  const context = prepare(platform, command);
  const row = await readImport(context.db, context.scope, command.importId);
  if (!row) return { status: 'notFound' };
  if (!isStaleProcessing(row, new Date(command.now))) return { status: 'found', row };
  if (decideTransition(readState(row), FATAL) !== 'apply') return { status: 'found', row };
  const last = row.lastProgressUpdateOn ?? row.modifiedOn;
  const error = row.error ?? `No progress since ${last}: marked ${describeState(FATAL)} after 30 minutes.`;
  return { status: 'found', row: await applyChange(context, row, { kind: 'expire', toState: FATAL, patch: { error } }) };
}

export async function revertImport(platform: Platform, command: RevertImportCommand): Promise<RevertOutcome> {
  const context = prepare(platform, command);
  const done = await readChangeByCommand(context.db, context.scope, command.commandId);
  const replayed = done ? await readImport(context.db, context.scope, done.importId) : undefined;
  if (replayed) return { status: 'reverted', id: replayed.id, key: replayed.key, originalFileName: replayed.originalFileName };
  const row = await findRevertCandidate(context.db, context.scope, command.templateKey);
  if (!row) return { status: 'nothing' };
  await applyChange(context, row, { kind: 'revert', toState: readState(row), patch: { reverted: true } });
  return { status: 'reverted', id: row.id, key: row.key, originalFileName: row.originalFileName };
}

/** Handlers for src/coordinator/commands.ts. */
export const importCommandHandlers: Readonly<Record<string, CommandHandler>> = {
  [IMPORT_COMMANDS.register]: (platform, command) => registerImport(platform, command as RegisterImportCommand),
  [IMPORT_COMMANDS.change]: (platform, command) => changeImport(platform, command as ChangeImportCommand),
  [IMPORT_COMMANDS.expire]: (platform, command) => expireImport(platform, command as ExpireImportCommand),
  [IMPORT_COMMANDS.revert]: (platform, command) => revertImport(platform, command as RevertImportCommand),
};
