/** What the live hub (hub.ts) needs of its runtime, and how it turns a feed row into an event it sends. */
import type { FeedPage } from '../events/feed';
import { toFeedItem } from '../events/feed';
import type { LiveEvent } from './frames';

/** What the hub needs of its runtime. */
export interface LiveHubHost {
  /** One page of the feed after `since`, of `resource` (`*`: every event), at most `top` events, from the primary. */
  readFeed(since: number, resource: string, top: number): Promise<FeedPage>;
  /** Milliseconds since the epoch. */
  now(): number;
  /** Wakes the hub (`expire`) at `at` (ms), or never (null): when the next token expires. */
  scheduleExpiry(at: number | null): void;
  /** Keeps the pump's position where it outlives the object's memory (hibernation); at most every few seconds. */
  keepHead?(head: number): void;
  /** Whether the API client was revoked after `issuedAt` (the check a request's token gets). */
  isRevoked?(clientId: string, issuedAt: number | undefined): Promise<boolean>;
}

/** A row of the feed as the hub sends it: the feed item's JSON (the shape of `GET /changes` items), encoded once. */
export function toLiveEvent(row: FeedPage['rows'][number]): LiveEvent {
  return { seq: row.seq, resource: row.resource, json: JSON.stringify(toFeedItem(row)) };
}
