/** Shared parts of the document: error answers, headers, the bearer security scheme, tenant/org parameters. */
import type { HeaderName } from '../http/route';
import type { JsonObject } from './schema';
import { refTo } from './schema';

export const PROBLEM_SCHEMA_NAME = 'ProblemDetails';
export const PROBLEM_TYPE = 'application/problem+json';
export const SECURITY_SCHEME = 'bearerAuth';

/** What each error status means. */
export const ERROR_MEANINGS: Readonly<Record<number, string>> = {
  400: 'The request is not valid (code ValidationFailed naming every bad field, RecordNotFound, DuplicateKey, UnknownReference, InvalidODataQuery, InvalidAddress, ...)',
  401: 'No, invalid or expired bearer token (see WWW-Authenticate)',
  403: 'The token may not use this tenant/org, or lacks the scope',
  404: 'Not found',
  405: 'Method not allowed (Allow lists the methods)',
  412: 'If-Match does not match the current version (ETag)',
  413: 'The request body exceeds 1 MiB',
  415: 'The request body is not declared as JSON',
  500: 'Unexpected error (quote the requestId when reporting it)',
};

export const HEADERS: Readonly<Record<HeaderName, JsonObject>> = {
  Location: { description: 'Absolute URL of the new record', schema: { type: 'string', format: 'uri' } },
  ETag: { description: 'The record version, quoted ("3"); send it as If-Match to update only that version', schema: { type: 'string' } },
  Allow: { description: 'The methods the path accepts', schema: { type: 'string' } },
  'WWW-Authenticate': { description: 'Bearer challenge with the reason', schema: { type: 'string' } },
  'Cache-Control': { description: 'no-store: the answer holds a credential; do not cache it', schema: { type: 'string' } },
};

export function describeError(status: number, description?: string): JsonObject {
  return {
    description: description ?? ERROR_MEANINGS[status] ?? 'Error',
    ...(status === 401 ? { headers: { 'WWW-Authenticate': { $ref: '#/components/headers/WWW-Authenticate' } } } : {}),
    ...(status === 405 ? { headers: { Allow: { $ref: '#/components/headers/Allow' } } } : {}),
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
  clientBasic: {
    type: 'http',
    scheme: 'basic',
    description: 'Client authentication of POST /connect/token: client_id as the user name, client_secret as the password.',
  },
};
