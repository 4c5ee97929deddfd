/**
 * Every file format resumes where it stopped: a first run's step writes its chunks and loses its result (as when the
 * runtime restarts before the step is recorded), mid-file (the file has more chunks than a step takes); the next run
 * goes on from the last chunk's end offset in the ledger, one ranged read from that byte (CSV, NDJSON, JSON; a .xlsx
 * through the CSV of its sheet), every row written once. The durable steps are driven here (the import's Workflow is
 * not started), over the real bindings.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { app } from '../../src/app';
import { buildWorkerPlatform } from '../../src/runtime/cloudflare/platform';
import type { FileStore, ImportJob, Platform, RunStep } from '../../src/runtime/platform';
import { processImport } from '../../src/services/registry';
import { TENANT_MODEL } from '../../src/tenant-model';
import { ORIGIN } from '../helpers/api';
import type { TenantClient } from '../helpers/api';
import type { FileImport } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

/** 21 chunks of 500: more than a step takes (20 at most). */
const ROWS = 10_250;
const HEADER = ['routeKey', 'description', 'company'];

function buildRows(format: string): string[][] {
  return Array.from({ length: ROWS }, (_, index) => [`${format}-${index}`, `Route ${index}, "quoted" é€`, 'C1']);
}

function xmlText(value: string): string {
  return value.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
}

/** A workbook whose first sheet holds `rows` under HEADER as inline strings. */
function buildWorkbook(rows: readonly string[][]): Uint8Array {
  const cells = (cellsOfRow: readonly string[], row: number) =>
    cellsOfRow
      .map((cell, column) => `<c r="${String.fromCharCode(65 + column)}${row}" t="inlineStr"><is><t>${xmlText(cell)}</t></is></c>`)
      .join('');
  const sheetRows = [HEADER, ...rows].map((cellsOfRow, index) => `<row r="${index + 1}">${cells(cellsOfRow, index + 1)}</row>`).join('');
  const sheet = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetRows}</sheetData></worksheet>`;
  return zipSync({ '[Content_Types].xml': strToU8('<Types/>'), 'xl/worksheets/sheet1.xml': strToU8(sheet) });
}

/** The file of each format and its Content-Type. */
function buildFile(format: 'csv' | 'ndjson' | 'json' | 'xlsx'): { body: string | Uint8Array; type: string } {
  const rows = buildRows(format);
  const objects = rows.map(([routeKey, description, company]) => ({ routeKey, description, company }));
  switch (format) {
    case 'csv':
      return {
        body: `${HEADER.join(',')}\n${rows.map((row) => row.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(',')).join('\n')}\n`,
        type: 'text/csv',
      };
    case 'ndjson':
      return { body: `${objects.map((item) => JSON.stringify(item)).join('\n')}\n`, type: 'application/x-ndjson' };
    case 'json':
      return { body: JSON.stringify(objects, null, 1), type: 'application/json' };
    case 'xlsx':
      return { body: buildWorkbook(rows), type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' };
  }
}

/** A durable runtime's steps: a step's result kept by name; `cutAfter`: that step's work runs, its result is lost. */
function buildSteps(done: Map<string, unknown>, cutAfter?: string) {
  const run: RunStep = async (name, work) => {
    if (done.has(name)) return done.get(name) as Awaited<ReturnType<typeof work>>;
    const result = await work();
    if (name === cutAfter) throw new Error(`cut after ${name}`);
    done.set(name, result);
    return result;
  };
  return { run, sleep: async () => undefined };
}

/** The file store of `platform`, every read noted. */
function watchFiles(files: FileStore, reads: [string, number][]): FileStore {
  return {
    ...files,
    read: async (key, offset = 0) => {
      reads.push([key, offset]);
      return files.read(key, offset);
    },
  };
}

async function upload(client: TenantClient, platform: Platform, file: { body: string | Uint8Array; type: string }): Promise<FileImport> {
  const request = new Request(`${ORIGIN}${client.base}${IMPORTS}/files?importDataTemplate=routes`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': file.type, 'content-disposition': 'attachment; filename="routes"' },
    body: file.body,
  });
  const response = await app.fetch(request, platform);
  expect(response.status, await response.clone().text()).toBe(202);
  return response.json<FileImport>();
}

describe('a file import cut mid-file', () => {
  for (const format of ['csv', 'ndjson', 'json', 'xlsx'] as const) {
    it(`${format}: goes on from the last chunk's end offset (a ranged read), every row written once`, async () => {
      const client = await freshTenant('resume');
      expect(
        (await client.call('PUT', '/referenceData/companies', { body: [{ key: 'C1', name: 'One', baseCurrency: 'EUR' }] })).status,
      ).toBe(200);
      const ctx = createExecutionContext();
      const jobs: ImportJob[] = [];
      const reads: [string, number][] = [];
      const file = buildFile(format);
      // The records' file: the upload itself, or a workbook's sheet as CSV (src/services/imports/sources.ts).
      const records = (key: string) => (format === 'xlsx' ? key.endsWith('.rows.csv') : !key.endsWith('.rows.csv'));
      const base = buildWorkerPlatform(env, ctx, TENANT_MODEL);
      const platform: Platform = { ...base, files: watchFiles(base.files, reads), imports: { start: async (job) => void jobs.push(job) } };
      const started = await upload(client, platform, file);
      const job = jobs[0];
      if (!job) throw new Error('The import was not started.');
      const done = new Map<string, unknown>();
      await expect(processImport(buildSteps(done, 'slice 0'), platform, job)).rejects.toThrow('cut after slice 0');
      const db = await openClientD1(client);
      const ledger = async () =>
        (
          await db
            .prepare(
              'SELECT chunk_index, end_offset, end_row FROM import_chunks WHERE tenant_key = ? AND org_key = ? AND import_id = ? ORDER BY chunk_index',
            )
            .bind(client.tenant, client.org, started.id)
            .all<{ chunk_index: number; end_offset: number; end_row: number }>()
        ).results;
      const before = await ledger();
      expect(before.length, 'chunks written before the cut').toBeGreaterThan(0);
      expect(before.length).toBeLessThan(ROWS / 500);
      const stop = before.at(-1);
      reads.length = 0;
      await processImport(buildSteps(done), platform, job);
      await waitOnExecutionContext(ctx);
      // The resumed step read the records from the byte after the last chunk's last record.
      expect(reads.filter(([key]) => records(key)).map(([, offset]) => offset)).toContain(stop?.end_offset);
      expect(reads.some(([key, offset]) => records(key) && offset > 0 && offset < (stop?.end_offset ?? 0))).toBe(false);
      const after = await ledger();
      expect(after.map((chunk) => chunk.chunk_index)).toEqual(Array.from({ length: 21 }, (_, index) => index));
      expect(after.every((chunk, index) => chunk.end_offset > (after[index - 1]?.end_offset ?? 0))).toBe(true);
      const read = await client.call<FileImport>('GET', `${IMPORTS}/${started.id}`);
      expect(read.body).toMatchObject({ importDataState: 3, rowsRead: ROWS, rowsCreated: ROWS, rowsFailed: 0 });
      const stored = await db
        .prepare('SELECT count(*) AS n, count(DISTINCT route_key) AS keys FROM routes WHERE tenant_key = ? AND org_key = ?')
        .bind(client.tenant, client.org)
        .first<{ n: number; keys: number }>();
      expect(stored).toEqual({ n: ROWS, keys: ROWS });
      const sample = await client.call<{ description: string }>('GET', `/assetManagementCore/routes/C1/${format}-1234`);
      expect(sample.body.description).toBe('Route 1234, "quoted" é€');
    });
  }
});
