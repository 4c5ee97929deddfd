/**
 * The `$batch` body (OData 4.01 JSON batch format), parsed and checked whole before anything runs: at most
 * `MAX_BATCH_REQUESTS` requests, unique ids, methods, urls of the batch's own tenant/org (never a nested `$batch`),
 * headers, bodies, `dependsOn` naming earlier requests or groups (so no cycle can be written), adjacent atomicity
 * groups. Every fault is a field error naming the request (`Request <id>: requests[i].<field> ...`); pure. A multipart
 * batch (src/services/batch/multipart-parse.ts) is read into the same entries and checked here too (`checkEntries`).
 */
import type { FieldError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';
import type { MessageKey } from '../../messages/catalogue';
import { findBodyReferences, findPathReferences } from './references';
import { MAX_NAME_LENGTH, NAME_PATTERN, resolveUrl } from './target';
import type { BatchTarget, ResolvedUrl } from './target';

export const MAX_BATCH_REQUESTS = 100;
export const MAX_INNER_HEADERS = 50;
/**
 * The methods an entry may have: each is sent as it is and its target answers it (405 with `Allow` where the target does
 * not take it). CONNECT, TRACE and other methods are refused with the batch.
 */
type BatchMethod = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
const METHODS: readonly BatchMethod[] = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const BODY_METHODS: ReadonlySet<BatchMethod> = new Set(['POST', 'PUT', 'PATCH']);
const PROPERTIES = new Set(['id', 'method', 'url', 'headers', 'body', 'dependsOn', 'atomicityGroup']);
/** Headers the batch sets itself: the token, its bookmark chain, the body framing; idempotency is the batch's. */
const RESERVED_HEADERS = new Set(['idempotency-key', 'x-d1-bookmark', 'content-length', 'transfer-encoding', 'host']);
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
/** Header values: no NUL, CR or LF (what the Headers class refuses), at most 8 KiB. */
function isHeaderValue(value: string): boolean {
  return (
    value.length <= 8192 &&
    [...value].every((character) => (character.codePointAt(0) ?? 0) <= 0xff) &&
    !value.includes('\u0000') &&
    !value.includes('\r') &&
    !value.includes('\n')
  );
}

/** One inner request, checked. */
export interface BatchRequest {
  readonly index: number;
  /** Where it is in the batch body (`requests[i]`; `parts[i]` or `parts[i].parts[j]` in a multipart batch). */
  readonly path: string;
  readonly id: string;
  readonly method: BatchMethod;
  readonly url: ResolvedUrl;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON value to send (`json`), or the text to send as is. */
  readonly body?: { readonly json: boolean; readonly value: unknown };
  readonly dependsOn: readonly string[];
  readonly atomicityGroup?: string;
  /** Earlier requests whose record identifiers the url or body uses (`$<id>`). */
  readonly references: readonly string[];
  /** A fault of this request alone (an `Authorization` other than the batch's): it answers 400 with it and does not run. */
  readonly refusal?: FieldError;
}

/** What the checks need besides the entries. */
interface CheckOptions {
  /** The batch's own `Authorization`: an entry's equal one is accepted (and dropped), another one refuses that entry. */
  readonly authorization: string | null;
  /** Where entry `i` is in the body (default `requests[i]`). */
  readonly pathOf?: (index: number) => string;
  /** Entries may have no id (parts without Content-ID): they are named `#<n>`, which no `$<id>` can name. */
  readonly optionalIds?: boolean;
}

export interface BatchPlan {
  readonly requests: readonly BatchRequest[];
  /** `Isolation: snapshot`: the whole batch is one atomic group. */
  readonly snapshot: boolean;
}

/** What the checks of one entry know about the entries before it. */
interface Seen {
  readonly options: CheckOptions;
  readonly ids: Set<string>;
  readonly groups: Set<string>;
  readonly allIds: ReadonlySet<string>;
  lastGroup: string | undefined;
}

type Fault = (field: string, key: MessageKey, params?: Readonly<Record<string, string | number>>) => void;

/** Scheme (case-insensitive) and credentials of an `Authorization` value, for comparing two of them. */
function normalizeAuthorization(value: string): string {
  const [scheme = '', ...rest] = value.trim().split(/\s+/);
  return `${scheme.toLowerCase()} ${rest.join(' ')}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON media types (`application/json`, `application/*+json`). */
export function isJsonMediaType(value: string | undefined): boolean {
  const mediaType = value?.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** The entry's headers (lower-case names); an `Authorization` equal to the batch's is dropped, another one noted in `other`. */
function parseHeaders(raw: unknown, fault: Fault, seen: Seen, other: { authorization?: string }): Record<string, string> {
  if (raw === undefined) return {};
  if (!isRecord(raw) || Object.keys(raw).length > MAX_INNER_HEADERS) {
    fault('headers', 'batchHeaders', { max: MAX_INNER_HEADERS });
    return {};
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    const lower = name.toLowerCase();
    if (!HEADER_NAME.test(name)) fault('headers', 'batchHeaders', { max: MAX_INNER_HEADERS });
    else if (RESERVED_HEADERS.has(lower)) fault(`headers.${name}`, 'batchHeaderReserved');
    else if (typeof value !== 'string' || !isHeaderValue(value)) fault(`headers.${name}`, 'batchHeaderValue');
    else if (lower !== 'authorization') headers[lower] = value.trim();
    else if (seen.options.authorization === null || normalizeAuthorization(value) !== normalizeAuthorization(seen.options.authorization))
      other.authorization = `headers.${name}`;
  }
  return headers;
}

function parseBody(entry: Record<string, unknown>, method: BatchMethod | undefined, headers: Record<string, string>, fault: Fault) {
  if (!('body' in entry) || entry.body === undefined) return undefined;
  if (method !== undefined && !BODY_METHODS.has(method)) {
    fault('body', 'batchBodyMethod');
    return undefined;
  }
  const contentType = headers['content-type'];
  if (contentType === undefined || isJsonMediaType(contentType)) return { json: true, value: entry.body };
  if (typeof entry.body !== 'string') fault('body', 'batchBodyText');
  return { json: false, value: entry.body };
}

function parseDependsOn(raw: unknown, group: string | undefined, seen: Seen, fault: Fault): string[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw) || raw.length > MAX_BATCH_REQUESTS || !raw.every((name) => typeof name === 'string')) {
    fault('dependsOn', 'batchDependsOn');
    return [];
  }
  const names = raw as string[];
  for (const name of names) {
    const earlier = seen.ids.has(name) || (seen.groups.has(name) && name !== group);
    if (!earlier) fault('dependsOn', 'batchUnknownDependency', { name });
  }
  return names;
}

function parseGroup(raw: unknown, seen: Seen, fault: Fault): string | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !NAME_PATTERN.test(raw)) {
    fault('atomicityGroup', 'batchName', { max: MAX_NAME_LENGTH });
    return undefined;
  }
  if (seen.allIds.has(raw)) fault('atomicityGroup', 'batchGroupIsId', { name: raw });
  else if (seen.groups.has(raw) && seen.lastGroup !== raw) fault('atomicityGroup', 'batchGroupAdjacent', { name: raw });
  return raw;
}

