/**
 * The multipart batch format (OData 4.0 part 1 §11.7, RFC 2046 `multipart/mixed`) read into the entries of a JSON
 * batch, which parse.ts `checkEntries` then checks as it checks those (one engine under both formats), and the layout
 * the answer repeats (multipart-answer.ts). Each `application/http` part is one request (its `Content-ID` its id; a
 * part without one is `#<n>`); a `multipart/mixed` part is a change set: one atomic group. Pure.
 *
 * Bounds (besides the 1 MiB body and the checks of a JSON batch): a boundary of 1 to 70 characters (RFC 2046), at most
 * MAX_BATCH_REQUESTS requests in all (counted before any request is read), at most MAX_PART_HEADERS header lines per
 * part, header lines of at most MAX_HEADER_LINE characters, MAX_INNER_HEADERS + 2 header lines per request (its Host and
 * Content-Length are framing and dropped), change sets one level deep (never one in another), none empty.
 */
import type { FieldError } from '../../errors/api-error';
import { MAX_JSON_DEPTH, findIllFormedString, findTooDeepField } from '../../http/json-input';
import { message } from '../../messages/catalogue';
import type { MessageKey } from '../../messages/catalogue';
import { MAX_BATCH_REQUESTS, MAX_INNER_HEADERS, isJsonMediaType } from './parse';
import { NAME_PATTERN } from './target';

const MAX_BOUNDARY_LENGTH = 70;
const MAX_PART_HEADERS = 16;
const MAX_HEADER_LINE = 8448;
/** An inner body nests at most this deep, as in a JSON batch (whose own 3 levels count against the body's 32). */
const MAX_INNER_DEPTH = MAX_JSON_DEPTH - 3;
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]*[0-9A-Za-z'()+_,\-./:=?]$/;
const PARAMETER = /;\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^;\s]*)/g;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;
const REQUEST_LINE = /^([A-Za-z]+) +(\S+)(?: +HTTP\/1\.[01])?$/;
const IDENTITY_ENCODINGS = new Set(['binary', '8bit', '7bit']);
/** Framing of the inner request, not a header it is sent with. */
const FRAMING_HEADERS = new Set(['host', 'content-length']);

/** Where each request of a multipart batch is, in order: alone (its index), or in a change set (theirs). */
export type MultipartLayout = readonly ({ readonly request: number } | { readonly changeset: readonly number[] })[];

/** A multipart batch read: its entries (JSON batch entries), where each is in the body, and its layout. */
export interface MultipartBatch {
  readonly entries: readonly Record<string, unknown>[];
  readonly paths: readonly string[];
  readonly layout: MultipartLayout;
}

type Faults = FieldError[];

function fault(faults: Faults, path: string, key: MessageKey, params: Readonly<Record<string, string | number>> = {}): void {
  faults.push({ path, message: message(key, { field: path, ...params }) });
}

function mediaTypeOf(contentType: string | undefined): string {
  return contentType?.split(';')[0]?.trim().toLowerCase() ?? '';
}

/** `multipart/mixed` (any case, any parameters). */
export function isMultipartMixed(contentType: string | null | undefined): boolean {
  return mediaTypeOf(contentType ?? undefined) === 'multipart/mixed';
}

/** The `boundary` parameter of a `multipart/mixed` content type (quoted or not), if it is a valid one. */
export function readBoundary(contentType: string): string | undefined {
  if (!isMultipartMixed(contentType)) return undefined;
  for (const match of contentType.matchAll(PARAMETER)) {
    if ((match[1] ?? '').toLowerCase() !== 'boundary') continue;
    const raw = match[2] ?? '';
    const value = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    return value.length <= MAX_BOUNDARY_LENGTH && BOUNDARY.test(value) ? value : undefined;
  }
  return undefined;
}

/**
 * The parts between `--boundary` lines (CRLF or LF), without the preamble before the first and the epilogue after the
 * closing `--boundary--` (none when it is the only one); undefined when there is no closing line.
 */
