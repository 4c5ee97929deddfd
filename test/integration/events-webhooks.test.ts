import { Webhook } from 'standardwebhooks';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem, TenantClient } from '../helpers/api';
import { readAllChanges } from '../helpers/events';
import { changeImport, IMPORTS, registerImport } from '../helpers/imports';
import { freshTenant } from '../helpers/tenants';
import { readReceived, readStreamed, receiverUrl, subscribe } from '../helpers/webhooks';
import type { CreatedSubscription, Notification } from '../helpers/webhooks';

const TEMPLATES = '/operations/emailTemplates';
const template = { templateKey: 'hook', subject: 'Hi', emailTemplateType: 1, notificationBody: '<p>x</p>', culture: 'en-US' };

let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('hooks');
});

async function expectStatus(promise: Promise<{ status: number; text: string }>, status: number): Promise<void> {
  const result = await promise;
  expect(result.status, result.text).toBe(status);
}

/** Create, update and delete of one template: three events. */
async function changeTemplate(): Promise<void> {
  await expectStatus(client.call('POST', TEMPLATES, { body: template }), 201);
  await expectStatus(client.call('PUT', `${TEMPLATES}/hook/subject`, { body: { value: 'Hello' } }), 200);
  await expectStatus(client.call('DELETE', `${TEMPLATES}/hook`), 204);
}

/** The notifications' items, in the order received, each verified as a receiver would (standardwebhooks). */
function verifyAll(
  subscription: CreatedSubscription,
  deliveries: { headers: Record<string, string>; body: string }[],
): Notification['value'] {
  const webhook = new Webhook(subscription.secret);
  return deliveries.flatMap((delivery) => (webhook.verify(delivery.body, delivery.headers) as Notification).value);
}

