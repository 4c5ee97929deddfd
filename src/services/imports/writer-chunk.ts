/**
 * Chunks of a template with a writer of its own (src/resources/entities/import-writer.ts: reference records, KPI measurements,
 * exchange rates documents): each record mapped and checked by the template (as the API operation's validation),
 * then handed to the writer, which checks what needs stored data and stages the writes; the chunk's ledger row goes in
 * the same batch, committed as ONE D1 batch. Undoing a chunk is the writer's undo and the ledger row's mark, likewise.
 */
import { and, asc, eq, gte, isNull } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { ImportTemplate } from '../../resources/entities/import-template';
import type { ChunkContext, ChunkRecord, ImportRowBody, ImportWriter } from '../../resources/entities/import-writer';
import type { Platform } from '../../runtime/platform';
import { yieldToRequests } from '../../db/yield';
import { planStatement } from '../../tenant/staged-statements';
import type { TenantSession } from '../../tenant/session';
import type { StagedWrite } from '../../tenant/unit-of-work';
import { stageUndoOutcome } from './undo-outcome';
import { buildChunkMark, stageLedgerEntry } from './chunk-stage';
import type { FailedRow } from './files/failures-csv';
import type { FileRecord } from './files/format';
import { stageEquivalences } from './revert-notes';
import { checkRecord } from './rows';
import { importChunks } from './table';

/** What a writer template's chunks need beyond their records (one per run of steps). */
export interface WriterSetting {
  readonly platform: Platform;
  readonly template: ImportTemplate;
  readonly writer: ImportWriter;
  readonly context: ChunkContext;
  /** The values are text cells (CSV, xlsx), read by their columns' cell kinds. */
  readonly fromText: boolean;
}

/** Checks one chunk, and (unless a dry run) writes it with its ledger row as one batch; a dry run writes the ledger row only. */
export async function writeWriterChunk(
  setting: WriterSetting,
  chunk: { importId: string; index: number; dryRun: boolean },
  records: readonly FileRecord[],
): Promise<void> {
  const { unit } = setting.context;
  const failures: FailedRow[] = [];
  const rows: ImportRowBody[] = [];
  const byRow = new Map(records.map((record) => [record.row, record]));
  for (const record of records) {
    const checked = checkRecord(setting.template, record, setting.fromText);
    if (checked.errors.length > 0) failures.push({ row: record.row, errors: checked.errors, values: record.values });
    else rows.push({ row: record.row, body: checked.body });
  }
  const planned = await setting.writer.planChunk(setting.context, rows);
  for (const refused of planned.refused) failures.push({ ...refused, values: byRow.get(refused.row)?.values ?? {} });
  failures.sort((a, b) => a.row - b.row);
  const batch = unit.openBatch();
  if (!chunk.dryRun) planned.stage(batch);
  const last = records.at(-1);
  const created = chunk.dryRun ? 0 : planned.created;
  const updated = chunk.dryRun ? 0 : planned.updated;
  batch.stage(
    stageLedgerEntry({
      importId: chunk.importId,
      chunkIndex: chunk.index,
      counts: { rowsRead: records.length, rowsCreated: created, rowsUpdated: updated, rowsFailed: failures.length },
      createdIds: chunk.dryRun ? [] : planned.createdIds,
      updated: chunk.dryRun ? [] : planned.changed,
      failures,
      endOffset: last?.end ?? -1,
      endRow: last?.row ?? 0,
      on: unit.stamp.on,
    }),
  );
  await batch.commit();
  if (!chunk.dryRun && created + updated > 0) await setting.writer.afterCommit?.(setting.platform, unit.scope);
}

/** The chunk's ledger row marked undone, as a staged write. */
function stageChunkMark(importId: string, chunkIndex: number): StagedWrite<void> {
  return {
    plan(context) {
      const mark = buildChunkMark(context, importId, chunkIndex);
      return { table: 'import_chunks', statements: [planStatement(mark)], settle: () => undefined };
    },
  };
}

/**
 * Undoes the chunks of the import not yet undone (at most `maxChunks`, in order), one batch per chunk (the writer's undo
 * and the ledger row's mark). With `keepChanged` (revert), records changed since the import are left and answered in
 * `kept`.
 */
export async function undoWriterChunks(
  unit: TenantSession,
  writer: ImportWriter,
  importId: string,
  options: {
    readonly keepChanged: boolean;
    readonly platform?: Platform | undefined;
    readonly maxChunks?: number | undefined;
    readonly fromIndex?: number | undefined;
  },
): Promise<{ deleted: number; restored: number; kept: string[]; chunks: number; lastIndex: number }> {
  const chunks = await unit.read(
    sqlBuilder
      .select({ chunkIndex: importChunks.chunkIndex, createdIds: importChunks.createdIds, updated: importChunks.updated })
      .from(importChunks)
      .where(
        and(
          scopeCondition(importChunks, unit.scope),
          eq(importChunks.importId, importId),
          gte(importChunks.chunkIndex, options.fromIndex ?? 0),
          isNull(importChunks.undoneOn),
        ),
      )
      .orderBy(asc(importChunks.chunkIndex))
      .limit(options.maxChunks ?? -1),
  );
  const outcome = { deleted: 0, restored: 0, kept: [] as string[], chunks: chunks.length, lastIndex: chunks.at(-1)?.chunkIndex ?? -1 };
  for (const chunk of chunks) {
    await yieldToRequests();
    const record: ChunkRecord = {
      importId,
      chunkIndex: chunk.chunkIndex,
      createdIds: JSON.parse(chunk.createdIds) as string[],
      changed: JSON.parse(chunk.updated) as unknown[],
    };
    const undo = await writer.planUndo(unit, record, options.keepChanged);
    const batch = unit.openBatch();
    const result = undo.stage(batch);
    batch.stage(stageChunkMark(importId, chunk.chunkIndex));
    await batch.commit();
    const done = result();
    // One batch after the undo's: its notes (which version holds what) and its outcome (a revert's message).
    const notes = unit.openBatch();
    if (done.equivalences && done.equivalences.length > 0) notes.stage(stageEquivalences(importId, chunk.chunkIndex, done.equivalences));
    notes.stage(stageUndoOutcome(importId, chunk.chunkIndex, { deleted: done.deleted, restored: done.restored, kept: done.kept }));
    await notes.commit();
    outcome.deleted += done.deleted;
    outcome.restored += done.restored;
    outcome.kept.push(...done.kept);
  }
  if (chunks.length > 0 && options.platform) await writer.afterCommit?.(options.platform, unit.scope);
  return outcome;
}
