/** The import files of the Worker: the R2 bucket IMPORT_FILES (one `put` for small files, a multipart upload beyond). */
import type { FileStore, StoredFile } from '../platform';
import { readPart, UPLOAD_PART_BYTES } from './upload-parts';

async function putInParts(
  bucket: R2Bucket,
  key: string,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
): Promise<StoredFile> {
  const carry: Uint8Array[] = [];
  const first = await readPart(reader, UPLOAD_PART_BYTES, carry);
  if (first.byteLength > maxBytes) {
    await reader.cancel();
    return { tooLarge: true };
  }
  if (first.byteLength < UPLOAD_PART_BYTES) {
    await bucket.put(key, first);
    return { size: first.byteLength };
  }
  const upload = await bucket.createMultipartUpload(key);
  try {
    const parts: R2UploadedPart[] = [await upload.uploadPart(1, first)];
    let size = first.byteLength;
    for (;;) {
      const part = await readPart(reader, UPLOAD_PART_BYTES, carry);
      if (part.byteLength === 0) break;
      size += part.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        await upload.abort();
        return { tooLarge: true };
      }
      parts.push(await upload.uploadPart(parts.length + 1, part));
    }
    await upload.complete(parts);
    return { size };
  } catch (error) {
    await upload.abort().catch(() => undefined);
    throw error;
  }
}

/** How much of a stored file one ranged read takes (a reader that stops early leaves at most this much unread). */
const READ_WINDOW_BYTES = 1024 * 1024;

/**
 * The object's bytes from `offset`, one ranged read of READ_WINDOW_BYTES at a time as the reader pulls: a reader that
 * stops (a step that has done its chunks) cancels no R2 body mid-way and leaves nothing open.
 */
function readInWindows(bucket: R2Bucket, key: string, offset: number, size: number): ReadableStream<Uint8Array> {
  let position = offset;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (position >= size) {
        controller.close();
        return;
      }
      const object = await bucket.get(key, { range: { offset: position, length: Math.min(READ_WINDOW_BYTES, size - position) } });
      if (!object) throw new Error(`Import file ${key} is gone.`);
      const bytes = new Uint8Array(await object.arrayBuffer());
      if (bytes.byteLength === 0) throw new Error(`Import file ${key} answered no bytes at ${position}.`);
      position += bytes.byteLength;
      controller.enqueue(bytes);
    },
  });
}

export function buildR2FileStore(bucket: R2Bucket): FileStore {
  return {
    put: async (key, body, { maxBytes }) => putInParts(bucket, key, body.getReader(), maxBytes),
    read: async (key, offset = 0) => {
      const head = await bucket.head(key);
      return head ? readInWindows(bucket, key, offset, head.size) : undefined;
    },
    delete: async (key) => bucket.delete(key),
  };
}
