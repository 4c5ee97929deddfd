/** The documented limits of file imports (docs/api-reference.md). */

/** The largest import file: 256 MiB (a 1,000,000-row routes CSV is about 100 MB). Larger: 413, nothing stored. */
export const MAX_IMPORT_FILE_BYTES = 256 * 1024 * 1024;

/** The header row (a JSON file's first item) must end within the first MiB of the file. */
export const MAX_HEAD_BYTES = 1024 * 1024;
