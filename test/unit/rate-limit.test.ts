/** The pieces of the rate limits that need no runtime: the in-process counter (Deno) and the header values. */
import { describe, expect, it } from 'vitest';
import { describeRateLimitPolicy, computeSecondsToReset } from '../../src/http/rate-limit';
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
  it('states both quotas and the seconds to the end of the window', () => {
    const limits = buildMemoryRateLimits(600);
    if (!limits) throw new Error('expected limits');
    expect(describeRateLimitPolicy(limits)).toBe('"org";q=600;w=60, "subject";q=600;w=60');
    expect(computeSecondsToReset(60, 120_000)).toBe(60);
    expect(computeSecondsToReset(60, 179_500)).toBe(1);
    expect(computeSecondsToReset(60, 150_200)).toBe(30);
  });
});
