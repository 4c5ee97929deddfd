/**
 * `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header) on every POST that creates or changes. The same
 * key with the same request (method, path, query and body bytes) within 24 hours replays the first answer (status,
 * body, Location, ETag) with `Idempotent-Replayed: true` and runs nothing; the same key with another request is 422
 * `IdempotencyKeyReused`; while the first is still running, 409 `IdempotencyKeyInUse`. Keys are per tenant/org and per
 * caller (token subject, client, scopes and orgs: another caller's key is another key), kept by the tenant/org's
 * coordinator (the `idempotency.*` commands, src/idempotency/commands.ts) under a digest, with the answer's body sealed
 * for the caller and key (src/idempotency/seal.ts). A request without the header costs nothing more.
 */
import { ApiError, handleError } from '../errors/api-error';
import type { Coordinator } from '../coordinator/commands';
import type { IdempotencyKeyUse, StoredResponse } from '../idempotency/commands';
import { message } from '../messages/catalogue';
import { readLimitedBytes } from './body';
import type { ApiContext } from './context';
import type { Method } from './route';
import { computeStoredKey, describeCaller, openBody, sealBody } from '../idempotency/seal';

const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
const REPLAYED_HEADER = 'idempotent-replayed';
const QUOTED_KEY = /^[\x20-\x7e]{1,255}$/;
/** A bare key: visible ASCII without quotes or backslashes (those need the quoted form). */
const BARE_KEY = /^[\x21\x23-\x5b\x5d-\x7e]{1,255}$/;
const KEPT_HEADERS = ['content-type', 'location', 'etag', 'cache-control'];
const FINISH_ATTEMPTS = 3;

/** POSTs take the header unless they only read (the exchange rate lookups). */
export function acceptsIdempotencyKey(route: {
  readonly method: Method;
  readonly readOnly?: boolean;
  readonly streamsBody?: boolean;
}): boolean {
  return route.method === 'POST' && route.readOnly !== true && route.streamsBody !== true;
}

