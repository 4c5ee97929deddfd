/**
 * One XML part of a zip (an .xlsx's sheet or shared strings) decompressed into a streaming parser (saxes), bounded:
 * every byte decompressed counts against the read's budget (a zip bomb is refused), the compressed bytes are pushed a
 * KiB at a time (what one push can expand to: about 1 MiB, held until parsed), no text or tag may grow past
 * MAX_XML_NODE_CHARS (the parser holds a text or a tag whole until it ends), and the parse yields to the event loop
 * as it goes.
 */
import { Unzip, UnzipInflate } from 'fflate';
import type { UnzipFile } from 'fflate';
import { SaxesParser } from 'saxes';
import type { SaxesTagPlain } from 'saxes';
import { MAX_RECORD_CHARS } from './limits';
import { FileProblem } from './problem';
import { readChunks, yieldToEventLoop } from './streams';

/** The most a workbook may decompress to in one read, over both parts (docs/api-reference.md, "Limits"). */
export const MAX_XLSX_DECOMPRESSED_BYTES = 16 * 1024 * 1024;
/** The longest text (a cell's, a shared string's) or tag the parser may hold: a record's characters. */
const MAX_XML_NODE_CHARS = MAX_RECORD_CHARS;
/** Compressed bytes pushed at a time: deflate expands a byte to at most about 1,032, so a push gives about 1 MiB. */
const PUSH_BYTES = 1024;
/** Parsing work between two yields to the event loop: characters, an XML event counted as EVENT_WORK characters. */
const YIELD_WORK = 512 * 1024;
const EVENT_WORK = 16;
/** Text handed to the parser at a time (so that a text growing past the bound is seen within this many characters). */
const WRITE_CHARS = 64 * 1024;

/** What one read of a workbook may still decompress. */
export interface InflateBudget {
  left: number;
  readonly max: number;
}

export function localName(tag: SaxesTagPlain): string {
  const colon = tag.name.indexOf(':');
  return colon === -1 ? tag.name : tag.name.slice(colon + 1);
}

type Handlers = {
  readonly opentag?: (tag: SaxesTagPlain) => void;
  readonly closetag?: (tag: SaxesTagPlain) => void;
  readonly text?: (text: string) => void;
};

/**
 * A part of the zip (by name) read into a SAX parser with `handlers`: what each push inflates is queued, then parsed
 * by `parse()` in slices, with a yield to the event loop every YIELD_WORK of work (characters, an event counted as
 * EVENT_WORK of them), so a part of tiny elements stalls nothing either.
 */
export class XmlPart {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  private readonly xml = new SaxesParser();
  private readonly queued: string[] = [];
  private ended = false;
  /** Characters written since the parser's last event: what it holds of a text or tag not ended yet. */
  private held = 0;
  private events = 0;
  private work = 0;
  found = false;

  constructor(
    readonly name: string,
    readonly budget: InflateBudget,
    handlers: Handlers,
  ) {
    const seen = () => {
      this.held = 0;
      this.events += 1;
    };
    this.xml.on('opentag', (tag) => {
      seen();
      handlers.opentag?.(tag as SaxesTagPlain);
    });
    this.xml.on('closetag', (tag) => {
      seen();
      handlers.closetag?.(tag as SaxesTagPlain);
    });
    const text = (value: string) => {
      seen();
      handlers.text?.(value);
    };
    this.xml.on('text', text);
    this.xml.on('cdata', text);
    for (const event of ['comment', 'processinginstruction', 'doctype', 'xmldecl'] as const) this.xml.on(event, seen);
  }

  attach(file: UnzipFile): void {
    this.found = true;
    file.ondata = (error, data, final) => {
      if (error) throw error;
      this.budget.left -= data.byteLength;
      if (this.budget.left < 0) throw new FileProblem('importXlsxTooLarge', { max: this.budget.max });
      this.queued.push(this.decoder.decode(data, { stream: !final }));
      if (final) this.ended = true;
    };
    file.start();
  }

  /** Parses what was inflated so far (the part's end too, once inflated). */
  async parse(): Promise<void> {
    for (let text = this.queued.shift(); text !== undefined; text = this.queued.shift()) {
      for (let offset = 0; offset < text.length; offset += WRITE_CHARS) {
        const slice = text.slice(offset, offset + WRITE_CHARS);
        this.held += slice.length;
        this.xml.write(slice);
        if (this.held > MAX_XML_NODE_CHARS) throw new FileProblem('importXlsxNodeTooLong', { max: MAX_XML_NODE_CHARS });
        this.work += slice.length + this.events * EVENT_WORK;
        this.events = 0;
        if (this.work >= YIELD_WORK) {
          this.work = 0;
          await yieldToEventLoop();
        }
      }
    }
    if (this.ended) {
      this.ended = false;
      this.xml.close();
    }
  }
}

/**
 * Reads the stored file through an Unzip, handing `part` its file and parsing what each push inflated; yields after
 * each push (a reader hands on what the parser made of it).
 */
export async function* inflatePart(bytes: ReadableStream<Uint8Array>, part: XmlPart): AsyncGenerator<void> {
  const unzip = new Unzip((file) => {
    if (file.name === part.name) part.attach(file);
  });
  unzip.register(UnzipInflate);
  for await (const chunk of readChunks(bytes)) {
    for (let offset = 0; offset < chunk.byteLength; offset += PUSH_BYTES) {
      unzip.push(chunk.subarray(offset, offset + PUSH_BYTES));
      await part.parse();
      yield;
    }
  }
  unzip.push(new Uint8Array(0), true);
  await part.parse();
  yield;
}

/** Reads the part through, its handlers collecting what they need. */
export async function drainPart(bytes: ReadableStream<Uint8Array>, part: XmlPart): Promise<void> {
  const pushes = inflatePart(bytes, part);
  for (let next = await pushes.next(); !next.done; next = await pushes.next()) {
    // each push's events went to the handlers
  }
}
