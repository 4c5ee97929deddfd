/**
 * A file import's processing as durable steps: `start` (Pending -> Processing, or a wait while its tenant/org runs
 * MAX_CONCURRENT_IMPORTS others), then slices of chunks (src/services/imports/slice.ts), then, when what it wrote must go
 * (a cancel or a Failed/Fatal change while it ran, failOnErrors with failures, a malformed file), the undo in steps of
 * its own (src/services/imports/undo-steps.ts), then `finish` (Succeeded, Failed or Fatal; undoState 2). `runStep` is
 * the runtime's durable step: a Cloudflare Workflow's `step.do`, or the Deno runner's
 * (src/runtime/deno/import-runner.ts): a step that completed is not run again after a restart; a step cut short runs
 * again from the last chunk in the ledger (an undo step: from the first chunk not undone), so nothing is written or
 * undone twice. A job with `task: 'revert'` is a revert's run (src/services/imports/revert-steps.ts).
 */
import type { ImportTemplate } from '../../resources/entities/import-template';
import { StepFailed } from '../../runtime/platform';
import type { ImportJob, Platform, RunStep, SleepStep } from '../../runtime/platform';
import type { ImportProgress } from './commands';
import { isProcessed, sumChunkCounts } from './ledger';
import { describeCounts, openJob, sendProgress } from './progress';
import { runRevertSteps } from './revert-steps';
import { CANCELLED_LOG, CANCELLING_LOG } from './runs';
import { runSlice } from './slice';
import type { SliceResult } from './slice';
import { FAILED, FATAL, PROCESSING, SUCCEEDED, UNDOING, UNDONE } from './states';
import { describeStepFailure } from './step-failures';
import { readUndone, runUndoSteps, sendUndo } from './undo-steps';

type Steps = { readonly run: RunStep; readonly sleep: SleepStep };

/**
 * How the import ends, decided once its slices are done: `undo` when what it wrote must go (it no longer Processing but
 * not Succeeded: a cancel, a Failed or Fatal change, an expiry; or `fatal`; or failOnErrors with failed rows).
 */
async function decideEnd(platform: Platform, templates: readonly ImportTemplate[], job: ImportJob, fatal: string | null) {
  const { unit, row, template } = await openJob(platform, templates, job);
  if (!row || !isProcessed(template)) return { undo: false };
  if (row.importDataState !== PROCESSING) return { undo: row.importDataState !== SUCCEEDED };
  if (fatal !== null) return { undo: true };
  const counts = await sumChunkCounts(unit, job.importId);
  return { undo: row.failOnErrors === true && counts.rowsFailed > 0 };
}

/** Records undone (deleted or given their values back) by the import's undo, from its ledger. */
async function countUndone(platform: Platform, job: ImportJob): Promise<number> {
  const totals = await readUndone(platform, job);
  return totals.deleted + totals.restored;
}

/** A stopped import (cancelled, changed or expired while it ran) whose writes were undone: recorded as done. */
async function finishStopped(platform: Platform, job: ImportJob, row: { detailLog: string | null }): Promise<void> {
  const detailLog = row.detailLog === CANCELLING_LOG ? { detailLog: CANCELLED_LOG } : {};
  await sendUndo(platform, job, { importId: job.importId, undoState: UNDONE, rowsUndone: await countUndone(platform, job), ...detailLog });
}

/**
 * The import's end: its state and counts (Succeeded, or Failed/Fatal once its writes were undone). `undoNeeded`: it was
 * stopped (a cancel, a change, an expiry) after its end was decided, so its writes are still to be undone.
 */
