/** One inner answer of `$batch` as the batch body carries it: `{ id, status, headers, body }`. */
import { readBoundedBody } from './answer-budget';
import type { AnswerBudget, AnswerOverflow } from './answer-budget';
import { isJsonMediaType } from './parse';

/** An inner request's answer in the batch's `responses`. */
export interface BatchResponse {
  readonly id: string;
  readonly status: number;
  /** The inner answer's headers (lower-case names), but for `x-d1-bookmark`: the batch answers the latest one. */
  readonly headers: Readonly<Record<string, string>>;
  /** JSON answers as JSON, others as text; absent when the answer has no body. */
  readonly body?: unknown;
  readonly atomicityGroup?: string;
  /** A member of a failed atomic group that answers 424 because another member failed (the answer is not its own). */
  readonly consequence?: true;
}

/** Header names whose usual spelling is not each word capitalized. */
const USUAL_NAMES: Readonly<Record<string, string>> = {
  etag: 'ETag',
  'www-authenticate': 'WWW-Authenticate',
  'content-id': 'Content-ID',
  'content-md5': 'Content-MD5',
  'odata-version': 'OData-Version',
  'odata-maxversion': 'OData-MaxVersion',
  'odata-entityid': 'OData-EntityId',
  'odata-isolation': 'OData-Isolation',
  ratelimit: 'RateLimit',
  'ratelimit-policy': 'RateLimit-Policy',
};

/** A header name in its usual case (`content-type` -> `Content-Type`, `etag` -> `ETag`): what clients look up by. */
export function formatHeaderName(name: string): string {
  const lower = name.toLowerCase();
  return USUAL_NAMES[lower] ?? lower.replace(/(^|-)([a-z])/g, (_, dash: string, letter: string) => `${dash}${letter.toUpperCase()}`);
}

/** The headers with their names in usual case. */
export function formatHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [formatHeaderName(name), value]));
}

/** The answers as the JSON batch format carries them: header names in usual case, nothing but the format's members. */
export function toJsonResponses(responses: readonly BatchResponse[]) {
  return responses.map(({ id, status, headers, body, atomicityGroup }) => ({
    id,
    status,
    headers: formatHeaders(headers),
    ...(body === undefined ? {} : { body }),
    ...(atomicityGroup === undefined ? {} : { atomicityGroup }),
  }));
}

const BOOKMARK_HEADER = 'x-d1-bookmark';

/** The inner Response's headers (but the bookmark) and body text as the batch answers them. */
function toBatchResponse(id: string, response: Response, text: string, atomicityGroup: string | undefined): BatchResponse {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== BOOKMARK_HEADER) headers[name] = value;
  });
  let body: unknown = text;
  if (text !== '' && isJsonMediaType(response.headers.get('content-type') ?? undefined)) {
    try {
      body = JSON.parse(text) as unknown;
    } catch {
      body = text;
    }
  }
  return { id, status: response.status, headers, ...(text === '' ? {} : { body }), ...(atomicityGroup ? { atomicityGroup } : {}) };
}

/** A Response of the batch's own (a refusal: small), read whole. */
export async function readBatchResponse(id: string, response: Response, atomicityGroup: string | undefined): Promise<BatchResponse> {
  return toBatchResponse(id, response, await response.text(), atomicityGroup);
}

/**
 * An inner request's Response, its body counted against the batch's `budget` (src/services/batch/answer-budget.ts):
 * past a bound, the overflow instead (the body is never held whole).
 */
export async function readInnerResponse(
  id: string,
  response: Response,
  atomicityGroup: string | undefined,
  budget: AnswerBudget,
): Promise<BatchResponse | AnswerOverflow> {
  const text = await readBoundedBody(response, budget);
  return typeof text === 'string' ? toBatchResponse(id, response, text, atomicityGroup) : text;
}

/**
 * The record identifier a create answered (what a later `$<id>` stands for): the last segment of its `Location`, or
 * its body when that is a JSON string (the creates of this API answer both). None for other answers.
 */
export function findRecordIdentifier(response: BatchResponse): string | undefined {
  if (response.status !== 201) return undefined;
  const location = response.headers.location;
  if (location !== undefined) {
    const last = new URL(location, 'http://x').pathname.split('/').pop() ?? '';
    try {
      const decoded = decodeURIComponent(last);
      if (decoded !== '') return decoded;
    } catch {
      // not percent-encoding: fall back to the body
    }
  }
  return typeof response.body === 'string' && response.body !== '' ? response.body : undefined;
}