describe('POST /subscriptions', () => {
  it('validates the URL with a handshake, answers 201 with the secret once, and lists it without', async () => {
    const url = receiverUrl('create');
    const answer = await client.call<CreatedSubscription>('POST', '/subscriptions', {
      body: { notificationUrl: url, resource: 'operations/emailTemplates', clientState: 'state-1' },
    });
    expect(answer.status, answer.text).toBe(201);
    // The answer carries the secret: never cached.
    expect(answer.headers.get('cache-control')).toBe('no-store');
    const created = answer.body;
    expect(created).toMatchObject({ resource: 'operations/emailTemplates', notificationUrl: url, clientState: 'state-1' });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const lifetime = Date.parse(created.expirationDateTime) - Date.parse(created.createdOn);
    expect(lifetime).toBe(3 * 86_400_000);
    const read = await client.call<Record<string, unknown>>('GET', `/subscriptions/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('secret');
    const list = await client.call<{ items: { id: string }[] }>('GET', '/subscriptions');
    expect(list.body.items.map((item) => item.id)).toEqual([created.id]);
  });

  it('refuses a URL that fails the handshake, or is not allowed (400 naming notificationUrl)', async () => {
    const refusals = [
      receiverUrl('x-refuse'),
      'http://example.com/hook',
      'https://10.1.2.3/hook',
      'https://169.254.169.254/latest',
      'https://[::1]/hook',
      'https://intranet/hook',
      'ftp://example.com/hook',
      'not a url',
    ];
    for (const notificationUrl of refusals) {
      const result = await client.call<Problem>('POST', '/subscriptions', { body: { notificationUrl, resource: '*' } });
      expect([result.status, result.body.errors.map((error) => error.path)], notificationUrl).toEqual([400, ['notificationUrl']]);
    }
    const both = await client.call<Problem>('POST', '/subscriptions', { body: { notificationUrl: 42, resource: 'bad prefix' } });
    expect(both.status).toBe(400);
    expect(both.body.errors.map((error) => error.path).sort()).toEqual(['notificationUrl', 'resource']);
    expect((await client.call<{ items: unknown[] }>('GET', '/subscriptions')).body.items).toEqual([]);
  });

  it('refuses local names written with a trailing dot (or in capitals) before any lookup (400 naming notificationUrl)', async () => {
    // (`localhost.` itself is refused too when the development flag is off, as it is outside the tests: test/unit/notification-url.test.ts.)
    const refusals = [
      'https://metadata.google.internal./computeMetadata/v1/',
      'https://Metadata.Google.Internal./x',
      'https://app.localhost./hook',
      'https://printer.local./hook',
      'https://router.home.arpa./hook',
      'https://intranet./hook',
      'https://a..example.com/hook',
      'https://example.com../hook',
    ];
    for (const notificationUrl of refusals) {
      const result = await client.call<Problem>('POST', '/subscriptions', { body: { notificationUrl, resource: '*' } });
      expect([result.status, result.body.errors?.map((error) => error.path)], notificationUrl).toEqual([400, ['notificationUrl']]);
      // The URL rule refuses it (the host is private), not the DNS lookup or the handshake that would follow.
      expect(result.body.errors[0]?.message, notificationUrl).toMatch(/must name a public host/);
    }
    expect((await client.call<{ items: unknown[] }>('GET', '/subscriptions')).body.items).toEqual([]);
  });

  it('renews for 3 days (repeating the handshake) and deletes', async () => {
    const created = await subscribe(client, receiverUrl('renew'));
    const renewed = await client.call<{ expirationDateTime: string }>('POST', `/subscriptions/${created.id}/renew`);
    expect(renewed.status, renewed.text).toBe(200);
    expect(Date.parse(renewed.body.expirationDateTime)).toBeGreaterThanOrEqual(Date.parse(created.expirationDateTime));
    await expectStatus(client.call('DELETE', `/subscriptions/${created.id}`), 204);
    await expectStatus(client.call('GET', `/subscriptions/${created.id}`), 404);
    await expectStatus(client.call('POST', `/subscriptions/${created.id}/renew`), 404);
  });

  it("another tenant or org sees none of the tenant/org's subscriptions (404)", async () => {
    const created = await subscribe(client, receiverUrl('iso'));
    const other = await freshTenant('hooks-other');
    for (const [method, path] of [
      ['GET', `/subscriptions/${created.id}`],
      ['GET', `/subscriptions/${created.id}/deliveries`],
      ['POST', `/subscriptions/${created.id}/renew`],
      ['DELETE', `/subscriptions/${created.id}`],
    ] as const) {
      const result = await other.call<Problem>(method, path);
      expect([result.status, result.body.code], `${method} ${path}`).toEqual([404, 'RecordNotFound']);
    }
    expect((await other.call<{ items: unknown[] }>('GET', '/subscriptions')).body.items).toEqual([]);
    await expectStatus(client.call('GET', `/subscriptions/${created.id}`), 200);
  });
});

describe('delivery', () => {
  it('delivers create, update and delete signed (Standard Webhooks), in the order the change feed lists them', async () => {
    const subscription = await subscribe(client, receiverUrl('order'), 'operations/emailTemplates', 'cs');
    await changeTemplate();
    // Another resource's change is not sent to this subscription.
    await expectStatus(client.call('PUT', '/referenceData/companies', { body: [{ key: 'C1', name: 'One', baseCurrency: 'EUR' }] }), 200);
    let received = await readReceived(subscription.notificationUrl, 1);
    let items = verifyAll(subscription, received);
    while (items.length < 3) {
      received = await readReceived(subscription.notificationUrl, received.length + 1);
      items = verifyAll(subscription, received);
    }
    expect(received[0]?.headers['content-type']).toBe('application/json');
    const feed = await readAllChanges(client, 'operations/emailTemplates');
    expect(items).toEqual(
      feed.map((event) => ({
        subscriptionId: subscription.id,
        clientState: 'cs',
        resource: event.resource,
        changeType: event.changeType,
        recordId: event.recordId,
        key: event.key,
        version: event.version,
        occurredOn: event.occurredOn,
      })),
    );
    expect(items.map((item) => item.changeType)).toEqual(['created', 'updated', 'deleted']);
    // A tampered body fails verification.
    const webhook = new Webhook(subscription.secret);
    const first = received[0];
    expect(() => webhook.verify(`${first?.body ?? ''} `, first?.headers ?? {})).toThrow();
  });

  it("delivers an import's state changes, written by the tenant/org's coordinator: its write batch kicks the delivery", async () => {
    const subscription = await subscribe(client, receiverUrl('imports'), IMPORTS.slice(1));
    const id = await registerImport(client);
    await expectStatus(changeImport(client, { importId: id, importDataState: 2 }), 200);
    let received = await readReceived(subscription.notificationUrl, 1);
    let items = verifyAll(subscription, received);
    while (items.length < 2) {
      received = await readReceived(subscription.notificationUrl, received.length + 1);
      items = verifyAll(subscription, received);
    }
    expect(items.map((item) => [item.resource, item.changeType, item.recordId])).toEqual([
      [IMPORTS.slice(1), 'created', id],
      [IMPORTS.slice(1), 'updated', id],
    ]);
  });

  it('retries a receiver that answers 500: the third try delivers the same batch; deliveries record it', async () => {
    const subscription = await subscribe(client, receiverUrl('flaky-fail2'));
    await expectStatus(client.call('POST', TEMPLATES, { body: template }), 201);
    const received = await readReceived(subscription.notificationUrl, 1);
    expect(received.map((delivery) => delivery.answered)).toEqual([500, 500, 200]);
    expect(new Set(received.map((delivery) => delivery.headers['webhook-id'])).size).toBe(1);
    expect(new Set(received.map((delivery) => delivery.body)).size).toBe(1);
    expect(verifyAll(subscription, received.slice(2)).map((item) => [item.changeType, item.key])).toEqual([['created', 'hook']]);
    const deliveries = await client.call<{ items: { status: string; attempts: number; lastStatus: number }[] }>(
      'GET',
      `/subscriptions/${subscription.id}/deliveries?status=delivered`,
    );
    expect(deliveries.status).toBe(200);
    expect(deliveries.body.items).toMatchObject([{ status: 'delivered', attempts: 3, lastStatus: 200 }]);
    expect(
      (await client.call<{ items: unknown[] }>('GET', `/subscriptions/${subscription.id}/deliveries?status=failed`)).body.items,
    ).toEqual([]);
    const bad = await client.call<Problem>('GET', `/subscriptions/${subscription.id}/deliveries?status=lost`);
    expect([bad.status, bad.body.errors.map((error) => error.path)]).toEqual([400, ['status']]);
  });
});

describe('answers of receivers: at most 4 KB read, the rest never downloaded', () => {
  /** Every endless answer the receiver sent ended because the API closed the connection, early. */
  function expectCutShort(streams: { bytes: number; closedByClient: boolean }[], count: number): void {
    expect(streams).toHaveLength(count);
    for (const stream of streams) {
      expect(stream.closedByClient, JSON.stringify(stream)).toBe(true);
      // 4 KB read; what the network buffers held before the connection closed is a few MiB at most, not the 64 MiB.
      expect(stream.bytes).toBeLessThan(16 * 1024 * 1024);
    }
  }

  it('the handshake: the token followed by an endless body passes, and the answer is cut after 4 KB', async () => {
    const url = receiverUrl('hs-endless');
    const started = Date.now();
    const created = await subscribe(client, url);
    expect(created.notificationUrl).toBe(url);
    expect(Date.now() - started).toBeLessThan(8_000);
    expectCutShort(await readStreamed(url, 1), 1);
  });

  it('a delivery: a 200 with an endless body is delivered, and the answer is cut after 4 KB', async () => {
    const subscription = await subscribe(client, receiverUrl('dl-endless'));
    await expectStatus(client.call('POST', TEMPLATES, { body: template }), 201);
    const received = await readReceived(subscription.notificationUrl, 1);
    expect(verifyAll(subscription, received.slice(0, 1)).map((item) => [item.changeType, item.key])).toEqual([['created', 'hook']]);
    const read = () =>
      client.call<{ items: { status: string; lastStatus: number }[] }>(
        'GET',
        `/subscriptions/${subscription.id}/deliveries?status=delivered`,
      );
    const deadline = Date.now() + 8_000;
    while ((await read()).body.items.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await read()).body.items).toMatchObject([{ status: 'delivered', lastStatus: 200 }]);
    expectCutShort(await readStreamed(subscription.notificationUrl, 2), 2);
  });
});
