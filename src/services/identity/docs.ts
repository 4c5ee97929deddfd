/** OpenAPI documentation of the API clients and of the OAuth2 token endpoint. */
import * as v from 'valibot';
import { ISSUED_TOKEN_LIFETIME_SECONDS } from '../../auth/issue';
import type { HeaderName, OperationDoc } from '../../http/route';
import { DATE_TIME, GUID, INTEGER } from '../../openapi/values';
import { ApiClientInput, CLIENT_SCOPES } from './validate';

type Parts = Omit<OperationDoc, 'summary' | 'operationId'>;

const clientFields = {
  id: GUID,
  clientId: v.pipe(v.string(), v.description('The client_id of the token endpoint: {tenantKey}~{orgKey}~{24 hex digits}')),
  name: v.string(),
  scopes: v.array(v.picklist(CLIENT_SCOPES)),
  orgs: v.pipe(v.array(v.string()), v.description('Org keys of the tenant the client may get tokens for; ["*"]: all of them')),
  isActive: v.pipe(v.boolean(), v.description('false once revoked')),
  revokedOn: v.nullable(DATE_TIME),
  secretIssuedOn: v.pipe(DATE_TIME, v.description('When the current secret was made')),
  createdOn: DATE_TIME,
  createdBy: v.string(),
  modifiedOn: DATE_TIME,
  modifiedBy: v.string(),
  version: INTEGER,
};

const ApiClientResource = v.strictObject(clientFields);
const ApiClientSecretResource = v.strictObject({
  ...clientFields,
  clientSecret: v.pipe(v.string(), v.description('The client secret: shown in this answer only, never again (it is stored hashed)')),
});

const schemas = { ApiClientResource, ApiClientSecretResource, ApiClientInput };

const CLIENT_ID = {
  name: 'clientId',
  in: 'path' as const,
  description: 'client_id of the API client',
  schema: { json: { type: 'string' } },
};
const MISSING = { description: 'No API client of this tenant/org has this clientId' };

export const createClientDoc = {
  schemas,
  requestBody: {
    description: 'name; scopes (default ["application"]); orgs of the tenant (default: the path org; ["*"]: all)',
    schema: ApiClientInput,
  },
  responses: {
    201: {
      description: 'Created: the client with its secret (shown this once); Location is the client',
      schema: ApiClientSecretResource,
      headers: ['Location', 'Cache-Control'],
    },
    403: { description: 'The token lacks the admin scope, or may not use an org the body grants' },
  },
} satisfies Parts;

export const listClientsDoc = {
  schemas,
  responses: {
    200: { description: 'Every API client of the tenant/org (no secrets)', schema: v.strictObject({ items: v.array(ApiClientResource) }) },
  },
} satisfies Parts;

export const readClientDoc = {
  schemas,
  parameters: [CLIENT_ID],
  responses: { 200: { description: 'The API client (no secret)', schema: ApiClientResource }, 404: MISSING },
} satisfies Parts;

export const revokeClientDoc = {
  schemas,
  parameters: [CLIENT_ID],
  responses: {
    200: { description: 'Revoked (or already revoked): the token endpoint refuses the client from now on', schema: ApiClientResource },
    404: MISSING,
  },
} satisfies Parts;

export const rotateSecretDoc = {
  schemas,
  parameters: [CLIENT_ID],
  responses: {
    200: {
      description: 'A new secret (shown this once); the old one stops working now',
      schema: ApiClientSecretResource,
      headers: ['Cache-Control'],
    },
    400: { description: 'The client is revoked (code InvalidStateTransition)' },
    404: MISSING,
  },
} satisfies Parts;

export const deleteClientDoc = {
  parameters: [CLIENT_ID],
  responses: { 204: { description: 'Deleted: the token endpoint refuses the client from now on' }, 404: MISSING },
} satisfies Parts;

/** RFC 6749 section 5.2 error answer. */
const OAuthError = v.strictObject({
  error: v.picklist(['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_scope', 'temporarily_unavailable']),
  error_description: v.string(),
});

const TokenRequest = v.strictObject({
  grant_type: v.pipe(v.literal('client_credentials'), v.description('Only the client credentials grant')),
  client_id: v.optional(v.pipe(v.string(), v.description('Or in HTTP Basic authentication'))),
  client_secret: v.optional(v.pipe(v.string(), v.description('Or in HTTP Basic authentication'))),
  scope: v.optional(v.pipe(v.string(), v.description('Space-separated scopes (application, admin); default: every scope of the client'))),
});

const TokenResponse = v.strictObject({
  access_token: v.pipe(v.string(), v.description('A JWT to send as Authorization: Bearer <token> on /api requests')),
  token_type: v.literal('Bearer'),
  expires_in: v.pipe(INTEGER, v.description(`Seconds the token is valid (${ISSUED_TOKEN_LIFETIME_SECONDS})`)),
  scope: v.pipe(v.string(), v.description('The scopes granted, space-separated')),
});

const oauthError = (description: string, headers?: readonly HeaderName[]) => ({
  description,
  contentType: 'application/json',
  schema: OAuthError,
  ...(headers ? { headers } : {}),
});

/** No token needed: the client authenticates in the form body, or with HTTP Basic. */
const TOKEN_SECURITY: NonNullable<Parts['security']> = [{}, { clientBasic: [] }];

export const tokenDoc = {
  description:
    'OAuth2 client credentials grant (RFC 6749 section 4.4). Authenticate the client with client_id and client_secret in ' +
    'the form body, or with HTTP Basic (client_id as user, client_secret as password), not both. The answer is a bearer ' +
    'token for /api requests of the orgs the client may use, with the scopes asked for (default: all of the client).',
  schemas: { TokenRequest, TokenResponse, OAuthError },
  security: TOKEN_SECURITY,
  requestBody: { description: 'The token request, form-encoded', contentType: 'application/x-www-form-urlencoded', schema: TokenRequest },
  responses: {
    200: { description: 'The access token', schema: TokenResponse, headers: ['Cache-Control'] },
    400: oauthError('invalid_request (a parameter missing, repeated or malformed), unsupported_grant_type or invalid_scope'),
    401: oauthError('invalid_client: unknown, revoked or deleted client, wrong secret, or no client authentication', ['WWW-Authenticate']),
    429: oauthError(
      'temporarily_unavailable: too many token requests for the tenant/org of the client id, or for the client id (which shares its ' +
        'budget with the /api requests of its tokens); retry after Retry-After seconds',
      ['Retry-After', 'RateLimit', 'RateLimit-Policy'],
    ),
    503: oauthError('temporarily_unavailable: this deployment has no JWT_SECRET to sign tokens with (it only verifies tokens of a JWKS)'),
  },
} satisfies Parts;
