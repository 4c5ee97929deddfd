import { createRemoteJWKSet, jwtVerify } from 'jose';
import type { JWTPayload, JWTVerifyGetKey } from 'jose';
import { ApiError } from '../errors/api-error';
import type { AppConfig } from '../config/env';
import { hasLoneSurrogate } from '../validation/unicode';
import { checkOrgPatterns, matchesOrgPattern } from './org-patterns';

/** `operator` (the /admin API) is not bound to `orgs` and grants no tenant data. */
export type Scope = 'application' | 'admin' | 'operator';

export interface Principal {
  subject: string;
  scopes: ReadonlySet<Scope>;
  /** Patterns of `tenantKey/orgKey` the token may use; `*` matches any run of characters. */
  orgs: readonly string[];
  /** The API client the token was issued to (`client_id`), whose revocation voids it (src/auth/revocation.ts). */
  clientId?: string;
  /** `iat`, epoch seconds. */
  issuedAt?: number;
  /** `exp`, epoch seconds: a live stream opened with the token ends then. */
  expiresAt: number;
  /** Set when the principal came from a stream ticket (src/auth/stream-ticket.ts) rather than a bearer token. */
  ticket?: StreamTicketUse;
}

/** What a stream ticket adds to its principal: its id (used once) and the key of the token it was issued for. */
interface StreamTicketUse {
  readonly id: string;
  /** Until when it may be used (epoch seconds). */
  readonly until: number;
  /** Digest of the bearer token the ticket was issued with: streams count against that token's limit. */
  readonly tokenKey: string;
}

const REALM = 'Bearer realm="erp-edge-api"';

export function unauthorized(detail: string, error: 'invalid_request' | 'invalid_token'): ApiError {
  return new ApiError('Unauthorized', detail, {
    headers: { 'www-authenticate': `${REALM}, error="${error}", error_description="${detail.replace(/"/g, "'")}"` },
  });
}

let hmacKey: { secret: string; key: CryptoKey } | undefined;
let jwks: { url: string; getKey: JWTVerifyGetKey } | undefined;

async function readHmacKey(secret: string): Promise<CryptoKey> {
  if (hmacKey?.secret === secret) return hmacKey.key;
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
  hmacKey = { secret, key };
  return key;
}

function readJwks(url: string): JWTVerifyGetKey {
  if (jwks?.url !== url) jwks = { url, getKey: createRemoteJWKSet(new URL(url)) };
  return jwks.getKey;
}

function readAlgorithm(token: string): string | undefined {
  const header = token.split('.')[0];
  if (!header) return undefined;
  try {
    const decoded = JSON.parse(atob(header.replace(/-/g, '+').replace(/_/g, '/'))) as { alg?: unknown };
    return typeof decoded.alg === 'string' ? decoded.alg : undefined;
  } catch {
    return undefined;
  }
}

async function verifyJwt(token: string, config: AppConfig): Promise<JWTPayload> {
  const options = {
    ...(config.issuer ? { issuer: config.issuer } : {}),
    ...(config.audience ? { audience: config.audience } : {}),
  };
  const alg = readAlgorithm(token);
  if (alg === 'HS256' && config.jwtSecret) {
    const { payload } = await jwtVerify(token, await readHmacKey(config.jwtSecret), { ...options, algorithms: ['HS256'] });
    return payload;
  }
  if (config.jwksUrl && alg !== undefined && alg !== 'HS256' && alg !== 'none') {
    const { payload } = await jwtVerify(token, readJwks(config.jwksUrl), { ...options, algorithms: ['RS256', 'ES256', 'EdDSA', 'PS256'] });
    return payload;
  }
  throw new Error(`Unsupported token algorithm ${alg ?? '(none)'}`);
}

function readScopes(payload: JWTPayload): Set<Scope> {
  const raw = payload.scope ?? payload.scp;
  const list = typeof raw === 'string' ? raw.split(' ') : Array.isArray(raw) ? raw : [];
  const scopes = new Set<Scope>();
  for (const item of list) {
    if (item === 'application' || item === 'admin' || item === 'operator') scopes.add(item);
  }
  // admin manages reference data and can do everything application can.
  if (scopes.has('admin')) scopes.add('application');
  return scopes;
}

function readOrgs(payload: JWTPayload): string[] {
  const raw = payload.orgs;
  if (!Array.isArray(raw)) return [];
  return raw.filter((item): item is string => typeof item === 'string');
}

/** Longest lifetime a token may have (`exp` - `iat`, and `exp` - now): 24 hours. */
export const MAX_TOKEN_LIFETIME_SECONDS = 24 * 60 * 60;
/** Clock difference tolerated between the issuer and this API. */
const CLOCK_SKEW_SECONDS = 60;
const MAX_SUBJECT_LENGTH = 255;

