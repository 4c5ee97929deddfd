/**
 * Who may open a live stream, and what ends it: authorized exactly as GET /changes (token, scope, orgs, revocation),
 * or with a stream ticket (browsers: used once, one tenant/org, only on the stream); limited per tenant/org and per
 * token (429 with Retry-After); ended when the token expires or its API client is revoked.
 */
import { describe, expect, it } from 'vitest';
import { call, mintToken } from '../helpers/api';
import type { Problem, TenantClient } from '../helpers/api';
import { API_CLIENTS, createApiClient, tokenFor } from '../helpers/identity';
import { openEventStream, openLiveSocket, readChangesFrom, readUntilReady } from '../helpers/live';
import type { EventStream } from '../helpers/live';
import { freshTenant, siblingOrg } from '../helpers/tenants';

const TEMPLATES = '/operations/emailTemplates';
const templateOf = (key: string) => ({ templateKey: key, subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' });

interface Ticket {
  ticket: string;
  expiresIn: number;
  streamUrl: string;
}

describe('authorization', () => {
  it('refuses no token (401), another org or a token without the scope (403), before opening anything', async () => {
    const client = await freshTenant('lauth');
    const none = await openEventStream(client, '', { token: null });
    expect(none.response.status).toBe(401);
    expect(none.response.headers.get('www-authenticate')).toContain('Bearer');
    const other = await siblingOrg(client);
    const stranger = await openEventStream(client, '', { token: other.token });
    expect(stranger.response.status).toBe(403);
    const lacking = await openEventStream(client, '', {
      token: await mintToken({ tenant: client.tenant, org: client.org, scope: 'profile' }),
    });
    expect(lacking.response.status).toBe(403);
    const socket = await openLiveSocket(client, '', other.token);
    expect(socket.response.status).toBe(403);
  });

  it('a ticket opens one stream of its tenant/org, once, and nothing else', async () => {
    const client = await freshTenant('lticket');
    const issued = await client.call<Ticket>('POST', '/changes/tickets');
    expect(issued.status, issued.text).toBe(200);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    expect(issued.body.expiresIn).toBeGreaterThan(0);
    expect(issued.body.expiresIn).toBeLessThanOrEqual(60);
    const query = `?ticket=${encodeURIComponent(issued.body.ticket)}`;
    const stream = await openEventStream(client, query, { token: null });
    expect(stream.response.status).toBe(200);
    await readUntilReady(stream);
    expect((await client.call('POST', TEMPLATES, { body: templateOf('t1') })).status).toBe(201);
    expect((await readChangesFrom(stream, 1)).items[0]?.key).toBe('t1');
    // Used once.
    const again = await openEventStream(client, query, { token: null });
    expect(again.response.status).toBe(401);
    expect(((await again.response.json()) as Problem).detail).toContain('used already');
    // Another tenant/org's path, the JSON feed, and a forged ticket: refused.
    const sibling = await siblingOrg(client);
    const fresh = (await client.call<Ticket>('POST', '/changes/tickets')).body.ticket;
    expect((await openEventStream(sibling, `?ticket=${encodeURIComponent(fresh)}`, { token: null })).response.status).toBe(401);
    expect((await call('GET', `${client.base}/changes?ticket=${encodeURIComponent(fresh)}`)).status).toBe(401);
    const forged = `${fresh.slice(0, -4)}AAAA`;
    expect((await openEventStream(client, `?ticket=${encodeURIComponent(forged)}`, { token: null })).response.status).toBe(401);
    await stream.close();
  });
});

/** Opens a stream once a closed one has left the object (its close reaches it asynchronously). */
async function reopenWhenFree(client: TenantClient): Promise<EventStream> {
  for (let attempt = 0; ; attempt += 1) {
    const stream = await openEventStream(client);
    if (stream.response.status === 200) return stream;
    expect(stream.response.status).toBe(429);
    expect(attempt, 'the closed stream still counts').toBeLessThan(200);
  }
}

describe('limits', () => {
  it('a token may hold 20 streams: the 21st is 429 TooManyStreams with Retry-After; another token still may', async () => {
    const client = await freshTenant('llimit');
    const streams = [];
    for (let index = 0; index < 19; index += 1) {
      const stream = await openEventStream(client);
      expect(stream.response.status).toBe(200);
      streams.push(stream);
    }
    const socket = await openLiveSocket(client);
    expect(socket.response.status).toBe(101);
    expect((await socket.next())?.type).toBe('ready');
    const refused = await openEventStream(client);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get('retry-after')).toBe('30');
    expect(((await refused.response.json()) as Problem).code).toBe('TooManyStreams');
    const another = await openLiveSocket(client, '', await mintToken({ tenant: client.tenant, org: client.org, sub: 'other' }));
    expect(another.response.status).toBe(101);
    another.close();
    // A closed stream frees its place: a WebSocket's close, and a Server-Sent Events client cancelling its body, reach
    // the object at once.
    socket.close();
    expect(await socket.closed()).toBeDefined();
    const reopened = await reopenWhenFree(client);
    await streams[0]?.close();
    streams[0] = await reopenWhenFree(client);
    await Promise.all([...streams, reopened].map((stream) => stream.close()));
  });
});

describe('what ends a stream', () => {
  it('the token expiring: the object ends the stream then, with the reason', async () => {
    const client = await freshTenant('lexp');
    const token = await mintToken({ tenant: client.tenant, org: client.org, expiresIn: '2s' });
    const stream = await openEventStream(client, '', { token });
    expect(stream.response.status).toBe(200);
    await readUntilReady(stream);
    const end = await stream.next();
    expect(end?.event).toBe('end');
    expect(JSON.parse(end?.data ?? '{}')).toMatchObject({ reason: 'tokenExpired' });
    expect(await stream.next()).toBeUndefined();
  });

  it('the API client being revoked: its streams end at once (SSE and WebSocket)', async () => {
    const admin = await freshTenant('lrevoke');
    const apiClient = await createApiClient(admin, { name: 'Board', scopes: ['application'], orgs: [admin.org] });
    const token = await tokenFor(apiClient);
    const stream = await openEventStream(admin, '', { token });
    expect(stream.response.status).toBe(200);
    await readUntilReady(stream);
    const socket = await openLiveSocket(admin, '', token);
    expect((await socket.next())?.type).toBe('ready');
    const revoked = await admin.call('POST', `${API_CLIENTS}/${apiClient.clientId}/revoke`);
    expect(revoked.status, revoked.text).toBe(200);
    const end = await stream.next();
    expect([end?.event, JSON.parse(end?.data ?? '{}').reason]).toEqual(['end', 'clientRevoked']);
    expect(await socket.next()).toMatchObject({ type: 'end', reason: 'clientRevoked' });
    expect(await socket.closed()).toBe(4403);
  });
});