export function splitParts(text: string, boundary: string): string[] | undefined {
  const escaped = boundary.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const delimiter = new RegExp(`(?:^|\\r?\\n)--${escaped}(--)?[ \\t]*(?:\\r?\\n|$)`, 'g');
  const parts: string[] = [];
  let start: number | undefined;
  for (const match of text.matchAll(delimiter)) {
    if (start !== undefined) parts.push(text.slice(start, match.index));
    if (match[1] !== undefined) return parts;
    start = match.index + match[0].length;
  }
  return undefined;
}

/** Header lines up to the first empty line (names lower-case; repeated ones joined by `, `), and the text after it. */
function splitHead(text: string, maxLines: number): { headers: Record<string, string>; rest: string } | undefined {
  const headers: Record<string, string> = {};
  let offset = 0;
  for (let count = 0; offset < text.length; count += 1) {
    const end = text.indexOf('\n', offset);
    const line = (end < 0 ? text.slice(offset) : text.slice(offset, end)).replace(/\r$/, '');
    offset = end < 0 ? text.length : end + 1;
    if (line === '') return { headers, rest: text.slice(offset) };
    const match = count < maxLines && line.length <= MAX_HEADER_LINE ? HEADER_LINE.exec(line) : null;
    if (!match) return undefined;
    const name = (match[1] ?? '').toLowerCase();
    headers[name] = headers[name] === undefined ? (match[2] ?? '') : `${headers[name]}, ${match[2] ?? ''}`;
  }
  return { headers, rest: '' };
}

/** A request part: where it is, its Content-ID, its text (request line, headers, body). */
interface RequestPart {
  readonly path: string;
  readonly contentId?: string;
  readonly request: string;
}

/** A part of the batch: a request, or a change set's requests (`size`: how many parts it has). */
type Part = RequestPart | { readonly path: string; readonly changeset: readonly RequestPart[]; readonly size: number };

/** One part's MIME headers and content: a request, a change set (at the top level), or a fault. */
function readPart(text: string, path: string, nested: boolean, faults: Faults): Part | undefined {
  const head = splitHead(text, MAX_PART_HEADERS);
  if (!head) return void fault(faults, path, 'batchPartHeaders', { max: MAX_PART_HEADERS });
  const { headers, rest } = head;
  const contentId = headers['content-id'];
  const encoding = headers['content-transfer-encoding']?.toLowerCase();
  const type = headers['content-type'] ?? '';
  if (mediaTypeOf(type) === 'application/http' && (encoding === undefined || IDENTITY_ENCODINGS.has(encoding)))
    return { path, request: rest, ...(contentId === undefined ? {} : { contentId }) };
  const boundary = nested ? undefined : readBoundary(type);
  if (boundary === undefined) return void fault(faults, path, 'batchPartType');
  const texts = splitParts(rest, boundary);
  if (!texts) return void fault(faults, path, 'batchMultipartFrame', { boundary });
  if (texts.length === 0) return void fault(faults, path, 'batchChangesetEmpty');
  // Past the bound, the batch is refused for its size: its parts are not read.
  if (texts.length > MAX_BATCH_REQUESTS) return { path, changeset: [], size: texts.length };
  const changeset = texts.flatMap((inner, index) => {
    const part = readPart(inner, `${path}.parts[${index}]`, true, faults);
    return part && 'request' in part ? [part] : [];
  });
  return { path, changeset, size: texts.length };
}

/** The JSON value of a JSON body (as a JSON batch carries it), or undefined when it is not one. */
function parseJsonBody(text: string): { value: unknown } | undefined {
  if (findTooDeepField(text, MAX_INNER_DEPTH) !== undefined) return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return findIllFormedString(value) ? undefined : { value };
  } catch {
    return undefined;
  }
}