/** Why verified claims with expiry `exp` are still refused (too long a lifetime, orgs over the limits, a bad subject). */
function checkClaims(payload: JWTPayload, exp: number, orgs: readonly string[], nowSeconds: number): string | undefined {
  if (typeof payload.iat === 'number' && exp - payload.iat > MAX_TOKEN_LIFETIME_SECONDS) {
    return 'The token lives longer than 24 hours (exp - iat).';
  }
  if (exp - nowSeconds > MAX_TOKEN_LIFETIME_SECONDS + CLOCK_SKEW_SECONDS) return 'The token expires more than 24 hours from now.';
  const subject = payload.sub;
  // Every subject has its own rate-limit budget and audit name: a token without one is refused, never pooled.
  if (typeof subject !== 'string' || subject.trim() === '') return 'The token has no subject (sub).';
  if (subject.length > MAX_SUBJECT_LENGTH || hasLoneSurrogate(subject)) {
    return `The token's sub is longer than ${MAX_SUBJECT_LENGTH} characters or not well-formed Unicode.`;
  }
  return checkOrgPatterns(orgs);
}

/** Verifies `Authorization: Bearer <JWT>` offline. Throws 401 with `WWW-Authenticate` on any failure. */
export async function authenticate(request: Request, config: AppConfig): Promise<Principal> {
  const header = request.headers.get('authorization');
  if (!header) throw unauthorized('A bearer token is required.', 'invalid_request');
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match?.[1];
  if (!token) throw unauthorized('The Authorization header must be "Bearer <token>".', 'invalid_request');
  const known = readVerified(token, config);
  if (known) return known;
  let payload: JWTPayload;
  try {
    payload = await verifyJwt(token, config);
  } catch (error) {
    const expired = error instanceof Error && 'code' in error && error.code === 'ERR_JWT_EXPIRED';
    throw unauthorized(expired ? 'The token has expired.' : 'The token is not valid.', 'invalid_token');
  }
  const exp = payload.exp;
  if (typeof exp !== 'number') throw unauthorized('The token has no expiry (exp).', 'invalid_token');
  const orgs = readOrgs(payload);
  const refused = checkClaims(payload, exp, orgs, Math.floor(Date.now() / 1000));
  if (refused) throw unauthorized(refused, 'invalid_token');
  const principal = {
    subject: String(payload.sub),
    scopes: readScopes(payload),
    orgs,
    ...(typeof payload.client_id === 'string' ? { clientId: payload.client_id } : {}),
    ...(typeof payload.iat === 'number' ? { issuedAt: payload.iat } : {}),
    expiresAt: exp,
  };
  rememberVerified(token, config, principal, exp);
  return principal;
}

/**
 * Tokens already verified in this isolate, until they expire (at most 5 minutes): a client sends the same
 * token many times, and its signature cannot change. Bounded; cleared when the configuration changes.
 */
const VERIFIED_LIMIT = 1024;
const VERIFIED_MAX_MS = 5 * 60 * 1000;
let verified: { config: AppConfig; entries: Map<string, { principal: Principal; until: number }> } | undefined;

function readVerified(token: string, config: AppConfig): Principal | undefined {
  if (verified?.config !== config) return undefined;
  const entry = verified.entries.get(token);
  if (!entry) return undefined;
  if (Date.now() >= entry.until) {
    verified.entries.delete(token);
    return undefined;
  }
  return entry.principal;
}

function rememberVerified(token: string, config: AppConfig, principal: Principal, exp: number): void {
  if (verified?.config !== config) verified = { config, entries: new Map() };
  if (verified.entries.size >= VERIFIED_LIMIT) verified.entries.clear();
  const until = Math.min(Date.now() + VERIFIED_MAX_MS, exp * 1000);
  verified.entries.set(token, { principal, until });
}

/** True when one of the token's `orgs` patterns (with `*` wildcards) matches `tenantKey/orgKey`. */
export function allowsOrg(principal: Principal, tenantKey: string, orgKey: string): boolean {
  const target = `${tenantKey}/${orgKey}`;
  return principal.orgs.some((pattern) => matchesOrgPattern(pattern, target));
}

/** 403 unless the token names this tenant/org and holds the scope. */
export function authorize(principal: Principal, tenantKey: string, orgKey: string, scope: Scope): void {
  if (!allowsOrg(principal, tenantKey, orgKey)) {
    throw new ApiError('Forbidden', `The token is not allowed to use ${tenantKey}/${orgKey}.`);
  }
  requireScope(principal, scope);
}

/** 403 unless the token holds the scope. */
export function requireScope(principal: Principal, scope: Scope): void {
  if (!principal.scopes.has(scope)) {
    throw new ApiError('Forbidden', `The token lacks the "${scope}" scope.`, {
      headers: { 'www-authenticate': `${REALM}, error="insufficient_scope", scope="${scope}"` },
    });
  }
}
