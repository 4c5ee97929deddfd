/**
 * What undoing a chunk did, kept in its ledger row (import_chunks.undo_outcome) right after the chunk's undo commits,
 * and an undo's totals read back from the ledger: a revert's message is the sum of its chunks', however many steps or
 * restarts it took. A chunk undone by a run that stopped before its outcome was written (a restart between the two
 * writes) counts as its creates deleted and its updates restored, and names nothing.
 */
import { and, eq, isNotNull } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { TenantReader } from '../../db/reader';
import { sqlBuilder } from '../../db/sql';
import { stageStatements } from '../../tenant/staged-statements';
import type { StagedWrite } from '../../tenant/unit-of-work';
import { importChunks } from './table';

/** A chunk's undo: records deleted, records given their values back, records left (ids, or names such as `tools 'T3'`). */
export interface ChunkUndoOutcome {
  readonly deleted: number;
  readonly restored: number;
  readonly kept: readonly string[];
}

/** An undo's totals: the first `named` records left are named, `keptCount` counts them all. */
export interface UndoTotals {
  readonly deleted: number;
  readonly restored: number;
  readonly kept: readonly string[];
  readonly keptCount: number;
}

export function stageUndoOutcome(importId: string, chunkIndex: number, outcome: ChunkUndoOutcome): StagedWrite<void> {
  return stageStatements('import_chunks', ({ scope }) => [
    sqlBuilder
      .update(importChunks)
      .set({ undoOutcome: JSON.stringify(outcome) })
      .where(and(scopeCondition(importChunks, scope), eq(importChunks.importId, importId), eq(importChunks.chunkIndex, chunkIndex))),
  ]);
}

/** The totals of the import's undone chunks (in chunk order), naming at most `named` records left. */
export async function readUndoTotals(tenant: TenantReader, importId: string, named: number): Promise<UndoTotals> {
  const rows = await tenant.read(
    sqlBuilder
      .select({ outcome: importChunks.undoOutcome, created: importChunks.rowsCreated, updated: importChunks.rowsUpdated })
      .from(importChunks)
      .where(and(scopeCondition(importChunks, tenant.scope), eq(importChunks.importId, importId), isNotNull(importChunks.undoneOn)))
      .orderBy(importChunks.chunkIndex),
  );
  const totals = { deleted: 0, restored: 0, kept: [] as string[], keptCount: 0 };
  for (const row of rows) {
    const outcome: ChunkUndoOutcome = row.outcome
      ? (JSON.parse(row.outcome) as ChunkUndoOutcome)
      : { deleted: row.created, restored: row.updated, kept: [] };
    totals.deleted += outcome.deleted;
    totals.restored += outcome.restored;
    totals.keptCount += outcome.kept.length;
    if (totals.kept.length < named) totals.kept.push(...outcome.kept.slice(0, named - totals.kept.length));
  }
  return totals;
}
