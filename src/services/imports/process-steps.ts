/**
 * A file import's processing as durable steps: `start` (Pending -> Processing, or a wait while its tenant/org runs
 * MAX_CONCURRENT_IMPORTS others), then slices of chunks (src/services/imports/slice.ts), then `finish` (Succeeded,
 * Failed or Fatal). `runStep` is the runtime's durable step: a Cloudflare Workflow's `step.do`, or the Deno runner's
 * (src/runtime/deno/import-runner.ts): a step that completed is not run again after a restart; a step cut short runs
 * again from the last chunk in the ledger, so nothing is written twice.
 */
import type { ImportTemplate } from '../../resources/entities/import-template';
import { StepFailed } from '../../runtime/platform';
import type { ImportJob, Platform, RunStep, SleepStep } from '../../runtime/platform';
import type { ImportProgress } from './commands';
import { isProcessed, sumChunkCounts, undoChunks } from './ledger';
import { describeCounts, openJob, sendProgress } from './progress';
import { runSlice } from './slice';
import type { SliceResult } from './slice';
import { FAILED, FATAL, PROCESSING, SUCCEEDED } from './states';
import { describeStepFailure } from './step-failures';

async function finishImport(
  platform: Platform,
  templates: readonly ImportTemplate[],
  job: ImportJob,
  fatal: string | null,
): Promise<Readonly<Record<string, unknown>>> {
  const { unit, row, template } = await openJob(platform, templates, job);
  if (!row || row.importDataState !== PROCESSING) {
    // Cancelled (or expired) while a step ran: a chunk that step wrote after the cancel's undo is undone too.
    if (row && row.importDataState !== SUCCEEDED && isProcessed(template)) await undoChunks(unit, template, job.importId, { platform });
    return { state: row?.importDataState ?? null };
  }
  const counts = await sumChunkCounts(unit, job.importId);
  const failOnErrors = row.failOnErrors === true && counts.rowsFailed > 0;
  if ((fatal !== null || failOnErrors) && isProcessed(template)) await undoChunks(unit, template, job.importId, { platform });
  const summary = describeCounts(counts, row.dryRun === true);
  const progress: ImportProgress =
    fatal !== null
      ? { importId: job.importId, importDataState: FATAL, counts, error: fatal, detailLog: `${summary} Stopped: nothing left written.` }
      : failOnErrors
        ? { importId: job.importId, importDataState: FAILED, counts, detailLog: `${summary} failOnErrors: nothing left written.` }
        : { importId: job.importId, importDataState: SUCCEEDED, counts, detailLog: summary };
  const outcome = await sendProgress(platform, job, progress);
  return { state: outcome.row?.importDataState ?? null };
}

/** The wait of a Pending import while its tenant/org runs MAX_CONCURRENT_IMPORTS others: 2 s, doubling to 1 minute. */
function waitBefore(attempt: number): number {
  return Math.min(60_000, 2_000 * 2 ** Math.min(attempt, 5));
}

/** The import's steps, run by the runtime's durable steps. */
export async function runImportSteps(
  steps: { readonly run: RunStep; readonly sleep: SleepStep },
  platform: Platform,
  templates: readonly ImportTemplate[],
  job: ImportJob,
): Promise<void> {
  const runStep = steps.run;
  for (let attempt = 0; ; attempt += 1) {
    const started = await runStep(`start ${attempt}`, async () => {
      const outcome = await sendProgress(platform, job, {
        importId: job.importId,
        importDataState: PROCESSING,
        counts: { rowsRead: 0, rowsCreated: 0, rowsUpdated: 0, rowsFailed: 0 },
      });
      return { status: outcome.status };
    });
    if (started.status === 'applied') break;
    if (started.status !== 'busy') return;
    await steps.sleep(`wait ${attempt}`, waitBefore(attempt));
  }
  let slice: SliceResult = { done: false, fatal: null };
  try {
    for (let index = 0; !slice.done; index += 1) {
      slice = await runStep(`slice ${index}`, () => runSlice(platform, templates, job));
    }
  } catch (error) {
    // The step failed on every retry: the import ends Fatal (what it wrote undone, its slot freed), never Processing.
    if (!(error instanceof StepFailed)) throw error;
    slice = { done: true, fatal: describeStepFailure(error.cause) };
  }
  const fatal = slice.fatal;
  await runStep('finish', () => finishImport(platform, templates, job, fatal));
}
