/**
 * Rate limits under Deno: the Rate Limiting binding's behaviour in process (one process serves every request, so
 * one counter per key is exact). Fixed windows aligned to the epoch; a new window forgets the previous counts.
 */
import { callerShareOf } from '../platform';
import type { RateLimiter, RateLimits } from '../platform';
import { FAILURES_PER_PERIOD, PERIOD_SECONDS } from '../../services/identity/failed-authentications';

export function buildMemoryRateLimiter(limit: number, periodSeconds: number, now: () => number = Date.now): RateLimiter {
  let window = -1;
  const counts = new Map<string, number>();
  return {
    async limit({ key }) {
      const current = Math.floor(now() / (periodSeconds * 1000));
      if (current !== window) {
        window = current;
        counts.clear();
      }
      const count = counts.get(key) ?? 0;
      if (count >= limit) return { success: false };
      counts.set(key, count + 1);
      return { success: true };
    },
  };
}

/** Per-minute limits per tenant/org, per caller of a tenant/org and per subject; undefined when `perMinute` is 0 (off). */
export function buildMemoryRateLimits(perMinute: number): RateLimits | undefined {
  if (perMinute === 0) return undefined;
  return {
    limit: perMinute,
    periodSeconds: 60,
    org: buildMemoryRateLimiter(perMinute, 60),
    callerLimit: callerShareOf(perMinute),
    caller: buildMemoryRateLimiter(callerShareOf(perMinute), 60),
    subject: buildMemoryRateLimiter(perMinute, 60),
    authFailures: buildMemoryRateLimiter(FAILURES_PER_PERIOD, PERIOD_SECONDS),
  };
}
