/** Shared parts of the document: error answers, headers, the bearer security scheme, tenant/org parameters. */
import type { HeaderName } from '../http/route';
import type { JsonObject } from './schema';
import { refTo } from './schema';

export const PROBLEM_SCHEMA_NAME = 'ProblemDetails';
const PROBLEM_TYPE = 'application/problem+json';
export const SECURITY_SCHEME = 'bearerAuth';

/** What each error status means. */
const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  400: 'The request is not valid (code ValidationFailed naming every bad field, RecordNotFound, DuplicateKey, UnknownReference, InvalidODataQuery, InvalidAddress, ...)',
  401: 'No, invalid or expired bearer token (see WWW-Authenticate)',
  403: 'The token may not use this tenant/org, or lacks the scope',
  404: 'Not found',
  405: 'Method not allowed (Allow lists the methods)',
  409: 'A request with the same Idempotency-Key is still in progress (code IdempotencyKeyInUse); retry once it is answered',
  412: 'If-Match does not match the current version (ETag)',
  413: 'The request body exceeds 1 MiB',
  415: 'The request body is not declared as JSON',
  422: 'The Idempotency-Key was already used with another request (code IdempotencyKeyReused)',
  429: 'Too many requests for the tenant/org or the token subject (code RateLimited); Retry-After says when to retry',
  500: 'Unexpected error (quote the requestId when reporting it)',
  503: 'The tenant/org is being moved to another database and the write waited too long; retry after Retry-After seconds',
};

export const HEADERS: Readonly<Record<HeaderName, JsonObject>> = {
  Location: { description: 'Absolute URL of the new record', schema: { type: 'string', format: 'uri' } },
  ETag: { description: 'The record version, quoted ("3"); send it as If-Match to update only that version', schema: { type: 'string' } },
  Allow: { description: 'The methods the path accepts', schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'Bearer challenge with the reason', schema: { type: 'string' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'string' } },
  RateLimit: {
    description: 'The exhausted limit (IETF draft-ietf-httpapi-ratelimit-headers): `"org";r=0;t=<seconds to reset>` or `"subject";...`',
    schema: { type: 'string' },
  },
  'RateLimit-Policy': {
    description:
      'The limits (IETF draft-ietf-httpapi-ratelimit-headers): `"org";q=<requests>;w=<seconds>, "subject";q=...;w=...`; ' +
      'sent on 429 answers and on every successful answer of an /api operation while rate limiting is on',
    schema: { type: 'string' },
  },
  'Cache-Control': { description: 'no-store: the answer holds a credential; do not cache it', schema: { type: 'string' } },
  'Preference-Applied': { description: 'The Prefer preference the answer honours (return=minimal)', schema: { type: 'string' } },
};

export function describeError(status: number, description?: string): JsonObject {
  return {
    description: description ?? ERROR_MEANINGS[status] ?? 'Error',
    ...(status === 401 ? { headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } } } : {}),
    ...(status === 405 ? { headers: { Allow: { $ref: '#/components/headers/Allow' } } } : {}),
    ...(status === 429
      ? {
          headers: Object.fromEntries(
            (['Retry-After', 'RateLimit', 'RateLimit-Policy'] as const).map((name) => [name, { $ref: `#/components/headers/${name}` }]),
          ),
        }
      : {}),
    content: { [PROBLEM_TYPE]: { schema: refTo(PROBLEM_SCHEMA_NAME) } },
  };
}

/** The standard error answers, referenced as `#/components/responses/Error<status>`. */
export const ERROR_RESPONSES: Readonly<Record<string, JsonObject>> = Object.fromEntries(
  Object.keys(ERROR_MEANINGS).map((status) => [`Error${status}`, describeError(Number(status))]),
);

export function refToError(status: number): JsonObject {
  return ERROR_MEANINGS[status] ? { $ref: `#/components/responses/Error${status}` } : describeError(status);
}

const ADDRESS = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$' };

export const PARAMETERS: Readonly<Record<string, JsonObject>> = {
  tenantKey: { name: 'tenantKey', in: 'path', required: true, description: 'Tenant', schema: ADDRESS },
  orgKey: { name: 'orgKey', in: 'path', required: true, description: 'Organization', schema: ADDRESS },
  idempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes the request safe to retry (IETF draft-ietf-httpapi-idempotency-key-header): 1 to 255 printable ASCII characters, ' +
      'a UUID is best, optionally quoted. Within 24 hours, the same key with the same request (method, path, query, body bytes) ' +
      'answers the first answer again (status, body, Location, ETag) with `Idempotent-Replayed: true` and changes nothing; with ' +
      'another request 422 IdempotencyKeyReused; while the first is still running 409 IdempotencyKeyInUse. A refused request ' +
      '(4xx) frees its key. Keys are per tenant/org.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  bookmark: {
    name: 'x-d1-bookmark',
    in: 'header',
    required: false,
    description:
      'Read your writes: send back the x-d1-bookmark of an earlier answer and this request reads data at least that fresh. ' +
      'Answers of authorized /api requests carry the bookmark of the data they read or wrote (an answer that read nothing from ' +
      'the database echoes the bookmark sent, if any).',
    schema: { type: 'string' },
  },
  ifMatch: {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: 'Only change the record when its version (ETag) is this one; otherwise 412',
    schema: { type: 'string' },
  },
};

export const SECURITY_SCHEMES = {
  [SECURITY_SCHEME]: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description:
      'A JWT (HS256 or a configured JWKS). Claims: `sub` (recorded as createdBy/modifiedBy), `scope` (space-separated: ' +
      '`application` reads and writes, `admin` also manages reference data) and `orgs` (tenantKey/orgKey patterns, `*` wildcards). ' +
      'Each operation lists the scope it needs. API clients get one from POST /connect/token (OAuth2 client credentials).',
  },
  streamTicket: {
    type: 'apiKey',
    in: 'query',
    name: 'ticket',
    description:
      'A stream ticket (POST /api/{tenantKey}/{orgKey}/changes/tickets with the bearer token): opens one live stream of that ' +
      'tenant/org within 60 s, for clients that cannot send an Authorization header (EventSource, the browser WebSocket).',
  },
  clientBasic: {
    type: 'http',
    scheme: 'basic',
    description: 'Client authentication of POST /connect/token: client_id as the user name, client_secret as the password.',
  },
};