function parseUrl(raw: unknown, target: BatchTarget, fault: Fault): ResolvedUrl | undefined {
  if (typeof raw !== 'string' || raw === '') {
    fault('url', 'batchUrl');
    return undefined;
  }
  const resolved = resolveUrl(raw, target);
  if ('fault' in resolved) fault('url', resolved.fault);
  return 'url' in resolved ? resolved.url : undefined;
}

/** `$<id>` references of the url and body: to earlier requests only. */
function collectReferences(id: string, url: ResolvedUrl, body: BatchRequest['body'], seen: Seen, fault: Fault): string[] {
  const inUrl = [...(url.base === undefined ? [] : [url.base]), ...findPathReferences(url.rest, seen.allIds)];
  const inBody = body?.json ? findBodyReferences(body.value, seen.allIds) : [];
  const check = (field: string) => (name: string) => {
    if (!seen.ids.has(name) || name === id) fault(field, 'batchForwardReference', { name });
  };
  inUrl.forEach(check('url'));
  inBody.forEach(check('body'));
  if (url.base !== undefined && !seen.allIds.has(url.base)) fault('url', 'batchForwardReference', { name: url.base });
  return [...new Set([...inUrl, ...inBody])];
}

/** The entry's id (its label in messages): unnamed entries of a multipart batch are `#<n>`. */
function labelOf(raw: unknown, index: number): string {
  const rawId = isRecord(raw) ? raw.id : undefined;
  return typeof rawId === 'string' && NAME_PATTERN.test(rawId) ? rawId : `#${index + 1}`;
}