async function finishImport(
  platform: Platform,
  templates: readonly ImportTemplate[],
  job: ImportJob,
  end: { readonly fatal: string | null; readonly undone: boolean },
): Promise<{ readonly undoNeeded: boolean }> {
  const { unit, row, template } = await openJob(platform, templates, job);
  if (!row) return { undoNeeded: false };
  if (row.importDataState !== PROCESSING) {
    const undoNeeded = !end.undone && row.importDataState !== SUCCEEDED && isProcessed(template);
    if (end.undone || (!undoNeeded && row.undoState === UNDOING)) await finishStopped(platform, job, row);
    return { undoNeeded };
  }
  const counts = await sumChunkCounts(unit, job.importId);
  const failOnErrors = row.failOnErrors === true && counts.rowsFailed > 0;
  const summary = describeCounts(counts, row.dryRun === true);
  const undo = end.undone ? { undoState: UNDONE, rowsUndone: await countUndone(platform, job) } : {};
  const progress: ImportProgress =
    end.fatal !== null
      ? {
          importId: job.importId,
          importDataState: FATAL,
          counts,
          error: end.fatal,
          detailLog: `${summary} Stopped: nothing left written.`,
          ...undo,
        }
      : failOnErrors
        ? { importId: job.importId, importDataState: FAILED, counts, detailLog: `${summary} failOnErrors: nothing left written.`, ...undo }
        : { importId: job.importId, importDataState: SUCCEEDED, counts, detailLog: summary };
  const outcome = await sendProgress(platform, job, progress);
  // Stopped meanwhile (a cancel between the read above and this change): its writes are still there.
  return { undoNeeded: outcome.status === 'stopped' && !end.undone && outcome.row?.importDataState !== SUCCEEDED };
}

/** The undo of a stopped import's writes once its end was recorded without it (a cancel that came late). */
async function finishLate(platform: Platform, templates: readonly ImportTemplate[], job: ImportJob) {
  const { row } = await openJob(platform, templates, job);
  if (row) await finishStopped(platform, job, row);
  return {};
}

/** The wait of a Pending import while its tenant/org runs MAX_CONCURRENT_IMPORTS others: 2 s, doubling to 1 minute. */
function waitBefore(attempt: number): number {
  return Math.min(60_000, 2_000 * 2 ** Math.min(attempt, 5));
}

/** Pending -> Processing (a wait while the tenant/org runs others); false: the import was stopped before it started. */
async function startImport(steps: Steps, platform: Platform, job: ImportJob): Promise<boolean> {
  for (let attempt = 0; ; attempt += 1) {
    const started = await steps.run(`start ${attempt}`, async () => {
      const outcome = await sendProgress(platform, job, {
        importId: job.importId,
        importDataState: PROCESSING,
        counts: { rowsRead: 0, rowsCreated: 0, rowsUpdated: 0, rowsFailed: 0 },
      });
      return { status: outcome.status };
    });
    if (started.status === 'applied') return true;
    if (started.status !== 'busy') return false;
    await steps.sleep(`wait ${attempt}`, waitBefore(attempt));
  }
}

/** The job's steps, run by the runtime's durable steps: an import's processing, or a revert. */
export async function runImportSteps(
  steps: Steps,
  platform: Platform,
  templates: readonly ImportTemplate[],
  job: ImportJob,
): Promise<void> {
  if (job.task === 'revert') return runRevertSteps(steps, platform, templates, job);
  if (!(await startImport(steps, platform, job))) return;
  let slice: SliceResult = { done: false, fatal: null };
  try {
    for (let index = 0; !slice.done; index += 1) {
      slice = await steps.run(`slice ${index}`, () => runSlice(platform, templates, job));
    }
  } catch (error) {
    // The step failed on every retry: the import ends Fatal (what it wrote undone, its slot freed), never Processing.
    if (!(error instanceof StepFailed)) throw error;
    slice = { done: true, fatal: describeStepFailure(error.cause) };
  }
  const fatal = slice.fatal;
  const end = await steps.run('decide', () => decideEnd(platform, templates, job, fatal));
  if (end.undo) await runUndoSteps(steps.run, platform, templates, job, { keepChanged: false, prefix: 'undo' });
  const finished = await steps.run('finish', () => finishImport(platform, templates, job, { fatal, undone: end.undo }));
  if (!finished.undoNeeded) return;
  await runUndoSteps(steps.run, platform, templates, job, { keepChanged: false, prefix: 'undo late' });
  await steps.run('finish late', () => finishLate(platform, templates, job));
}
