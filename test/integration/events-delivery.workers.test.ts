/**
 * The delivery consumer driven through the Workers queue test APIs (createMessageBatch, getQueueResult), with the
 * platform clock set where the 24-hour retry window matters. The events are written straight into the tenant database
 * (no API write, so no kick sends the real queue a job for them): only these test batches deliver them.
 */
import { createExecutionContext, createMessageBatch, env, getQueueResult } from 'cloudflare:test';
import { beforeEach, describe, expect, it } from 'vitest';
import { buildWorkerPlatform } from '../../src/runtime/cloudflare/platform';
import { consumeDeliveryBatch } from '../../src/runtime/cloudflare/deliveries';
import type { DeliveryMessage, DeliveryOutcome } from '../../src/runtime/platform';
import { deliverSubscription } from '../../src/services/registry';
import { TENANT_MODEL } from '../../src/tenant-model';
import type { TenantClient } from '../helpers/api';
import { openClientD1 } from '../helpers/tenant-db';
import { freshTenant } from '../helpers/tenants';
import { dnsName, moveToHost, readReceived, receiverUrl, setDnsRecords, subscribe } from '../helpers/webhooks';
import type { CreatedSubscription } from '../helpers/webhooks';

const QUEUE = 'erp-edge-api-deliveries';
let client: TenantClient;

beforeEach(async () => {
  client = await freshTenant('consumer');
});

/** Appends an event to the tenant/org's log as a write would (the next sequence number). */
async function appendEvent(key: string, occurredOn: Date): Promise<void> {
  const d1 = await openClientD1(client);
  await d1
    .prepare(
      `INSERT INTO change_events (tenant_key, org_key, seq, id, resource, change_type, record_id, record_key, version, occurred_on, actor)
       SELECT ?1, ?2, coalesce(max(seq), 0) + 1, ?3, 'operations/emailTemplates', 'created', ?3, ?4, 1, ?5, 'tester'
       FROM change_events WHERE tenant_key = ?1 AND org_key = ?2`,
    )
    .bind(client.tenant, client.org, crypto.randomUUID(), key, occurredOn.toISOString())
    .run();
}

/** Runs one queue batch of the subscription's job through the consumer at `now`; answers the queue's result. */
async function consume(subscription: CreatedSubscription, now: Date, baseSeconds = 30) {
  const body: DeliveryMessage = { tenantKey: client.tenant, orgKey: client.org, subscriptionId: subscription.id };
  const batch = createMessageBatch<DeliveryMessage>(QUEUE, [{ id: 'job-1', timestamp: now, attempts: 1, body }]);
  const ctx = createExecutionContext();
  const platform = buildWorkerPlatform(env, ctx, TENANT_MODEL);
  // The test batch does not keep retry delays: the consumer's own answer tells them.
  const outcomes: DeliveryOutcome[] = [];
  const clocked = { ...platform, now: () => now, config: { ...platform.config, webhookRetryBaseSeconds: baseSeconds } };
  await consumeDeliveryBatch(batch, clocked, async (on, job) => {
    const outcome = await deliverSubscription(on, job);
    outcomes.push(outcome);
    return outcome;
  });
  const result = await getQueueResult(batch, ctx);
  const delays = outcomes.flatMap((outcome) => ('retryAfterSeconds' in outcome ? [outcome.retryAfterSeconds] : []));
  return { ...result, delays };
}

async function readDeliveries(subscription: CreatedSubscription, status: string) {
  const result = await client.call<{
    items: { status: string; attempts: number; lastStatus: number | null; lastError: string | null; eventIds: string[] }[];
  }>('GET', `/subscriptions/${subscription.id}/deliveries?status=${status}`);
  expect(result.status, result.text).toBe(200);
  return result.body.items;
}

