/**
 * .xlsx workbooks: the first worksheet (`xl/worksheets/sheet1.xml`), its first row the header. The zip is read as it
 * streams (fflate's Unzip) and each part's XML by a streaming parser (saxes): src/services/imports/files/xml-part.ts.
 * Two passes over the stored file: the shared strings first (they may come after the sheet in the zip:
 * xlsx-strings.ts), then the sheet's rows. Bounded before the work: every byte decompressed counts against
 * MAX_XLSX_DECOMPRESSED_BYTES (a zip bomb is refused); a cell reference past the last column of a worksheet (XFD) is
 * refused; a row is filled up to its last written cell only (an empty cell adds nothing), at most MAX_ROW_CELLS cells
 * and MAX_RECORD_CHARS characters, checked before the row grows.
 */
import type { SaxesTagPlain } from 'saxes';
import { MAX_RECORD_CHARS, MAX_ROW_CELLS } from './limits';
import { FileProblem, toFileProblem } from './problem';
import { readSharedStrings } from './xlsx-strings';
import type { SharedStrings } from './xlsx-strings';
import { inflatePart, localName, MAX_XLSX_DECOMPRESSED_BYTES, XmlPart } from './xml-part';
import type { InflateBudget } from './xml-part';

const SHEET = 'xl/worksheets/sheet1.xml';
/** Columns of a worksheet (A to XFD), as Excel has them. */
export const MAX_XLSX_COLUMNS = 16_384;
const LAST_COLUMN = 'XFD';

/** Column index of a cell reference (`C7` -> 2); a reference past XFD is refused (before any work is done for it). */
function columnOf(reference: string | undefined, fallback: number): number {
  const letters = /^([A-Z]+)\d*$/.exec(reference ?? '')?.[1];
  if (!letters) return fallback;
  let index = 0;
  for (const letter of letters) {
    index = index * 26 + (letter.charCodeAt(0) - 64);
    if (index > MAX_XLSX_COLUMNS) {
      throw new FileProblem('importXlsxColumn', { reference: (reference ?? '').slice(0, 20), max: LAST_COLUMN });
    }
  }
  return index - 1;
}

interface Cell {
  index: number;
  type: string;
  text: string[];
}

/** The row being read: its cells so far and their characters. */
class RowBuilder {
  readonly cells: string[] = [];
  /** The column of the next cell without a reference (the one after the last cell, written or empty). */
  next = 0;
  private chars = 0;
  constructor(readonly number: number) {}

  /** Counts characters of the row (a cell's text as it arrives, a shared string when resolved). */
  count(length: number): void {
    this.chars += length;
    if (this.chars > MAX_RECORD_CHARS) throw new FileProblem('importRecordTooLong', { row: this.number, max: MAX_RECORD_CHARS });
  }

  /** Writes a cell; an empty one adds nothing (a gap before a later cell is filled with ''). */
  write(index: number, value: string): void {
    if (value === '') return;
    if (index >= MAX_ROW_CELLS) throw new FileProblem('importRowTooWide', { row: this.number, max: MAX_ROW_CELLS });
    while (this.cells.length < index) this.cells.push('');
    this.cells[index] = value;
  }
}

function cellValue(cell: Cell, strings: SharedStrings, row: RowBuilder): string {
  const raw = cell.text.join('');
  if (cell.type === 'b') return raw === '1' ? 'true' : 'false';
  if (cell.type !== 's') return raw;
  const value = strings.get(Number(raw));
  row.count(value.length);
  return value;
}

/** The sheet's parser handlers: each row, once closed, goes to `ready`. */
function buildSheetHandlers(strings: SharedStrings, ready: string[][]) {
  let rows = 0;
  let row: RowBuilder | undefined;
  let cell: Cell | undefined;
  let inValue = false;
  return {
    opentag: (tag: SaxesTagPlain) => {
      const name = localName(tag);
      if (name === 'row') {
        rows += 1;
        row = new RowBuilder(rows);
      } else if (name === 'c' && row) {
        const reference = typeof tag.attributes.r === 'string' ? tag.attributes.r : undefined;
        const type = typeof tag.attributes.t === 'string' ? tag.attributes.t : 'n';
        cell = { index: columnOf(reference, row.next), type, text: [] };
        row.next = cell.index + 1;
      } else if ((name === 'v' || name === 't') && cell) inValue = true;
    },
    text: (text: string) => {
      if (!inValue || !cell || !row) return;
      if (cell.type !== 's') row.count(text.length);
      cell.text.push(text);
    },
    closetag: (tag: SaxesTagPlain) => {
      const name = localName(tag);
      if (name === 'v' || name === 't') inValue = false;
      else if (name === 'c' && cell && row) {
        row.write(cell.index, cellValue(cell, strings, row));
        cell = undefined;
      } else if (name === 'row' && row) {
        ready.push(row.cells);
        row = undefined;
      }
    },
  };
}

/**
 * Pass two: the first sheet's rows as arrays of cell texts (gaps between cells are empty strings), in batches: the
 * rows each push of the zip gave.
 */
async function* readSheetRows(
  bytes: ReadableStream<Uint8Array>,
  strings: SharedStrings,
  budget: InflateBudget,
): AsyncGenerator<readonly string[][]> {
  const ready: string[][] = [];
  const part = new XmlPart(SHEET, budget, buildSheetHandlers(strings, ready));
  const pushes = inflatePart(bytes, part);
  for (let next = await pushes.next(); !next.done; next = await pushes.next()) {
    if (ready.length > 0) yield ready.splice(0);
  }
  if (!part.found) throw new FileProblem('importXlsxNoSheet');
}

/**
 * The rows of the workbook's first sheet (the first one is the header row), in batches. `open` gives the stored file's
 * bytes from the start, once per pass.
 */
export async function* readXlsxRows(
  open: () => Promise<ReadableStream<Uint8Array>>,
  maxBytes = MAX_XLSX_DECOMPRESSED_BYTES,
): AsyncGenerator<readonly string[][]> {
  const budget = { left: maxBytes, max: maxBytes };
  try {
    const strings = await readSharedStrings(await open(), budget);
    yield* readSheetRows(await open(), strings, budget);
  } catch (error) {
    throw toFileProblem(error, 'xlsx');
  }
}
