/** The change feed as a test reads it. */
import { expect } from 'vitest';
import type { TenantClient } from './api';

export interface FeedItem {
  id: string;
  resource: string;
  changeType: 'created' | 'updated' | 'deleted' | 'restored';
  recordId: string;
  key: string;
  version: number;
  occurredOn: string;
  actor: string;
  changes?: Record<string, unknown>;
}

export interface FeedPage {
  items: FeedItem[];
  cursor: string;
  nextPageLink?: string;
}

/** One page of the feed (200 expected). */
export async function readChanges(client: TenantClient, query = ''): Promise<FeedPage> {
  const result = await client.call<FeedPage>('GET', `/changes${query}`);
  expect(result.status, result.text).toBe(200);
  return result.body;
}

/** Every event of the tenant/org, page after page. */
export async function readAllChanges(client: TenantClient, resource = '*'): Promise<FeedItem[]> {
  const items: FeedItem[] = [];
  let page = await readChanges(client, `?resource=${encodeURIComponent(resource)}&$top=50`);
  items.push(...page.items);
  while (page.nextPageLink) {
    page = await readChanges(client, new URL(page.nextPageLink).search);
    items.push(...page.items);
  }
  return items;
}
