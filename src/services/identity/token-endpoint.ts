/**
 * `POST /connect/token`: the OAuth2 client credentials grant (RFC 6749 section 4.4). The client id names the tenant/org
 * whose database holds the client (credentials.ts); the answer is a token the API verifies (src/auth/issue.ts).
 * Errors are RFC 6749 section 5.2 JSON, not problem+json: that is what OAuth2 client libraries read.
 */
import { canIssueTokens, ISSUED_TOKEN_LIFETIME_SECONDS, signAccessToken } from '../../auth/issue';
import type { Scope } from '../../auth/token';
import { readLimitedText } from '../../http/body';
import type { PublicContext } from '../../http/context';
import { jsonResponse } from '../../http/responses';
import { definePublicRoute } from '../../http/route';
import type { PublicRoute } from '../../http/route';
import type { TenantScope } from '../../db/client';
import type { AuthenticationAttempt } from './failed-authentications';
import { digestsMatch, hashClientSecret, parseClientId } from './credentials';
import { tokenDoc } from './docs';
import { findApiClient } from './store';
import type { ApiClientRow } from './table';
import { CLIENT_SCOPES } from './validate';

const TOKEN_PATH = '/connect/token';
const FORM_TYPE = 'application/x-www-form-urlencoded';
const NO_STORE = { 'cache-control': 'no-store', pragma: 'no-cache' };
const BASIC_CHALLENGE = 'Basic realm="erp-edge-api", charset="UTF-8"';

type OAuthErrorCode = 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' | 'invalid_scope' | 'temporarily_unavailable';

/** The statuses of OAuth errors the token endpoint documents. */
type OAuthErrorStatus = 400 | 401 | 429 | 503;

const STATUS: Readonly<Record<OAuthErrorCode, OAuthErrorStatus>> = {
  invalid_request: 400,
  invalid_client: 401,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  temporarily_unavailable: 503,
};

/** How an OAuth error is answered when its code's status is not the one (a rate limit's 429 and its headers). */
interface OAuthAnswer {
  readonly status?: OAuthErrorStatus;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An RFC 6749 error; `error_description` is ASCII without quotes or backslashes, as section 5.2 requires. */
export class OAuthError extends Error {
  constructor(
    readonly error: OAuthErrorCode,
    description: string,
    readonly answer: OAuthAnswer = {},
  ) {
    super(description);
  }
}

function answerError(error: OAuthError) {
  const headers: Record<string, string> = { ...error.answer.headers, ...NO_STORE };
  if (error.error === 'invalid_client') headers['www-authenticate'] = BASIC_CHALLENGE;
  const status = error.answer.status ?? STATUS[error.error];
  return jsonResponse(tokenDoc.responses[status].schema, { error: error.error, error_description: error.message }, { status, headers });
}

/** The form's parameters; a parameter sent twice is refused (section 3.2). */
async function readTokenForm(request: Request): Promise<Map<string, string>> {
  const mediaType = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== FORM_TYPE) throw new OAuthError('invalid_request', `Send the parameters as ${FORM_TYPE}.`);
  const form = new Map<string, string>();
  for (const [name, value] of new URLSearchParams(await readLimitedText(request))) {
    if (form.has(name)) throw new OAuthError('invalid_request', `The parameter ${name} is given more than once.`);
    if (value !== '') form.set(name, value);
  }
  return form;
}

interface ClientCredentials {
  readonly clientId: string;
  readonly secret: string;
}

/** `Authorization: Basic` client credentials (section 2.3.1: each part form-encoded); undefined without the header. */
function readBasicCredentials(header: string | null): ClientCredentials | undefined {
  if (header === null) return undefined;
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  let decoded: string;
  try {
    decoded = match?.[1] ? atob(match[1]) : '';
  } catch {
    decoded = '';
  }
  const colon = decoded.indexOf(':');
  if (colon < 1) throw new OAuthError('invalid_client', 'The Authorization header must be Basic with client_id:client_secret.');
  const decode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
  try {
    return { clientId: decode(decoded.slice(0, colon)), secret: decode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'The Basic credentials are not valid form encoding.');
  }
}

function readCredentials(request: Request, form: Map<string, string>): ClientCredentials {
  const basic = readBasicCredentials(request.headers.get('authorization'));
  const clientId = form.get('client_id');
  const secret = form.get('client_secret');
  if (basic && (clientId !== undefined || secret !== undefined)) {
    throw new OAuthError(
      'invalid_request',
      'Authenticate the client one way: HTTP Basic or client_id and client_secret in the body, not both.',
    );
  }
  if (basic) return basic;
  if (clientId === undefined || secret === undefined)
    throw new OAuthError('invalid_client', 'Send client_id and client_secret (or HTTP Basic).');
  return { clientId, secret };
}

