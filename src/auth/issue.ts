/**
 * Issues the bearer tokens this API verifies (src/auth/token.ts): HS256 with JWT_SECRET, the configured issuer and
 * audience, `exp` one hour after `iat`. Used by the OAuth2 token endpoint (src/services/identity/); the signing key
 * never leaves the server.
 */
import { SignJWT } from 'jose';
import type { AppConfig } from '../config/env';
import type { Scope } from './token';

/** Lifetime of an issued token (`expires_in`): 1 hour, well inside the 24 hours the verifier allows at most. */
export const ISSUED_TOKEN_LIFETIME_SECONDS = 60 * 60;

interface AccessTokenGrant {
  /** `sub`, recorded as createdBy/modifiedBy: the client id. */
  readonly subject: string;
  readonly clientId: string;
  readonly scopes: readonly Scope[];
  /** `tenantKey/orgKey` patterns (`acme/*`). */
  readonly orgs: readonly string[];
}

/** True when this deployment can sign tokens (it has an HS256 secret, not only a JWKS of another issuer). */
export function canIssueTokens(config: AppConfig): boolean {
  return config.jwtSecret !== '';
}

/** A signed access token (RFC 9068 shape: `typ` at+jwt, `client_id`, `jti`) for the grant, issued at `now`. */
export async function signAccessToken(config: AppConfig, grant: AccessTokenGrant, now: Date): Promise<string> {
  const issuedAt = Math.floor(now.getTime() / 1000);
  let token = new SignJWT({ scope: grant.scopes.join(' '), orgs: [...grant.orgs], client_id: grant.clientId })
    .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
    .setSubject(grant.subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + ISSUED_TOKEN_LIFETIME_SECONDS)
    .setJti(crypto.randomUUID());
  if (config.issuer !== '') token = token.setIssuer(config.issuer);
  if (config.audience !== '') token = token.setAudience(config.audience);
  return token.sign(new TextEncoder().encode(config.jwtSecret));
}
