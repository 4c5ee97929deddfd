/** The limits a new live stream is admitted under (docs/live.md): per tenant/org, and per bearer token. */
import { ApiError } from '../errors/api-error';
import type { LiveGrant } from './grant';
import { LIVE_LIMITS } from './limits';

function tooMany(detail: string): ApiError {
  return new ApiError('TooManyStreams', detail, { headers: { 'retry-after': String(LIVE_LIMITS.retryAfterSeconds) } });
}

/** 429 TooManyStreams when `open` (the tenant/org's streams) leaves no room for `grant`'s. */
export function checkAdmission(open: readonly LiveGrant[], grant: LiveGrant): void {
  if (open.length >= LIVE_LIMITS.perOrg)
    throw tooMany(`This tenant/org has ${LIVE_LIMITS.perOrg} open live streams, the most it may have; retry later.`);
  const sameToken = open.filter((other) => other.tokenKey === grant.tokenKey).length;
  if (sameToken >= LIVE_LIMITS.perToken)
    throw tooMany(`This token has ${LIVE_LIMITS.perToken} open live streams, the most one token may have; close one or retry later.`);
}
