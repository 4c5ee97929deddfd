/**
 * The limits of `POST /connect/token`.
 *
 * - Before the client's database is read: failed authentications of the client id and of the source address
 *   (failed-authentications.ts); a blocked attempt is answered 429 without a database read.
 * - A failed authentication counts against the client id and the address only: an unauthenticated request never
 *   spends the budget of the tenant/org its client id names, nor that of a token subject.
 * - An authenticated request counts against the client's tenant/org and against the client id, which is also the
 *   subject (`sub`) of the tokens it gets, so token requests and the client's `/api` requests share one budget (the
 *   Rate Limiting bindings and RATE_LIMIT_PER_MINUTE of `/api`, src/http/rate-limit.ts).
 *
 * Over a limit: 429 with Retry-After, its body in the RFC 6749 shape the endpoint answers every error in
 * (`temporarily_unavailable`, the code OAuth2 defines for "try again later"). All of it is off when rate limiting is.
 */
import type { TenantScope } from '../../db/client';
import { ApiError } from '../../errors/api-error';
import { checkRateLimits } from '../../http/rate-limit';
import { countFailure, FAILURES_PER_PERIOD, PERIOD_SECONDS, readBackOff } from './failed-authentications';
import type { AuthenticationAttempt } from './failed-authentications';
import { OAuthError } from './token-endpoint';
import type { TokenLimits } from './token-endpoint';

/** The address the request came from: `CF-Connecting-IP` (set by Cloudflare, and by the Deno server). */
function readAddress(request: Request): string {
  return request.headers.get('cf-connecting-ip')?.trim() || 'unknown';
}

function refuse(seconds: number, detail: string): OAuthError {
  return new OAuthError('temporarily_unavailable', detail, {
    status: 429,
    headers: { 'retry-after': String(seconds), 'ratelimit-policy': `"failures";q=${FAILURES_PER_PERIOD};w=${PERIOD_SECONDS}` },
  });
}

export const tokenLimits: TokenLimits = {
  describeAttempt: (ctx, clientId, secretHash): AuthenticationAttempt => ({
    clientId,
    secretHash,
    address: readAddress(ctx.request),
  }),

  checkBeforeLookup: (ctx, attempt) => {
    if (!ctx.platform.rateLimits) return;
    const seconds = readBackOff(attempt, Date.now());
    if (seconds !== undefined) {
      throw refuse(seconds, `Too many failed client authentications from this address or for this client id. Retry in ${seconds} s.`);
    }
  },

  countFailure: async (ctx, attempt, storedSecretHash) => {
    const limits = ctx.platform.rateLimits;
    if (limits) await countFailure(limits.authFailures, attempt, storedSecretHash, Date.now());
  },

  countSuccess: async (ctx, scope: TenantScope, clientId: string) => {
    try {
      await checkRateLimits(ctx.platform.rateLimits, { ...scope, subject: clientId }, Date.now());
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'RateLimited') throw error;
      throw new OAuthError('temporarily_unavailable', error.message, { status: 429, headers: error.headers });
    }
  },
};
