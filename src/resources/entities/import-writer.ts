/**
 * An import template's own processing, for records that are not plain entity creates (reference records, KPI
 * measurements, exchange rates documents with their lines): the service that owns the records checks a chunk's rows
 * as its API operation checks them and stages their writes, as that operation writes them, in the chunk's batch; the
 * imports service (src/services/imports/) reads the file, keeps the chunk ledger, counts and commits, and asks the
 * writer to undo a chunk from what its ledger row kept (cancel, failOnErrors, revert).
 */
import type { TenantScope } from '../../db/client';
import type { FieldError } from '../../errors/api-error';
import type { Platform } from '../../runtime/platform';
import type { TenantUnit, WriteBatch } from '../../tenant/unit-of-work';

/** One row of a chunk that passed the template's check: its file row number and the body the API operation takes. */
export interface ImportRowBody {
  readonly row: number;
  readonly body: Readonly<Record<string, unknown>>;
}

/** A row the writer refused, with every problem (paths are the template's column names). */
export interface RowRefusal {
  readonly row: number;
  readonly errors: readonly FieldError[];
}

/** What a writer answers for a chunk. */
export interface PlannedChunk {
  readonly refused: readonly RowRefusal[];
  readonly created: number;
  readonly updated: number;
  /** Ids of the records the chunk creates (kept in the ledger). */
  readonly createdIds: readonly string[];
  /** The writer's own description of what the chunk changed, kept in the ledger for its undo (JSON values). */
  readonly changed: readonly unknown[];
  /** Stages the chunk's writes (never called for a dry run). */
  stage(batch: WriteBatch): void;
}

export interface ChunkContext {
  /** The tenant/org's unit of work (its database, scope and the run's audit stamp). */
  readonly unit: TenantUnit;
  readonly mode: 'create' | 'upsert';
  /** Natural keys taken by earlier rows of the same run (a dry run writes none, so they are remembered here). */
  readonly seenKeys: Set<string>;
}

/** What a chunk's undo did: records deleted, records given their pre-import values back, records left (by id or key). */
export interface UndoneChunk {
  readonly deleted: number;
  readonly restored: number;
  readonly kept: readonly string[];
  /**
   * Entries of `changed` given their values back: version `to` holds what version `from` held (noted on the ledger
   * row, so a revert of an earlier import sees the record unchanged: src/services/imports/revert-chain.ts).
   */
  readonly equivalences?: readonly { readonly index: number; readonly from: number; readonly to: number }[];
}

/** What the ledger row of a chunk kept, and which row it is. */
export interface ChunkRecord {
  readonly importId: string;
  readonly chunkIndex: number;
  readonly createdIds: readonly string[];
  readonly changed: readonly unknown[];
}

export interface ImportWriter {
  /** Rows of one group (the value of this column) stay in one chunk: exchange rates documents by `number`. */
  readonly groupColumn?: string;
  planChunk(context: ChunkContext, rows: readonly ImportRowBody[]): Promise<PlannedChunk>;
  /**
   * Plans the undo of one chunk; `keepChanged` (revert): a record changed by someone since the import is left as it is
   * and answered in `kept`. The staged writes' outcome is read after the batch commits.
   */
  planUndo(unit: TenantUnit, chunk: ChunkRecord, keepChanged: boolean): Promise<{ stage(batch: WriteBatch): () => UndoneChunk }>;
  /** After a chunk or its undo committed (e.g. cached lookups retired). */
  afterCommit?(platform: Platform, scope: TenantScope): Promise<void>;
}
