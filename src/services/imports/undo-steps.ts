/**
 * The undo of what a file import wrote, as durable steps of its run (a cancel, failOnErrors, a Fatal end: the import's
 * own run; a revert: a run of its own, src/services/imports/revert-steps.ts). Each step undoes up to UNDO_STEP_CHUNKS
 * chunks in order, each chunk its own batch (nothing is half-undone: a chunk's deletes, restores and ledger mark commit
 * together), for at most about UNDO_STEP_MS, then reports the records undone so far (`rowsUndone`). A step cut short
 * runs again from the first chunk the ledger does not mark undone, so nothing is undone twice.
 */
import { callWithRetries, isRetryableCoordinatorError } from '../../coordinator/retry';
import type { ImportTemplate } from '../../resources/entities/import-template';
import type { ImportJob, Platform, RunStep } from '../../runtime/platform';
import { openTenantReader } from '../../tenant/session';
import type { ImportUndo } from './commands';
import { isProcessed, undoChunks } from './ledger';
import { openJob } from './progress';
import { UNDOING } from './states';
import { readUndoTotals } from './undo-outcome';
import type { UndoTotals } from './undo-outcome';

/** Chunks one undo step takes at most (500 rows each). */
const UNDO_STEP_CHUNKS = 20;
/** A step stops taking chunks after this long, so that progress is told every few seconds. */
const UNDO_STEP_MS = 2_500;
/** Records a revert's message names at most (the count says how many were left). */
export const KEPT_NAMED = 20;

interface UndoStepResult extends Readonly<Record<string, unknown>> {
  readonly done: boolean;
  /** The chunk index the next step starts from. */
  readonly next: number;
  /** Records this step deleted or restored (for the progress told). */
  readonly undone: number;
}

/** Sends an undo report through the tenant/org's coordinator. */
export async function sendUndo(platform: Platform, job: ImportJob, undo: ImportUndo): Promise<void> {
  const coordinator = platform.coordinator(job);
  await callWithRetries(
    () =>
      coordinator.send({
        type: 'imports.undo',
        tenantKey: job.tenantKey,
        orgKey: job.orgKey,
        commandId: crypto.randomUUID(),
        requestId: `import:${job.importId}`,
        by: job.by,
        undo,
      }),
    isRetryableCoordinatorError,
  );
}

interface UndoStepSetting {
  readonly keepChanged: boolean;
  /** Records the run's earlier steps undid, and where they stopped. */
  readonly before: number;
  readonly from: number;
}

/**
 * One step: chunk by chunk (each its own batch, the runtime given a turn between them) from `from` on, until none is
 * left, UNDO_STEP_CHUNKS are undone or UNDO_STEP_MS passed; then the run's records undone so far are reported.
 */
async function runUndoStep(
  platform: Platform,
  templates: readonly ImportTemplate[],
  job: ImportJob,
  setting: UndoStepSetting,
): Promise<UndoStepResult> {
  const { unit, row, template } = await openJob(platform, templates, job);
  if (!row || !isProcessed(template)) return { done: true, next: setting.from, undone: 0 };
  const started = Date.now();
  let undone = 0;
  let next = setting.from;
  let done = false;
  for (let chunks = 0; !done && chunks < UNDO_STEP_CHUNKS && Date.now() - started < UNDO_STEP_MS; chunks += 1) {
    const taken = await undoChunks(unit, template, job.importId, {
      keepChanged: setting.keepChanged,
      platform,
      maxChunks: 1,
      fromIndex: next,
    });
    done = taken.chunks === 0;
    undone += taken.deleted + taken.restored;
    if (!done) next = taken.lastIndex + 1;
  }
  await sendUndo(platform, job, { importId: job.importId, undoState: UNDOING, rowsUndone: setting.before + undone });
  return { done, next, undone };
}

/**
 * Undoes every chunk of the job's import not yet undone, in durable steps named `<prefix> 0`, `<prefix> 1`, ...;
 * what they did is read from the ledger afterwards (src/services/imports/undo-outcome.ts), not from the steps.
 */
export async function runUndoSteps(
  run: RunStep,
  platform: Platform,
  templates: readonly ImportTemplate[],
  job: ImportJob,
  options: { readonly keepChanged: boolean; readonly prefix: string },
): Promise<void> {
  let before = 0;
  let from = 0;
  for (let index = 0; ; index += 1) {
    const setting = { keepChanged: options.keepChanged, before, from };
    const step = await run(`${options.prefix} ${index}`, () => runUndoStep(platform, templates, job, setting));
    before += step.undone;
    from = step.next;
    if (step.done) return;
  }
}

/** The totals of what the import's undo did, from its ledger. */
export async function readUndone(platform: Platform, job: ImportJob): Promise<UndoTotals> {
  return readUndoTotals(openTenantReader(platform.openTenant(job)), job.importId, KEPT_NAMED);
}
