/**
 * CSV files: UTF-8 with or without BOM, `,` or `;` between fields (chosen from the header row: the one that occurs
 * there more often outside quotes; `,` on a tie), quoted fields with `""` and line breaks. Parsed by csv-parse's stream
 * API (WHATWG streams), record by record; a record longer than MAX_RECORD_CHARS is refused before it is held
 * (src/services/imports/files/bounds.ts).
 */
import { parse } from 'csv-parse/stream';
import { boundCsvRecords } from './bounds';
import { FileProblem, toFileProblem } from './problem';
import { decodeUtf8, measureBom, prependChunks, readChunks, splitBytes } from './streams';

/** The longest header row read to choose the delimiter. */
const MAX_HEADER_CHARS = 64 * 1024;

type CsvDelimiter = ',' | ';';

/** The parser's input pieces: it queues up to 1,024 of them, so it reads at most 4 MiB ahead of the records taken. */
const PARSER_PIECE_BYTES = 4 * 1024;

/** The delimiter of a header row: `;` when it occurs more often than `,` outside quotes (Portuguese, Spanish exports). */
export function detectDelimiter(head: string): CsvDelimiter {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (const char of head) {
    if (char === '"') quoted = !quoted;
    else if (!quoted && (char === '\n' || char === '\r')) break;
    else if (!quoted && char === ',') commas += 1;
    else if (!quoted && char === ';') semicolons += 1;
  }
  return semicolons > commas ? ';' : ',';
}

/** Reads text until the end of the first line (outside quotes, or the limit), keeping what was read. */
async function readHead(reader: ReadableStreamDefaultReader<string>): Promise<string[]> {
  const chunks: string[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    chunks.push(value);
    length += value.length;
    if (/[\r\n]/.test(value) || length >= MAX_HEADER_CHARS) return chunks;
  }
}

/** A CSV record: its cells, the file's byte offset just after it (where the next record starts) and the delimiter. */
interface CsvRecord {
  readonly cells: string[];
  readonly end: number;
  readonly delimiter: CsvDelimiter;
}

/** Where to read from: a record's start offset in the file (read from there on) and the file's delimiter. */
interface CsvStart {
  readonly offset: number;
  readonly delimiter: CsvDelimiter;
}

/**
 * The records of a CSV file, each with its cells and end offset (the first one is the header row), from the file's
 * start; or, with `start`, from a record's start offset (the delimiter known from the header row).
 */
export async function* readCsvRecords(bytes: ReadableStream<Uint8Array>, start?: CsvStart): AsyncGenerator<CsvRecord> {
  let base = start?.offset ?? 0;
  const text = bytes
    .pipeThrough(measureBom((length) => (base += length)))
    .pipeThrough(decodeUtf8())
    .getReader();
  let head: string[];
  try {
    head = start ? [] : await readHead(text);
  } catch (error) {
    throw toFileProblem(error, 'CSV');
  }
  const delimiter = start?.delimiter ?? detectDelimiter(head.join(''));
  const parser = parse({ delimiter, record_delimiter: ['\r\n', '\n', '\r'], relax_column_count: true, skip_empty_lines: true, info: true });
  // csv-parse works on bytes: the checked text goes back to UTF-8 (without the BOM, which the decoder dropped and `base` counts).
  const records = prependChunks(head, text)
    .pipeThrough(boundCsvRecords())
    .pipeThrough(new TextEncoderStream())
    .pipeThrough(splitBytes(PARSER_PIECE_BYTES))
    .pipeThrough(parser as TransformStream<Uint8Array, unknown>);
  try {
    for await (const item of readChunks(records)) yield toCsvRecord(item, base, delimiter);
  } catch (error) {
    throw toFileProblem(error, 'CSV');
  }
}

function toCsvRecord(item: unknown, base: number, delimiter: CsvDelimiter): CsvRecord {
  const { record, info } = (item ?? {}) as { record?: unknown; info?: { bytes?: unknown } };
  if (!Array.isArray(record) || typeof info?.bytes !== 'number') {
    throw new FileProblem('importMalformed', { format: 'CSV', detail: 'unexpected record' });
  }
  return { cells: record.map((cell) => String(cell)), end: base + info.bytes, delimiter };
}
