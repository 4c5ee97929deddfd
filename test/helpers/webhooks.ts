/** The test webhook receiver (test/setup/webhook-receiver.ts) and subscriptions as tests make them. */
import { expect, inject } from 'vitest';
import type { TenantClient } from './api';
import { openClientD1 } from './tenant-db';

export interface ReceivedDelivery {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly answered: number;
}

export interface CreatedSubscription {
  id: string;
  resource: string;
  notificationUrl: string;
  clientState: string | null;
  expirationDateTime: string;
  createdOn: string;
  createdBy: string;
  secret: string;
}

export interface Notification {
  value: {
    subscriptionId: string;
    clientState: string | null;
    resource: string;
    changeType: string;
    recordId: string;
    key: string;
    version: number;
    occurredOn: string;
  }[];
}

/** A host name of its own under the test resolver's zone (test/setup/doh-resolver.ts). */
export function dnsName(label: string): string {
  return `${label}-${crypto.randomUUID().slice(0, 8)}.hooks.example`;
}

/** What the test resolver answers for `name`: addresses, an alias, or a dropped connection (`down`). */
export async function setDnsRecords(name: string, entry: { A?: string[]; AAAA?: string[]; CNAME?: string; down?: boolean }): Promise<void> {
  const response = await fetch(`${inject('dohResolver')}/zone/${name}`, { method: 'PUT', body: JSON.stringify(entry) });
  expect(response.status).toBe(204);
}

/** A receiver URL of its own (`label` may carry `-fail<N>`, `-gone`, `-refuse`, `-endless`). */
export function receiverUrl(label: string): string {
  return `${inject('webhookReceiver')}/hooks/${label}-${crypto.randomUUID().slice(0, 8)}`;
}

/** Every delivery the receiver got at `url`, once `count` of them were answered 2xx (10 s at most). */
export async function readReceived(url: string, count: number): Promise<ReceivedDelivery[]> {
  const response = await fetch(`${url}/received?count=${count}`);
  return response.json<ReceivedDelivery[]>();
}

/** The endless answers (`-endless` receivers) sent to `url`, once `count` of them ended (10 s at most). */
export async function readStreamed(url: string, count: number): Promise<{ bytes: number; closedByClient: boolean }[]> {
  const response = await fetch(`${url}/streamed?count=${count}`);
  return response.json<{ bytes: number; closedByClient: boolean }[]>();
}

export async function subscribe(
  client: TenantClient,
  notificationUrl: string,
  resource = '*',
  clientState?: string,
): Promise<CreatedSubscription> {
  const result = await client.call<CreatedSubscription>('POST', '/subscriptions', {
    body: { notificationUrl, resource, ...(clientState === undefined ? {} : { clientState }) },
  });
  expect(result.status, result.text).toBe(201);
  return result.body;
}

/**
 * Points the subscription at `https://<host>/hook`, as if it had been made while that host resolved to public addresses
 * (a name the tests' resolver answers cannot pass the handshake: nothing listens there).
 */
export async function moveToHost(client: TenantClient, subscription: CreatedSubscription, host: string): Promise<void> {
  const d1 = await openClientD1(client);
  await d1
    .prepare('UPDATE event_subscriptions SET notification_url = ?1 WHERE id = ?2')
    .bind(`https://${host}/hook`, subscription.id)
    .run();
}
