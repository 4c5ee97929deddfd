/** The test webhook receiver (test/setup/webhook-receiver.ts) and subscriptions as tests make them. */
import { expect, inject } from 'vitest';
import type { TenantClient } from './api';

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

/** A receiver URL of its own (`label` may carry `-fail<N>`, `-gone`, `-refuse`). */
export function receiverUrl(label: string): string {
  return `${inject('webhookReceiver')}/hooks/${label}-${crypto.randomUUID().slice(0, 8)}`;
}

/** Every delivery the receiver got at `url`, once `count` of them were answered 2xx (10 s at most). */
export async function readReceived(url: string, count: number): Promise<ReceivedDelivery[]> {
  const response = await fetch(`${url}/received?count=${count}`);
  return response.json<ReceivedDelivery[]>();
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
