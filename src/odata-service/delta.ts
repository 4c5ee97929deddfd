/**
 * Change tracking of entity sets on the standard root, built on the change feed: a read with
 * `Prefer: odata.track-changes` answers `Preference-Applied` and, on its last page, an `@odata.deltaLink` holding the
 * feed position from before its first page; following that link answers what changed since (entities that match the
 * read's `$filter`, shaped by its `$select`/`$expand`) and `@removed` entries for records deleted or no longer matching,
 * then a new delta link. A position older than the feed's retention is 410.
 */
import { decodeCursor, encodeCursor, readFeedEnd, readFeedPage, RETENTION_DAYS } from '../events/feed';
import type { ChangeEventRow } from '../events/table';
import { ApiError } from '../errors/api-error';
import { message } from '../messages/catalogue';
import type { Fields } from '../model/fields';
import { resourceOf } from '../resources/entities/events';
import { referenceResourceOf } from '../resources/reference/write';
import type { EdmEntitySet } from './model';
import { formatKeyPredicate } from './shape';

/** The custom query option a tracked read's next links carry: the feed position its first page started from. */
export const TRACK_FROM = 'trackfrom';
const DELTA_TOKEN = '$deltatoken';
/** Options a delta link keeps from the read that started tracking (what the changes are filtered and shaped by). */
const KEPT_OPTIONS = ['$filter', '$select', '$expand', '$format'];
/** Records a delta page reads at most: their ids become one `id in (...)` condition beside the read's `$filter`. */
const MAX_RECORDS_PER_PAGE = 40;
/** Length of one GUID literal and its separator in that condition. */
const ID_LITERAL_LENGTH = 37;
const FILTER_LENGTH_LIMIT = 8192;
/** Parameters D1 binds per statement (100) less what the scope, paging and residency take. */
const PARAMETER_BUDGET = 90;

/** Whether the request's `Prefer` asks for change tracking. */
export function asksTrackChanges(prefer: string | null): boolean {
  return (prefer ?? '').split(',').some((preference) => preference.trim().toLowerCase() === 'odata.track-changes');
}

/** Query options by lower-cased name. */
function readOption(params: URLSearchParams, name: string): string | undefined {
  for (const [key, value] of params) if (key.toLowerCase() === name) return value;
  return undefined;
}

/** The delta token of a request (`$deltatoken`), if it follows a delta link. */
export function readDeltaToken(params: URLSearchParams): string | undefined {
  return readOption(params, DELTA_TOKEN);
}

/**
 * Where a tracked read's changes start: the position its first page carried in `trackfrom` (a next link), else the
 * feed's newest position now, read before the page (one D1 round trip), so no change made while the client pages is lost.
 */
export async function startTracking(tenant: Parameters<typeof readFeedEnd>[0], params: URLSearchParams): Promise<number> {
  const carried = readOption(params, TRACK_FROM);
  if (carried !== undefined) return decodeCursor(carried, TRACK_FROM);
  return readFeedEnd(tenant, undefined, DELTA_TOKEN);
}

/** A next link of a tracked read: the position rides along as `trackfrom`. */
export function carryTracking(nextLink: string, position: number): string {
  const url = new URL(nextLink);
  url.searchParams.set(TRACK_FROM, encodeCursor(position));
  return url.toString();
}

/** `{root}{set}?$filter=...&$select=...&$deltatoken=...`: the link that answers the changes after `position`. */
export function buildDeltaLink(root: string, set: string, params: URLSearchParams, position: number): string {
  const link = new URLSearchParams();
  for (const [key, value] of params) if (KEPT_OPTIONS.includes(key.toLowerCase())) link.append(key, value);
  link.set(DELTA_TOKEN, encodeCursor(position));
  return `${root}${set}?${link.toString()}`;
}

/** The feed position of a delta token; an expired one is 410 saying how to start over. */
export function decodeDeltaToken(token: string): number {
  return decodeCursor(token, DELTA_TOKEN);
}

/**
 * The feed's refusals of a position, worded for a delta link: older than retention (410, start a tracked read again),
 * or ahead of the feed (400, a token of another tenant/org), naming `$deltatoken`.
 */
