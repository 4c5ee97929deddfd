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
import type { ImportUndo } from './commands';
import { isProcessed, undoChunks } from './ledger';
import { openJob } from './progress';
import { UNDOING } from './states';

/** Chunks one undo step takes at most (500 rows each). */
const UNDO_STEP_CHUNKS = 20;
/** A step stops taking chunks after this long, so that progress is told every few seconds. */
const UNDO_STEP_MS = 2_500;
/** Records a revert's message names at most (the count says how many were left). */
export const KEPT_NAMED = 20;

/** What the undo steps did so far: records deleted, restored, and those left (the first KEPT_NAMED named). */
export interface UndoTotals {
  readonly deleted: number;
  readonly restored: number;
  readonly kept: readonly string[];
  readonly keptCount: number;
}

export const NO_UNDO: UndoTotals = { deleted: 0, restored: 0, kept: [], keptCount: 0 };

interface UndoStepResult extends UndoTotals, Readonly<Record<string, unknown>> {
  readonly done: boolean;
  /** The chunk index the next step starts from. */
  readonly next: number;
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

function addTotals(before: UndoTotals, step: UndoTotals): UndoTotals {
  return {
    deleted: before.deleted + step.deleted,
    restored: before.restored + step.restored,
    kept: [...before.kept, ...step.kept].slice(0, KEPT_NAMED),
    keptCount: before.keptCount + step.keptCount,
  };
}

interface UndoStepSetting {
  readonly keepChanged: boolean;
  /** What the run's earlier steps did, and where they stopped. */
  readonly before: UndoTotals;
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
  if (!row || !isProcessed(template)) return { ...NO_UNDO, done: true, next: setting.from };
  const started = Date.now();
  let step: UndoTotals = NO_UNDO;
  let next = setting.from;
  for (let chunks = 0; chunks < UNDO_STEP_CHUNKS && Date.now() - started < UNDO_STEP_MS; chunks += 1) {
    const taken = await undoChunks(unit, template, job.importId, {
      keepChanged: setting.keepChanged,
      platform,
      maxChunks: 1,
      fromIndex: next,
    });
    if (taken.chunks === 0) return { ...(await report(platform, job, setting.before, step)), done: true, next };
    step = addTotals(step, { deleted: taken.deleted, restored: taken.restored, kept: taken.kept, keptCount: taken.kept.length });
    next = taken.lastIndex + 1;
  }
  return { ...(await report(platform, job, setting.before, step)), done: false, next };
}

/** Reports the run's records undone so far (earlier steps and this one); answers this step's totals. */
async function report(platform: Platform, job: ImportJob, before: UndoTotals, step: UndoTotals): Promise<UndoTotals> {
  const totals = addTotals(before, step);
  await sendUndo(platform, job, { importId: job.importId, undoState: UNDOING, rowsUndone: totals.deleted + totals.restored });
  return step;
}

/**
 * Undoes every chunk of the job's import not yet undone, in durable steps named `<prefix> 0`, `<prefix> 1`, ...;
 * answers what they did (a resumed run reads the completed steps' results again).
 */
export async function runUndoSteps(
  run: RunStep,
  platform: Platform,
  templates: readonly ImportTemplate[],
  job: ImportJob,
  options: { readonly keepChanged: boolean; readonly prefix: string },
): Promise<UndoTotals> {
  let totals = NO_UNDO;
  let from = 0;
  for (let index = 0; ; index += 1) {
    const setting = { keepChanged: options.keepChanged, before: totals, from };
    const step = await run(`${options.prefix} ${index}`, () => runUndoStep(platform, templates, job, setting));
    totals = addTotals(totals, step);
    from = step.next;
    if (step.done) return totals;
  }
}
