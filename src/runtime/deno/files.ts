/**
 * The import files under Deno: one file per key in a directory (owner only), written to a temporary name and renamed
 * when complete, so a reader never sees half a file.
 */
import type { FileStore, StoredFile } from '../platform';
import { requireDenoRuntime } from './runtime';

const FILE_MODE = 0o600;

function pathOf(directory: string, key: string): string {
  return `${directory}/${encodeURIComponent(key)}`;
}

async function removeQuietly(path: string): Promise<void> {
  await requireDenoRuntime()
    .remove(path)
    .catch(() => undefined);
}

/** Copies `body` into `path`, counting bytes; false when it passed `maxBytes` (the copy stops there). */
async function copyBounded(body: ReadableStream<Uint8Array>, path: string, maxBytes: number): Promise<StoredFile> {
  const file = await requireDenoRuntime().open(path, { write: true, createNew: true, mode: FILE_MODE });
  const writer = file.writable.getWriter();
  const reader = body.getReader();
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        return { tooLarge: true };
      }
      await writer.write(value);
    }
    return { size };
  } finally {
    await writer.close();
  }
}

export function buildDirectoryFileStore(directory: string): FileStore {
  return {
    put: async (key, body, { maxBytes }) => {
      const target = pathOf(directory, key);
      const partial = `${target}.${crypto.randomUUID()}.part`;
      try {
        const stored = await copyBounded(body, partial, maxBytes);
        if ('tooLarge' in stored) await removeQuietly(partial);
        else await requireDenoRuntime().rename(partial, target);
        return stored;
      } catch (error) {
        await removeQuietly(partial);
        throw error;
      }
    },
    read: async (key, offset = 0) => {
      try {
        const file = await requireDenoRuntime().open(pathOf(directory, key), { read: true });
        if (offset > 0) await file.seek(offset, 0);
        return file.readable;
      } catch {
        return undefined;
      }
    },
    delete: async (key) => removeQuietly(pathOf(directory, key)),
  };
}
