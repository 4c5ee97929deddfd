/**
 * Rate limits of `/api` requests, per tenant/org, per caller (token subject) of a tenant/org (its share: half) and per
 * token subject across tenants/orgs, checked after authentication and before any handler (no D1 read: Cloudflare's
 * Rate Limiting bindings, or in-process counters under Deno). Over a limit:
 * 429 `RateLimited` with `Retry-After` and the IETF `RateLimit-Policy` / `RateLimit` headers
 * (draft-ietf-httpapi-ratelimit-headers); every successful answer carries `RateLimit-Policy` (set in app.ts).
 */
import type { RateLimits } from '../runtime/platform';
import { ApiError } from '../errors/api-error';

export const RATE_LIMIT_POLICY_HEADER = 'ratelimit-policy';

/** `"org";q=600;w=60, "caller";q=300;w=60, "subject";q=600;w=60`: the three quotas and their window in seconds. */
export function describeRateLimitPolicy(limits: RateLimits): string {
  const quotas: [string, number][] = [
    ['org', limits.limit],
    ['caller', limits.callerLimit],
    ['subject', limits.limit],
  ];
  return quotas.map(([name, quota]) => `"${name}";q=${quota};w=${limits.periodSeconds}`).join(', ');
}

/**
 * Seconds until the current window ends. Windows are aligned to the epoch (as Cloudflare's local emulation and the
 * Deno counter keep them); at the edge counts are per location and approximate, so this is the best estimate.
 */
export function computeSecondsToReset(periodSeconds: number, nowMs: number): number {
  return Math.max(1, Math.ceil(periodSeconds - ((nowMs / 1000) % periodSeconds)));
}

type Quota = 'org' | 'caller' | 'subject';

/**
 * Counts the request against the limits; throws 429 when one is exhausted. The caller's own limits (its share of the
 * tenant/org, and its subject's across tenants/orgs) are counted first: a request they refuse does not count against
 * the tenant/org, so one caller past its share spends nothing of what the tenant/org's other callers have left.
 */
export async function checkRateLimits(
  limits: RateLimits | undefined,
  scope: { tenantKey: string; orgKey: string; subject: string },
  nowMs: number,
): Promise<void> {
  if (!limits) return;
  const org = `${scope.tenantKey}/${scope.orgKey}`;
  const [caller, subject] = await Promise.all([
    limits.caller.limit({ key: `${org}/${scope.subject}` }),
    limits.subject.limit({ key: scope.subject }),
  ]);
  const exhausted: Quota | undefined = !caller.success
    ? 'caller'
    : !subject.success
      ? 'subject'
      : !(await limits.org.limit({ key: org })).success
        ? 'org'
        : undefined;
  if (!exhausted) return;
  const reset = computeSecondsToReset(limits.periodSeconds, nowMs);
  const who = {
    org: `tenant/org ${org}`,
    caller: `token subject '${scope.subject}' in tenant/org ${org}`,
    subject: `token subject '${scope.subject}'`,
  }[exhausted];
  const quota = exhausted === 'caller' ? limits.callerLimit : limits.limit;
  throw new ApiError('RateLimited', `Too many requests for ${who}: at most ${quota} per ${limits.periodSeconds} s. Retry in ${reset} s.`, {
    headers: {
      'retry-after': String(reset),
      [RATE_LIMIT_POLICY_HEADER]: describeRateLimitPolicy(limits),
      ratelimit: `"${exhausted}";r=0;t=${reset}`,
    },
  });
}
