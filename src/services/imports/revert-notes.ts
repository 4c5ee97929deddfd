/**
 * The notes an undo leaves on its ledger row: which entries of `updated` it gave their values back, as
 * `equivalent: [from, to]` (src/resources/entities/import-revert-chain.ts reads them for an earlier import's revert).
 */
import { and, eq, sql } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { Equivalence } from '../../resources/entities/import-revert-chain';
import { stageStatements } from '../../tenant/staged-statements';
import type { StagedWrite } from '../../tenant/unit-of-work';
import { importChunks } from './table';

/** Notes the equivalences on the chunk's ledger entries (after the undo's batch committed: only what it wrote). */
export function stageEquivalences(importId: string, chunkIndex: number, equivalences: readonly Equivalence[]): StagedWrite<void> {
  const notes = JSON.stringify(Object.fromEntries(equivalences.map((entry) => [String(entry.index), [entry.from, entry.to]])));
  const path = sql`'$."' || e.key || '"'`;
  return stageStatements('import_chunks', ({ db, scope }) => [
    db
      .update(importChunks)
      .set({
        updated: sql`(SELECT json_group_array(CASE WHEN json_type(${notes}, ${path}) IS NULL THEN e.value ELSE json_set(e.value, '$.equivalent', json_extract(${notes}, ${path})) END) FROM json_each(${importChunks.updated}) AS e)`,
      })
      .where(and(scopeCondition(importChunks, scope), eq(importChunks.importId, importId), eq(importChunks.chunkIndex, chunkIndex))),
  ]);
}
