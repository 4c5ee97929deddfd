import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { app } from '../../src/app';
import { buildWorkerPlatform } from '../../src/runtime/cloudflare/platform';
import { TENANT_MODEL } from '../../src/tenant-model';
import { ORIGIN } from '../helpers/api';
import type { TenantClient } from '../helpers/api';
import { changeImport, IMPORTS, readHistory, readImport, registerImportIn } from '../helpers/imports';
import type { ImportResource } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('acme');
});

/** validateImportDataState through the Worker's app with the platform clock set to `now` (real D1 and DO). */
async function validateAt(id: string, now: Date): Promise<ImportResource> {
  const ctx = createExecutionContext();
  const platform = { ...buildWorkerPlatform(env, ctx, TENANT_MODEL), now: () => now };
  const request = new Request(`${ORIGIN}${client.base}${IMPORTS}/validateImportDataState?id=${id}`, {
    headers: { authorization: `Bearer ${client.token}` },
  });
  const response = await app.fetch(request, platform);
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(200);
  return response.json<ImportResource>();
}

describe('validateImportDataState with an injected clock', () => {
  it('marks Fatal a Processing import exactly when its last progress is 30 minutes old', async () => {
    const id = await registerImportIn(client, 2);
    const last = (await readImport(client, id)).lastProgressUpdateOn ?? '';
    const before = await validateAt(id, new Date(Date.parse(last) + 30 * 60 * 1000 - 1));
    expect(before).toMatchObject({ importDataState: 2, version: 2 });
    const after = await validateAt(id, new Date(Date.parse(last) + 30 * 60 * 1000));
    expect(after).toMatchObject({ importDataState: 5, version: 3, lastProgressUpdateOn: last });
    expect(after.error).toContain('30 minutes');
    expect((await readHistory(client, id)).at(-1)).toMatchObject({ seq: 3, kind: 'expire', fromState: 2, toState: 5 });
    expect((await changeImport(client, { importId: id, importDataState: 3 })).status).toBe(400);
  });

  it('counts from the latest progress, not from the start', async () => {
    const id = await registerImportIn(client, 2);
    const started = (await readImport(client, id)).lastProgressUpdateOn ?? '';
    expect((await changeImport(client, { importId: id, detailLog: 'still going' })).status).toBe(200);
    const progressed = (await readImport(client, id)).lastProgressUpdateOn ?? '';
    const at = new Date(Date.parse(started) + 30 * 60 * 1000);
    const expected = Date.parse(progressed) + 30 * 60 * 1000 <= at.getTime() ? 5 : 2;
    expect((await validateAt(id, at)).importDataState).toBe(expected);
    expect((await validateAt(id, new Date(Date.parse(progressed) + 30 * 60 * 1000))).importDataState).toBe(5);
  });
});
