/**
 * JSON files: an array of objects (application/json) or one object per line (application/x-ndjson), parsed as they
 * stream by @streamparser/json: only the current item is held, and refused past MAX_RECORD_CHARS characters. Each item
 * comes with the byte offset just after it in the file (its tokens' offsets are UTF-8 byte offsets; a BOM is counted),
 * where a resumed read starts again.
 */
import { JSONParser } from '@streamparser/json';
import { recordTooLong } from './bounds';
import { MAX_RECORD_CHARS } from './limits';
import { FileProblem, toFileProblem } from './problem';
import { decodeUtf8, measureBom, readChunks } from './streams';

type JsonLayout = 'array' | 'lines';

/** Text handed to the parser at a time: an item's length is known to within this many characters. */
const WRITE_CHARS = 4096;

/** An item of the file and the byte offset just after it. */
interface JsonItem {
  readonly value: unknown;
  readonly end: number;
}

/** Feeds text to the parser; answers the items it completed, each with its end offset in the file. */
class OffsetParser {
  private readonly parser: JSONParser;
  private readonly ready: JsonItem[] = [];
  private failure: unknown;
  private lastToken = -1;
  // Characters written since the last item ended (to within a slice): what the parser holds of the item being read.
  private held = 0;

  /** `toFile`: the file offset of a parser byte offset. */
  constructor(
    layout: JsonLayout,
    private readonly toFile: (offset: number) => number,
  ) {
    this.parser = new JSONParser(
      layout === 'array' ? { paths: ['$.*'], keepStack: false } : { paths: ['$'], keepStack: false, separator: '' },
    );
    this.parser.onToken = ({ offset }) => {
      this.lastToken = offset;
    };
    // An item ends with its last token (an object's `}`): the next item starts after it.
    this.parser.onValue = ({ value }) => {
      if (this.held > MAX_RECORD_CHARS) this.failure ??= recordTooLong();
      this.held = 0;
      this.ready.push({ value, end: this.toFile(this.lastToken + 1) });
    };
    this.parser.onError = (error) => {
      this.failure ??= error;
    };
  }

  /** Writes `text` in slices of WRITE_CHARS (a surrogate pair never cut), refusing an item past MAX_RECORD_CHARS. */
  write(text: string): JsonItem[] {
    for (let offset = 0; offset < text.length;) {
      let end = Math.min(offset + WRITE_CHARS, text.length);
      if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end += 1;
      this.held += end - offset;
      this.parser.write(text.slice(offset, end));
      if (this.failure !== undefined) throw this.failure;
      if (this.held > MAX_RECORD_CHARS) throw recordTooLong();
      offset = end;
    }
    return this.ready.splice(0);
  }

  end(): JsonItem[] {
    if (!this.parser.isEnded) this.parser.end();
    if (this.failure !== undefined) throw this.failure;
    return this.ready.splice(0);
  }
}

/** The items of a JSON array or NDJSON file, in order, from its start. */
async function* readFromStart(bytes: ReadableStream<Uint8Array>, layout: JsonLayout, format: string): AsyncGenerator<JsonItem> {
  let bom = 0;
  const parser = new OffsetParser(layout, (offset) => bom + offset);
  let started = false;
  const text = bytes.pipeThrough(measureBom((length) => (bom = length))).pipeThrough(decodeUtf8());
  for await (const chunk of readChunks(text)) {
    if (!started && layout === 'array') {
      const first = chunk.trimStart();
      if (first === '') continue;
      if (!first.startsWith('[')) throw new FileProblem('importMalformed', { format, detail: 'the file must be one array of objects' });
    }
    started = true;
    yield* parser.write(chunk);
  }
  yield* parser.end();
}

/**
 * The items after the one that ends at byte `offset` (`bytes`: the file from there on). NDJSON goes on as it is; the
 * rest of an array (`, {...}, ...]`) is read as an array of its own: `[`, then the text past the `,` that follows.
 */
async function* readFromOffset(bytes: ReadableStream<Uint8Array>, layout: JsonLayout, offset: number): AsyncGenerator<JsonItem> {
  if (layout === 'lines') {
    const parser = new OffsetParser(layout, (at) => offset + at);
    for await (const chunk of readChunks(bytes.pipeThrough(decodeUtf8()))) yield* parser.write(chunk);
    yield* parser.end();
    return;
  }
  // The synthetic `[` is the parser's byte 0; the file's bytes from offset + dropped are its bytes 1, 2, ...
  let dropped = 0;
  const parser = new OffsetParser(layout, (at) => offset + dropped + at - 1);
  parser.write('[');
  let separated = false;
  for await (const chunk of readChunks(bytes.pipeThrough(decodeUtf8()))) {
    let text = chunk;
    if (!separated) {
      const rest = text.replace(/^[ \t\r\n]+/, '');
      dropped += text.length - rest.length;
      if (rest === '') continue;
      separated = true;
      // Whitespace and `,` are one byte each in UTF-8.
      if (rest.startsWith(',')) dropped += 1;
      text = rest.startsWith(',') ? rest.slice(1) : rest;
    }
    yield* parser.write(text);
  }
  yield* parser.end();
}

/**
 * The items of a JSON array or NDJSON file, in order, each with the byte offset just after it; with `from` (an item's
 * end offset), the items after it (`bytes`: the file from that offset on).
 */
export async function* readJsonItems(bytes: ReadableStream<Uint8Array>, layout: JsonLayout, from?: number): AsyncGenerator<JsonItem> {
  const format = layout === 'array' ? 'JSON' : 'NDJSON';
  try {
    yield* from === undefined || from <= 0 ? readFromStart(bytes, layout, format) : readFromOffset(bytes, layout, from);
  } catch (error) {
    throw toFileProblem(error, format);
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}
