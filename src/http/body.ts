import { ApiError, validationError } from '../errors/api-error';
import { message } from '../messages/catalogue';

export const MAX_BODY_BYTES = 1024 * 1024;

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const mediaType = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** Reads the request body as text, refusing more than 1 MiB without buffering past the limit. */
export async function readLimitedText(request: Request): Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_BODY_BYTES) {
      await reader.cancel();
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
  return new TextDecoder().decode(bytes);
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
  try {
    return parseJson(text, options.exactNumberKeys);
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    throw validationError([{ path: '', message: message('bodyMalformed') }], `The body is not valid JSON: ${reason}`);
  }
}
