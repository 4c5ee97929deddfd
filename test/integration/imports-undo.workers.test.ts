/**
 * Revert and cancel run in durable steps (src/services/imports/undo-steps.ts): answered at once, then undone chunk by
 * chunk by a run. The steps are driven here (the Workflow is not started), over the real bindings: a revert whose step
 * lost its result (a restart) goes on and still names the records changed since; a cancel mid-import is undone by the
 * import's own run.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { app } from '../../src/app';
import { buildWorkerPlatform } from '../../src/runtime/cloudflare/platform';
import type { ImportJob, Platform, RunStep } from '../../src/runtime/platform';
import { processImport } from '../../src/services/registry';
import { TENANT_MODEL } from '../../src/tenant-model';
import { ORIGIN } from '../helpers/api';
import type { TenantClient } from '../helpers/api';
import { readAllChanges } from '../helpers/events';
import { readRevertLocation } from '../helpers/import-files';
import type { RevertedImport, RevertImport } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';

/** A durable runtime's steps: results kept by name; `cutAfter` loses that step's result; `after` runs once a step ends. */
function buildSteps(done: Map<string, unknown>, options: { cutAfter?: string; after?: Record<string, () => Promise<void>> } = {}) {
  const run: RunStep = async (name, work) => {
    if (done.has(name)) return done.get(name) as Awaited<ReturnType<typeof work>>;
    const result = await work();
    if (name === options.cutAfter) throw new Error(`cut after ${name}`);
    done.set(name, result);
    await options.after?.[name]?.();
    return result;
  };
  return { run, sleep: async () => undefined };
}

async function send(client: TenantClient, platform: Platform, method: string, path: string, body?: string, type = 'application/json') {
  const request = new Request(`${ORIGIN}${client.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${client.token}`, 'content-type': type },
    ...(body === undefined ? {} : { body }),
  });
  const response = await app.fetch(request, platform);
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) };
}

function routesCsv(prefix: string, rows: number): string {
  return `routeKey,description,company\n${Array.from({ length: rows }, (_, index) => `${prefix}${index},Route ${index},C1`).join('\n')}\n`;
}

async function setUp() {
  const client = await freshTenant('undo');
  expect((await client.call('PUT', '/referenceData/companies', { body: [{ key: 'C1', name: 'One', baseCurrency: 'EUR' }] })).status).toBe(
    200,
  );
  const ctx = createExecutionContext();
  const jobs: ImportJob[] = [];
  const platform: Platform = { ...buildWorkerPlatform(env, ctx, TENANT_MODEL), imports: { start: async (job) => void jobs.push(job) } };
  return { client, ctx, jobs, platform };
}

