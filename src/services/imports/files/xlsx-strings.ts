/**
 * The shared strings table of a workbook (`xl/sharedStrings.xml`), read in full before the sheet (the sheet's cells
 * name strings by index) and held compactly: the strings of each block of 1,024 joined into one text, with their end
 * offsets in one typed array, so a million strings cost their characters and 4 bytes each, not an object each.
 * Bounded by count (MAX_SHARED_STRINGS) and characters (MAX_SHARED_STRING_CHARS): at most about 20 MB held.
 */
import { FileProblem } from './problem';
import { drainPart, localName, XmlPart } from './xml-part';
import type { InflateBudget } from './xml-part';

/** The most shared strings a workbook may have (docs/api-reference.md, "Limits"). */
export const MAX_SHARED_STRINGS = 1_000_000;
/** The most characters its shared strings may hold together. */
export const MAX_SHARED_STRING_CHARS = 8 * 1024 * 1024;
const SHARED_STRINGS = 'xl/sharedStrings.xml';
const BLOCK_BITS = 10;
const BLOCK = 1 << BLOCK_BITS;

/** The strings by index: `get(i)` answers a slice of its block's text. */
export class SharedStrings {
  private readonly blocks: string[] = [];
  private pending: string[] = [];
  private ends = new Uint32Array(BLOCK);
  private count = 0;
  private chars = 0;

  /** Adds one string (its characters first counted by `reserve`). */
  add(text: string): void {
    if (this.count >= MAX_SHARED_STRINGS) throw new FileProblem('importXlsxSharedStrings', { max: MAX_SHARED_STRINGS });
    if (this.count === this.ends.length) {
      const grown = new Uint32Array(this.ends.length * 2);
      grown.set(this.ends);
      this.ends = grown;
    }
    const within = this.count & (BLOCK - 1);
    const start = within === 0 ? 0 : (this.ends[this.count - 1] ?? 0);
    this.ends[this.count] = start + text.length;
    this.pending.push(text);
    this.count += 1;
    if (this.pending.length === BLOCK) this.seal();
  }

  /** Counts characters of a string being read, before they are kept. */
  reserve(length: number): void {
    this.chars += length;
    if (this.chars > MAX_SHARED_STRING_CHARS) throw new FileProblem('importXlsxSharedText', { max: MAX_SHARED_STRING_CHARS });
  }

  /** Ends the table: the last block joined. */
  seal(): void {
    if (this.pending.length === 0) return;
    this.blocks.push(this.pending.join(''));
    this.pending = [];
  }

  /** The string at `index` ('' when there is none). */
  get(index: number): string {
    if (!Number.isInteger(index) || index < 0 || index >= this.count) return '';
    const block = this.blocks[index >> BLOCK_BITS];
    if (block === undefined) return '';
    const start = (index & (BLOCK - 1)) === 0 ? 0 : (this.ends[index - 1] ?? 0);
    return block.slice(start, this.ends[index]);
  }
}

/** Pass one: the shared strings table (empty when the workbook has none). */
export async function readSharedStrings(bytes: ReadableStream<Uint8Array>, budget: InflateBudget): Promise<SharedStrings> {
  const strings = new SharedStrings();
  let current: string[] | undefined;
  let inText = false;
  let phonetic = 0;
  const part = new XmlPart(SHARED_STRINGS, budget, {
    opentag: (tag) => {
      const name = localName(tag);
      if (name === 'si') current = [];
      else if (name === 'rPh') phonetic += 1;
      else if (name === 't' && phonetic === 0) inText = true;
    },
    text: (text) => {
      if (!inText || !current) return;
      strings.reserve(text.length);
      current.push(text);
    },
    closetag: (tag) => {
      const name = localName(tag);
      if (name === 't') inText = false;
      else if (name === 'rPh') phonetic -= 1;
      else if (name === 'si' && current) {
        strings.add(current.join(''));
        current = undefined;
      }
    },
  });
  // The strings are collected by the parser's handlers.
  await drainPart(bytes, part);
  strings.seal();
  return strings;
}
