/**
 * A restore, step by step, into the target tenant/org (the source itself, or an empty one on another database):
 * 1. hold: the target's residency becomes `moving` (reads served, writes wait as during a move, then 503); a restore
 *    in place then writes only the rows changed since the position (revert-steps.ts) and goes on at 4; otherwise it
 *    rebuilds:
 * 2. clear: the target's rows of every restored table are deleted in chunks (children first);
 * 3. per table, parents first: load the snapshot's rows whose key the history did not change between the snapshot's
 *    start and the restored position, then replay the rows the history left in that range (each row's last image,
 *    unless it deleted the row);
 * 4. release: the residency becomes `active` and a `restored` event joins the change feed, in one batch.
 * The target's history records every row the restore deletes and writes (it is `moving`), so a later restore of the
 * target is exact too. Into another tenant/org, the rows get ids of their own (row-ids.ts); a restore that fails
 * releases its target (restore-failure.ts).
 */
import { deleteChunk } from '../placement/copy';
import { ensureResidency } from '../placement/directory';
import type { TenantTable } from '../placement/tenant-tables';
import type { TenantScope } from '../../db/client';
import { readSnapshotChunk, writeInGroups } from './chunks';
import { findChangedRows, findRebase, readLastImages, readPositions } from './history';
import { hasRebaseAfter, listChangedTables } from './history-changes';
import type { RestoreJob } from './jobs';
import { isCopy, runAbandonStep } from './restore-failure';
import { renderInsert } from './restore-sql';
import { InPlaceError, runRevertStep } from './revert-steps';
import { deriveIdMapping, listIdColumns } from './row-ids';
import type { BackupStore } from './store';

interface RestoreContext {
  readonly source: D1Database;
  readonly target: D1Database;
  readonly tables: readonly TenantTable[];
  readonly store: BackupStore;
  now(): Date;
}

async function holdTarget(db: D1Database, scope: TenantScope, now: Date): Promise<void> {
  await ensureResidency(db, scope, now);
  await db
    .prepare("UPDATE tenant_residency SET state = 'moving', changed_on = ? WHERE tenant_key = ? AND org_key = ?")
    .bind(now.toISOString(), scope.tenantKey, scope.orgKey)
    .run();
}

/** A copy's id mapping for a table that holds row ids (bound to its statements), or none: in place, or no ids. */
async function readIdMapping(job: RestoreJob, table: TenantTable): Promise<string[]> {
  return isCopy(job) && listIdColumns(table).size > 0 ? [await deriveIdMapping(job)] : [];
}

/** Loads the next snapshot chunk of the current table (its unchanged rows); false when the table has no more. */
async function loadChunk(job: RestoreJob, context: RestoreContext, table: TenantTable): Promise<boolean> {
  const snapshot = job.plan.snapshot;
  const chunk = snapshot?.tables.find((entry) => entry.name === table.name)?.chunks[job.cursor];
  if (!snapshot || !chunk) return false;
  // A move renumbered the table after the snapshot started: its rows come from the history after the rebase alone.
  if ((await findRebase(context.source, job.plan.source, table, job.plan.seq)) > snapshot.startSeq) return false;
  const text = await readSnapshotChunk(context.store, chunk);
  const changed = await findChangedRows(context.source, job.plan.source, table, { from: snapshot.startSeq, to: job.plan.seq }, text);
  const mapping = await readIdMapping(job, table);
  const sql = renderInsert(table, '$[1]', ' WHERE c.key NOT IN (SELECT value FROM json_each(?4))', mapping.length > 0 ? '?5' : undefined);
  await context.target
    .prepare(sql)
    .bind(text, job.tenantKey, job.orgKey, JSON.stringify(changed), ...mapping)
    .run();
  job.rows += chunk.rows - changed.length;
  job.cursor += 1;
  return true;
}

/** Writes the next images the history left of the current table; answers the statements (0: there are no more). */
async function replayImages(job: RestoreJob, context: RestoreContext, table: TenantTable): Promise<number> {
  const rebase = await findRebase(context.source, job.plan.source, table, job.plan.seq);
  const from = Math.max(job.plan.snapshot?.startSeq ?? 0, rebase);
  const images = await readLastImages(context.source, job.plan.source, table, { from, to: job.plan.seq }, job.cursor);
  if (images.length === 0) return 0;
  const mapping = await readIdMapping(job, table);
  const sql = renderInsert(table, '$', '', mapping.length > 0 ? '?4' : undefined);
  const statements = await writeInGroups(
    images.map((image) => image.image),
    (array) =>
      context.target
        .prepare(sql)
        .bind(array, job.tenantKey, job.orgKey, ...mapping)
        .run(),
  );
  job.rows += images.length;
  job.cursor = images[images.length - 1]?.seq ?? job.cursor;
  return 1 + statements;
}