describe('revert and cancel in durable steps', () => {
  it('a revert whose step lost its result goes on: every record once, those changed since left and named', async () => {
    const { client, ctx, jobs, platform } = await setUp();
    const uploaded = await send(client, platform, 'POST', `${IMPORTS}/files?importDataTemplate=routes`, routesCsv('V', 1_200), 'text/csv');
    expect(uploaded.status).toBe(202);
    const importJob = jobs.shift();
    if (!importJob) throw new Error('The import was not started.');
    await processImport(buildSteps(new Map()), platform, importJob);
    const changed = ['V7', 'V1100'];
    for (const key of changed)
      expect((await client.call('PUT', `/assetManagementCore/routes/C1/${key}/description`, { body: { value: 'Mine' } })).status).toBe(200);

    const revert = await send(client, platform, 'POST', `${IMPORTS}/revertImportFile`, JSON.stringify({ templateKey: 'routes' }));
    expect(revert.body).toMatchObject({ revertedTypeMessage: 1 });
    expect(readRevertLocation(revert.body as RevertImport)).toBeDefined();
    const revertJob = jobs.shift();
    expect(revertJob).toMatchObject({ task: 'revert', importId: importJob.importId });
    if (!revertJob) return;
    const running = await client.call<RevertedImport>('GET', `${IMPORTS}/${importJob.importId}`);
    expect(running.body).toMatchObject({ reverted: true, undoState: 1, rowsUndone: 0, revertResult: null });

    const done = new Map<string, unknown>();
    await expect(processImport(buildSteps(done, { cutAfter: 'revert 0' }), platform, revertJob)).rejects.toThrow('cut after revert 0');
    await processImport(buildSteps(done), platform, revertJob);
    await waitOnExecutionContext(ctx);
    const undone = await client.call<RevertedImport>('GET', `${IMPORTS}/${importJob.importId}`);
    expect(undone.body).toMatchObject({ undoState: 2, rowsUndone: 1_198 });
    expect(undone.body.revertResult).toEqual({
      revertedTypeMessage: 2,
      message:
        `Import ${undone.body.key} of template 'routes' was reverted. 1198 record(s) it created were deleted. ` +
        `2 record(s) changed since the import were left as they are: ${changed.map((key) => `routes 'C1/${key}'`).join(', ')}.`,
    });
    const events = await readAllChanges(client, 'assetManagementCore/routes');
    expect(events.filter((event) => event.changeType === 'deleted')).toHaveLength(1_198);
    for (const key of changed) expect((await client.call('GET', `/assetManagementCore/routes/C1/${key}`)).status).toBe(200);
  });

  it('a cancel mid-import answers at once (Failed, undoState 1); the import run undoes what it wrote, then says so', async () => {
    const { client, ctx, jobs, platform } = await setUp();
    // 21 chunks: the first step takes 20 at most, the cancel comes after it.
    const uploaded = await send(client, platform, 'POST', `${IMPORTS}/files?importDataTemplate=routes`, routesCsv('K', 10_250), 'text/csv');
    const job = jobs.shift();
    if (!job) throw new Error('The import was not started.');
    const id = (uploaded.body as { id: string }).id;
    let cancelled: unknown;
    const cancel = async () => {
      cancelled = (await send(client, platform, 'POST', `${IMPORTS}/${id}/cancel`)).body;
    };
    await processImport(buildSteps(new Map(), { after: { 'slice 0': cancel } }), platform, job);
    await waitOnExecutionContext(ctx);
    expect(cancelled).toMatchObject({
      importDataState: 4,
      undoState: 1,
      rowsUndone: 0,
      detailLog: expect.stringMatching(/^Cancelled: what it wrote is being undone/),
    });
    expect((cancelled as { rowsCreated: number }).rowsCreated).toBeGreaterThan(0);
    const ended = await client.call<RevertedImport>('GET', `${IMPORTS}/${id}`);
    expect(ended.body).toMatchObject({ importDataState: 4, undoState: 2, detailLog: 'Cancelled: nothing left written.' });
    await expectAllUndone(client, ended.body);
  });

  it('changeDataImport to Failed on a running file import: its run undoes what it wrote (the client detailLog kept)', async () => {
    const { client, ctx, jobs, platform } = await setUp();
    const uploaded = await send(client, platform, 'POST', `${IMPORTS}/files?importDataTemplate=routes`, routesCsv('F', 10_250), 'text/csv');
    const job = jobs.shift();
    if (!job) throw new Error('The import was not started.');
    const id = (uploaded.body as { id: string }).id;
    const fail = async () => {
      const body = JSON.stringify({ importId: id, importDataState: 4, detailLog: 'Stopped by the operator' });
      expect((await send(client, platform, 'POST', `${IMPORTS}/changeDataImport`, body)).status).toBe(200);
      const read = await client.call<RevertedImport>('GET', `${IMPORTS}/${id}`);
      expect(read.body).toMatchObject({ importDataState: 4, undoState: 1, rowsUndone: 0 });
    };
    await processImport(buildSteps(new Map(), { after: { 'slice 0': fail } }), platform, job);
    await waitOnExecutionContext(ctx);
    const ended = await client.call<RevertedImport>('GET', `${IMPORTS}/${id}`);
    expect(ended.body).toMatchObject({ importDataState: 4, undoState: 2, detailLog: 'Stopped by the operator' });
    await expectAllUndone(client, ended.body);
  });
});

/** Every route the import created is deleted (one `deleted` event each), and rowsUndone counts them. */
async function expectAllUndone(client: TenantClient, ended: RevertedImport): Promise<void> {
  const events = await readAllChanges(client, 'assetManagementCore/routes');
  const created = events.filter((event) => event.changeType === 'created').length;
  expect(created).toBeGreaterThan(0);
  expect(events.filter((event) => event.changeType === 'deleted')).toHaveLength(created);
  expect(ended.rowsUndone).toBe(created);
  const left = await client.call<{ count: number }>('GET', '/assetManagementCore/routes/odata?$count=true&$top=0');
  expect(left.body.count).toBe(0);
}
