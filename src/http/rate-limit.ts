/**
 * Rate limits of `/api` requests, per tenant/org and per token subject, checked after authentication and before
 * any handler (no D1 read: Cloudflare's Rate Limiting binding, or an in-process counter under Deno). Over a limit:
 * 429 `RateLimited` with `Retry-After` and the IETF `RateLimit-Policy` / `RateLimit` headers
 * (draft-ietf-httpapi-ratelimit-headers); every successful answer carries `RateLimit-Policy` (set in app.ts).
 */
import type { RateLimits } from '../runtime/platform';
import { ApiError } from '../errors/api-error';

export const RATE_LIMIT_POLICY_HEADER = 'ratelimit-policy';

/** `"org";q=600;w=60, "subject";q=600;w=60`: the two quotas and their window in seconds. */
export function describeRateLimitPolicy(limits: RateLimits): string {
  return ['org', 'subject'].map((name) => `"${name}";q=${limits.limit};w=${limits.periodSeconds}`).join(', ');
}

/**
 * Seconds until the current window ends. Windows are aligned to the epoch (as Cloudflare's local emulation and the
 * Deno counter keep them); at the edge counts are per location and approximate, so this is the best estimate.
 */
export function computeSecondsToReset(periodSeconds: number, nowMs: number): number {
  return Math.max(1, Math.ceil(periodSeconds - ((nowMs / 1000) % periodSeconds)));
}

/** Counts the request against both limits; throws 429 when either is exhausted. */
export async function checkRateLimits(
  limits: RateLimits | undefined,
  scope: { tenantKey: string; orgKey: string; subject: string },
  nowMs: number,
): Promise<void> {
  if (!limits) return;
  const [org, subject] = await Promise.all([
    limits.org.limit({ key: `${scope.tenantKey}/${scope.orgKey}` }),
    limits.subject.limit({ key: scope.subject }),
  ]);
  const exhausted = !org.success ? 'org' : !subject.success ? 'subject' : undefined;
  if (!exhausted) return;
  const reset = computeSecondsToReset(limits.periodSeconds, nowMs);
  const who = exhausted === 'org' ? `tenant/org ${scope.tenantKey}/${scope.orgKey}` : `token subject '${scope.subject}'`;
  throw new ApiError(
    'RateLimited',
    `Too many requests for ${who}: at most ${limits.limit} per ${limits.periodSeconds} s. Retry in ${reset} s.`,
    {
      headers: {
        'retry-after': String(reset),
        [RATE_LIMIT_POLICY_HEADER]: describeRateLimitPolicy(limits),
        ratelimit: `"${exhausted}";r=0;t=${reset}`,
      },
    },
  );
}