/** The scopes asked for (`scope`, space-separated; absent: all of the client's), each one the client holds. */
function grantScopes(client: ApiClientRow, requested: string | undefined): Scope[] {
  if (requested === undefined) return client.scopes;
  const names = [...new Set(requested.split(' ').filter((name) => name !== ''))];
  const unknown = names.filter((name) => !(CLIENT_SCOPES as readonly string[]).includes(name));
  if (unknown.length > 0)
    throw new OAuthError('invalid_scope', `Unknown scope ${unknown.join(', ')}: the scopes are application and admin.`);
  const refused = names.filter((name) => !(client.scopes as readonly string[]).includes(name));
  if (refused.length > 0) throw new OAuthError('invalid_scope', `The client may not have the scope ${refused.join(', ')}.`);
  return names as Scope[];
}

/** The limits the endpoint applies (token-limits.ts); absent: none. A throw answers for the request. */
export interface TokenLimits {
  describeAttempt(ctx: PublicContext, clientId: string, secretHash: string): AuthenticationAttempt;
  /** Before the client's database is read. */
  checkBeforeLookup(ctx: PublicContext, attempt: AuthenticationAttempt): void;
  /** After a failed authentication; `storedSecretHash` is the digest of the client with that id (null: none may get tokens). */
  countFailure(ctx: PublicContext, attempt: AuthenticationAttempt, storedSecretHash: string | null): Promise<void>;
  /** After a successful authentication, before the token is signed. */
  countSuccess(ctx: PublicContext, scope: TenantScope, clientId: string): Promise<void>;
}

const INVALID_CLIENT = 'The client is unknown or revoked, or the secret is wrong.';

async function issueToken(ctx: PublicContext, limits: TokenLimits | undefined) {
  const form = await readTokenForm(ctx.request);
  const grantType = form.get('grant_type');
  if (grantType === undefined) throw new OAuthError('invalid_request', 'grant_type is required (client_credentials).');
  if (grantType !== 'client_credentials') throw new OAuthError('unsupported_grant_type', 'Only the client_credentials grant is supported.');
  const credentials = readCredentials(ctx.request, form);
  const { config } = ctx.platform;
  if (!canIssueTokens(config)) {
    throw new OAuthError(
      'temporarily_unavailable',
      'This deployment has no JWT_SECRET to sign tokens with: it verifies tokens of the identity provider at JWT_JWKS_URL. Get tokens there.',
    );
  }
  // A client id that is not one of ours names no database: refused without a read, and not counted.
  const scope = parseClientId(credentials.clientId);
  if (!scope) throw new OAuthError('invalid_client', INVALID_CLIENT);
  const digest = await hashClientSecret(credentials.secret);
  const attempt = limits?.describeAttempt(ctx, credentials.clientId, digest);
  if (attempt) limits?.checkBeforeLookup(ctx, attempt);
  const client = await findApiClient(ctx.openTenant(scope), credentials.clientId);
  const usable = client && client.revokedOn === null ? client : undefined;
  if (!usable || !digestsMatch(digest, usable.secretHash)) {
    if (attempt) await limits?.countFailure(ctx, attempt, usable?.secretHash ?? null);
    throw new OAuthError('invalid_client', INVALID_CLIENT);
  }
  await limits?.countSuccess(ctx, scope, usable.clientId);
  const scopes = grantScopes(usable, form.get('scope'));
  // An org key, or `*` for every org of the tenant: the token's `orgs` patterns.
  const orgs = usable.orgs.map((org) => `${scope.tenantKey}/${org}`);
  const token = await signAccessToken(config, { subject: usable.clientId, clientId: usable.clientId, scopes, orgs }, ctx.platform.now());
  const body = { access_token: token, token_type: 'Bearer' as const, expires_in: ISSUED_TOKEN_LIFETIME_SECONDS, scope: scopes.join(' ') };
  return jsonResponse(tokenDoc.responses[200].schema, body, { headers: NO_STORE });
}

/** The token endpoint; `limits` (optional) limits failed and successful authentications. */
export function buildTokenRoutes(limits?: TokenLimits): PublicRoute[] {
  return [
    definePublicRoute({
      method: 'POST',
      path: TOKEN_PATH,
      doc: { summary: 'Get an access token (OAuth2 client credentials)', tags: ['API clients'], operationId: 'requestToken', ...tokenDoc },
      handle: async (ctx) => {
        try {
          return await issueToken(ctx, limits);
        } catch (error) {
          if (error instanceof OAuthError) return answerError(error);
          throw error;
        }
      },
    }),
  ];
}
