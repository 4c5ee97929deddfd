/**
 * JSON files: an array of objects (application/json) or one object per line (application/x-ndjson), parsed as they
 * stream by @streamparser/json: only the current item is held.
 */
import { JSONParser } from '@streamparser/json';
import { FileProblem, toFileProblem } from './problem';
import { decodeUtf8, readChunks } from './streams';

type JsonLayout = 'array' | 'lines';

/** The items of a JSON array or NDJSON file, in order. */
export async function* readJsonItems(bytes: ReadableStream<Uint8Array>, layout: JsonLayout): AsyncGenerator<unknown> {
  const format = layout === 'array' ? 'JSON' : 'NDJSON';
  const parser = new JSONParser(
    layout === 'array' ? { paths: ['$.*'], keepStack: false } : { paths: ['$'], keepStack: false, separator: '' },
  );
  const ready: unknown[] = [];
  let failure: unknown;
  let started = false;
  parser.onValue = ({ value }) => {
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
      parser.write(text);
      if (failure !== undefined) throw failure;
      yield* ready.splice(0);
    }
    if (!parser.isEnded) parser.end();
    if (failure !== undefined) throw failure;
    yield* ready.splice(0);
  } catch (error) {
    throw toFileProblem(error, format);
  }
}
