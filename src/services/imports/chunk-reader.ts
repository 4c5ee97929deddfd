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
/**
 * Characters of the records of one chunk (their values and column names): a chunk ends at CHUNK_ROWS rows or this
 * many characters, whichever comes first (a longer record is a chunk of its own), so what a chunk holds and writes
 * (its creates, the ledger's failures and pre-import values) stays within what one D1 value takes.
 */
const CHUNK_CHARS = 256 * 1024;
/** Rows a chunk may take past CHUNK_ROWS to end a group (a document holds at most 1000 lines), within 2 x CHUNK_CHARS. */
const MAX_GROUP_TAIL = 1000;

/**
 * The file's records after `from`: from its offset (a ledger written before every format kept offsets says -1: then the
 * first `from.skip` records are read past). `key`: the import's own file, or the CSV of its sheet (src/services/imports/
 * sources.ts, which checks it is the import's own).
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
    let chars = 0;
    while (records.length < CHUNK_ROWS && chars < CHUNK_CHARS) {
      const record = await this.read();
      if (!record) return { records, last: true };
      const size = measureRecord(record);
      if (records.length > 0 && chars + size > CHUNK_CHARS) {
        // Full: the record goes to the next chunk, unless it ends this chunk's group (below).
        this.held = record;
        break;
      }
      records.push(record);
      chars += size;
    }
    const column = this.groupColumn;
    const group = column === undefined ? undefined : readGroup(records.at(-1), column);
    while (column !== undefined && group !== undefined && records.length < CHUNK_ROWS + MAX_GROUP_TAIL && chars < 2 * CHUNK_CHARS) {
      const record = await this.read();
      if (!record) return { records, last: true };
      if (readGroup(record, column) !== group) {
        this.held = record;
        break;
      }
      records.push(record);
      chars += measureRecord(record);
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

/** A record's characters: its column names and values (as text; other JSON values as their JSON). */
function measureRecord(record: FileRecord): number {
  let chars = 0;
  for (const [name, value] of Object.entries(record.values)) {
    chars += name.length + (typeof value === 'string' ? value.length : value === undefined ? 0 : JSON.stringify(value).length);
  }
  return chars;
}
