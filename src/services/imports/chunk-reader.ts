/**
 * The records of a stored file taken chunk by chunk: CHUNK_ROWS records, or more where a template keeps the rows of one
 * group together (exchange rates documents: the lines of one `number`), so that a group is written by one chunk.
 */
import type { Platform } from '../../runtime/platform';
import { readFileRecords } from './files/format';
import type { FileFormat, FileRecord, ResumePoint } from './files/format';
import { FileProblem } from './files/problem';
import { guardSource } from './files/streams';

/** Rows per chunk: one D1 batch each (every statement takes the chunk's rows as one JSON parameter). */
export const CHUNK_ROWS = 500;
/** Rows a chunk may take past CHUNK_ROWS to end a group (a document holds at most 1000 lines). */
const MAX_GROUP_TAIL = 1000;

/**
 * The file's records after `from`: from its offset (a ledger written before every format kept offsets says -1: then the
 * first `from.skip` records are read past).
 */
export async function* readRecordsAfter(
  platform: Platform,
  format: FileFormat,
  key: string,
  from: (ResumePoint & { readonly skip: number }) | undefined,
): AsyncGenerator<FileRecord> {
  const open = async (offset: number) => {
    const stream = await platform.files.read(key, offset);
    if (!stream) throw new FileProblem('importFileEmpty');
    return guardSource(stream);
  };
  let index = 0;
  for await (const item of readFileRecords(format, open, from)) {
    if ('header' in item) continue;
    if (from && from.offset < 0 && index < from.skip) index += 1;
    else yield item;
  }
}

/** The records of a file, one chunk at a time; a record read past the end of a chunk is held for the next one. */
export class ChunkReader {
  private held: FileRecord | undefined;
  private ended = false;

  constructor(
    private readonly records: AsyncGenerator<FileRecord>,
    private readonly groupColumn?: string,
  ) {}

  private async read(): Promise<FileRecord | undefined> {
    if (this.held) {
      const record = this.held;
      this.held = undefined;
      return record;
    }
    const next = await this.records.next();
    if (next.done) this.ended = true;
    return next.done ? undefined : next.value;
  }

  /** The next chunk, and whether the file has no record left after it. */
  async take(): Promise<{ records: FileRecord[]; last: boolean }> {
    const records: FileRecord[] = [];
    while (records.length < CHUNK_ROWS) {
      const record = await this.read();
      if (!record) return { records, last: true };
      records.push(record);
    }
    const column = this.groupColumn;
    const group = column === undefined ? undefined : readGroup(records.at(-1), column);
    while (column !== undefined && group !== undefined && records.length < CHUNK_ROWS + MAX_GROUP_TAIL) {
      const record = await this.read();
      if (!record) return { records, last: true };
      if (readGroup(record, column) !== group) {
        this.held = record;
        break;
      }
      records.push(record);
    }
    return { records, last: this.ended && !this.held };
  }

  async close(): Promise<void> {
    await this.records.return(undefined);
  }
}

/** A record's value of the group column (the column's name in any case), as written; undefined when empty. */
function readGroup(record: FileRecord | undefined, column: string): string | undefined {
  if (!record) return undefined;
  const lower = column.toLowerCase();
  const entry = Object.entries(record.values).find(([name]) => name.trim().toLowerCase() === lower);
  const value = entry?.[1];
  const text = value === undefined || value === null ? '' : String(value).trim();
  return text === '' ? undefined : text;
}
