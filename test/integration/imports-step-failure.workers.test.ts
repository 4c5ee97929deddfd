/**
 * A file import whose step fails on every retry of its runtime (StepFailed: a Workflow's step.do after its retries,
 * the Deno runner's likewise) ends Fatal naming why, what it wrote undone, its slot freed: it never stays Processing.
 * The durable steps are driven here (the import's Workflow is not started), over the real bindings.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { app } from '../../src/app';
import { buildWorkerPlatform } from '../../src/runtime/cloudflare/platform';
import { StepFailed } from '../../src/runtime/platform';
import type { ImportJob, Platform, RunStep } from '../../src/runtime/platform';
import { processImport } from '../../src/services/registry';
import { TENANT_MODEL } from '../../src/tenant-model';
import { ORIGIN } from '../helpers/api';
import type { FileImport } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';

describe('a file import whose step keeps failing', () => {
  it('ends Fatal (a step failed 6 times), what it wrote undone, and frees its slot', { timeout: 120_000 }, async () => {
    const client = await freshTenant('imp');
    const ctx = createExecutionContext();
    const jobs: ImportJob[] = [];
    const platform: Platform = { ...buildWorkerPlatform(env, ctx, TENANT_MODEL), imports: { start: async (job) => void jobs.push(job) } };
    // More than a step's 20 chunks of 500: the first step writes up to 10,000 rows (fewer when its 2.5 s end first).
    const rows = Array.from({ length: 10_100 }, (_, index) => `k${index},S,HTML,B,en-US`);
    const request = new Request(`${ORIGIN}${client.base}${IMPORTS}/files?importDataTemplate=emailTemplates`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.token}`, 'content-type': 'text/csv' },
      body: `templateKey,subject,emailTemplateType,notificationBody,culture\n${rows.join('\n')}\n`,
    });
    const response = await app.fetch(request, platform);
    expect(response.status).toBe(202);
    const started = await response.json<FileImport>();
    const job = jobs[0];
    if (!job) throw new Error('The import was not started.');
    // The first slice runs (and writes its chunks); the second fails for good, as a runtime reports it.
    const run: RunStep = async (name, work) => {
      if (name === 'slice 1') throw new StepFailed(name, new Error('D1_ERROR: network connection lost'));
      return work();
    };
    await processImport({ run, sleep: async () => undefined }, platform, job);
    await waitOnExecutionContext(ctx);
    const read = await client.call<FileImport>('GET', `${IMPORTS}/${started.id}`);
    expect(read.body.importDataState).toBe(5);
    expect(read.body.error).toBe('Processing stopped: a step failed 6 times (D1_ERROR: network connection lost)');
    expect(read.body.detailLog).toContain('nothing left written');
    const created = read.body.rowsCreated ?? 0;
    expect([created > 0, created % 500, created <= 10_000]).toEqual([true, 0, true]);
    const list = await client.call<{ items: unknown[] }>('GET', '/operations/emailTemplates/odata?$top=5');
    expect(list.body.items).toEqual([]);
  });
});
