/** The documented limits of file imports (docs/api-reference.md, "Limits"). */

/** The largest import file: 256 MiB (a 1,000,000-row routes CSV is about 100 MB). Larger: 413, nothing stored. */
export const MAX_IMPORT_FILE_BYTES = 256 * 1024 * 1024;

/** The header row (a JSON file's first item) must end within the first MiB of the file. */
export const MAX_HEAD_BYTES = 1024 * 1024;

/** Rows of a file, its header row included (an Excel worksheet's own limit): more is Fatal. */
export const MAX_IMPORT_ROWS = 1_048_576;

/** Cells of one row (CSV fields, a worksheet row's columns up to its last written cell, a JSON item's properties). */
export const MAX_ROW_CELLS = 1024;

/**
 * Characters of one record: a CSV record with its delimiters and quotes, a JSON item's text, a worksheet row's cell
 * values. What one D1 value holds (2,000,000 bytes, at most 3 bytes per character), and more than an email template's
 * largest body (512 Ki characters).
 */
export const MAX_RECORD_CHARS = 600_000;
