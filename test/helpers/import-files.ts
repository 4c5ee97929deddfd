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

/** POST revertImportFile of a template. */
export async function revertTemplate(client: TenantClient, templateKey: string): Promise<{ revertedTypeMessage: number; message: string }> {
  const revert = await client.call<{ revertedTypeMessage: number; message: string }>('POST', `${IMPORTS}/revertImportFile`, {
    body: { templateKey },
  });
  expect(revert.status, revert.text).toBe(200);
  return revert.body;
}
