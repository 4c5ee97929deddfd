/** Byte and text streams of import files: strict UTF-8 decoding and reading a stream chunk by chunk. */
import { FileProblem } from './problem';

/** UTF-8 to text, refusing invalid bytes; a leading BOM is dropped (TextDecoder's default). */
export function decodeUtf8(): TransformStream<Uint8Array, string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const decode = (chunk?: Uint8Array) => {
    try {
      return chunk === undefined ? decoder.decode() : decoder.decode(chunk, { stream: true });
    } catch {
      throw new FileProblem('importNotUtf8');
    }
  };
  return new TransformStream<Uint8Array, string>({
    transform(chunk, controller) {
      const text = decode(chunk);
      if (text !== '') controller.enqueue(text);
    },
    flush(controller) {
      const text = decode();
      if (text !== '') controller.enqueue(text);
    },
  });
}

/** Every chunk of a stream, in order (the stream is released when the loop ends early). */
export async function* readChunks<T>(stream: ReadableStream<T>): AsyncGenerator<T> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

/** A stream that yields `first` and then the rest of `reader` (cancelling it cancels `reader`). */
export function prependChunks<T>(first: readonly T[], reader: Pick<ReadableStreamDefaultReader<T>, 'read' | 'cancel'>): ReadableStream<T> {
  const queue = [...first];
  return new ReadableStream<T>({
    async pull(controller) {
      const next = queue.shift();
      if (next !== undefined) {
        controller.enqueue(next);
        return;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel: async (reason) => reader.cancel(reason),
  });
}

/**
 * Lets the runtime serve other work (requests, other imports) between two parts of a long read: a timer, not a
 * microtask, so that the event loop runs (Workers and Deno serve every request of an isolate on one thread).
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
