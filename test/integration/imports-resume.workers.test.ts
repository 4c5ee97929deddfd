/**
 * A file import whose step was cut short after it wrote (the runtime lost the step's result) runs that step again:
 * it resumes after the last chunk in the ledger and writes nothing twice. The durable steps are driven here (the
 * import's Workflow is not started), over the real bindings; a JSON file, so the resumed read skips the rows the
 * ledger counts (chunks of writer templates vary in size).
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
import type { FileImport } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { kpiReferenceData } from '../helpers/indicators';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

/** A durable runtime's steps: a step's result is kept by name; `cutAfter`: that step's work runs, its result is lost. */
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

async function upload(client: TenantClient, platform: Platform, body: string): Promise<FileImport> {
  const request = new Request(`${ORIGIN}${client.base}${IMPORTS}/files?importDataTemplate=kpiMeasurements`, {
    method: 'POST',
    headers: { authorization: `Bearer ${client.token}`, 'content-type': 'application/json' },
    body,
  });
  const response = await app.fetch(request, platform);
  expect(response.status, await response.clone().text()).toBe(202);
  return response.json<FileImport>();
}

describe('a resumed file import', () => {
  it('runs a step cut short again from the ledger: every row once, counts once', async () => {
    const client = await freshTenant('imp');
    await kpiReferenceData(client);
    const ctx = createExecutionContext();
    const jobs: ImportJob[] = [];
    const platform: Platform = { ...buildWorkerPlatform(env, ctx, TENANT_MODEL), imports: { start: async (job) => void jobs.push(job) } };
    // 25 chunks of 500: a step writes 20, the next one the last 5.
    const items = Array.from({ length: 12_345 }, (_, index) => ({
      company: index % 2 === 0 ? 'ACME-PT' : 'ACME-US',
      code: 'COST',
      date: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(),
      value: index,
    }));
    const started = await upload(client, platform, JSON.stringify(items));
    const job = jobs[0];
    if (!job) throw new Error('The import was not started.');
    const done = new Map<string, unknown>();
    await expect(processImport(buildSteps(done, 'slice 0'), platform, job)).rejects.toThrow('cut after slice 0');
    await processImport(buildSteps(done), platform, job);
    await waitOnExecutionContext(ctx);
    const read = await client.call<FileImport>('GET', `${IMPORTS}/${started.id}`);
    expect(read.body).toMatchObject({ importDataState: 3, rowsRead: 12_345, rowsCreated: 12_345, rowsFailed: 0 });
    const db = await openClientD1(client);
    const stored = await db
      .prepare(
        'SELECT count(*) AS n, count(DISTINCT measured_at) AS distinctDates, sum(value_micros) AS total FROM kpi_measurements WHERE tenant_key = ? AND org_key = ?',
      )
      .bind(client.tenant, client.org)
      .first<{ n: number; distinctDates: number; total: number }>();
    expect(stored).toEqual({ n: 12_345, distinctDates: 12_345, total: ((12_344 * 12_345) / 2) * 1_000_000 });
    const chunks = await db
      .prepare('SELECT count(*) AS n FROM import_chunks WHERE tenant_key = ? AND org_key = ? AND import_id = ?')
      .bind(client.tenant, client.org, started.id)
      .first<{ n: number }>();
    expect(chunks?.n).toBe(25);
  });
});
