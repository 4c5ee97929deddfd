/** Byte and text streams of import files: strict UTF-8 decoding and reading a stream chunk by chunk. */
import { FileProblem, SourceError } from './problem';

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

/** The stored file's bytes, its read failures marked as SourceError (the storage's, not the file's: see problem.ts). */
export function guardSource(stream: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let next: ReadableStreamReadResult<Uint8Array>;
      try {
        next = await reader.read();
      } catch (error) {
        throw new SourceError(error);
      }
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    cancel: async (reason) => reader.cancel(reason),
  });
}

/**
 * Bytes cut into pieces of at most `max`: a parser whose stream queues up to 1,024 input chunks (csv-parse's) then reads
 * ahead at most 1,024 * `max` bytes of the file, not the file's 1 MiB windows (the whole file, for a large one).
 */
export function splitBytes(max: number): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      for (let offset = 0; offset < chunk.byteLength; offset += max) controller.enqueue(chunk.subarray(offset, offset + max));
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

const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** Passes bytes through, telling (once the first 3 bytes are seen) how many bytes of BOM the stream starts with. */
export function measureBom(found: (length: number) => void): TransformStream<Uint8Array, Uint8Array> {
  const first: number[] = [];
  let told = false;
  const tell = () => {
    if (told) return;
    told = true;
    found(UTF8_BOM.every((byte, index) => first[index] === byte) ? UTF8_BOM.length : 0);
  };
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      for (let index = 0; first.length < UTF8_BOM.length && index < chunk.byteLength; index += 1) first.push(chunk[index] ?? 0);
      if (first.length >= UTF8_BOM.length) tell();
      controller.enqueue(chunk);
    },
    flush: tell,
  });
}

/**
 * Lets the runtime serve other work (requests, other imports) between two parts of a long read: a timer, not a
 * microtask, so that the event loop runs (Workers and Deno serve every request of an isolate on one thread).
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
