/** The chunk ledger (import_chunks): written with each chunk, read for the counts, the failures and undoing. */
import { and, asc, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import type { EntityStore } from '../../resources/entities/store';
import type { ImportTemplate } from '../../resources/entities/import-template';
import type { Platform } from '../../runtime/platform';
import type { TenantReader, TenantSession } from '../../tenant/session';
import { yieldToRequests } from '../../db/yield';
import type { WriteBatch } from '../../tenant/unit-of-work';
import { stageUndoOutcome } from './undo-outcome';
import type { ChunkUndoOutcome } from './undo-outcome';
import { stageRecordMembers } from './member-stage';
import { stageChunkUndo, stageRestore } from './chunk-stage';
import { NO_COUNTS } from './ledger-entry';
import type { ImportCounts, UpdatedRecord } from './ledger-entry';
import { importChunks } from './table';
import type { ImportChunkRow } from './table';
import { nameRecords, resolveUnchangedVersions } from '../../resources/entities/import-revert-chain';
import { stageEquivalences } from './revert-notes';
import type { Equivalence } from '../../resources/entities/import-revert-chain';
import { undoWriterChunks } from './writer-chunk';

function chunksOf(scope: TenantScope, importId: string) {
  return and(scopeCondition(importChunks, scope), eq(importChunks.importId, importId));
}

/** The import's last ledger row (the chunk a resumed read goes on after). */
export async function findLastChunk(tenant: TenantReader, importId: string): Promise<ImportChunkRow | undefined> {
  const rows = await tenant.read(
    sqlBuilder.select().from(importChunks).where(chunksOf(tenant.scope, importId)).orderBy(desc(importChunks.chunkIndex)).limit(1),
  );
  return rows[0];
}

/** The import's counts: the sum of its ledger rows. */
export async function sumChunkCounts(tenant: TenantReader, importId: string): Promise<ImportCounts> {
  const rows = await tenant.read(
    sqlBuilder
      .select({
        rowsRead: sql<number>`coalesce(sum(${importChunks.rowsRead}), 0)`,
        rowsCreated: sql<number>`coalesce(sum(${importChunks.rowsCreated}), 0)`,
        rowsUpdated: sql<number>`coalesce(sum(${importChunks.rowsUpdated}), 0)`,
        rowsFailed: sql<number>`coalesce(sum(${importChunks.rowsFailed}), 0)`,
      })
      .from(importChunks)
      .where(chunksOf(tenant.scope, importId)),
  );
  return rows[0] ?? NO_COUNTS;
}

/** What undoing an import's chunks did: the records deleted, and those left because they changed since the import. */
interface UndoOutcome {
  readonly deleted: number;
  /** Records an upsert updated that got their pre-import values back. */
  readonly restored: number;
  /** Records the import created or updated and someone changed since, by natural key: kept when `keepChanged`. */
  readonly kept: readonly string[];
  /** Chunks undone by this call, and the index of the last one (-1: none). */
  readonly chunks: number;
  readonly lastIndex: number;
}

/** How an undo runs: `keepChanged` (revert, below), `platform` (the writer's reaction), `maxChunks` (a step's share). */
interface UndoOptions {
  readonly keepChanged?: boolean;
  readonly platform?: Platform;
  /** Undo at most this many chunks (the first not undone, in order); absent: every one. */
  readonly maxChunks?: number;
  /** Only chunks from this index on (a run of undo steps goes on where its last step ended). */
  readonly fromIndex?: number;
}

/**
 * Stages the undo of a record an upsert updated: its attributes given their pre-import values back (the entity's
 * update, while it is at the version the import left), then the members it added removed (only if that restore was
 * written, or at that version when there was nothing to restore). Answers whether all of it was written.
 */
function stageUndoUpdate(batch: WriteBatch, template: ImportTemplate, store: EntityStore, record: UpdatedRecord): () => boolean {
  const restoring = Object.keys(record.before).length > 0;
  const restore = restoring ? batch.stage(stageRestore(store, record)) : undefined;
  const members = record.members ?? [];
  const removal =
    members.length > 0
      ? batch.stage(
          stageRecordMembers(template, store, {
            id: record.id,
            expectedVersion: record.version + (restoring ? 1 : 0),
            members,
            action: 'removed',
            stamped: restoring,
          }),
        )
      : undefined;
  return () => (restore ? restore.result() !== undefined : true) && (removal ? removal.result() : true);
}

/** Whether a template's imports are processed (so written, and undone): an entity's creates, or a writer of its own. */
export function isProcessed(template: ImportTemplate | undefined): template is ImportTemplate {
  return template?.store !== undefined || template?.writer !== undefined;
}

/**
 * Undoes the chunks of the import not yet undone, in order (an entity template's, or through the template's writer:
 * src/services/imports/writer-chunk.ts), at most `maxChunks` of them; `platform`: the writer's reaction after it
 * (cached lookups retired). Between chunks the runtime gets a turn (yieldToRequests).
 */
export async function undoChunks(
  unit: TenantSession,
  template: ImportTemplate,
  importId: string,
  options: UndoOptions = {},
): Promise<UndoOutcome> {
  const keepChanged = options.keepChanged === true;
  const range = { maxChunks: options.maxChunks, fromIndex: options.fromIndex };
  if (template.writer) return undoWriterChunks(unit, template.writer, importId, { keepChanged, platform: options.platform, ...range });
  if (!template.store) return { deleted: 0, restored: 0, kept: [], chunks: 0, lastIndex: -1 };
  return undoEntityChunks(unit, template, template.store, importId, { keepChanged, ...range });
}

/**
 * Undoes every chunk of the import not yet undone, one unit-of-work batch per chunk (src/services/imports/chunk-stage.ts):
 * its created records deleted (with their `deleted` events; a route's members go with it), its updated records given
 * their pre-import values back and the members it added removed, and the ledger row marked. With `keepChanged`
 * (revert), a record changed since the import (its version is no longer the import's) is left as it is and answered in
 * `kept`. A chunk undone twice changes nothing.
 */
async function undoEntityChunks(
  unit: TenantSession,
  template: ImportTemplate,
  store: EntityStore,
  importId: string,
  options: { readonly keepChanged?: boolean; readonly maxChunks?: number | undefined; readonly fromIndex?: number | undefined } = {},
): Promise<UndoOutcome> {
  const chunks = await unit.read(
    sqlBuilder
      .select({ chunkIndex: importChunks.chunkIndex, createdIds: importChunks.createdIds, updated: importChunks.updated })
      .from(importChunks)
      .where(and(chunksOf(unit.scope, importId), gte(importChunks.chunkIndex, options.fromIndex ?? 0), isNull(importChunks.undoneOn)))
      .orderBy(asc(importChunks.chunkIndex))
      .limit(options.maxChunks ?? -1),
  );
  let deleted = 0;
  let restored = 0;
  const kept: string[] = [];
  const keepChanged = options.keepChanged === true;
  for (const chunk of chunks) {
    await yieldToRequests();
    const createdIds = JSON.parse(chunk.createdIds) as string[];
    const updated = JSON.parse(chunk.updated) as UpdatedRecord[];
    // The version each record is unchanged at: the import's, or where the undos of later imports left it.
    const left = new Map([
      ...createdIds.map((id): [string, number] => [id, 1]),
      ...updated.map((record): [string, number] => [record.id, record.version]),
    ]);
    const unchanged = keepChanged ? await resolveUnchangedVersions(unit, importId, left) : left;
    const versions = Object.fromEntries(createdIds.flatMap((id) => (unchanged.get(id) === 1 ? [] : [[id, unchanged.get(id) ?? 1]])));
    const batch = unit.openBatch();
    const restores = updated.map((record) =>
      stageUndoUpdate(batch, template, store, { ...record, version: unchanged.get(record.id) ?? record.version }),
    );
    const undo = batch.stage(stageChunkUndo(store, { importId, chunkIndex: chunk.chunkIndex, createdIds, keepChanged, versions }));
    await batch.commit();
    const gone = new Set(undo.result());
    const outcome = await noteChunkUndo(
      unit,
      { template, store, keepChanged },
      { importId, chunkIndex: chunk.chunkIndex, createdIds, updated, unchanged, gone, restores },
    );
    deleted += outcome.deleted;
    restored += outcome.restored;
    kept.push(...outcome.kept);
  }
  // Without keepChanged every created record is deleted: one not found was deleted by someone else already.
  const lastIndex = chunks.at(-1)?.chunkIndex ?? -1;
  return { deleted, restored, kept, chunks: chunks.length, lastIndex };
}

/** A chunk's undo as committed: the records it created and deleted, its restores, and where each record was unchanged. */
interface UndoneChunk {
  readonly importId: string;
  readonly chunkIndex: number;
  readonly createdIds: readonly string[];
  readonly updated: readonly UpdatedRecord[];
  readonly unchanged: ReadonlyMap<string, number>;
  readonly gone: ReadonlySet<string>;
  readonly restores: readonly (() => boolean)[];
}

/**
 * After a chunk's undo committed, one batch: the notes of the records it gave their values back (which version holds
 * what: src/services/imports/revert-notes.ts), and its outcome, the records left named by their natural key
 * (src/services/imports/undo-outcome.ts: a revert's message survives a restart).
 */
async function noteChunkUndo(
  unit: TenantSession,
  setting: { readonly template: ImportTemplate; readonly store: EntityStore; readonly keepChanged: boolean },
  chunk: UndoneChunk,
): Promise<ChunkUndoOutcome> {
  const left = chunk.createdIds.filter((id) => !chunk.gone.has(id));
  const equivalences: Equivalence[] = [];
  let restored = 0;
  chunk.restores.forEach((written, index) => {
    const record = chunk.updated[index];
    if (!record) return;
    if (!written()) return void left.push(record.id);
    restored += 1;
    const bumps = (Object.keys(record.before).length > 0 ? 1 : 0) + ((record.members ?? []).length > 0 ? 1 : 0);
    equivalences.push({ index, from: record.version - bumps, to: (chunk.unchanged.get(record.id) ?? record.version) + bumps });
  });
  const named = { name: setting.template.name, store: setting.store };
  const kept = setting.keepChanged ? await nameRecords(unit, named, left) : [];
  const outcome = { deleted: chunk.gone.size, restored, kept };
  const batch = unit.openBatch();
  if (equivalences.length > 0) batch.stage(stageEquivalences(chunk.importId, chunk.chunkIndex, equivalences));
  batch.stage(stageUndoOutcome(chunk.importId, chunk.chunkIndex, outcome));
  await batch.commit();
  return outcome;
}