/**
 * How the target is written, decided once it is held: in place, and while no move renumbered a table after the
 * position, only the rows changed since (revert-steps.ts); else every row (clear, load, replay).
 */
async function chooseMethod(job: RestoreJob, context: RestoreContext): Promise<number> {
  const { source, targetDatabase, seq } = job.plan;
  const inPlace = source.tenantKey === job.tenantKey && source.orgKey === job.orgKey && source.database === targetDatabase;
  if (inPlace && !(await hasRebaseAfter(context.source, source, seq))) {
    const { last, pruned } = await readPositions(context.source, source);
    const names = context.tables.map((table) => table.name);
    const changed = await listChangedTables(context.source, source, names, { seq, head: last });
    Object.assign(job, { method: 'changes', head: last, pruned, changed, phase: 'drop', table: 0, cursor: 0, pending: null });
    return 3;
  }
  Object.assign(job, { method: 'rebuild', phase: 'clear', table: 0, cursor: 0 });
  return 1;
}

/**
 * A restore in place that cannot go on in place rebuilds instead (its writes so far are history like any other): at
 * once when the rows cannot be reverted in place, after one retry for any other error (a passing one is retried).
 */
function fallBackToRebuild(job: RestoreJob, error: unknown): number {
  if (!(error instanceof InPlaceError) && job.failures === 0) throw error;
  const reason = error instanceof Error ? error.message : String(error);
  console.warn(
    JSON.stringify({
      level: 'warn',
      message: 'restore in place rebuilds instead',
      tenantKey: job.tenantKey,
      orgKey: job.orgKey,
      restore: job.id,
      error: reason,
    }),
  );
  Object.assign(job, {
    method: 'rebuild',
    phase: 'clear',
    table: 0,
    cursor: 0,
    pending: null,
    error: `Not restorable in place (${reason}): rebuilt instead.`,
  });
  return 1;
}

/** The target `active` again and the `restored` event, in one batch. */
async function release(job: RestoreJob, context: RestoreContext): Promise<void> {
  const now = context.now().toISOString();
  const { plan } = job;
  const changes = JSON.stringify({
    asOf: plan.asOf,
    seq: plan.seq,
    snapshot: plan.snapshot?.id ?? null,
    source: { tenantKey: plan.source.tenantKey, orgKey: plan.source.orgKey },
  });
  const last =
    'max(coalesce((SELECT max(seq) FROM change_events WHERE tenant_key = ?1 AND org_key = ?2), 0), coalesce((SELECT pruned_seq FROM change_event_retention WHERE tenant_key = ?1 AND org_key = ?2), 0)) + 1';
  await context.target.batch([
    context.target
      .prepare("UPDATE tenant_residency SET state = 'active', changed_on = ? WHERE tenant_key = ? AND org_key = ?")
      .bind(now, job.tenantKey, job.orgKey),
    context.target
      .prepare(
        `INSERT INTO change_events (tenant_key, org_key, seq, id, resource, change_type, record_id, record_key, version, occurred_on, actor, changes) SELECT ?1, ?2, n, ?3, 'tenant', 'restored', ?4, ?5, n, ?6, ?7, ?8 FROM (SELECT ${last} AS n)`,
      )
      .bind(job.tenantKey, job.orgKey, crypto.randomUUID(), job.id, plan.asOf, now, plan.actor, changes),
  ]);
  Object.assign(job, { state: 'done', finishedOn: now });
}

/** One step of a restore; answers the D1 statements it ran. */
export async function runRestoreStep(job: RestoreJob, context: RestoreContext): Promise<number> {
  const table = context.tables[job.table];
  const next = (phase: RestoreJob['phase'], index = 0) => Object.assign(job, { phase, table: index, cursor: 0 });
  switch (job.phase) {
    case 'hold':
      await holdTarget(context.target, job, context.now());
      return 3 + (await chooseMethod(job, context));
    case 'drop':
    case 'revert':
    case 'recover':
      try {
        return await runRevertStep(job, { db: context.target, tables: context.tables, store: context.store });
      } catch (error) {
        return fallBackToRebuild(job, error);
      }
    case 'clear': {
      const children = [...context.tables].reverse()[job.table];
      if (!children) return (next('load'), 0);
      const outcome = await deleteChunk(context.target, children, job);
      if (outcome.rows === 0) job.table += 1;
      return outcome.statements;
    }
    case 'load':
      if (!table) return (next('release'), 0);
      if (!(await loadChunk(job, context, table))) next('replay', job.table);
      return 2;
    case 'replay': {
      if (!table) return (next('release'), 0);
      const statements = await replayImages(job, context, table);
      if (statements === 0) next('load', job.table + 1);
      return Math.max(statements, 1);
    }
    case 'release':
      await release(job, context);
      return 2;
    case 'undo':
    case 'unhold':
      return runAbandonStep(job, context.target, context.tables, context.now());
  }
}
