/**
 * Where a file import's records are read from: its stored file (CSV, NDJSON, JSON: each resumes at a record's byte
 * offset), or for .xlsx the CSV of its first sheet's rows, written once beside the file (`<file>.rows.csv`) by the first
 * step that needs it (src/services/imports/files/sheet-csv.ts), then read as a CSV file is.
 */
import { yieldToRequests } from '../../db/yield';
import type { ImportJob, Platform } from '../../runtime/platform';
import { requireOwnFileKey } from './files/file-key';
import type { FileFormat } from './files/format';
import { MAX_IMPORT_FILE_BYTES, MAX_IMPORT_ROWS } from './files/limits';
import { FileProblem } from './files/problem';
import { encodeRowsAsCsv } from './files/sheet-csv';
import { guardSource } from './files/streams';
import { readXlsxRows } from './files/xlsx';
import { MAX_XLSX_DECOMPRESSED_BYTES } from './files/xml-part';

/** The format records are read in, and the stored file's key. */
interface RecordSource {
  readonly format: Exclude<FileFormat, 'xlsx'>;
  readonly key: string;
}

/** The key of the CSV made from a workbook's sheet. */
function sheetCsvKey(key: string): string {
  return `${key}.rows.csv`;
}

async function exists(platform: Platform, key: string): Promise<boolean> {
  const stream = await platform.files.read(key);
  if (!stream) return false;
  await stream.cancel();
  return true;
}

/**
 * The file records are read from; a workbook's sheet is written out as CSV first (once: a resumed step finds it). Only
 * the import's own file is read: `named` (its cloudFileName) must be the key derived from the import.
 */
export async function prepareSource(
  platform: Platform,
  format: FileFormat,
  file: { job: ImportJob; named: string | null },
): Promise<RecordSource> {
  const key = requireOwnFileKey(file.job, file.named);
  if (format !== 'xlsx') return { format, key };
  const target = sheetCsvKey(key);
  if (await exists(platform, target)) return { format: 'csv', key: target };
  const open = async () => {
    const stream = await platform.files.read(key);
    if (!stream) throw new FileProblem('importFileEmpty');
    return guardSource(stream);
  };
  // Its CSV is no larger than the sheet's XML, which the decompression bound caps. The storage may answer a body that
  // failed with an error of its own: the sheet's (a FileProblem: a bound passed, a malformed workbook) is what counts.
  const read: { failure?: unknown } = {};
  const body = encodeRowsAsCsv(boundRows(readXlsxRows(open), read), yieldToRequests);
  const stored = await platform.files
    .put(target, body, { maxBytes: Math.max(MAX_IMPORT_FILE_BYTES, MAX_XLSX_DECOMPRESSED_BYTES) })
    .catch((error: unknown) => {
      throw read.failure ?? error;
    });
  if (read.failure !== undefined) throw read.failure;
  if ('tooLarge' in stored) throw new FileProblem('importXlsxTooLarge', { max: MAX_XLSX_DECOMPRESSED_BYTES });
  return { format: 'csv', key: target };
}

/**
 * The sheet's rows, refused past MAX_IMPORT_ROWS while the CSV is written (not once it is read back); a failure of the
 * read is kept in `read.failure`.
 */
async function* boundRows(rows: AsyncGenerator<readonly string[][]>, read: { failure?: unknown }): AsyncGenerator<readonly string[][]> {
  let count = 0;
  try {
    for await (const batch of rows) {
      count += batch.length;
      if (count > MAX_IMPORT_ROWS) throw new FileProblem('importTooManyRows', { max: MAX_IMPORT_ROWS });
      yield batch;
    }
  } catch (error) {
    read.failure = error;
    throw error;
  }
}
