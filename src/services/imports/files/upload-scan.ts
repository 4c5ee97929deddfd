/**
 * The bounds an upload can be checked against as its bytes stream to storage (src/services/imports/upload.ts): rows of
 * the file (MAX_IMPORT_ROWS), characters of a record (MAX_RECORD_CHARS, counted as code points) and, for CSV, cells
 * of a row (MAX_ROW_CELLS, with the delimiter the header row shows). CSV records end at a line break outside quotes
 * (empty lines are no records, as the parser skips them), NDJSON records are its lines with content, a JSON array's are
 * its items. Past a bound the stream fails with the FileProblem (413 naming `file`: nothing is kept). One pass over the
 * bytes, no text decoded; the processing checks the same bounds on what it parses (src/services/imports/files/bounds.ts).
 * An .xlsx is a zip: its bounds are checked when it is processed.
 */
import type { FileFormat } from './format';
import { MAX_IMPORT_ROWS, MAX_RECORD_CHARS, MAX_ROW_CELLS } from './limits';
import { FileProblem } from './problem';

const QUOTE = 0x22;
const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const SEMICOLON = 0x3b;

/** What every scanner counts: rows, and the current record's characters. */
class RecordCount {
  rows = 0;
  chars = 0;

  start(): void {
    this.rows += 1;
    this.chars = 0;
    if (this.rows > MAX_IMPORT_ROWS) throw new FileProblem('importTooManyRows', { max: MAX_IMPORT_ROWS });
  }

  /** Counts one byte of the current record (a code point per byte that does not continue a UTF-8 sequence). */
  add(byte: number): void {
    if ((byte & 0xc0) === 0x80) return;
    this.chars += 1;
    if (this.chars > MAX_RECORD_CHARS) throw new FileProblem('importRecordTooLong', { row: this.rows, max: MAX_RECORD_CHARS });
  }
}

type Scanner = (bytes: Uint8Array) => void;

function scanCsv(): Scanner {
  const count = new RecordCount();
  let open = false;
  let quoted = false;
  let commas = 0;
  let semicolons = 0;
  let delimiter: number | undefined;
  const end = () => {
    if (!open) return;
    open = false;
    delimiter ??= semicolons > commas ? SEMICOLON : COMMA;
    const cells = (delimiter === SEMICOLON ? semicolons : commas) + 1;
    if (cells > MAX_ROW_CELLS) throw new FileProblem('importRowTooWide', { row: count.rows, max: MAX_ROW_CELLS });
    commas = 0;
    semicolons = 0;
  };
  return (bytes) => {
    for (const byte of bytes) {
      if (!quoted && (byte === LF || byte === CR)) {
        end();
        continue;
      }
      if (!open) {
        open = true;
        count.start();
      }
      count.add(byte);
      if (byte === QUOTE) quoted = !quoted;
      else if (!quoted && byte === COMMA) commas += 1;
      else if (!quoted && byte === SEMICOLON) semicolons += 1;
    }
  };
}

const isSpace = (byte: number) => byte === 0x20 || byte === 0x09 || byte === LF || byte === CR;

function scanLines(): Scanner {
  const count = new RecordCount();
  let open = false;
  return (bytes) => {
    for (const byte of bytes) {
      if (byte === LF || byte === CR) open = false;
      else if (open) count.add(byte);
      else if (!isSpace(byte)) {
        open = true;
        count.start();
        count.add(byte);
      }
    }
  };
}

/** A JSON array's items: depth and strings tracked, an item starts at its first character inside the array. */
function scanArray(): Scanner {
  const count = new RecordCount();
  let depth = 0;
  let inString = false;
  let escaped = false;
  let item = false;
  return (bytes) => {
    for (const byte of bytes) {
      if (depth === 1 && !inString && (byte === COMMA || byte === 0x5d)) {
        item = false;
        if (byte === 0x5d) depth = 0;
        continue;
      }
      if (depth === 1 && !inString && !item) {
        if (isSpace(byte)) continue;
        item = true;
        count.start();
      }
      if (item) count.add(byte);
      if (inString) {
        if (escaped) escaped = false;
        else if (byte === 0x5c) escaped = true;
        else if (byte === QUOTE) inString = false;
      } else if (byte === QUOTE) inString = true;
      else if (byte === 0x5b || byte === 0x7b) depth += 1;
      else if (byte === 0x5d || byte === 0x7d) depth -= 1;
    }
  };
}

const SCANNERS: Readonly<Record<FileFormat, (() => Scanner) | undefined>> = {
  csv: scanCsv,
  ndjson: scanLines,
  json: scanArray,
  xlsx: undefined,
};

/** The upload's bytes passed through unchanged, failing with a FileProblem past a bound (xlsx: passed as they are). */
export function scanUpload(format: FileFormat): TransformStream<Uint8Array, Uint8Array> {
  const scan = SCANNERS[format]?.();
  return new TransformStream<Uint8Array, Uint8Array>({
    transform(bytes, controller) {
      scan?.(bytes);
      controller.enqueue(bytes);
    },
  });
}
