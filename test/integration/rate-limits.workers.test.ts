/**
 * Rate limits with Cloudflare's Rate Limiting binding as configured in wrangler.toml (600 requests per 60 s per
 * tenant/org and per token subject). The suite runs with RATE_LIMIT_PER_MINUTE=0; these requests go through the
 * Worker's own fetch with the configured value, so the real bindings count them.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { mintToken, ORIGIN } from '../helpers/api';

const LIMIT = 600;
const limitedEnv = { ...env, RATE_LIMIT_PER_MINUTE: String(LIMIT) };

async function send(path: string, token: string): Promise<Response> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${token}` } }), limitedEnv, ctx);
  await waitOnExecutionContext(ctx);
  return response;
}

/** Windows are aligned to the minute: start a burst only with enough of the current window left. */
async function waitForFreshWindow(): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < 25_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
}

/** Sends `count` requests, 50 at a time; answers the statuses. */
async function burst(count: number, path: string, token: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - sent) }, () => send(path, token)));
    for (const response of batch) {
      statuses.push(response.status);
      await response.arrayBuffer();
    }
  }
  return statuses;
}

describe('rate limits (Rate Limiting binding)', () => {
  it(
    'answers the 601st request of a tenant/org within a minute with 429 RateLimited and the IETF headers',
    { timeout: 60_000 },
    async () => {
      await waitForFreshWindow();
      const path = '/api/limited/main/operations/emailTemplates/odata?$top=1';
      const token = await mintToken({ tenant: 'limited', org: 'main', sub: 'limited-org-client' });
      const statuses = await burst(LIMIT, path, token);
      expect(statuses.filter((status) => status !== 200)).toEqual([]);
      const over = await send(path, token);
      expect(over.status).toBe(429);
      expect(over.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const retryAfter = Number(over.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(over.headers.get('ratelimit-policy')).toBe('"org";q=600;w=60, "subject";q=600;w=60');
      expect(over.headers.get('ratelimit')).toBe(`"org";r=0;t=${retryAfter}`);
      expect(((await over.json()) as { code: string }).code).toBe('RateLimited');
      // Another tenant/org (another subject too) is not affected, and answers carry the policy.
      const other = await send(
        '/api/unlimited/main/operations/emailTemplates/odata',
        await mintToken({ tenant: 'unlimited', org: 'main' }),
      );
      expect(other.status).toBe(200);
      expect(other.headers.get('ratelimit-policy')).toBe('"org";q=600;w=60, "subject";q=600;w=60');
    },
  );

  it('limits a token subject across the tenants/orgs it uses', { timeout: 60_000 }, async () => {
    await waitForFreshWindow();
    const token = await mintToken({ orgs: ['spread-a/main', 'spread-b/main'], sub: 'spread-client' });
    const first = await burst(LIMIT / 2, '/api/spread-a/main/operations/emailTemplates/odata?$top=1', token);
    const second = await burst(LIMIT / 2, '/api/spread-b/main/operations/emailTemplates/odata?$top=1', token);
    expect([...first, ...second].filter((status) => status !== 200)).toEqual([]);
    const over = await send('/api/spread-a/main/unknown/path', token);
    expect(over.status).toBe(429);
    expect(over.headers.get('ratelimit')).toMatch(/^"subject";r=0;t=\d+$/);
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0 (the suite) and costs no header then', async () => {
    const ctx = createExecutionContext();
    const token = await mintToken({ tenant: 'limited', org: 'main', sub: 'limited-org-client' });
    const response = await worker.fetch(
      new Request(`${ORIGIN}/api/limited/main/operations/emailTemplates/odata`, { headers: { authorization: `Bearer ${token}` } }),
      env,
      ctx,
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-policy')).toBeNull();
  });
});
