/**
 * The bounds every import format shares (src/services/imports/files/limits.ts), checked as the records are read, before
 * a record is held whole: rows of the file, cells and characters of a record. Past one, the read stops with a
 * FileProblem naming it (a 400 at upload when the header row shows it, else the import's Fatal `error`).
 */
import { MAX_IMPORT_ROWS, MAX_RECORD_CHARS, MAX_ROW_CELLS } from './limits';
import { FileProblem } from './problem';
import { yieldToEventLoop } from './streams';

/** Rows read between two yields to the event loop (rows of empty cells, skipped, count too). */
const YIELD_ROWS = 4096;

/** Checks the row number and cell count of a record read (`row`: its row number, the header row 1). */
export function checkRecordBounds(row: number, cells: number): void {
  if (row > MAX_IMPORT_ROWS) throw new FileProblem('importTooManyRows', { max: MAX_IMPORT_ROWS });
  if (cells > MAX_ROW_CELLS) throw new FileProblem('importRowTooWide', { row, max: MAX_ROW_CELLS });
}

/** Every YIELD_ROWS rows, a pause that lets the event loop run (undefined otherwise: no await, no microtask). */
export function pauseAfter(row: number): Promise<void> | undefined {
  return row % YIELD_ROWS === 0 ? yieldToEventLoop() : undefined;
}

/** A record-length problem raised below the row count (CSV, JSON: the text scanners) gets the row it was found in. */
export function placeProblem(error: unknown, row: number): unknown {
  if (error instanceof FileProblem && error.problem.key === 'importRecordTooLong' && !('row' in error.problem.params)) {
    return new FileProblem('importRecordTooLong', { row, max: MAX_RECORD_CHARS });
  }
  return error;
}

/** The record-length problem of a text scanner, its row not known yet (placeProblem adds it). */
export function recordTooLong(): FileProblem {
  return new FileProblem('importRecordTooLong', { max: MAX_RECORD_CHARS });
}

/**
 * CSV text passed through unchanged, refusing a record longer than MAX_RECORD_CHARS (its delimiters and quotes
 * included) before the parser holds it: characters are counted since the last line break outside quotes (a doubled
 * quote inside a quoted field toggles twice). A record is never held past the bound plus one chunk of text.
 */
export function boundCsvRecords(max = MAX_RECORD_CHARS): TransformStream<string, string> {
  let quoted = false;
  let length = 0;
  const special = /["\r\n]/g;
  return new TransformStream<string, string>({
    transform(chunk, controller) {
      let from = 0;
      special.lastIndex = 0;
      for (let found = special.exec(chunk); found; found = special.exec(chunk)) {
        length += found.index - from;
        from = found.index + 1;
        if (length > max) throw recordTooLong();
        if (found[0] === '"') {
          quoted = !quoted;
          length += 1;
        } else if (quoted) length += 1;
        else length = 0;
        if (length > max) throw recordTooLong();
      }
      length += chunk.length - from;
      if (length > max) throw recordTooLong();
      controller.enqueue(chunk);
    },
  });
}
