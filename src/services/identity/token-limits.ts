/**
 * The rate limits of `POST /connect/token` (the guard `buildTokenRoutes` runs before the client's database is read):
 * a token request counts against the tenant/org its client id names and against the client id, which is also the
 * subject (`sub`) of the tokens it gets, so token requests and the client's `/api` requests share one budget. The
 * same Rate Limiting bindings and RATE_LIMIT_PER_MINUTE as `/api` (src/http/rate-limit.ts). Over a limit: 429 with
 * Retry-After and the RateLimit headers, its body in the RFC 6749 shape the endpoint answers every error in
 * (`temporarily_unavailable`, the code OAuth2 defines for "try again later"). A client id that is not one of ours is
 * answered `invalid_client` without any database read, so it is not counted.
 */
import { ApiError } from '../../errors/api-error';
import { checkRateLimits } from '../../http/rate-limit';
import { parseClientId } from './credentials';
import { OAuthError } from './token-endpoint';
import type { TokenRequestGuard } from './token-endpoint';

export const limitTokenRequests: TokenRequestGuard = async (ctx, clientId) => {
  const scope = parseClientId(clientId);
  if (!scope) return;
  try {
    await checkRateLimits(ctx.platform.rateLimits, { ...scope, subject: clientId }, Date.now());
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'RateLimited') throw error;
    throw new OAuthError('temporarily_unavailable', error.message, { status: error.status, headers: error.headers });
  }
};