/** `"8e03978e-..."` (a structured-field string, as the draft writes it) or the bare key; 1 to 255 visible ASCII. */
function parseIdempotencyKey(header: string): string {
  const trimmed = header.trim();
  const quoted = /^"((?:[^"\\]|\\["\\])*)"$/.exec(trimmed);
  const key = quoted ? (quoted[1] ?? '').replace(/\\(["\\])/g, '$1') : trimmed;
  if (quoted ? QUOTED_KEY.test(key) : BARE_KEY.test(key)) return key;
  throw new ApiError('ValidationFailed', 'The Idempotency-Key header is not valid.', {
    errors: [{ path: 'Idempotency-Key', message: message('badIdempotencyKey', { field: 'Idempotency-Key' }) }],
  });
}

async function computeFingerprint(request: Request, body: Uint8Array): Promise<string> {
  const url = new URL(request.url);
  const head = new TextEncoder().encode(`${request.method} ${url.pathname}${url.search}\n`);
  const data = new Uint8Array(head.length + body.length);
  data.set(head);
  data.set(body, head.length);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', data));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** The request again, with the body already read (the handler reads it as usual). */
function rebuildRequest(request: Request, body: Uint8Array): Request {
  const headers = new Headers(request.headers);
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  return new Request(request.url, { method: request.method, headers, ...(body.length > 0 ? { body } : {}) });
}

function buildResponse(stored: StoredResponse, body: string, replayed: boolean): Response {
  const headers = new Headers();
  for (const [name, value] of stored.headers) headers.set(name, value);
  if (replayed) headers.set(REPLAYED_HEADER, 'true');
  return new Response(body === '' ? null : body, { status: stored.status, headers });
}

async function captureResponse(response: Response): Promise<StoredResponse> {
  const headers = KEPT_HEADERS.flatMap((name) => {
    const value = response.headers.get(name);
    return value === null ? [] : [[name, value] as const];
  });
  return { status: response.status, headers, body: await response.text() };
}

/** Runs `handle` at most once per key and request; see the module comment. */
export async function handleIdempotently(ctx: ApiContext, handle: (ctx: ApiContext) => Promise<Response>): Promise<Response> {
  const header = ctx.request.headers.get(IDEMPOTENCY_KEY_HEADER);
  if (header === null) return handle(ctx);
  const key = parseIdempotencyKey(header);
  const body = await readLimitedBytes(ctx.request);
  const request = rebuildRequest(ctx.request, body);
  const caller = describeCaller(ctx.principal);
  const use: KeyUse = {
    coordinator: ctx.platform.coordinator(ctx.tenant.scope),
    command: { ...ctx.tenant.scope, key: await computeStoredKey(caller, key), fingerprint: await computeFingerprint(request, body) },
    requestId: ctx.requestId,
  };
  const begun = await use.coordinator.send({ type: 'idempotency.begin', ...use.command });
  if (begun.status === 'replay') return buildResponse(begun.response, await openBody(caller, key, begun.response.body), true);
  if (begun.status === 'inFlight') {
    throw new ApiError(
      'IdempotencyKeyInUse',
      `A request with Idempotency-Key '${key}' is still being processed; retry once it is answered.`,
      {
        headers: { 'retry-after': '1' },
      },
    );
  }
  if (begun.status === 'mismatch') {
    throw new ApiError(
      'IdempotencyKeyReused',
      `Idempotency-Key '${key}' was used with another request (method, path or body) in the last 24 hours.`,
      { errors: [{ path: 'Idempotency-Key', message: message('idempotencyKeyReused', { field: 'Idempotency-Key' }) }] },
    );
  }
  let response: Response;
  try {
    response = await handle({ ...ctx, request });
  } catch (error) {
    if (!(error instanceof ApiError) || !wroteNothing(error)) response = handleError(error, request, ctx.requestId);
    else {
      await releaseKey(use);
      throw error;
    }
  }
  if (response.status >= 400 && response.status < 500) {
    await releaseKey(use);
    return response;
  }
  const kept = await captureResponse(response);
  await finishKey(use, { ...kept, body: await sealBody(caller, key, kept.body) });
  return buildResponse(kept, kept.body, false);
}

/**
 * A thrown answer after which nothing was written: a refusal (4xx; writes are all-or-nothing), or 503
 * `ServiceUnavailable`, a write the residency guard kept off a tenant/org being moved (src/tenant/placement/): it
 * asks for a retry after Retry-After, so the key must not replay it.
 */
function wroteNothing(error: ApiError): boolean {
  return error.status < 500 || error.code === 'ServiceUnavailable';
}

/** One request's key in its tenant/org's coordinator. */
interface KeyUse {
  readonly coordinator: Coordinator;
  readonly command: IdempotencyKeyUse & { readonly tenantKey: string; readonly orgKey: string };
  readonly requestId: string;
}

function logFailure(requestId: string, message: string, error: unknown): void {
  console.error(JSON.stringify({ level: 'error', requestId, message, error: String(error) }));
}

/** Refused (4xx, 503 during a move): nothing was written, so the key is free again for a retry (else free after its lease). */
async function releaseKey(use: KeyUse): Promise<void> {
  await use.coordinator
    .send({ type: 'idempotency.release', ...use.command })
    .catch((error: unknown) => logFailure(use.requestId, 'idempotency.release failed', error));
}

/** Keeps the answer for replays (a few attempts: until it is kept, the key stays in flight for its lease). */
async function finishKey(use: KeyUse, response: StoredResponse): Promise<void> {
  for (let attempt = 1; attempt <= FINISH_ATTEMPTS; attempt += 1) {
    try {
      await use.coordinator.send({ type: 'idempotency.finish', ...use.command, response });
      return;
    } catch (error) {
      if (attempt === FINISH_ATTEMPTS) logFailure(use.requestId, 'idempotency.finish failed', error);
    }
  }
}
