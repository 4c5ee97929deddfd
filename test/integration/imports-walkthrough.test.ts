/**
 * The import walk-through of docs/api-reference.md ("Processing, progress, failures, cancel and revert"), step by step:
 * a create import with a failed row, an upsert of the record it created, then both reverted, newest first. Undoing
 * the upsert gives the record its values back under a version of its own; that is no change, so the first import's
 * revert still deletes the record and answers Information. A record someone did change is left, named by its key.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { revertTemplate, uploadCsv, waitForImportEnd } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { ROUTES, seedRouteReferenceData } from '../helpers/routes';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';
const HEADER = 'templateKey,subject,emailTemplateType,notificationBody,culture\n';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('walk');
});

async function importCsv(query: string, csv: string) {
  return waitForImportEnd(client, (await uploadCsv(client, query, csv)).id);
}

describe('the import walk-through of the docs', () => {
  it('creates, upserts and reverts both as documented: Information each time, the record gone', async () => {
    const first = await importCsv(
      'importDataTemplate=emailTemplates',
      `${HEADER}welcome,Hello {{name}},HTML,Hi,pt-PT\nbroken,Hi,Nope,Hi,pt-PT\n`,
    );
    expect(first).toMatchObject({ importDataState: 3, rowsRead: 2, rowsCreated: 1, rowsFailed: 1 });
    const failures = await client.call<string>('GET', `${IMPORTS}/${first.id}/failures`);
    expect(failures.text).toContain('3,emailTemplateType,"emailTemplateType must be one of HTML (1), Text (2)",broken');
    const upsert = await importCsv('importDataTemplate=emailTemplates&mode=upsert', `${HEADER}welcome,Hello again,HTML,Hi,pt-PT\n`);
    expect(upsert).toMatchObject({ importDataState: 3, rowsCreated: 0, rowsUpdated: 1 });
    expect((await client.call<{ subject: string }>('GET', `${TEMPLATES}/welcome`)).body.subject).toBe('Hello again');

    const undoUpsert = await revertTemplate(client, 'emailTemplates');
    expect(undoUpsert).toEqual({
      revertedTypeMessage: 1,
      message: `Import ${upsert.key} (import.csv) of template 'emailTemplates' was reverted. 0 record(s) it created were deleted, 1 it updated got their values back.`,
    });
    const restored = await client.call<{ subject: string; version: number }>('GET', `${TEMPLATES}/welcome`);
    expect([restored.body.subject, restored.body.version]).toEqual(['Hello {{name}}', 3]);
    const undoFirst = await revertTemplate(client, 'emailTemplates');
    expect(undoFirst).toEqual({
      revertedTypeMessage: 1,
      message: `Import ${first.key} (import.csv) of template 'emailTemplates' was reverted. 1 record(s) it created were deleted.`,
    });
    expect((await client.call('GET', `${TEMPLATES}/welcome`)).status).toBe(404);
  });

  it('leaves a record changed since, after the later import was undone, and names it by its key', async () => {
    await importCsv('importDataTemplate=emailTemplates', `${HEADER}kept,One,Text,Hi,en-US\ngone,Two,Text,Hi,en-US\n`);
    await importCsv('importDataTemplate=emailTemplates&mode=upsert', `${HEADER}kept,Three,Text,Hi,en-US\ngone,Four,Text,Hi,en-US\n`);
    expect((await revertTemplate(client, 'emailTemplates')).revertedTypeMessage).toBe(1);
    expect((await client.call('PUT', `${TEMPLATES}/kept/subject`, { body: 'Changed by hand' })).status).toBe(200);
    const revert = await revertTemplate(client, 'emailTemplates');
    expect(revert.revertedTypeMessage).toBe(2);
    expect(revert.message).toContain(
      "1 record(s) it created were deleted. 1 record(s) changed since the import were left as they are: emailTemplates 'kept'.",
    );
    expect((await client.call<{ subject: string }>('GET', `${TEMPLATES}/kept`)).body.subject).toBe('Changed by hand');
    expect((await client.call('GET', `${TEMPLATES}/gone`)).status).toBe(404);
  });

  it('follows undone upserts that changed attributes and members, over several imports', async () => {
    await seedRouteReferenceData(client);
    const header = 'routeKey,description,company,locations\n';
    await importCsv('importDataTemplate=routes', `${header}W1,One,C1,L1\n`);
    await importCsv('importDataTemplate=routes&mode=upsert', `${header}W1,Two,C1,L2\n`);
    await importCsv('importDataTemplate=routes&mode=upsert', `${header}W1,Three,C1,\n`);
    for (let revert = 0; revert < 2; revert += 1) expect((await revertTemplate(client, 'routes')).revertedTypeMessage).toBe(1);
    const route = await client.call<{ description: string; locations: { key: string }[] }>('GET', `${ROUTES}/C1/W1`);
    expect([route.body.description, route.body.locations.map((location) => location.key)]).toEqual(['One', ['L1']]);
    const last = await revertTemplate(client, 'routes');
    expect(last.message, last.message).toContain('1 record(s) it created were deleted.');
    expect(last.revertedTypeMessage).toBe(1);
    expect((await client.call('GET', `${ROUTES}/C1/W1`)).status).toBe(404);
  });
});
