/**
 * POSTs to a receiver (the validation handshake and deliveries): 10 seconds at most, redirects not followed, connected
 * to an address the DNS rule checked where the platform can pin it (Deno), at most 4 KB of the answer read. The body
 * is read through a reader that stops at 4 KB and cancels the stream, so the rest of an answer (however large, or
 * endless) is never downloaded nor held in memory.
 */
import type { PinnedFetch, ReceiverPost } from '../../runtime/platform';

const RECEIVER_TIMEOUT_MS = 10_000;
/** The most of a receiver's answer that is read (the handshake's token, an error's first words). */
const RECEIVER_ANSWER_MAX_BYTES = 4096;

export type ReceiverAnswer = { readonly status: number; readonly text: string } | { readonly error: string };

/**
 * Where the POST connects: with a platform's `pinnedFetch` and the addresses the host was checked to resolve to, one of
 * those; otherwise (Workers; an IP literal or a development loopback host, which nothing resolves) the runtime's fetch.
 */
export interface ReceiverTarget {
  readonly pinnedFetch: PinnedFetch | undefined;
  readonly addresses: readonly string[];
}

/** At most `max` bytes of the body, decoded as UTF-8; the stream is cancelled as soon as they are read. */
export async function readAtMost(response: Response, max = RECEIVER_ANSWER_MAX_BYTES): Promise<string> {
  const stream = response.body;
  if (!stream) return '';
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < max) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.subarray(0, max - size);
      chunks.push(part);
      size += part.length;
    }
  } finally {
    // Whatever is left is not wanted: cancelling closes the connection instead of downloading it.
    await reader.cancel().catch(() => undefined);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(bytes);
}

export async function postToReceiver(post: ReceiverPost, target: ReceiverTarget): Promise<ReceiverAnswer> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), RECEIVER_TIMEOUT_MS);
  try {
    const { url, body, headers } = post;
    const response =
      target.pinnedFetch && target.addresses.length > 0
        ? await target.pinnedFetch(post, target.addresses, controller.signal)
        : await fetch(url, { method: 'POST', body, headers, redirect: 'manual', signal: controller.signal });
    // Read within the same 10 s: a receiver that trickles its answer is cut off like one that does not answer.
    const text = await readAtMost(response);
    return { status: response.status, text };
  } catch (error) {
    return {
      error: controller.signal.aborted ? 'timeout after 10 s' : `network error: ${error instanceof Error ? error.message : String(error)}`,
    };
  } finally {
    clearTimeout(timer);
  }
}
