/** One inner answer of `$batch` as the batch body carries it: `{ id, status, headers, body }`. */
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
}

const BOOKMARK_HEADER = 'x-d1-bookmark';

/** The inner Response, read whole, as the batch answers it. */
export async function readBatchResponse(id: string, response: Response, atomicityGroup: string | undefined): Promise<BatchResponse> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (name !== BOOKMARK_HEADER) headers[name] = value;
  });
  const text = await response.text();
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