/** An `application/http` part's request as a JSON batch entry (`atomicityGroup` added by the caller). */
function readRequest(text: string, path: string, label: string, faults: Faults): Record<string, unknown> | undefined {
  const lineEnd = text.indexOf('\n');
  const line = (lineEnd < 0 ? text : text.slice(0, lineEnd)).replace(/\r$/, '');
  const requestLine = line.length <= MAX_HEADER_LINE ? REQUEST_LINE.exec(line) : null;
  if (!requestLine) return void fault(faults, path, 'batchRequestLine');
  const head = splitHead(lineEnd < 0 ? '' : text.slice(lineEnd + 1), MAX_INNER_HEADERS + FRAMING_HEADERS.size);
  if (!head) return void fault(faults, `${path}.headers`, 'batchPartHeaders', { max: MAX_INNER_HEADERS });
  const headers = Object.fromEntries(Object.entries(head.headers).filter(([name]) => !FRAMING_HEADERS.has(name)));
  const entry: Record<string, unknown> = { method: requestLine[1], url: requestLine[2], headers };
  if (head.rest.trim() === '') return entry;
  if (headers['content-type'] !== undefined && !isJsonMediaType(headers['content-type'])) return { ...entry, body: head.rest };
  const json = parseJsonBody(head.rest);
  if (json) return { ...entry, body: json.value };
  faults.push({ path: `${path}.body`, message: message('batchPartJson', { id: label, field: `${path}.body`, max: MAX_INNER_DEPTH }) });
  return undefined;
}

/** The top-level parts and how many requests they hold, or the faults of the frame (nothing else is read then). */
function readParts(text: string, boundary: string, faults: Faults): { parts: Part[]; count: number } {
  const texts = splitParts(text, boundary);
  if (!texts || texts.length === 0) {
    fault(faults, 'body', 'batchMultipartFrame', { boundary });
    return { parts: [], count: 0 };
  }
  // Every part holds a request at least: past the bound, the batch is refused for its size.
  if (texts.length > MAX_BATCH_REQUESTS) return { parts: [], count: texts.length };
  const parts = texts.flatMap((part, index) => readPart(part, `parts[${index}]`, false, faults) ?? []);
  return { parts, count: parts.reduce((total, part) => total + ('size' in part ? part.size : 1), 0) };
}

/** A change set's group name: one no Content-ID of the batch has. */
function nameGroup(index: number, ids: ReadonlySet<string>): string {
  let name = `changeset-${index + 1}`;
  while (ids.has(name)) name = `${name}_`;
  return name;
}

/** The entries (in order) and layout of the parts read. */
function collectEntries(parts: readonly Part[], faults: Faults): MultipartBatch {
  const requests = parts.flatMap((part) => ('request' in part ? [part] : part.changeset));
  const ids = new Set(requests.flatMap((request) => (request.contentId === undefined ? [] : [request.contentId])));
  const entries: Record<string, unknown>[] = [];
  const add = (request: RequestPart, group?: string): number => {
    const { contentId } = request;
    const label = contentId !== undefined && NAME_PATTERN.test(contentId) ? contentId : `#${entries.length + 1}`;
    const entry = readRequest(request.request, request.path, label, faults) ?? {};
    entries.push({ ...entry, ...(contentId === undefined ? {} : { id: contentId }), ...(group ? { atomicityGroup: group } : {}) });
    return entries.length - 1;
  };
  let groups = 0;
  const layout = parts.map((part) => {
    if ('request' in part) return { request: add(part) };
    const group = nameGroup(groups++, ids);
    return { changeset: part.changeset.map((request) => add(request, group)) };
  });
  return { entries, paths: requests.map((request) => request.path), layout };
}

/** The multipart body read into entries and layout, or every fault of its frame and parts (nothing may run then). */
export function parseMultipartBatch(text: string, contentType: string): MultipartBatch | { errors: FieldError[] } {
  const boundary = readBoundary(contentType);
  if (boundary === undefined) {
    const params = { field: 'Content-Type', max: MAX_BOUNDARY_LENGTH };
    return { errors: [{ path: 'Content-Type', message: message('batchBoundary', params) }] };
  }
  const faults: Faults = [];
  const { parts, count } = readParts(text, boundary, faults);
  if (count > MAX_BATCH_REQUESTS) {
    return { errors: [{ path: 'body', message: message('batchTooMany', { field: 'body', count, max: MAX_BATCH_REQUESTS }) }] };
  }
  if (faults.length > 0) return { errors: faults };
  const batch = collectEntries(parts, faults);
  return faults.length > 0 ? { errors: faults } : batch;
}
