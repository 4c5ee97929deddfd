/**
 * Every kind of write reaches live streams with no code of its own (the write watcher every write batch carries):
 * `$batch` atomic groups once their one batch commits (a rolled-back group never), coordinator commands (KPI
 * recalculation), file imports processed apart from any request, and their undo; a stream shows exactly what the
 * change feed holds. And a WebSocket client that does not acknowledge is ended as a slow consumer.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { sendBatch, templateBody } from '../helpers/batch';
import { readAllChanges, readChanges } from '../helpers/events';
import type { FeedItem } from '../helpers/events';
import { uploadCsv, waitForImportEnd, waitForUndo } from '../helpers/import-files';
import type { RevertedImport } from '../helpers/import-files';
import { IMPORTS } from '../helpers/imports';
import { kpiReferenceData, recalculate } from '../helpers/indicators';
import { openEventStream, openLiveSocket, readChangesFrom, readUntilReady } from '../helpers/live';
import type { EventStream } from '../helpers/live';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = 'operations/emailTemplates';

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('lwrites');
});

/** Every event of the feed after `cursor` (of `resource`), page after page. */
async function readFeedAfter(cursor: string, resource = '*'): Promise<FeedItem[]> {
  const items: FeedItem[] = [];
  let page = await readChanges(client, `?since=${cursor}&resource=${resource}&$top=1000`);
  items.push(...page.items);
  while (page.nextPageLink) {
    page = await readChanges(client, new URL(page.nextPageLink).search);
    items.push(...page.items);
  }
  return items;
}

/** The stream's next changes are exactly what the feed holds after `cursor`; answers them. */
async function expectStreamIsFeed(stream: EventStream, cursor: string, resource = '*'): Promise<FeedItem[]> {
  const after = await readFeedAfter(cursor, resource);
  const pushed = await readChangesFrom(stream, after.length);
  expect(pushed.items).toEqual(after);
  return pushed.items;
}

describe('$batch atomic groups', () => {
  it('a committed group arrives whole; a rolled-back group never appears', async () => {
    const stream = await openEventStream(client);
    const { cursor } = await readUntilReady(stream);
    const committed = await sendBatch(client, [
      { id: '1', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: templateBody('g1') },
      { id: '2', method: 'POST', url: TEMPLATES, atomicityGroup: 'g', body: templateBody('g2') },
    ]);
    expect(committed.body.responses.map((response) => response.status)).toEqual([201, 201]);
    const rolledBack = await sendBatch(client, [
      { id: '1', method: 'POST', url: TEMPLATES, atomicityGroup: 'h', body: templateBody('h1') },
      { id: '2', method: 'POST', url: TEMPLATES, atomicityGroup: 'h', body: templateBody('g1') },
    ]);
    expect(rolledBack.body.responses.map((response) => response.status)).toEqual([424, 400]);
    expect((await client.call('POST', `/${TEMPLATES}`, { body: templateBody('after') })).status).toBe(201);
    const pushed = await readChangesFrom(stream, 3);
    expect(pushed.items.map((item) => item.key)).toEqual(['g1', 'g2', 'after']);
    expect(pushed.items).toEqual((await readChanges(client, `?since=${cursor}`)).items);
    await stream.close();
  });
});

describe('writes made apart from the request', () => {
  it('a coordinator command (KPI recalculation in the tenant/org object) reaches the stream', async () => {
    await kpiReferenceData(client);
    const measured = await client.call('POST', '/maintenance/indicators/measurements', {
      body: [{ company: 'ACME-PT', code: 'COST', date: '2026-01-15', value: 10 }],
    });
    expect(measured.status, measured.text).toBe(200);
    const stream = await openEventStream(client, '?resource=maintenance');
    const { cursor } = await readUntilReady(stream);
    expect(await recalculate(client, 'default')).toBe(200);
    const after = await readChanges(client, `?since=${cursor}&resource=maintenance`);
    expect(after.items.length).toBeGreaterThan(0);
    expect((await readChangesFrom(stream, after.items.length)).items).toEqual(after.items);
    await stream.close();
  });

  it('a file import processed in the background, and its undo (failOnErrors), arrive exactly as the feed has them', async () => {
    const stream = await openEventStream(client);
    const { cursor } = await readUntilReady(stream);
    const rows = Array.from({ length: 600 }, (_, index) => `i${index},S,HTML,B,pt-pt,`);
    const csv = ['templateKey,subject,emailTemplateType,notificationBody,culture,description', ...rows, 'bad,S,Nope,B,pt-pt,'].join('\n');
    const started = await uploadCsv(client, 'importDataTemplate=emailTemplates&failOnErrors=true', csv);
    const ended = await waitForImportEnd(client, started.id);
    expect(ended.importDataState).toBe(4);
    await expectStreamIsFeed(stream, cursor);
    const items = await readAllChanges(client, 'operations/emailTemplates');
    expect(items.filter((item) => item.changeType === 'created')).toHaveLength(600);
    expect(items.filter((item) => item.changeType === 'deleted')).toHaveLength(600);
    await stream.close();
  });

  it('a cancelled import: the stream holds what the feed holds, and what is left is nothing', async () => {
    const stream = await openEventStream(client, '?resource=operations');
    const { cursor } = await readUntilReady(stream);
    const rows = Array.from({ length: 1500 }, (_, index) => `c${index},S,HTML,B,pt-pt,`);
    const csv = ['templateKey,subject,emailTemplateType,notificationBody,culture,description', ...rows].join('\n');
    const started = await uploadCsv(client, 'importDataTemplate=emailTemplates', csv);
    const cancel = await client.call<RevertedImport>('POST', `${IMPORTS}/${started.id}/cancel`);
    expect([200, 400]).toContain(cancel.status);
    await waitForImportEnd(client, started.id);
    // A cancel answers at once; a Processing import's run then undoes what it wrote (undoState 1, then 2).
    if (cancel.status === 200 && cancel.body.undoState !== null) await waitForUndo(client, started.id);
    const pushed = await expectStreamIsFeed(stream, cursor, 'operations');
    if (cancel.status === 200) {
      const created = pushed.filter((item) => item.changeType === 'created').map((item) => item.recordId);
      const deleted = pushed.filter((item) => item.changeType === 'deleted').map((item) => item.recordId);
      expect(deleted.sort()).toEqual(created.sort());
    }
    await stream.close();
  });
});

describe('slow consumers', () => {
  it('a WebSocket client that acknowledges nothing is ended once it holds more than 1 MiB', async () => {
    const socket = await openLiveSocket(client);
    expect((await socket.next())?.type).toBe('ready');
    const companies = Array.from({ length: 5000 }, (_, index) => ({ key: `K${index}`, name: `Company ${index}`, baseCurrency: 'EUR' }));
    const put = await client.call('PUT', '/referenceData/companies', { body: companies });
    expect(put.status, put.text).toBe(200);
    let received = 0;
    for (;;) {
      const message = await socket.next();
      if (message?.type !== 'change') {
        expect(message).toMatchObject({ type: 'end', reason: 'slowConsumer' });
        break;
      }
      received += 1;
    }
    expect(received).toBeGreaterThan(2000);
    expect(received).toBeLessThan(5000);
    expect(await socket.closed()).toBe(4429);
  });
});
