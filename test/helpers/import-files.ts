/** Helpers of the file import tests: upload a file, read the import until it has ended. */
import { expect } from 'vitest';
import type { Problem, TenantClient } from './api';
import { IMPORTS } from './imports';
import type { ImportResource } from './imports';

export interface FileImport extends ImportResource {
  rowsRead: number | null;
  rowsCreated: number | null;
  rowsUpdated: number | null;
  rowsFailed: number | null;
}

/** POST /files with a CSV body (`query`: importDataTemplate and options); expects 202. */
export async function uploadCsv(client: TenantClient, query: string, csv: string): Promise<FileImport> {
  const result = await client.call<FileImport & Problem>('POST', `${IMPORTS}/files?${query}`, {
    rawBody: csv,
    headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="import.csv"' },
  });
  expect(result.status, result.text).toBe(202);
  return result.body;
}

/** Reads the import until it has ended (Succeeded, Failed or Fatal): the processing runs apart from the request. */
export async function waitForImportEnd(client: TenantClient, id: string): Promise<FileImport> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const read = await client.call<FileImport>('GET', `${IMPORTS}/${id}`);
    expect(read.status, read.text).toBe(200);
    if (read.body.importDataState >= 3) return read.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Import ${id} did not end.`);
}

export interface RevertImport {
  revertedTypeMessage: number;
  message: string;
}

/** A file import as a revert leaves it (the undo's state, the records undone and the outcome). */
export interface RevertedImport extends FileImport {
  undoState: number | null;
  rowsUndone: number | null;
  revertResult: RevertImport | null;
}

/** The import a "being reverted" answer names (its GET URL), or undefined for an answer that is the outcome itself. */
export function readRevertLocation(answer: RevertImport): string | undefined {
  return / is being reverted: GET (\S+) shows /.exec(answer.message)?.[1];
}

/** Reads an import until its undo is done (undoState 2: Undone); the undo runs apart from the request. */
export async function waitForUndo(client: TenantClient, id: string): Promise<RevertedImport> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    const read = await client.call<RevertedImport>('GET', `${IMPORTS}/${id}`);
    expect(read.status, read.text).toBe(200);
    if (read.body.undoState === 2) return read.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`The undo of import ${id} did not end.`);
}

/**
 * POST revertImportFile of a template, and its outcome: the answer itself when there was nothing to undo, else (a file
 * import, answered at once as being reverted) the import's revertResult once its undo is done.
 */
export async function revertTemplate(client: TenantClient, templateKey: string): Promise<RevertImport> {
  const revert = await client.call<RevertImport>('POST', `${IMPORTS}/revertImportFile`, { body: { templateKey } });
  expect(revert.status, revert.text).toBe(200);
  const location = readRevertLocation(revert.body);
  if (!location) return revert.body;
  expect(revert.body.revertedTypeMessage).toBe(1);
  const id = location.split('/').at(-1) ?? '';
  const undone = await waitForUndo(client, id);
  if (!undone.revertResult) throw new Error(`Import ${id} was undone without a revertResult.`);
  return undone.revertResult;
}
