/** What the chunk ledger (import_chunks) keeps of one chunk, and an import's counts. */
import type { FailedRow } from './files/failures-csv';
import type { MemberChange } from './member-stage';

export interface ImportCounts {
  readonly rowsRead: number;
  readonly rowsCreated: number;
  readonly rowsUpdated: number;
  readonly rowsFailed: number;
}

export const NO_COUNTS: ImportCounts = { rowsRead: 0, rowsCreated: 0, rowsUpdated: 0, rowsFailed: 0 };

/**
 * A record an upsert updated: its version after the import, the pre-import values of the attributes it changed (by
 * field, as read) and the members it added.
 */
export interface UpdatedRecord {
  readonly id: string;
  readonly version: number;
  readonly before: Readonly<Record<string, unknown>>;
  readonly members?: readonly MemberChange[];
}

export interface ChunkEntry {
  readonly importId: string;
  readonly chunkIndex: number;
  readonly counts: ImportCounts;
  readonly createdIds: readonly string[];
  /** Entity templates: UpdatedRecord; writer templates: what their writer keeps (src/resources/entities/import-writer.ts). */
  readonly updated: readonly unknown[];
  readonly failures: readonly FailedRow[];
  /** Where the next chunk starts (see import_chunks.end_offset) and the row number of this chunk's last record. */
  readonly endOffset: number;
  readonly endRow: number;
  readonly on: string;
}
