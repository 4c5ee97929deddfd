/**
 * Live streams (`GET /changes/stream`, src/live/): what a client sees is what the change feed holds, pushed as it
 * commits, each event once, in commit order; Server-Sent Events and WebSocket alike, in both runtimes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { TenantClient } from '../helpers/api';
import { readAllChanges, readChanges } from '../helpers/events';
import { openEventStream, openLiveSocket, readChangesFrom, readUntilReady } from '../helpers/live';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';

const templateOf = (key: string) => ({ templateKey: key, subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' });

/** The feed cursor of sequence number `seq` (cursors are opaque to clients; a test may build the first one). */
const encodeSince = (seq: number) => `c1.${btoa(`seq:${seq}`).replace(/=+$/, '')}`;

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('live');
});

async function create(key: string): Promise<string> {
  const created = await client.call<string>('POST', TEMPLATES, { body: templateOf(key) });
  expect(created.status, created.text).toBe(201);
  return created.body;
}

describe('Server-Sent Events', () => {
  it('pushes a change made through the API, as the feed has it, its id the feed cursor', async () => {
    const stream = await openEventStream(client);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const ready = await readUntilReady(stream);
    expect(ready.items).toEqual([]);
    const id = await create('first');
    const pushed = await readChangesFrom(stream, 1);
    const feed = await readAllChanges(client);
    expect(pushed.items).toEqual(feed);
    expect(pushed.items[0]?.recordId).toBe(id);
    // The event's id is the cursor that reads on after it.
    expect((await readChanges(client, `?since=${pushed.ids[0] ?? ''}`)).items).toEqual([]);
    expect((await readChanges(client, `?since=${ready.cursor}`)).items).toEqual(feed);
    await stream.close();
  });

  it('pushes the first change after a write made while nobody listened (its isolate then stays quiet a moment)', async () => {
    await create('unheard');
    const stream = await openEventStream(client);
    await readUntilReady(stream);
    await create('heard');
    expect((await readChangesFrom(stream, 1)).items.map((item) => item.key)).toEqual(['heard']);
    await stream.close();
  });

  it('replays after Last-Event-ID exactly once, then goes on live', async () => {
    await create('a1');
    const start = (await readChanges(client)).cursor;
    await create('a2');
    await create('a3');
    const first = await openEventStream(client, `?since=${start}`);
    const replay = await readUntilReady(first);
    expect(replay.items.map((item) => item.key)).toEqual(['a2', 'a3']);
    await first.close();
    await create('a4');
    await create('a5');
    const again = await openEventStream(client, '', { headers: { 'last-event-id': replay.ids[1] ?? '' } });
    const missed = await readUntilReady(again);
    expect(missed.items.map((item) => item.key)).toEqual(['a4', 'a5']);
    await create('a6');
    expect((await readChangesFrom(again, 1)).items.map((item) => item.key)).toEqual(['a6']);
    await again.close();
    const all = await readAllChanges(client);
    expect([...replay.items, ...missed.items].map((item) => item.id)).toEqual(all.slice(1, 5).map((item) => item.id));
  });
});

describe('WebSocket', () => {
  it('upgrades, replays after `since`, then pushes live changes; acknowledgements are taken', async () => {
    await create('w1');
    const start = (await readChanges(client)).cursor;
    await create('w2');
    const socket = await openLiveSocket(client, `?since=${start}`);
    expect(socket.response.status).toBe(101);
    const replayed = await socket.next();
    expect([replayed?.type, replayed?.change?.key]).toEqual(['change', 'w2']);
    const ready = await socket.next();
    expect(ready?.type).toBe('ready');
    socket.send(JSON.stringify({ type: 'ack', cursor: ready?.cursor }));
    await create('w3');
    const live = await socket.next();
    expect([live?.type, live?.change?.key]).toEqual(['change', 'w3']);
    const feed = await readAllChanges(client);
    expect([replayed?.change, live?.change]).toEqual(feed.slice(1));
    socket.close();
  });
});

describe('filters and cursors', () => {
  it('sends only the events of the `resource` prefix, as GET /changes filters them', async () => {
    const stream = await openEventStream(client, '?resource=referenceData');
    await readUntilReady(stream);
    await create('not-this');
    const put = await client.call('PUT', '/referenceData/companies', { body: [{ key: 'C1', name: 'One', baseCurrency: 'EUR' }] });
    expect(put.status, put.text).toBe(200);
    const pushed = await readChangesFrom(stream, 1);
    expect(pushed.items).toEqual(await readAllChanges(client, 'referenceData'));
    await stream.close();
  });

  it('refuses what GET /changes refuses, naming the header or parameter: a bad cursor, one ahead, one past retention', async () => {
    const bad = await openEventStream(client, '', { headers: { 'last-event-id': 'nope' } });
    expect(bad.response.status).toBe(400);
    const problem = (await bad.response.json()) as { code: string; errors: { path: string }[] };
    expect([problem.code, problem.errors.map((error) => error.path)]).toEqual(['InvalidCursor', ['Last-Event-ID']]);
    await create('x');
    const cursor = (await readChanges(client)).cursor;
    const stranger = await freshTenant('live');
    const ahead = await openEventStream(stranger, `?since=${cursor}`);
    expect(ahead.response.status).toBe(400);
    expect(((await ahead.response.json()) as { errors: { path: string }[] }).errors[0]?.path).toBe('since');
    const db = await openClientD1(client);
    await db
      .prepare('INSERT INTO change_event_retention (tenant_key, org_key, pruned_seq, pruned_on) VALUES (?, ?, 1, ?)')
      .bind(client.tenant, client.org, new Date().toISOString())
      .run();
    const expired = await openEventStream(client, `?since=${encodeSince(0)}`);
    expect(expired.response.status).toBe(410);
    expect(((await expired.response.json()) as { code: string }).code).toBe('CursorExpired');
  });

  it('answers 406 to a request that asks for neither Server-Sent Events nor a WebSocket', async () => {
    const plain = await client.call<{ code: string }>('GET', '/changes/stream');
    expect([plain.status, plain.body.code]).toEqual([406, 'NotAcceptable']);
  });
});
