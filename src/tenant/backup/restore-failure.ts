/**
 * A restore that cannot finish (a step failed three times in a row) never leaves its target held: it says why in
 * plain words and releases the target. A restore into another tenant/org first deletes what it wrote there (the target
 * was empty: it is empty again, and a later restore into it starts afresh); a restore in place keeps the rows written
 * so far (its history records each of them, so restoring again to the same moment, or to the moment before the
 * restore, is exact).
 */
import { deleteChunk } from '../placement/copy';
import type { TenantTable } from '../placement/tenant-tables';
import type { RestoreJob } from './jobs';

/** Whether the restore writes another tenant/org than its source (a copy: ids mapped, emptied again on failure). */
export function isCopy(job: RestoreJob): boolean {
  const { source } = job.plan;
  return source.tenantKey !== job.tenantKey || source.orgKey !== job.orgKey;
}

/** What went wrong, in words an operator reads: the table it was writing, and SQLite's refusal made readable. */
function explain(job: RestoreJob, tables: readonly TenantTable[], error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const unique = /UNIQUE constraint failed: ([\w.]+)/.exec(text);
  const reason = unique
    ? `a row's ${unique[1]} is already used by another row of ${job.plan.targetDatabase}`
    : text
        .replace(/^D1_ERROR: /, '')
        .replace(/: SQLITE_\w+$/, '')
        .replace(/\.$/, '');
  const order = job.phase === 'clear' ? [...tables].reverse() : tables;
  const table = ['clear', 'load', 'replay', 'drop', 'revert', 'recover'].includes(job.phase) ? order[job.table]?.name : undefined;
  return table === undefined ? reason : `${reason} (${job.phase} of ${table})`;
}

/** Ends the restore's work: from its next step it releases the target (emptied first when it is a copy). */
export function abandonRestore(job: RestoreJob, tables: readonly TenantTable[], error: unknown): void {
  const target = `${job.tenantKey}/${job.orgKey}`;
  const reason = explain(job, tables, error);
  const outcome = isCopy(job)
    ? `${target} was emptied again and takes writes; restore into it again once the cause is fixed.`
    : `${target} takes writes again with the rows restored so far; restore it again (its history records every row the restore wrote).`;
  Object.assign(job, {
    error: `The restore stopped: ${reason}. ${outcome}`,
    phase: isCopy(job) ? 'undo' : 'unhold',
    table: 0,
    cursor: 0,
    pending: null,
    failures: 0,
  });
}

/** One step of the release: the copy's rows deleted (children first), then the target `active` again; answers statements. */
export async function runAbandonStep(job: RestoreJob, db: D1Database, tables: readonly TenantTable[], now: Date): Promise<number> {
  if (job.phase === 'undo') {
    const table = [...tables].reverse()[job.table];
    if (!table) return (Object.assign(job, { phase: 'unhold', table: 0 }), 0);
    const outcome = await deleteChunk(db, table, job);
    if (outcome.rows === 0) job.table += 1;
    return outcome.statements;
  }
  await releaseTarget(db, job, now);
  Object.assign(job, { state: 'failed', finishedOn: now.toISOString() });
  return 1;
}

/** The target `active` again (a failed restore never leaves it held). */
export async function releaseTarget(db: D1Database, job: RestoreJob, now: Date): Promise<void> {
  await db
    .prepare("UPDATE tenant_residency SET state = 'active', changed_on = ? WHERE tenant_key = ? AND org_key = ? AND state = 'moving'")
    .bind(now.toISOString(), job.tenantKey, job.orgKey)
    .run();
}

/** Whether the restore is releasing its target after a failure (undo, unhold). */
export function isAbandoning(job: RestoreJob): boolean {
  return job.phase === 'undo' || job.phase === 'unhold';
}