describe('the delivery consumer', () => {
  it('retries 5xx with growing, jittered delays, then dead-letters the batch after 24 hours and moves on', async () => {
    const subscription = await subscribe(client, receiverUrl('dead-fail1000'));
    const start = new Date();
    await appendEvent('a', start);

    const first = await consume(subscription, start);
    expect(first.explicitAcks).toEqual([]);
    expect(first.retryMessages).toHaveLength(1);
    expect(first.delays[0]).toBeGreaterThanOrEqual(15);
    expect(first.delays[0]).toBeLessThanOrEqual(30);
    const second = await consume(subscription, new Date(start.getTime() + 60_000));
    expect(second.retryMessages.map((message) => message.msgId)).toEqual(['job-1']);
    expect(second.delays[0]).toBeGreaterThanOrEqual(30);
    expect(second.delays[0]).toBeLessThanOrEqual(60);
    expect(await readDeliveries(subscription, 'failed')).toEqual([]);

    // 24 hours after the first failure: the batch is dead-lettered and the job is done.
    const last = await consume(subscription, new Date(start.getTime() + 24 * 3_600_000 + 1000));
    expect([last.explicitAcks, last.retryMessages]).toEqual([['job-1'], []]);
    const failed = await readDeliveries(subscription, 'failed');
    expect(failed).toMatchObject([{ status: 'failed', attempts: 3, lastStatus: 500 }]);
    expect(failed[0]?.eventIds).toHaveLength(1);
    const received = await readReceived(subscription.notificationUrl, 0);
    expect(received.map((delivery) => delivery.answered)).toEqual([500, 500, 500]);

    // The next event is delivered on its own (the dead letter is not sent again).
    await appendEvent('b', new Date(start.getTime() + 25 * 3_600_000));
    const next = await consume(subscription, new Date(start.getTime() + 25 * 3_600_000));
    expect(next.retryMessages).toHaveLength(1);
    const sent = await readReceived(subscription.notificationUrl, 0);
    expect(JSON.parse(sent.at(-1)?.body ?? '{}')).toMatchObject({ value: [{ key: 'b' }] });
  });

  it('catches a receiver that was down for an hour up with everything, in order, 100 events per POST', async () => {
    const subscription = await subscribe(client, receiverUrl('down-fail2'));
    const start = new Date();
    for (let index = 0; index < 150; index += 1) await appendEvent(`k${String(index).padStart(3, '0')}`, start);
    expect((await consume(subscription, start)).retryMessages).toHaveLength(1);
    expect((await consume(subscription, new Date(start.getTime() + 30 * 60_000))).retryMessages).toHaveLength(1);
    const back = await consume(subscription, new Date(start.getTime() + 60 * 60_000));
    expect([back.explicitAcks, back.retryMessages]).toEqual([['job-1'], []]);
    const received = await readReceived(subscription.notificationUrl, 2);
    const delivered = received.filter((delivery) => delivery.answered === 200);
    const keys = delivered.flatMap((delivery) => (JSON.parse(delivery.body) as { value: { key: string }[] }).value.map((item) => item.key));
    expect(delivered.map((delivery) => (JSON.parse(delivery.body) as { value: unknown[] }).value.length)).toEqual([100, 50]);
    expect(keys).toEqual(Array.from({ length: 150 }, (_, index) => `k${String(index).padStart(3, '0')}`));
    expect(await readDeliveries(subscription, 'delivered')).toMatchObject([{ attempts: 3 }, { attempts: 1 }]);
  });

  it('deletes the subscription when the receiver answers 410', async () => {
    const subscription = await subscribe(client, receiverUrl('reject-gone'));
    await appendEvent('a', new Date());
    // 410: the receiver does not want notifications any more: the subscription is deleted.
    const gone = await consume(subscription, new Date());
    expect(gone.explicitAcks).toEqual(['job-1']);
    expect((await client.call('GET', `/subscriptions/${subscription.id}`)).status).toBe(404);
  });

  it('dead-letters at once on a 4xx other than 408, 410 and 429', async () => {
    const subscription = await subscribe(client, receiverUrl('bad-reject'));
    await appendEvent('a', new Date());
    const rejected = await consume(subscription, new Date());
    expect([rejected.explicitAcks, rejected.retryMessages]).toEqual([['job-1'], []]);
    expect(await readDeliveries(subscription, 'failed')).toMatchObject([{ attempts: 1, lastStatus: 400 }]);
  });

  it('sends nothing for an expired subscription', async () => {
    const subscription = await subscribe(client, receiverUrl('expired'));
    await appendEvent('a', new Date());
    const later = await consume(subscription, new Date(Date.now() + 4 * 86_400_000));
    expect(later.explicitAcks).toEqual(['job-1']);
    expect(await readReceived(subscription.notificationUrl, 0)).toEqual([]);
  });
});

describe('the host looked up again before each delivery', () => {
  it('sends nothing to a host that now resolves to a private address (rebinding): retried, then dead-lettered', async () => {
    const subscription = await subscribe(client, receiverUrl('rebind'));
    const host = dnsName('rebind');
    await setDnsRecords(host, { A: ['203.0.114.9', '10.0.0.7'] });
    await moveToHost(client, subscription, host);
    const start = new Date();
    await appendEvent('a', start);
    expect((await consume(subscription, start)).retryMessages).toHaveLength(1);
    const last = await consume(subscription, new Date(start.getTime() + 24 * 3_600_000 + 1000));
    expect([last.explicitAcks, last.retryMessages]).toEqual([['job-1'], []]);
    // No answer was had (lastStatus null): the POST was never made, and the dead letter says why.
    expect(await readDeliveries(subscription, 'failed')).toMatchObject([
      { attempts: 2, lastStatus: null, lastError: `not sent: ${host} resolves to 10.0.0.7, which is not a public address` },
    ]);
  });

  it('retries while the resolver cannot be reached', async () => {
    const subscription = await subscribe(client, receiverUrl('resolver-down'));
    const host = dnsName('down');
    await setDnsRecords(host, { down: true });
    await moveToHost(client, subscription, host);
    const start = new Date();
    await appendEvent('a', start);
    const first = await consume(subscription, start);
    expect([first.explicitAcks, first.retryMessages.length]).toEqual([[], 1]);
    await consume(subscription, new Date(start.getTime() + 24 * 3_600_000 + 1000));
    const [failed] = await readDeliveries(subscription, 'failed');
    expect(failed?.lastError).toMatch(new RegExp(`^not sent: ${host} could not be resolved \\(the DNS resolver could not be reached`));
  });

  it('refuses to renew a subscription whose host now resolves to a private address', async () => {
    const subscription = await subscribe(client, receiverUrl('renew'));
    const host = dnsName('renew');
    await setDnsRecords(host, { AAAA: ['::ffff:172.16.0.1'] });
    await moveToHost(client, subscription, host);
    const renewed = await client.call<{ errors: { path: string; message: string }[] }>('POST', `/subscriptions/${subscription.id}/renew`);
    expect(renewed.status, renewed.text).toBe(400);
    expect(renewed.body.errors).toEqual([
      { path: 'notificationUrl', message: expect.stringContaining(`${host} resolves to ::ffff:172.16.0.1`) },
    ]);
  });
});