function checkId(raw: Record<string, unknown>, label: string, seen: Seen, fault: Fault): void {
  if (raw.id === undefined && seen.options.optionalIds === true) return;
  if (label !== raw.id) fault('id', 'batchName', { max: MAX_NAME_LENGTH });
  else if (seen.ids.has(label)) fault('id', 'batchDuplicateId');
}

function parseEntry(raw: unknown, index: number, target: BatchTarget, seen: Seen, errors: FieldError[]): BatchRequest | undefined {
  const label = labelOf(raw, index);
  const at = seen.options.pathOf?.(index) ?? `requests[${index}]`;
  const before = errors.length;
  const fault: Fault = (field, key, params = {}) =>
    errors.push({ path: `${at}.${field}`, message: message(key, { id: label, field: `${at}.${field}`, ...params }) });
  if (!isRecord(raw)) {
    errors.push({ path: at, message: message('batchEntry', { id: label, field: at }) });
    return undefined;
  }
  for (const name of Object.keys(raw)) if (!PROPERTIES.has(name)) fault(name, 'batchUnknownProperty');
  checkId(raw, label, seen, fault);
  const method = typeof raw.method === 'string' ? METHODS.find((known) => known === (raw.method as string).toUpperCase()) : undefined;
  if (method === undefined) fault('method', 'batchMethod');
  const url = parseUrl(raw.url, target, fault);
  const other: { authorization?: string } = {};
  const headers = parseHeaders(raw.headers, fault, seen, other);
  const body = parseBody(raw, method, headers, fault);
  const group = parseGroup(raw.atomicityGroup, seen, fault);
  const dependsOn = parseDependsOn(raw.dependsOn, group, seen, fault);
  const references = url ? collectReferences(label, url, body, seen, fault) : [];
  seen.ids.add(label);
  if (group !== undefined) seen.groups.add(group);
  seen.lastGroup = group;
  if (errors.length > before || method === undefined || url === undefined) return undefined;
  const field = `${at}.${other.authorization ?? ''}`;
  const refusal =
    other.authorization === undefined ? undefined : { path: field, message: message('batchAuthorization', { id: label, field }) };
  return {
    ...{ index, path: at, id: label, method, url, headers },
    ...(body ? { body } : {}),
    dependsOn,
    ...(group ? { atomicityGroup: group } : {}),
    references,
    ...(refusal ? { refusal } : {}),
  };
}

/** The ids of the entries (for `$<id>`: a name is a reference only when some request has it as its id). */
function collectIds(entries: readonly unknown[]): Set<string> {
  return new Set(
    entries.flatMap((entry) => (isRecord(entry) && typeof entry.id === 'string' && NAME_PATTERN.test(entry.id) ? [entry.id] : [])),
  );
}

/** Entries (of either format) checked whole: the plan, or every fault found (nothing may run then). */
export function checkEntries(
  entries: readonly unknown[],
  target: BatchTarget,
  snapshot: boolean,
  options: CheckOptions,
): { plan: BatchPlan } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const seen: Seen = { options, ids: new Set(), groups: new Set(), allIds: collectIds(entries), lastGroup: undefined };
  const requests = entries.map((entry: unknown, index) => parseEntry(entry, index, target, seen, errors));
  if (errors.length > 0) return { errors };
  return { plan: { requests: requests.filter((request): request is BatchRequest => request !== undefined), snapshot } };
}

/** The JSON batch body checked whole: the plan, or every fault found (nothing may run then). */
export function parseBatch(
  body: unknown,
  target: BatchTarget,
  snapshot: boolean,
  options: CheckOptions = { authorization: null },
): { plan: BatchPlan } | { errors: FieldError[] } {
  const entries = isRecord(body) ? body.requests : undefined;
  if (!Array.isArray(entries) || entries.length === 0) {
    return { errors: [{ path: 'requests', message: message('batchRequests', { field: 'requests', max: MAX_BATCH_REQUESTS }) }] };
  }
  if (entries.length > MAX_BATCH_REQUESTS) {
    const params = { field: 'requests', count: entries.length, max: MAX_BATCH_REQUESTS };
    return { errors: [{ path: 'requests', message: message('batchTooMany', params) }] };
  }
  const extra = Object.keys(body as Record<string, unknown>).filter((name) => name !== 'requests');
  const checked = checkEntries(entries, target, snapshot, options);
  if (extra.length === 0) return checked;
  const errors = extra.map((name) => ({ path: name, message: message('batchBodyProperty', { field: name }) }));
  return { errors: [...errors, ...('errors' in checked ? checked.errors : [])] };
}
