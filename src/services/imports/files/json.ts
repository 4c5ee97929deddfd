/**
 * JSON files: an array of objects (application/json) or one object per line (application/x-ndjson), parsed as they
 * stream by @streamparser/json: only the current item is held, and refused past MAX_RECORD_CHARS characters.
 */
import { JSONParser } from '@streamparser/json';
import { recordTooLong } from './bounds';
import { MAX_RECORD_CHARS } from './limits';
import { FileProblem, toFileProblem } from './problem';
import { decodeUtf8, readChunks } from './streams';

type JsonLayout = 'array' | 'lines';

/** Text handed to the parser at a time: an item's length is known to within this many characters. */
const WRITE_CHARS = 4096;

/** The items of a JSON array or NDJSON file, in order. */
export async function* readJsonItems(bytes: ReadableStream<Uint8Array>, layout: JsonLayout): AsyncGenerator<unknown> {
  const format = layout === 'array' ? 'JSON' : 'NDJSON';
  const parser = new JSONParser(
    layout === 'array' ? { paths: ['$.*'], keepStack: false } : { paths: ['$'], keepStack: false, separator: '' },
  );
  const ready: unknown[] = [];
  let failure: unknown;
  let started = false;
  // Characters written since the last item ended (to within a slice): what the parser holds of the item being read.
  let held = 0;
  parser.onValue = ({ value }) => {
    if (held > MAX_RECORD_CHARS) failure ??= recordTooLong();
    held = 0;
    ready.push(value);
  };
  parser.onError = (error) => {
    failure ??= error;
  };
  try {
    for await (const text of readChunks(bytes.pipeThrough(decodeUtf8()))) {
      if (!started && layout === 'array') {
        const first = text.trimStart();
        if (first === '') continue;
        if (!first.startsWith('[')) throw new FileProblem('importMalformed', { format, detail: 'the file must be one array of objects' });
      }
      started = true;
      for (let offset = 0; offset < text.length; offset += WRITE_CHARS) {
        const slice = text.slice(offset, offset + WRITE_CHARS);
        held += slice.length;
        parser.write(slice);
        if (failure !== undefined) throw failure;
        if (held > MAX_RECORD_CHARS) throw recordTooLong();
      }
      yield* ready.splice(0);
    }
    if (!parser.isEnded) parser.end();
    if (failure !== undefined) throw failure;
    yield* ready.splice(0);
  } catch (error) {
    throw toFileProblem(error, format);
  }
}