export function rewordFeedError(error: unknown): unknown {
  if (!(error instanceof ApiError)) return error;
  const text =
    error.code === 'CursorExpired'
      ? message('deltaExpired', { field: DELTA_TOKEN, days: RETENTION_DAYS })
      : error.code === 'InvalidCursor'
        ? message('cursorAhead', { field: DELTA_TOKEN })
        : undefined;
  return text === undefined ? error : new ApiError(error.code, text, { errors: [{ path: DELTA_TOKEN, message: text }] });
}

/**
 * How many records one delta page reads: the `id in (...)` condition must leave the read's own `$filter` within the
 * filter length limit and D1's bound parameters (each word of the filter counted as a parameter it might bind).
 */
export function countRecordsPerPage(filter: string | undefined): number {
  if (filter === undefined) return MAX_RECORDS_PER_PAGE;
  const byLength = Math.floor((FILTER_LENGTH_LIMIT - filter.length - 32) / ID_LITERAL_LENGTH);
  const words = filter.match(/'(?:[^']|'')*'|[\w.:+-]+/g)?.length ?? 0;
  return Math.max(1, Math.min(MAX_RECORDS_PER_PAGE, byLength, PARAMETER_BUDGET - words));
}

/** The changes of one delta page: the newest event of each record, in feed order. */
export interface DeltaChanges {
  readonly latest: readonly ChangeEventRow[];
  /** Records created within the page: a client that tracked from before it never had them (no `@removed` for them). */
  readonly born: ReadonlySet<string>;
  readonly next: number;
  readonly hasMore: boolean;
}

/** The change feed's resource of a set's records: an entity's path, or `referenceData/{kind}`. */
function feedResourceOf(set: EdmEntitySet): string {
  return set.source.storage === 'entity' ? resourceOf(set.source.spec) : referenceResourceOf(set.source.spec);
}

/** The set's events after `position`, `records` of them at most (one D1 round trip), the newest per record. */
export async function readChanges(
  tenant: Parameters<typeof readFeedPage>[0],
  set: EdmEntitySet,
  position: number,
  records: number,
): Promise<DeltaChanges> {
  const page = await readFeedPage(tenant, position, feedResourceOf(set), records);
  const latest = new Map<string, ChangeEventRow>();
  const born = new Set<string>();
  for (const row of page.rows) {
    if (row.changeType === 'created' && !latest.has(row.recordId)) born.add(row.recordId);
    latest.delete(row.recordId);
    latest.set(row.recordId, row);
  }
  return { latest: [...latest.values()], born, next: page.next, hasMore: page.hasMore };
}

/** The condition of the records a delta page re-reads, beside the read's own `$filter`. */
export function buildChangedFilter(filter: string | undefined, ids: readonly string[]): string {
  const within = `id in (${ids.join(',')})`;
  return filter === undefined || filter.trim() === '' ? within : `(${filter}) and ${within}`;
}

/** The key values of an event's record (its `record_key`: the key fields joined by `/`, the last one taking the rest). */
function readEventKey(spec: { readonly key: readonly string[]; readonly fields: Fields }, row: ChangeEventRow): Record<string, unknown> {
  const parts = row.recordKey.split('/');
  const values: Record<string, unknown> = {};
  spec.key.forEach((name, index) => {
    const text = index === spec.key.length - 1 ? parts.slice(index).join('/') : (parts[index] ?? '');
    values[name] = spec.fields[name]?.kind === 'int' ? Number(text) : text;
  });
  return values;
}

/** A `@removed` entry (OData 4.01 JSON): the record's canonical id and key, deleted or no longer matching the read. */
export function buildRemovedEntry(set: EdmEntitySet, row: ChangeEventRow, root: string): Record<string, unknown> {
  const key = readEventKey(set.source.spec, row);
  const reason = row.changeType === 'deleted' ? 'deleted' : 'changed';
  return { '@removed': { reason }, '@id': `${root}${set.name}${formatKeyPredicate(set.type, key)}`, id: row.recordId, ...key };
}
