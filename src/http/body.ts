import { ApiError } from './errors';

export const MAX_BODY_BYTES = 1024 * 1024;

function isJsonContentType(value: string | null): boolean {
  if (!value) return false;
  const mediaType = value.split(';')[0]?.trim().toLowerCase() ?? '';
  return mediaType === 'application/json' || (mediaType.startsWith('application/') && mediaType.endsWith('+json'));
}

/** Reads the request body as text, refusing more than 1 MiB without buffering past the limit. */
async function readLimitedText(request: Request): Promise<string> {
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

/**
 * Reads a JSON body: 413 over 1 MiB, 415 when the body is not declared as JSON, 400 when it does not parse.
 * `optional` bodies may be empty (answered as `undefined`).
 */
export async function readJsonBody(request: Request, options: { optional?: boolean } = {}): Promise<unknown> {
  const contentType = request.headers.get('content-type');
  const text = await readLimitedText(request);
  if (text.trim() === '') {
    if (options.optional) return undefined;
    throw new ApiError('ValidationFailed', 'A JSON request body is required.', { errors: [{ path: '', message: 'The body is empty.' }] });
  }
  if (!isJsonContentType(contentType)) {
    throw new ApiError('UnsupportedMediaType', `Send the body as application/json (received ${contentType ?? 'no content type'}).`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const reason = error instanceof Error ? error.message : 'invalid JSON';
    throw new ApiError('ValidationFailed', `The body is not valid JSON: ${reason}`, { errors: [{ path: '', message: 'Malformed JSON.' }] });
  }
}
