/**
 * The change feed: a tenant/org's events in commit order from a cursor. The cursor is the sequence number of the last
 * event the client has seen, encoded (`c1.<base64url>`) so clients treat it as opaque.
 */
import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import { scopeCondition } from '../db/client';
import type { TenantScope } from '../db/client';
import { sqlBuilder } from '../db/sql';
import type { TenantReader } from '../db/reader';
import { ApiError } from '../errors/api-error';
import { message } from '../messages/catalogue';
import { isPlainObject } from '../validation/values';
import { lastSequenceOf } from './outbox';
import { changeEventRetention, changeEvents } from './table';
import type { ChangeEventRow } from './table';

/** How long events stay in the feed (and in deliveries' reach): 30 days. */
export const RETENTION_DAYS = 30;
export const FEED_PAGE_DEFAULT = 100;
export const FEED_PAGE_MAX = 1000;

const CURSOR_PREFIX = 'c1.';

export function encodeCursor(seq: number): string {
  return `${CURSOR_PREFIX}${btoa(`seq:${seq}`).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}`;
}

function invalidCursor(key: 'cursorInvalid' | 'cursorAhead', field: string): ApiError {
  const text = message(key, { field });
  return new ApiError('InvalidCursor', text, { errors: [{ path: field, message: text }] });
}

/**
 * The sequence number a cursor stands for; 400 InvalidCursor naming `field` (the query parameter, or the live
 * stream's `Last-Event-ID` header) when it is not one this API made.
 */
export function decodeCursor(cursor: string, field = 'since'): number {
  if (cursor.startsWith(CURSOR_PREFIX)) {
    try {
      const text = atob(cursor.slice(CURSOR_PREFIX.length).replace(/-/g, '+').replace(/_/g, '/'));
      const match = /^seq:(0|[1-9]\d{0,15})$/.exec(text);
      if (match?.[1] !== undefined) return Number(match[1]);
    } catch {
      // not base64: refused below
    }
  }
  throw invalidCursor('cursorInvalid', field);
}

/**
 * A resource filter: the resource itself or anything under it (`operations` matches `operations/emailTemplates`).
 * Compared as text (the first characters), not with LIKE: no pattern, so no wildcard to escape and no limit on patterns
 * (D1 refuses LIKE patterns over 50 bytes).
 */
export function matchesResource(prefix: string) {
  if (prefix === '*' || prefix === '') return undefined;
  const under = `${prefix}/`;
  return or(eq(changeEvents.resource, prefix), sql`substr(${changeEvents.resource}, 1, length(${under})) = ${under}`);
}

/** True when an event of `resource` passes the filter `prefix` (the same rule as `matchesResource`, in memory). */
export function isResourceUnder(prefix: string, resource: string): boolean {
  return prefix === '*' || prefix === '' || resource === prefix || resource.startsWith(`${prefix}/`);
}

/** What both the feed and notifications say of an event's record. */
export function describeEvent(row: ChangeEventRow) {
  return {
    resource: row.resource,
    changeType: row.changeType,
    recordId: row.recordId,
    key: row.recordKey,
    version: row.version,
    occurredOn: row.occurredOn,
  };
}

/** The stored `changes` (a JSON object, written by the outbox) as the feed answers it. */
function parseChanges(text: string | null): { changes?: Record<string, unknown> } {
  const changes: unknown = text === null ? null : JSON.parse(text);
  return isPlainObject(changes) ? { changes } : {};
}

/** An event as the feed answers it. */
export function toFeedItem(row: ChangeEventRow) {
  return {
    id: row.id,
    ...describeEvent(row),
    actor: row.actor,
    ...parseChanges(row.changes),
  };
}

export interface FeedPage {
  readonly rows: readonly ChangeEventRow[];
  /** The cursor to continue from: the last event returned, or (last page) the newest sequence number read. */
  readonly next: number;
  readonly hasMore: boolean;
}

/** The newest sequence number and the retention mark, as one statement of a batch. */
function selectMarks(scope: TenantScope) {
  return sqlBuilder
    .select({ last: sql<number>`${lastSequenceOf(scope)}`, pruned: sql<number>`coalesce(max(${changeEventRetention.prunedSeq}), 0)` })
    .from(changeEventRetention)
    .where(scopeCondition(changeEventRetention, scope));
}

/** The newest sequence number; a cursor older than retention is 410, one ahead of the newest event 400 (naming `field`). */
function checkSince(since: number | undefined, marks: readonly { last: number; pruned: number }[], field: string): number {
  const last = Number(marks[0]?.last ?? 0);
  const pruned = Number(marks[0]?.pruned ?? 0);
  if (since !== undefined && since < pruned) {
    const text = message('cursorExpired', { field, days: RETENTION_DAYS });
    throw new ApiError('CursorExpired', text, { errors: [{ path: field, message: text }] });
  }
  if (since !== undefined && since > last) throw invalidCursor('cursorAhead', field);
  return last;
}

/**
 * The newest sequence number of the feed (one D1 round trip), after checking `since` against it and the retention
 * mark as a page read does: where a live stream starts.
 */
export async function readFeedEnd(tenant: TenantReader, since: number | undefined, field: string): Promise<number> {
  return checkSince(since, await tenant.read(selectMarks(tenant.scope)), field);
}

/**
 * One page after `since` (undefined: from the start of retention), in one D1 round trip: the events, the newest
 * sequence number and the retention mark are read in one batch (one snapshot). A cursor older than retention is 410,
 * a cursor ahead of the newest event 400.
 */
export async function readFeedPage(tenant: TenantReader, since: number | undefined, resource: string, top: number): Promise<FeedPage> {
  const { scope } = tenant;
  const after = since ?? 0;
  const [rows, marks] = await tenant.readBatch([
    sqlBuilder
      .select()
      .from(changeEvents)
      .where(and(scopeCondition(changeEvents, scope), gt(changeEvents.seq, after), matchesResource(resource)))
      .orderBy(asc(changeEvents.seq))
      .limit(top + 1),
    selectMarks(scope),
  ]);
  const last = checkSince(since, marks, 'since');
  const hasMore = rows.length > top;
  const page = rows.slice(0, top);
  const next = hasMore ? (page.at(-1)?.seq ?? after) : Math.max(after, last);
  return { rows: page, next, hasMore };
}
