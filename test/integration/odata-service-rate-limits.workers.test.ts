/**
 * The standard root counts against the same rate limits as `/api`, once per request (its translation to the `/api`
 * operation is not admitted again), with the configured bindings as test/integration/rate-limits.workers.test.ts uses
 * them (300 requests per 60 s per caller of a tenant/org); the refusal is an OData error.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { mintToken, ORIGIN } from '../helpers/api';
import { runInOneWindow } from '../helpers/rate-limit-window';
import { uniqueKey } from '../helpers/tenants';

const CALLER_SHARE = 300;
const limitedEnv = { ...env, RATE_LIMIT_PER_MINUTE: '600' };

async function send(url: string, token: string): Promise<{ status: number; headers: Headers; body: unknown }> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(url, { headers: { authorization: `Bearer ${token}` } }), limitedEnv, ctx);
  await waitOnExecutionContext(ctx);
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text,
  };
}

describe('rate limits on the standard root', () => {
  it("a caller's 300 standard reads a minute all answer; the 301st is a 429 OData error", async () => {
    const run = await runInOneWindow(async () => {
      const [tenant, org] = [uniqueKey('odata-limited'), uniqueKey('o')];
      const token = await mintToken({ tenant, org, sub: uniqueKey('odata-client') });
      const url = `${ORIGIN}/odata/${tenant}/${org}/emailTemplates?$top=1`;
      const statuses: number[] = [];
      for (let sent = 0; sent < CALLER_SHARE; sent += 50) {
        const batch = await Promise.all(Array.from({ length: 50 }, () => send(url, token)));
        statuses.push(...batch.map((answer) => answer.status));
      }
      return { statuses, over: await send(url, token) };
    });
    expect(run.statuses.filter((status) => status !== 200)).toEqual([]);
    expect(run.over.status).toBe(429);
    expect(run.over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(run.over.headers.get('odata-version')).toBe('4.0');
    expect(run.over.body).toMatchObject({ error: { code: 'RateLimited', message: expect.stringContaining('at most 300 per 60 s') } });
  });
});
