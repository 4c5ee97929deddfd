/** Cuts a byte stream into parts of a fixed size (the last one shorter), for multipart uploads. */

/** Part size of multipart uploads: R2 wants every part but the last of one size, at least 5 MiB. */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;

/** The next part of at most `size` bytes: shorter only at the end of the stream (empty: nothing left). */
export async function readPart(reader: ReadableStreamDefaultReader<Uint8Array>, size: number, carry: Uint8Array[]): Promise<Uint8Array> {
  const part = new Uint8Array(size);
  let filled = 0;
  while (filled < size) {
    const chunk = carry.shift() ?? (await readChunk(reader));
    if (chunk === undefined) break;
    const take = Math.min(chunk.byteLength, size - filled);
    part.set(chunk.subarray(0, take), filled);
    filled += take;
    if (take < chunk.byteLength) carry.unshift(chunk.subarray(take));
  }
  return filled === size ? part : part.slice(0, filled);
}

async function readChunk(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array | undefined> {
  const { done, value } = await reader.read();
  return done ? undefined : value;
}
