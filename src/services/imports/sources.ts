/**
 * Where a file import's records are read from: its stored file (CSV, NDJSON, JSON: each resumes at a record's byte
 * offset), or for .xlsx the CSV of its first sheet's rows, written once beside the file (`<file>.rows.csv`) by the first
 * step that needs it (src/services/imports/files/sheet-csv.ts), then read as a CSV file is.
 */
import { yieldToRequests } from '../../db/yield';
import type { Platform } from '../../runtime/platform';
import type { FileFormat } from './files/format';
import { MAX_IMPORT_FILE_BYTES } from './files/limits';
import { FileProblem } from './files/problem';
import { encodeRowsAsCsv } from './files/sheet-csv';
import { guardSource } from './files/streams';
import { MAX_XLSX_DECOMPRESSED_BYTES, readXlsxRows } from './files/xlsx';

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

/** The file records are read from; a workbook's sheet is written out as CSV first (once: a resumed step finds it). */
export async function prepareSource(platform: Platform, format: FileFormat, key: string): Promise<RecordSource> {
  if (format !== 'xlsx') return { format, key };
  const target = sheetCsvKey(key);
  if (await exists(platform, target)) return { format: 'csv', key: target };
  const open = async () => {
    const stream = await platform.files.read(key);
    if (!stream) throw new FileProblem('importFileEmpty');
    return guardSource(stream);
  };
  // Its CSV is no larger than the sheet's XML, which the decompression bound caps.
  const stored = await platform.files.put(target, encodeRowsAsCsv(readXlsxRows(open), yieldToRequests), {
    maxBytes: Math.max(MAX_IMPORT_FILE_BYTES, MAX_XLSX_DECOMPRESSED_BYTES),
  });
  if ('tooLarge' in stored) throw new FileProblem('importXlsxTooLarge', { max: MAX_XLSX_DECOMPRESSED_BYTES });
  return { format: 'csv', key: target };
}
