/**
 * GET /{id}/failures, streamed: the chunk ledger's failures read PAGE_CHUNKS ledger rows at a time, twice (the columns
 * first, then the lines), so an import of any size answers its failures without holding them whole; at most
 * MAX_FAILURE_COLUMNS value columns (the first ones met), so no line grows with the number of rows.
 */
import { and, asc, eq, gt } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { Database, TenantScope } from '../../db/client';
import type { Language } from '../../messages/language';
import { encodeFailedRow, encodeFailuresHeader } from './files/failures-csv';
import type { FailedRow } from './files/failures-csv';
import { MAX_ROW_CELLS } from './files/limits';
import { importChunks } from './table';

const PAGE_CHUNKS = 16;
/** The value columns of the failures CSV: a row's cells at most. */
const MAX_FAILURE_COLUMNS = MAX_ROW_CELLS;

/** The failed rows of each ledger row of the import, in chunk order, a page of ledger rows at a time. */
async function* readFailedRows(db: Database, scope: TenantScope, importId: string): AsyncGenerator<FailedRow[]> {
  for (let after = -1; ;) {
    const page = await db
      .select({ chunkIndex: importChunks.chunkIndex, failures: importChunks.failures })
      .from(importChunks)
      .where(and(scopeCondition(importChunks, scope), eq(importChunks.importId, importId), gt(importChunks.chunkIndex, after)))
      .orderBy(asc(importChunks.chunkIndex))
      .limit(PAGE_CHUNKS);
    for (const chunk of page) yield JSON.parse(chunk.failures) as FailedRow[];
    const last = page.at(-1);
    if (!last || page.length < PAGE_CHUNKS) return;
    after = last.chunkIndex;
  }
}

async function listColumns(db: Database, scope: TenantScope, importId: string): Promise<string[]> {
  const columns = new Set<string>();
  for await (const rows of readFailedRows(db, scope, importId)) {
    for (const row of rows) {
      for (const name of Object.keys(row.values)) if (columns.size < MAX_FAILURE_COLUMNS) columns.add(name);
    }
  }
  return [...columns];
}

/** The failures CSV of an import as a stream of UTF-8 bytes (its header line, then one line per problem). */
export async function streamFailuresCsv(
  db: Database,
  scope: TenantScope,
  importId: string,
  language: Language,
): Promise<ReadableStream<Uint8Array>> {
  const columns = await listColumns(db, scope, importId);
  const encoder = new TextEncoder();
  const lines = readFailedRows(db, scope, importId);
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(encodeFailuresHeader(columns)));
        return;
      }
      const next = await lines.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map((row) => encodeFailedRow(row, columns, language)).join('')));
    },
    cancel: async () => {
      await lines.return(undefined);
    },
  });
}
