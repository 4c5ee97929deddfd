/**
 * A revert of a file import (revertImportFile) as a durable run of its own (src/runtime/platform.ts: `task: 'revert'`):
 * it waits while a newer import of the same template is still being reverted (reverts undo in order, newest first, as
 * they did one request after the other), undoes the import's chunks in steps (src/services/imports/undo-steps.ts;
 * records changed since the import are left and named), then records the outcome: undoState 2 (Undone) and the
 * RevertImport answer in revertResult.
 */
import { and, count, eq, gt } from 'drizzle-orm';
import type { ImportTemplate } from '../../resources/entities/import-template';
import type { ImportJob, Platform, RunStep, SleepStep } from '../../runtime/platform';
import { scopeCondition } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import { openJob } from './progress';
import { describeRevert } from './revert-message';
import { UNDOING, UNDONE } from './states';
import { importDataInfos } from './table';
import { readUndone, runUndoSteps, sendUndo } from './undo-steps';

/** The wait while a newer revert of the template runs: 2 s, doubling to 1 minute. */
function waitBefore(attempt: number): number {
  return Math.min(60_000, 2_000 * 2 ** Math.min(attempt, 5));
}

/** Whether the revert may undo now (`run`), must wait for a newer one (`wait`), or has nothing to do (`skip`). */
async function checkTurn(
  platform: Platform,
  templates: readonly ImportTemplate[],
  job: ImportJob,
): Promise<{ turn: 'run' | 'wait' | 'skip' }> {
  const { unit, row } = await openJob(platform, templates, job);
  if (!row || !row.reverted || row.undoState !== UNDOING) return { turn: 'skip' };
  const t = importDataInfos;
  const [newer] = await unit.read(
    sqlBuilder
      .select({ running: count() })
      .from(t)
      .where(
        and(
          scopeCondition(t, job),
          eq(t.importDataTemplate, row.importDataTemplate),
          gt(t.key, row.key),
          eq(t.reverted, true),
          eq(t.undoState, UNDOING),
        ),
      ),
  );
  return { turn: (newer?.running ?? 0) > 0 ? 'wait' : 'run' };
}

async function finishRevert(platform: Platform, templates: readonly ImportTemplate[], job: ImportJob) {
  const { row } = await openJob(platform, templates, job);
  if (!row) return { undone: false };
  const totals = await readUndone(platform, job);
  const revertResult = describeRevert(row, totals);
  await sendUndo(platform, job, { importId: job.importId, undoState: UNDONE, rowsUndone: totals.deleted + totals.restored, revertResult });
  return { undone: true };
}

export async function runRevertSteps(
  steps: { readonly run: RunStep; readonly sleep: SleepStep },
  platform: Platform,
  templates: readonly ImportTemplate[],
  job: ImportJob,
): Promise<void> {
  for (let attempt = 0; ; attempt += 1) {
    const { turn } = await steps.run(`revert turn ${attempt}`, () => checkTurn(platform, templates, job));
    if (turn === 'skip') return;
    if (turn === 'run') break;
    await steps.sleep(`revert wait ${attempt}`, waitBefore(attempt));
  }
  await runUndoSteps(steps.run, platform, templates, job, { keepChanged: true, prefix: 'revert' });
  await steps.run('revert finish', () => finishRevert(platform, templates, job));
}
