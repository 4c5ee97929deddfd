/** The file formats an import takes, from the request's Content-Type (and the file name for .xlsx sent as octet-stream). */
import { checkRecordBounds, pauseAfter, placeProblem } from './bounds';
import { readCsvRecords } from './csv';
import { readJsonItems } from './json';
import { FileProblem } from './problem';
import { readXlsxRows } from './xlsx';

export type FileFormat = 'csv' | 'ndjson' | 'json' | 'xlsx';
export const FILE_FORMATS: readonly FileFormat[] = ['csv', 'ndjson', 'json', 'xlsx'];

const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The format of a Content-Type (parameters ignored); undefined: not one the import takes. */
export function detectFormat(contentType: string | null, fileName: string | null): FileFormat | undefined {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (mediaType === 'text/csv') return 'csv';
  if (mediaType === 'application/x-ndjson') return 'ndjson';
  if (mediaType === 'application/json') return 'json';
  if (mediaType === XLSX_MEDIA_TYPE) return 'xlsx';
  if (mediaType === 'application/octet-stream' && fileName?.toLowerCase().endsWith('.xlsx')) return 'xlsx';
  return undefined;
}

/**
 * One record of a file: its row number (the header row of CSV and xlsx is row 1; JSON items count from 1), its values
 * by column as written, and the byte offset just after it (where the next record starts; CSV, NDJSON and JSON).
 */
export interface FileRecord {
  readonly row: number;
  readonly values: Readonly<Record<string, unknown>>;
  readonly end?: number;
}

type FileItem = FileRecord | { readonly header: readonly string[] };

/** Opens the stored file from a byte offset (0: its start). */
type OpenFile = (offset: number) => Promise<ReadableStream<Uint8Array>>;

/**
 * Where a read resumes: the byte offset of the next record (-1: read past `row` records from the start, as a ledger
 * written before every format kept offsets says) and the last row number read.
 */
export interface ResumePoint {
  readonly offset: number;
  readonly row: number;
}

interface TableRow {
  readonly cells: readonly string[];
  readonly end?: number;
}

/** A record's values by header name (missing cells: absent). */
function valuesOf(header: readonly string[], cells: readonly string[]): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  cells.forEach((cell, index) => {
    values[header[index] ?? `column ${index + 1}`] = cell;
  });
  return values;
}

/** A tabular file (CSV, xlsx): the header row, then each row as values by header name (rows of empty cells skipped). */
async function* readTable(batches: AsyncGenerator<readonly TableRow[]>): AsyncGenerator<FileItem> {
  let header: string[] | undefined;
  let row = 0;
  try {
    for await (const rows of batches) {
      for (const { cells, end } of rows) {
        row += 1;
        checkRecordBounds(row, cells.length);
        const pause = pauseAfter(row);
        if (pause) await pause;
        if (!header) {
          header = cells.map((cell) => cell.trim());
          yield { header };
        } else if (!cells.every((cell) => cell === '')) {
          yield { row, values: valuesOf(header, cells), ...(end === undefined ? {} : { end }) };
        }
      }
    }
  } catch (error) {
    throw placeProblem(error, row + 1);
  }
  if (!header) throw new FileProblem('importFileEmpty');
}

/** A CSV file read from a record's offset: its header row and delimiter read first (the file's first record only). */
async function* resumeCsv(open: OpenFile, from: ResumePoint): AsyncGenerator<FileItem> {
  const head = readCsvRecords(await open(0));
  const first = await head.next();
  await head.return(undefined);
  if (first.done) throw new FileProblem('importFileEmpty');
  const header = first.value.cells.map((cell) => cell.trim());
  yield { header };
  let row = from.row;
  try {
    for await (const { cells, end } of readCsvRecords(await open(from.offset), { offset: from.offset, delimiter: first.value.delimiter })) {
      row += 1;
      checkRecordBounds(row, cells.length);
      const pause = pauseAfter(row);
      if (pause) await pause;
      if (!cells.every((cell) => cell === '')) yield { row, values: valuesOf(header, cells), end };
    }
  } catch (error) {
    throw placeProblem(error, row + 1);
  }
}

/** JSON items as records (each an object), rows numbered from 1, or on from `from.row` when the read resumes. */
async function* readObjects(
  items: AsyncGenerator<{ readonly value: unknown; readonly end: number }>,
  from?: ResumePoint,
): AsyncGenerator<FileItem> {
  let row = from?.row ?? 0;
  let first = from === undefined;
  try {
    for await (const { value, end } of items) {
      row += 1;
      if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new FileProblem('importRowNotObject', { row });
      checkRecordBounds(row, Object.keys(value).length);
      const pause = pauseAfter(row);
      if (pause) await pause;
      if (first) yield { header: Object.keys(value) };
      first = false;
      yield { row, values: value as Record<string, unknown>, end };
    }
  } catch (error) {
    throw placeProblem(error, row + 1);
  }
  if (row === 0) throw new FileProblem('importFileEmpty');
}

/** A JSON array or NDJSON file's records, from its start or (`from`) after the record that ends at `from.offset`. */
function readJsonRecords(open: OpenFile, layout: 'array' | 'lines', from?: ResumePoint): AsyncGenerator<FileItem> {
  const resumed = from && from.offset > 0 ? from : undefined;
  return readObjects(
    openThen(open, (bytes) => readJsonItems(bytes, layout, resumed?.offset), resumed?.offset ?? 0),
    resumed,
  );
}

/**
 * The records of a stored file: first `{header}` (CSV, xlsx: the header row; JSON: the first item's properties), then
 * every record. `open` reads the file from a byte offset (xlsx reads it twice). With `from` (a record's end offset), a
 * CSV, NDJSON or JSON file is read from there on, its rows numbered on from `from.row` (a JSON file then yields no
 * header). A .xlsx import is read from the CSV of its sheet (src/services/imports/sources.ts).
 */
export function readFileRecords(format: FileFormat, open: OpenFile, from?: ResumePoint): AsyncGenerator<FileItem> {
  switch (format) {
    case 'csv':
      return from && from.offset >= 0 ? resumeCsv(open, from) : readTable(batchRecords(openThen(open, readCsvRecords)));
    case 'xlsx':
      return readTable(mapRows(readXlsxRows(() => open(0))));
    case 'json':
      return readJsonRecords(open, 'array', from);
    case 'ndjson':
      return readJsonRecords(open, 'lines', from);
  }
}

/** A worksheet's rows, in the batches the reader has them (one push of the zip: no step per row). */
async function* mapRows(batches: AsyncGenerator<readonly string[][]>): AsyncGenerator<readonly TableRow[]> {
  for await (const rows of batches) yield rows.map((cells) => ({ cells }));
}

async function* batchRecords(records: AsyncGenerator<TableRow>): AsyncGenerator<readonly TableRow[]> {
  for await (const record of records) yield [record];
}

async function* openThen<T>(open: OpenFile, read: (bytes: ReadableStream<Uint8Array>) => AsyncGenerator<T>, offset = 0): AsyncGenerator<T> {
  yield* read(await open(offset));
}

/** The header of a file (its first record), or the problem that stops it. */
export async function readFileHeader(format: FileFormat, open: OpenFile): Promise<readonly string[]> {
  const records = readFileRecords(format, open);
  try {
    const first = await records.next();
    if (first.done || !('header' in first.value)) throw new FileProblem('importFileEmpty');
    return first.value.header;
  } finally {
    await records.return(undefined);
  }
}
