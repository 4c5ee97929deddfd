import { ApiError, validationError } from '../errors/api-error';
import { message } from '../messages/catalogue';
import { decodeUtf8Field, findIllFormedString, findTooDeepField, MAX_JSON_DEPTH } from './json-input';

const MAX_BODY_BYTES = 1024 * 1024;
/**
 * A body found too large while reading (chunked, no Content-Length) is still read to its end, up to this many
 * bytes, and discarded before the 413: a request body left half read stalls the next request on the same
 * connection in `wrangler dev` (its proxy forwards to the Worker over HTTP and must finish the upload first),
 * and on Workers the body cannot be read once the answer is sent. Larger bodies are cut off.
 */
const MAX_DISCARDED_BODY_BYTES = 32 * 1024 * 1024;

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const mediaType = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** Reads and drops the rest of a body (bounded), so the connection it came on is left clean. */
export async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, received: number): Promise<void> {
  let total = received;
  while (total <= MAX_DISCARDED_BODY_BYTES) {
    const { done, value } = await reader.read();
    if (done) return;
    total += value.byteLength;
  }
  await reader.cancel();
}

/** Reads the request body's bytes, refusing more than 1 MiB (413) without buffering past the limit. */
export async function readLimitedBytes(request: Request): Promise<Uint8Array> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return new Uint8Array(0);
  // A declared length frames the body (HTTP): at most that many bytes arrive, so it is read in one go (a Request made
  // in-process could still carry more than it declares: checked after).
  if (declared !== null && /^\d+$/.test(declared)) {
    const bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > MAX_BODY_BYTES) throw tooLarge();
    return bytes;
  }
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await discardRest(reader, total);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Reads the request body as UTF-8 text (413 over 1 MiB, 400 naming the field of invalid bytes). */
export async function readLimitedText(request: Request): Promise<string> {
  const decoded = decodeUtf8Field(await readLimitedBytes(request));
  if ('error' in decoded) throw validationError([decoded.error], 'The body is not valid UTF-8.');
  return decoded.text;
}

function tooLarge(): ApiError {
  return new ApiError('PayloadTooLarge', `The request body exceeds ${MAX_BODY_BYTES} bytes (1 MiB).`);
}

export interface JsonBodyOptions {
  /** An empty body is answered as `undefined` instead of 400. */
  readonly optional?: boolean;
  /**
   * Property names whose JSON number values are returned as their exact source text (a string), so that
   * decimals keep every digit that was sent (`''` is the bare top-level value). Other numbers parse as usual.
   */
  readonly exactNumberKeys?: readonly string[];
}

/** The JSON.parse reviver's third argument (source text access; supported by the Workers runtime). */
interface ReviverContext {
  readonly source?: string;
}

type SourceReviver = (this: unknown, key: string, value: unknown, context?: ReviverContext) => unknown;

function parseJson(text: string, exactNumberKeys: readonly string[] | undefined): unknown {
  if (!exactNumberKeys || exactNumberKeys.length === 0) return JSON.parse(text) as unknown;
  // Property names bind case-insensitively, so `ConversionFactor` keeps its digits as `conversionFactor` does.
  const keys = new Set(exactNumberKeys.map((key) => key.toLowerCase()));
  const reviver: SourceReviver = (key, value, context) =>
    typeof value === 'number' && keys.has(key.toLowerCase()) && typeof context?.source === 'string' ? context.source : value;
  return JSON.parse(text, reviver as (key: string, value: unknown) => unknown) as unknown;
}

/**
 * Reads a JSON body: 413 over 1 MiB, 415 when the body is not declared as JSON, 400 when it does not parse.
 * `optional` bodies may be empty (answered as `undefined`).
 */
export async function readJsonBody(request: Request, options: JsonBodyOptions = {}): Promise<unknown> {
  const contentType = request.headers.get('content-type');
  const text = await readLimitedText(request);
  if (text.trim() === '') {
    if (options.optional) return undefined;
    throw validationError([{ path: '', message: message('bodyRequired') }], message('bodyRequired'));
  }
  if (!isJsonContentType(contentType)) {
    throw new ApiError('UnsupportedMediaType', `Send the body as application/json (received ${contentType ?? 'no content type'}).`);
  }
  const tooDeep = findTooDeepField(text);
  if (tooDeep !== undefined) {
    const field = message('nestedTooDeep', { field: tooDeep || 'body', max: MAX_JSON_DEPTH });
    throw validationError(
      [{ path: tooDeep, message: field }],
      `The body is nested too deeply: at most ${MAX_JSON_DEPTH} levels (at ${tooDeep}).`,
    );
  }
  let parsed: unknown;
  try {
    parsed = parseJson(text, options.exactNumberKeys);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    throw validationError([{ path: '', message: message('bodyMalformed') }], `The body is not valid JSON: ${reason}`);
  }
  const illFormed = findIllFormedString(parsed);
  if (illFormed) throw validationError([illFormed], 'The body holds a string that is not well-formed Unicode.');
  return parsed;
}
