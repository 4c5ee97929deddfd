/**
 * File imports processed (the Workflow on Workers, the durable runner under Deno): records written as the API writes
 * them, counts, the failures CSV, dryRun, failOnErrors, cancel, isolation (the other templates: imports-*.test.ts).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { IMPORTS } from '../helpers/imports';
import type { ImportResource } from '../helpers/imports';
import { readAllChanges } from '../helpers/events';
import { readRevertLocation, waitForUndo } from '../helpers/import-files';
import type { RevertImport } from '../helpers/import-files';
import { freshTenant } from '../helpers/tenants';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('imp');
});

interface FileImport extends ImportResource {
  rowsRead: number | null;
  rowsCreated: number | null;
  rowsUpdated: number | null;
  rowsFailed: number | null;
}

const TEMPLATES = '/operations/emailTemplates';
const HEADER = 'templateKey,subject,emailTemplateType,notificationBody,culture,custom_channel';

async function upload(query: string, csv: string, on: TenantClient = client): Promise<FileImport> {
  const result = await on.call<FileImport & Problem>('POST', `${IMPORTS}/files?${query}`, {
    rawBody: csv,
    headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="templates.csv"' },
  });
  expect(result.status, result.text).toBe(202);
  return result.body;
}

/** Reads the import until it has ended (Succeeded, Failed or Fatal). */
async function waitForEnd(id: string, on: TenantClient = client): Promise<FileImport> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const read = await on.call<FileImport>('GET', `${IMPORTS}/${id}`);
    expect(read.status, read.text).toBe(200);
    if (read.body.importDataState >= 3) return read.body;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Import ${id} did not end.`);
}

const csv = (...rows: string[]) => `${HEADER}\n${rows.join('\n')}\n`;

describe('processing a file', () => {
  it('creates the valid rows as the API would (readable, with events), reports the others, counts and progress', async () => {
    const started = await upload(
      'importDataTemplate=emailTemplates',
      csv('welcome,Hi {{name}},HTML,Body,pt-pt,sms', 'bad,Hi,Nope,Body,pt-pt,', 'bye,Bye,Text,B,xx-zz,', 'welcome,Again,HTML,B,pt-pt,'),
    );
    const ended = await waitForEnd(started.id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 4, rowsCreated: 1, rowsUpdated: 0, rowsFailed: 3 });
    expect(ended.detailLog).toBe('4 rows read: 1 created, 0 updated, 3 failed.');
    expect(ended.lastProgressUpdateOn).not.toBeNull();
    const record = await client.call<Record<string, unknown>>('GET', `${TEMPLATES}/welcome`);
    expect(record.status, record.text).toBe(200);
    expect(record.body).toMatchObject({ templateKey: 'welcome', subject: 'Hi {{name}}', emailTemplateType: 1, custom_channel: 'sms' });
    expect((await client.call('GET', `${TEMPLATES}/bad`)).status).toBe(404);
    const events = await readAllChanges(client, 'operations/emailTemplates');
    expect(events).toMatchObject([{ changeType: 'created', key: 'welcome', recordId: record.body.id, version: 1 }]);
  });

  it('answers the failed rows as CSV, one line per problem, in the caller language', async () => {
    const started = await upload(
      'importDataTemplate=emailTemplates',
      csv('ok,S,HTML,B,pt-pt,', 'x,S,Nope,,pt-pt,=1+1', 'y,S,HTML,B,xx-zz,'),
    );
    await waitForEnd(started.id);
    const failures = await client.call<string>('GET', `${IMPORTS}/${started.id}/failures`, { headers: { 'accept-language': 'pt-PT' } });
    expect(failures.status).toBe(200);
    expect(failures.headers.get('content-type')).toContain('text/csv');
    const lines = failures.text.trim().split('\r\n');
    expect(lines[0]).toBe(`row,column,message,${HEADER}`);
    expect(lines.slice(1).map((line) => line.split(',').slice(0, 2).join(','))).toEqual([
      '3,emailTemplateType',
      '3,notificationBody',
      '4,culture',
    ]);
    expect(lines[1]).toContain("'=1+1");
  });

  it('dryRun validates every row and writes nothing', async () => {
    const started = await upload('importDataTemplate=emailTemplates&dryRun=true', csv('dry,S,HTML,B,pt-pt,', 'bad,S,Nope,B,pt-pt,'));
    const ended = await waitForEnd(started.id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 2, rowsCreated: 0, rowsFailed: 1 });
    expect(ended.detailLog).toContain('Dry run');
    expect((await client.call('GET', `${TEMPLATES}/dry`)).status).toBe(404);
  });

  it('failOnErrors: a failed row fails the import with nothing left written', async () => {
    const rows = Array.from({ length: 1200 }, (_, index) => `t${index},S,HTML,B,pt-pt,`);
    const started = await upload('importDataTemplate=emailTemplates&failOnErrors=true', csv(...rows, 'bad,S,Nope,B,pt-pt,'));
    const ended = await waitForEnd(started.id);
    expect(ended).toMatchObject({ importDataState: 4, rowsRead: 1201, rowsFailed: 1 });
    expect(ended.detailLog).toContain('failOnErrors: nothing left written.');
    expect((await client.call('GET', `${TEMPLATES}/t0`)).status).toBe(404);
    expect((await client.call('GET', `${TEMPLATES}/t1100`)).status).toBe(404);
    const count = await client.call<{ count: number }>('GET', `${TEMPLATES}/odata?$count=true&$top=1`);
    expect(count.body.count).toBe(0);
    const events = await readAllChanges(client, 'operations/emailTemplates');
    expect(events.filter((event) => event.changeType === 'created')).toHaveLength(1200);
    expect(events.filter((event) => event.changeType === 'deleted')).toHaveLength(1200);
  });

  it('imports more rows than a chunk (500) and a step (10,000 rows) in order', async () => {
    const rows = Array.from({ length: 10_600 }, (_, index) => `k${index},S,Text,B,pt-pt,`);
    const started = await upload('importDataTemplate=emailTemplates', csv(...rows));
    const ended = await waitForEnd(started.id);
    expect(ended).toMatchObject({ importDataState: 3, rowsRead: 10_600, rowsCreated: 10_600, rowsFailed: 0 });
    expect((await client.call('GET', `${TEMPLATES}/k10599`)).status).toBe(200);
  });

  it('cancel of an ended import is refused; another tenant sees neither the import nor its failures', async () => {
    const started = await upload('importDataTemplate=emailTemplates', csv('c1,S,HTML,B,pt-pt,'));
    await waitForEnd(started.id);
    const cancel = await client.call<Problem>('POST', `${IMPORTS}/${started.id}/cancel`);
    expect(cancel.status).toBe(400);
    const other = await freshTenant('imp');
    expect((await other.call('GET', `${IMPORTS}/${started.id}`)).status).toBe(404);
    expect((await other.call('GET', `${IMPORTS}/${started.id}/failures`)).status).toBe(404);
    expect((await other.call('POST', `${IMPORTS}/${started.id}/cancel`)).status).toBe(404);
  });

  it('revertImportFile deletes what the import created, leaves a record changed since (Warning, by key); twice: nothing left', async () => {
    const started = await upload(
      'importDataTemplate=emailTemplates',
      csv('r1,S,HTML,B,pt-pt,', 'r2,S,HTML,B,pt-pt,', 'r3,S,HTML,B,pt-pt,'),
    );
    await waitForEnd(started.id);
    const changed = await client.call('PUT', `${TEMPLATES}/r2/subject`, { body: { value: 'Changed' } });
    expect(changed.status, changed.text).toBeLessThan(300);
    const revert = await client.call<RevertImport>('POST', `${IMPORTS}/revertImportFile`, { body: { templateKey: 'emailTemplates' } });
    expect(revert.status, revert.text).toBe(200);
    // Answered at once: the undo runs in durable steps of its own; the import says where it is, then how it ended.
    expect(revert.body.revertedTypeMessage).toBe(1);
    expect(readRevertLocation(revert.body)?.endsWith(`${client.base}${IMPORTS}/${started.id}`)).toBe(true);
    const undone = await waitForUndo(client, started.id);
    expect((await client.call('GET', `${TEMPLATES}/r2`)).status).toBe(200);
    expect(undone).toMatchObject({ reverted: true, undoState: 2, rowsUndone: 2 });
    expect(undone.revertResult).toEqual({
      revertedTypeMessage: 2,
      message: `Import ${started.key} (templates.csv) of template 'emailTemplates' was reverted. 2 record(s) it created were deleted. 1 record(s) changed since the import were left as they are: emailTemplates 'r2'.`,
    });
    expect((await client.call('GET', `${TEMPLATES}/r1`)).status).toBe(404);
    expect((await client.call('GET', `${TEMPLATES}/r3`)).status).toBe(404);
    const again = await client.call<{ revertedTypeMessage: number }>('POST', `${IMPORTS}/revertImportFile`, {
      body: { templateKey: 'emailTemplates' },
    });
    expect(again.body.revertedTypeMessage).toBe(2);
    expect((await client.call('GET', `${TEMPLATES}/r2`)).status).toBe(200);
    const deletedEvents = (await readAllChanges(client, 'operations/emailTemplates')).filter((event) => event.changeType === 'deleted');
    expect(deletedEvents.map((event) => event.key).sort()).toEqual(['r1', 'r3']);
  });

  it('runs at most 2 file imports of a tenant/org at once; the others wait Pending, then run', async () => {
    const file = (prefix: string) => csv(...Array.from({ length: 1500 }, (_, index) => `${prefix}${index},S,Text,B,pt-pt,`));
    const ids = await Promise.all(
      ['a', 'b', 'c'].map(async (prefix) => (await upload('importDataTemplate=emailTemplates', file(prefix))).id),
    );
    let most = 0;
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const states = await Promise.all(
        ids.map(async (id) => (await client.call<FileImport>('GET', `${IMPORTS}/${id}`)).body.importDataState),
      );
      most = Math.max(most, states.filter((state) => state === 2).length);
      if (states.every((state) => state >= 3)) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(most).toBeLessThanOrEqual(2);
    for (const id of ids) expect(await waitForEnd(id)).toMatchObject({ importDataState: 3, rowsCreated: 1500 });
  });
});
