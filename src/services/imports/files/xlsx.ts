/**
 * .xlsx workbooks: the first worksheet (`xl/worksheets/sheet1.xml`), its first row the header. The zip is read as it
 * streams (fflate's Unzip) and each part's XML by a streaming parser (saxes). Two passes over the stored file: the
 * shared strings first (they may come after the sheet in the zip), then the sheet's rows. Every byte decompressed
 * counts against MAX_XLSX_DECOMPRESSED_BYTES: a workbook that expands beyond it (a zip bomb) is refused.
 */
import { Unzip, UnzipInflate } from 'fflate';
import type { UnzipFile } from 'fflate';
import { SaxesParser } from 'saxes';
import type { SaxesTagPlain } from 'saxes';
import { FileProblem, toFileProblem } from './problem';
import { readChunks } from './streams';

/** The most a workbook may decompress to, over both passes' parts (documented in docs/api-reference.md). */
export const MAX_XLSX_DECOMPRESSED_BYTES = 512 * 1024 * 1024;
const SHEET = 'xl/worksheets/sheet1.xml';
const SHARED_STRINGS = 'xl/sharedStrings.xml';
/** Compressed bytes pushed at a time: bounds what one push can expand to. */
const PUSH_BYTES = 16 * 1024;

function localName(tag: SaxesTagPlain): string {
  const colon = tag.name.indexOf(':');
  return colon === -1 ? tag.name : tag.name.slice(colon + 1);
}

/** Column index of a cell reference (`C7` -> 2). */
function columnOf(reference: string | undefined, fallback: number): number {
  const letters = /^([A-Z]+)\d*$/.exec(reference ?? '')?.[1];
  if (!letters) return fallback;
  let index = 0;
  for (const letter of letters) index = index * 26 + (letter.charCodeAt(0) - 64);
  return index - 1;
}

/** Decompresses one part of the zip into an XML parser, counting bytes against the bound. */
class PartReader {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  found = false;
  constructor(
    private readonly xml: SaxesParser,
    private readonly budget: { left: number; readonly max: number },
  ) {}
  attach(file: UnzipFile): void {
    this.found = true;
    file.ondata = (error, data, final) => {
      if (error) throw error;
      this.budget.left -= data.byteLength;
      if (this.budget.left < 0) throw new FileProblem('importXlsxTooLarge', { max: this.budget.max });
      this.xml.write(this.decoder.decode(data, { stream: !final }));
      if (final) this.xml.close();
    };
    file.start();
  }
}

/** The stored file in slices of PUSH_BYTES, to push through an Unzip one at a time. */
async function* sliceStream(bytes: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  for await (const chunk of readChunks(bytes)) {
    for (let offset = 0; offset < chunk.byteLength; offset += PUSH_BYTES) yield chunk.subarray(offset, offset + PUSH_BYTES);
  }
}

/** Pass one: the shared strings table (empty when the workbook has none). */
async function readSharedStrings(bytes: ReadableStream<Uint8Array>, budget: { left: number; readonly max: number }): Promise<string[]> {
  const strings: string[] = [];
  const xml = new SaxesParser();
  let current: string[] | undefined;
  let inText = false;
  let phonetic = 0;
  xml.on('opentag', (tag) => {
    const name = localName(tag);
    if (name === 'si') current = [];
    else if (name === 'rPh') phonetic += 1;
    else if (name === 't' && phonetic === 0) inText = true;
  });
  xml.on('text', (text) => {
    if (inText && current) current.push(text);
  });
  xml.on('cdata', (text) => {
    if (inText && current) current.push(text);
  });
  xml.on('closetag', (tag) => {
    const name = localName(tag);
    if (name === 't') inText = false;
    else if (name === 'rPh') phonetic -= 1;
    else if (name === 'si' && current) {
      strings.push(current.join(''));
      current = undefined;
    }
  });
  const part = new PartReader(xml, budget);
  const unzip = new Unzip((file) => {
    if (file.name === SHARED_STRINGS) part.attach(file);
  });
  unzip.register(UnzipInflate);
  // The strings are collected by the parser's handlers.
  for await (const slice of sliceStream(bytes)) unzip.push(slice);
  unzip.push(new Uint8Array(0), true);
  return strings;
}

interface Cell {
  index: number;
  type: string;
  text: string[];
}

/** Pass two: the first sheet's rows as arrays of cell texts (gaps between cells are empty strings). */
async function* readSheetRows(
  bytes: ReadableStream<Uint8Array>,
  strings: readonly string[],
  budget: { left: number; readonly max: number },
): AsyncGenerator<string[]> {
  const ready: string[][] = [];
  const xml = new SaxesParser();
  let row: string[] | undefined;
  let cell: Cell | undefined;
  let inValue = false;
  xml.on('opentag', (tag) => {
    const name = localName(tag);
    if (name === 'row') row = [];
    else if (name === 'c' && row) {
      const reference = typeof tag.attributes.r === 'string' ? tag.attributes.r : undefined;
      const type = typeof tag.attributes.t === 'string' ? tag.attributes.t : 'n';
      cell = { index: columnOf(reference, row.length), type, text: [] };
    } else if ((name === 'v' || name === 't') && cell) inValue = true;
  });
  xml.on('text', (text) => {
    if (inValue && cell) cell.text.push(text);
  });
  xml.on('closetag', (tag) => {
    const name = localName(tag);
    if (name === 'v' || name === 't') inValue = false;
    else if (name === 'c' && cell && row) {
      const raw = cell.text.join('');
      const value = cell.type === 's' ? (strings[Number(raw)] ?? '') : cell.type === 'b' ? (raw === '1' ? 'true' : 'false') : raw;
      while (row.length < cell.index) row.push('');
      row[cell.index] = value;
      cell = undefined;
    } else if (name === 'row' && row) {
      ready.push(row);
      row = undefined;
    }
  });
  const part = new PartReader(xml, budget);
  const unzip = new Unzip((file) => {
    if (file.name === SHEET) part.attach(file);
  });
  unzip.register(UnzipInflate);
  for await (const slice of sliceStream(bytes)) {
    unzip.push(slice);
    yield* ready.splice(0);
  }
  unzip.push(new Uint8Array(0), true);
  yield* ready.splice(0);
  if (!part.found) throw new FileProblem('importXlsxNoSheet');
}

/**
 * The rows of the workbook's first sheet (the first one is the header row). `open` gives the stored file's bytes from
 * the start, once per pass.
 */
export async function* readXlsxRows(
  open: () => Promise<ReadableStream<Uint8Array>>,
  maxBytes = MAX_XLSX_DECOMPRESSED_BYTES,
): AsyncGenerator<string[]> {
  const budget = { left: maxBytes, max: maxBytes };
  try {
    const strings = await readSharedStrings(await open(), budget);
    yield* readSheetRows(await open(), strings, budget);
  } catch (error) {
    throw toFileProblem(error, 'xlsx');
  }
}
