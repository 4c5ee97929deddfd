/**
 * A revert runs in durable steps of its own (src/services/imports/revert-steps.ts): a Deno server killed mid-revert
 * (SIGKILL, as a crash) leaves it Undoing; a new server on the same data resumes the run at its first step not
 * completed, and the revert ends with every record the import created deleted once (one `deleted` event each).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SignJWT } from 'jose';
import { afterAll, expect, it } from 'vitest';
import { DENO_TEST_JWT_SECRET, launchDenoServer } from '../deno/server.js';
import type { DenoTestServer } from '../deno/server.js';

/** 40 chunks of 500: the revert takes several steps (20 chunks each at most). */
const ROWS = 20_000;
const directory = mkdtempSync(join(tmpdir(), 'erp-deno-revert-'));
let server: DenoTestServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(directory, { recursive: true, force: true });
});

interface ImportRead {
  importDataState: number;
  rowsCreated: number;
  undoState: number | null;
  rowsUndone: number | null;
  revertResult: { revertedTypeMessage: number; message: string } | null;
  key: number;
}

it('resumes a revert after the server is killed mid-revert: every record deleted once', async () => {
  const tenant = `revert-${crypto.randomUUID().slice(0, 8)}`;
  const base = `/api/${tenant}/o1`;
  const token = await new SignJWT({ scope: 'application admin', orgs: [`${tenant}/o1`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('revert-admin')
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(DENO_TEST_JWT_SECRET));
  const call = async (method: string, path: string, body?: string, type = 'application/json') => {
    const response = await fetch(`${server?.baseUrl}${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      ...(body === undefined ? {} : { body }),
    });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
  };
  const readImport = async (id: string) => (await call('GET', `/corePatterns/importDataInfos/${id}`)).body as ImportRead;
  const waitFor = async (id: string, done: (row: ImportRead) => boolean) => {
    for (;;) {
      const row = await readImport(id);
      if (done(row)) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  server = await launchDenoServer({}, directory);
  expect((await call('PUT', '/referenceData/companies', JSON.stringify([{ key: 'C1', name: 'One', baseCurrency: 'EUR' }]))).status).toBe(
    200,
  );
  const csv = `routeKey,description,company\n${Array.from({ length: ROWS }, (_, index) => `R${index},Route ${index},C1`).join('\n')}\n`;
  const uploaded = await call('POST', '/corePatterns/importDataInfos/files?importDataTemplate=routes', csv, 'text/csv');
  expect(uploaded.status).toBe(202);
  const id = (uploaded.body as { id: string }).id;
  expect(await waitFor(id, (row) => row.importDataState >= 3)).toMatchObject({ importDataState: 3, rowsCreated: ROWS });

  const revert = await call('POST', '/corePatterns/importDataInfos/revertImportFile', JSON.stringify({ templateKey: 'routes' }));
  expect(revert.body).toMatchObject({ revertedTypeMessage: 1 });
  // Killed once a step has reported records undone, before the last one.
  const midway = await waitFor(id, (row) => (row.rowsUndone ?? 0) > 0 || row.undoState === 2);
  expect(midway.undoState, 'the revert ended before the server could be killed').toBe(1);
  await server.kill();

  server = await launchDenoServer({}, directory);
  const undone = await waitFor(id, (row) => row.undoState === 2);
  expect(undone.revertResult).toEqual({
    revertedTypeMessage: 1,
    message: `Import ${undone.key} of template 'routes' was reverted. ${ROWS} record(s) it created were deleted.`,
  });
  expect(undone.rowsUndone).toBe(ROWS);
  const left = await call('GET', '/assetManagementCore/routes/odata?$count=true&$top=0');
  expect((left.body as { count: number }).count).toBe(0);
  let deleted = 0;
  let next: string | undefined = '/changes?resource=assetManagementCore/routes&$top=1000';
  while (next) {
    const page = (await call('GET', next)).body as { items: { changeType: string }[]; nextPageLink?: string };
    deleted += page.items.filter((item) => item.changeType === 'deleted').length;
    next = page.nextPageLink ? `/changes${new URL(page.nextPageLink).search}` : undefined;
  }
  expect(deleted).toBe(ROWS);
}, 600_000);
