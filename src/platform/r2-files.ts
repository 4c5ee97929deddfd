/** The import files of the Worker: the R2 bucket IMPORT_FILES (one `put` for small files, a multipart upload beyond). */
import type { FileStore, StoredFile } from './types';
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

export function buildR2FileStore(bucket: R2Bucket): FileStore {
  return {
    put: async (key, body, { maxBytes }) => putInParts(bucket, key, body.getReader(), maxBytes),
    read: async (key, offset = 0) => {
      const object = await bucket.get(key, offset > 0 ? { range: { offset } } : undefined);
      return object ? object.body : undefined;
    },
    delete: async (key) => bucket.delete(key),
  };
}
