/**
 * The bound of a `$batch` answer: an inner answer's body is read up to MAX_INNER_ANSWER_BYTES (never more is held),
 * and the inner bodies of one batch together hold at most MAX_BATCH_ANSWER_BYTES. An answer past either becomes that
 * request's own 507 `AnswerTooLarge` (the request ran: the problem says what it answered); the other answers stay.
 */
import { ApiError } from '../../errors/api-error';
import { message } from '../../messages/catalogue';

/** The most bytes one inner answer's body may have in a batch answer (docs/api-reference.md, "Limits"). */
export const MAX_INNER_ANSWER_BYTES = 2 * 1024 * 1024;
/** The most bytes the inner answers' bodies of one batch may have together. */
export const MAX_BATCH_ANSWER_BYTES = 8 * 1024 * 1024;

/** What a batch's answers may still hold. */
export interface AnswerBudget {
  left: number;
}

export function openAnswerBudget(): AnswerBudget {
  return { left: MAX_BATCH_ANSWER_BYTES };
}

/** An inner answer that did not fit: its status, and which bound it passed. */
export interface AnswerOverflow {
  readonly status: number;
  readonly bound: 'entry' | 'batch';
}

/**
 * The body's text, read chunk by chunk and counted against both bounds; past one, the read stops (the rest is
 * cancelled, never held) and the overflow is answered instead.
 */
export async function readBoundedBody(response: Response, budget: AnswerBudget): Promise<string | AnswerOverflow> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_INNER_ANSWER_BYTES || size > budget.left) {
      await reader.cancel().catch(() => undefined);
      return { status: response.status, bound: size > MAX_INNER_ANSWER_BYTES ? 'entry' : 'batch' };
    }
    chunks.push(value);
  }
  budget.left -= size;
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** The 507 of a request whose answer did not fit (`index`: the request's place in the batch). */
export function refuseOverflow(request: { readonly id: string; readonly path: string }, overflow: AnswerOverflow): ApiError {
  const field = request.path;
  const detail =
    overflow.bound === 'entry'
      ? message('batchAnswerTooLarge', { id: request.id, status: overflow.status, max: MAX_INNER_ANSWER_BYTES })
      : message('batchAnswerFull', { id: request.id, status: overflow.status, max: MAX_BATCH_ANSWER_BYTES });
  return new ApiError('AnswerTooLarge', detail, { errors: [{ path: field, message: detail }] });
}
