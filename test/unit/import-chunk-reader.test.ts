/** The chunks of an import file: CHUNK_ROWS records, more to keep a group (a document's rows) whole. */
import { describe, expect, it } from 'vitest';
import { CHUNK_ROWS, ChunkReader } from '../../src/services/imports/chunk-reader';
import type { FileRecord } from '../../src/services/imports/files/format';

async function* recordsOf(numbers: readonly number[]): AsyncGenerator<FileRecord> {
  let row = 1;
  for (const number of numbers) {
    row += 1;
    yield { row, values: { Number: String(number) }, end: row * 10 };
  }
}

async function readAll(reader: ChunkReader): Promise<number[][]> {
  const chunks: number[][] = [];
  for (;;) {
    const chunk = await reader.take();
    if (chunk.records.length > 0) chunks.push(chunk.records.map((record) => Number(record.values.Number)));
    if (chunk.last) return chunks;
  }
}

describe('ChunkReader', () => {
  it('takes CHUNK_ROWS records at a time without a group column', async () => {
    const numbers = Array.from({ length: CHUNK_ROWS * 2 + 3 }, (_, index) => index);
    const chunks = await readAll(new ChunkReader(recordsOf(numbers)));
    expect(chunks.map((chunk) => chunk.length)).toEqual([CHUNK_ROWS, CHUNK_ROWS, 3]);
  });

  it('keeps the rows of one group (the column in any case) in one chunk, the next group starting the next chunk', async () => {
    const numbers = [...Array.from({ length: CHUNK_ROWS - 2 }, (_, index) => index), 7000, 7000, 7000, 7000, 8000, 8000];
    const chunks = await readAll(new ChunkReader(recordsOf(numbers), 'number'));
    expect(chunks.map((chunk) => chunk.length)).toEqual([CHUNK_ROWS + 2, 2]);
    expect(chunks[0]?.slice(-4)).toEqual([7000, 7000, 7000, 7000]);
    expect(chunks[1]).toEqual([8000, 8000]);
  });

  it('ends a file whose last group fills the chunk', async () => {
    const numbers = Array.from({ length: CHUNK_ROWS + 10 }, () => 1);
    const chunks = await readAll(new ChunkReader(recordsOf(numbers), 'number'));
    expect(chunks.map((chunk) => chunk.length)).toEqual([CHUNK_ROWS + 10]);
  });

  it('ends a chunk at CHUNK_CHARS characters of records (a longer record alone), a group kept whole within twice that', async () => {
    async function* long(sizes: readonly [number, string][]): AsyncGenerator<FileRecord> {
      let row = 1;
      for (const [size, group] of sizes) {
        row += 1;
        yield { row, values: { Number: String(row), group, text: 'x'.repeat(size) }, end: row };
      }
    }
    const sized = (count: number, size: number, group = '') => Array.from({ length: count }, () => [size, group] as [number, string]);
    const sizes = (reader: ChunkReader) => readAll(reader).then((chunks) => chunks.map((chunk) => chunk.length));
    // 100 KiB records: two fit in 256 KiB; one of 600,000 characters is a chunk of its own.
    expect(await sizes(new ChunkReader(long([...sized(5, 100 * 1024), ...sized(1, 600_000), ...sized(2, 10)])))).toEqual([2, 2, 1, 1, 2]);
    // A group of 4 records of 100 KiB stays whole (400 KiB, within 512 KiB); the next group starts the next chunk.
    expect(await sizes(new ChunkReader(long([...sized(4, 100 * 1024, 'A'), ...sized(1, 10, 'B')]), 'group'))).toEqual([4, 1]);
  });
});
