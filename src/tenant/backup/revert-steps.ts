/**
 * A restore in place (the `changes` method): the tenant/org is already its state at the restored position but for the
 * rows the history changed after it, so only those are written. Rows untouched since the position are not read or
 * written, which makes undoing a small mistake on a large tenant/org cost that mistake, not the tenant/org's size.
 * 1. drop (children first): the rows inserted after the position are deleted;
 * 2. per table, parents first, **revert**: the rows changed or deleted after the position are written back as their last
 *    entry at or before it left them (upserts by primary key);
 * 3. then **recover**: those whose entries up to the position were pruned are taken from the snapshot's chunks.
 * A step that cannot apply (another unique key held by a row not yet reverted, a row found nowhere) ends this method:
 * the restore goes on as a rebuild (restore-steps.ts), which does not depend on the rows as they are.
 */
import type { TenantTable } from '../placement/tenant-tables';
import { readSnapshotChunk, writeInGroups } from './chunks';
import { findRebase } from './history';
import { countPrunedPriors, readInsertedKeys, readPriorImages } from './history-changes';
import type { ChangeRange } from './history-changes';
import type { RestoreJob } from './jobs';
import { renderDeleteByKeys, renderUpsert } from './restore-sql';
import type { BackupStore } from './store';

/** The rows cannot be brought back in place (the restore then rebuilds: restore-steps.ts). */
export class InPlaceError extends Error {}

interface RevertContext {
  /** The tenant/org's database (source and target). */
  readonly db: D1Database;
  readonly tables: readonly TenantTable[];
  readonly store: BackupStore;
}

async function readRange(job: RestoreJob, context: RevertContext, table: TenantTable): Promise<ChangeRange> {
  const rebase = await findRebase(context.db, job.plan.source, table, job.plan.seq);
  return { seq: job.plan.seq, head: job.head, lower: Math.max(job.pruned, rebase) };
}

/** Whether the history changed the table after the position. */
function isChanged(job: RestoreJob, table: TenantTable): boolean {
  return job.changed.includes(table.name);
}

function moveTo(job: RestoreJob, phase: RestoreJob['phase'], table: number): void {
  Object.assign(job, { phase, table, cursor: 0, pending: null });
}

/** Deletes the next rows of the current table (children first) that the history inserted after the position. */
async function dropInserted(job: RestoreJob, context: RevertContext): Promise<number> {
  const table = [...context.tables].reverse()[job.table];
  if (!table) return (moveTo(job, 'revert', 0), 0);
  if (!isChanged(job, table)) return (moveTo(job, 'drop', job.table + 1), 0);
  // Inserted rows need no state at the position: no rebase lookup.
  const keys = await readInsertedKeys(context.db, job, table, { seq: job.plan.seq, head: job.head, lower: job.pruned }, job.cursor);
  if (keys.length === 0) return (moveTo(job, 'drop', job.table + 1), 2);
  // RETURNING counts the rows the statement deleted (meta.changes also counts its triggers' writes).
  const { results } = await context.db
    .prepare(`${renderDeleteByKeys(table)} RETURNING 1`)
    .bind(job.tenantKey, job.orgKey, `[${keys.map((entry) => entry.key).join(',')}]`)
    .all();
  job.rows += results.length;
  job.cursor = keys[keys.length - 1]?.seq ?? job.cursor;
  return 3;
}

/** Writes back the next rows of the current table that the history changed or deleted after the position. */
async function revertChanged(job: RestoreJob, context: RevertContext, table: TenantTable): Promise<number> {
  const pairs = await readPriorImages(context.db, job, table, await readRange(job, context, table), job.cursor);
  if (pairs.length === 0) return (moveTo(job, 'recover', job.table), 2);
  if (pairs.some((entry) => entry.deleted)) throw new InPlaceError(`The history of ${table.name} has a row changed after it was deleted.`);
  const sql = `${renderUpsert(table, 'true')} RETURNING 1`;
  let written = 0;
  const statements = await writeInGroups(
    pairs.map((entry) => entry.pair),
    async (array) => {
      written += (await context.db.prepare(sql).bind(array, job.tenantKey, job.orgKey).all()).results.length;
    },
  );
  job.rows += written;
  if (written < pairs.length)
    throw new InPlaceError(`${pairs.length - written} rows of ${table.name} have ids another tenant/org holds now.`);
  job.cursor = pairs[pairs.length - 1]?.seq ?? job.cursor;
  return 2 + statements;
}

/**
 * The rows of a snapshot chunk whose state at the position the history no longer holds, and that changed after it.
 * `?2`/`?3` are both the history's scope and the rows' (a restore in place: the source is the target).
 */
const PRUNED_AND_CHANGED = [
  "EXISTS (SELECT 1 FROM tenant_history AS h WHERE h.tenant_key = ?2 AND h.org_key = ?3 AND h.table_name = ?4 AND h.row_key = json_extract(c.value, '$[0]') AND h.seq > ?5 AND h.seq <= ?6)",
  "NOT EXISTS (SELECT 1 FROM tenant_history AS x WHERE x.tenant_key = ?2 AND x.org_key = ?3 AND x.table_name = ?4 AND x.row_key = json_extract(c.value, '$[0]') AND x.seq > ?7 AND x.seq <= ?5)",
].join(' AND ');

/** Takes from the snapshot, chunk by chunk, the rows of the current table whose entries up to the position were pruned. */
async function recoverPruned(job: RestoreJob, context: RevertContext, table: TenantTable): Promise<number> {
  if (job.pending !== null && job.pending <= 0) return (moveTo(job, 'revert', job.table + 1), 0);
  const range = await readRange(job, context, table);
  if (job.pending === null) {
    job.pending = await countPrunedPriors(context.db, job, table, range);
    return 2;
  }
  const snapshot = job.plan.snapshot;
  const chunk = snapshot?.tables.find((entry) => entry.name === table.name)?.chunks[job.cursor];
  // A snapshot started before the table's last rebase names its rows by old ids: it cannot hold them.
  if (!snapshot || !chunk || range.lower > snapshot.startSeq)
    throw new InPlaceError(`${job.pending} rows of ${table.name} changed since the position are in neither the history nor the snapshot.`);
  const text = await readSnapshotChunk(context.store, chunk);
  const { results } = await context.db
    .prepare(`${renderUpsert(table, PRUNED_AND_CHANGED)} RETURNING 1`)
    .bind(text, job.tenantKey, job.orgKey, table.name, range.seq, range.head, range.lower)
    .all();
  const changes = results.length;
  job.pending -= changes;
  job.rows += changes;
  job.cursor += 1;
  return 3;
}

/** One step of a restore in place; answers the D1 statements it ran. Throws when the rows cannot be reverted in place. */
export async function runRevertStep(job: RestoreJob, context: RevertContext): Promise<number> {
  if (job.phase === 'drop') return dropInserted(job, context);
  const table = context.tables[job.table];
  if (!table) return (moveTo(job, 'release', 0), 0);
  if (!isChanged(job, table)) return (moveTo(job, 'revert', job.table + 1), 0);
  return job.phase === 'revert' ? revertChanged(job, context, table) : recoverPruned(job, context, table);
}
