/** The pieces of the rate limits that need no runtime: the in-process counter (Deno) and the header values. */
import { describe, expect, it } from 'vitest';
import { checkRateLimits, describeRateLimitPolicy, computeSecondsToReset } from '../../src/http/rate-limit';
import { buildMemoryRateLimiter, buildMemoryRateLimits } from '../../src/runtime/deno/rate-limit';

describe('in-process rate limiter', () => {
  it('allows `limit` requests per key and window, then refuses until the next window', async () => {
    let now = 120_000;
    const limiter = buildMemoryRateLimiter(2, 60, () => now);
    const outcomes = [];
    for (let index = 0; index < 3; index += 1) outcomes.push((await limiter.limit({ key: 'a' })).success);
    expect(outcomes).toEqual([true, true, false]);
    expect((await limiter.limit({ key: 'b' })).success).toBe(true);
    now += 59_999;
    expect((await limiter.limit({ key: 'a' })).success).toBe(false);
    now += 1;
    expect((await limiter.limit({ key: 'a' })).success).toBe(true);
  });

  it('is off at 0', () => {
    expect(buildMemoryRateLimits(0)).toBeUndefined();
  });
});

describe('headers', () => {
  it('states the three quotas and the seconds to the end of the window', () => {
    const limits = buildMemoryRateLimits(600);
    if (!limits) throw new Error('expected limits');
    expect(describeRateLimitPolicy(limits)).toBe('"org";q=600;w=60, "caller";q=300;w=60, "subject";q=600;w=60');
    expect(describeRateLimitPolicy(buildMemoryRateLimits(5) ?? limits)).toBe('"org";q=5;w=60, "caller";q=3;w=60, "subject";q=5;w=60');
    expect(computeSecondsToReset(60, 120_000)).toBe(60);
    expect(computeSecondsToReset(60, 179_500)).toBe(1);
    expect(computeSecondsToReset(60, 150_200)).toBe(30);
  });
});

describe("a caller's share of its tenant/org", () => {
  const scope = (subject: string) => ({ tenantKey: 't', orgKey: 'o', subject });
  const outcome = async (limits: NonNullable<ReturnType<typeof buildMemoryRateLimits>>, subject: string) => {
    try {
      await checkRateLimits(limits, scope(subject), 120_000);
      return 'ok';
    } catch (error) {
      return (error as { headers: Record<string, string> }).headers.ratelimit?.split(';')[0] ?? 'none';
    }
  };

  it('is half the tenant/org limit: one caller past it spends nothing more of the tenant/org, the others are served', async () => {
    const limits = buildMemoryRateLimits(10);
    if (!limits) throw new Error('expected limits');
    const greedy: string[] = [];
    for (let index = 0; index < 30; index += 1) greedy.push(await outcome(limits, 'greedy'));
    expect(greedy.slice(0, 5)).toEqual(Array.from({ length: 5 }, () => 'ok'));
    expect(new Set(greedy.slice(5))).toEqual(new Set(['"caller"']));
    // The tenant/org has 5 left: the next callers get them, then the tenant/org's own limit answers.
    const others = [];
    for (const subject of ['a', 'a', 'a', 'b', 'b', 'c']) others.push(await outcome(limits, subject));
    expect(others).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', '"org"']);
  });
});
