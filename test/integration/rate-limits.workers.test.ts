/**
 * Rate limits with Cloudflare's Rate Limiting binding as configured in wrangler.toml (600 requests per 60 s per
 * tenant/org and per token subject, 300 per caller of a tenant/org). The suite runs with RATE_LIMIT_PER_MINUTE=0; these requests go through the
 * Worker's own fetch with the configured value, so the real bindings count them. Every run uses tenant/org keys and
 * token subjects of its own, so no other test (or earlier run) has counted against them.
 */
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import worker from '../../src/index';
import { mintToken, ORIGIN } from '../helpers/api';
import { uniqueKey } from '../helpers/tenants';
import { runInOneWindow } from '../helpers/rate-limit-window';
import { checkAddressFailureLimit, checkClientFailureLimit, checkFloodSpendsNoBudget } from '../helpers/token-failures';
import type { FailureScenarioServer } from '../helpers/token-failures';

const LIMIT = 600;
const POLICY = '"org";q=600;w=60, "caller";q=300;w=60, "subject";q=600;w=60';
const SHARE = LIMIT / 2;
const limitedEnv = { ...env, RATE_LIMIT_PER_MINUTE: String(LIMIT) };

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly code?: string;
}

async function send(path: string, token: string, configured: Env = limitedEnv): Promise<Answer> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(new Request(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${token}` } }), configured, ctx);
  await waitOnExecutionContext(ctx);
  const body: unknown = response.headers.get('content-type')?.includes('json') ? await response.json() : await response.arrayBuffer();
  const code = typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'string' ? body.code : undefined;
  return { status: response.status, headers: response.headers, ...(code === undefined ? {} : { code }) };
}

/** Sends `count` requests, 50 at a time; answers the statuses. */
async function burst(count: number, path: string, token: string): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < count; sent += 50) {
    const batch = await Promise.all(Array.from({ length: Math.min(50, count - sent) }, () => send(path, token)));
    statuses.push(...batch.map((answer) => answer.status));
  }
  return statuses;
}

const listPath = (tenant: string, org: string) => `/api/${tenant}/${org}/operations/emailTemplates/odata?$top=1`;

async function sendJson(path: string, token: string, body: unknown): Promise<unknown> {
  const ctx = createExecutionContext();
  const init = {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  const response = await worker.fetch(new Request(`${ORIGIN}${path}`, init), limitedEnv, ctx);
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(201);
  return response.json();
}

async function requestToken(clientId: string, secret: string): Promise<Answer & { error?: string }> {
  const ctx = createExecutionContext();
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
  const init = {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  };
  const response = await worker.fetch(new Request(`${ORIGIN}/connect/token`, init), limitedEnv, ctx);
  await waitOnExecutionContext(ctx);
  const answer = (await response.json()) as { error?: string };
  return { status: response.status, headers: response.headers, ...(answer.error === undefined ? {} : { error: answer.error }) };
}

describe('rate limits (Rate Limiting binding)', () => {
  it(
    'answers the 601st request of a tenant/org within a minute with 429 RateLimited and the IETF headers',
    { timeout: 120_000 },
    async () => {
      const run = await runInOneWindow(async () => {
        const [tenant, org] = [uniqueKey('limited'), uniqueKey('o')];
        // Two callers, each within its share (half), spend the tenant/org's whole budget; a third is over it.
        const first = await burst(SHARE, listPath(tenant, org), await mintToken({ tenant, org, sub: uniqueKey('org-client') }));
        const second = await burst(SHARE, listPath(tenant, org), await mintToken({ tenant, org, sub: uniqueKey('org-client') }));
        const statuses = [...first, ...second];
        const over = await send(listPath(tenant, org), await mintToken({ tenant, org, sub: uniqueKey('org-client') }));
        // Another tenant/org (another subject too) is not affected, and answers carry the policy.
        const [otherTenant, otherOrg] = [uniqueKey('unlimited'), uniqueKey('o')];
        const other = await send(listPath(otherTenant, otherOrg), await mintToken({ tenant: otherTenant, org: otherOrg }));
        return { statuses, over, other };
      });
      expect(run.statuses.filter((status) => status !== 200)).toEqual([]);
      const { over, other } = run;
      expect(over.status).toBe(429);
      expect(over.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const retryAfter = Number(over.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(over.headers.get('ratelimit-policy')).toBe(POLICY);
      expect(over.headers.get('ratelimit')).toBe(`"org";r=0;t=${retryAfter}`);
      expect(over.code).toBe('RateLimited');
      expect(other.status).toBe(200);
      expect(other.headers.get('ratelimit-policy')).toBe(POLICY);
    },
  );

  it(
    'counts the $batch and each of its requests: the request past the limit answers its own 429 inside',
    { timeout: 120_000 },
    async () => {
      const run = await runInOneWindow(async () => {
        const [tenant, org] = [uniqueKey('batched'), uniqueKey('o')];
        const [a, b] = [
          await mintToken({ tenant, org, sub: uniqueKey('batch-a') }),
          await mintToken({ tenant, org, sub: uniqueKey('batch-b') }),
        ];
        const statuses = [...(await burst(SHARE, listPath(tenant, org), a)), ...(await burst(SHARE - 100, listPath(tenant, org), b))];
        const token = await mintToken({ tenant, org, sub: uniqueKey('batch-client') });
        const requests = Array.from({ length: 100 }, (_, index) => ({
          id: `r${index}`,
          method: 'GET',
          url: 'operations/emailTemplates/odata?$top=1',
        }));
        const ctx = createExecutionContext();
        const init = {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ requests }),
        };
        const response = await worker.fetch(new Request(`${ORIGIN}/api/${tenant}/${org}/$batch`, init), limitedEnv, ctx);
        await waitOnExecutionContext(ctx);
        const answer = (await response.json()) as { responses: { status: number; headers: Record<string, string> }[] };
        return { statuses, status: response.status, inner: answer.responses };
      });
      expect(run.statuses.filter((status) => status !== 200)).toEqual([]);
      expect(run.status).toBe(200);
      // 500 requests of two callers, the batch itself, then 99 of its requests make 600: the 100th is over the limit.
      expect(run.inner.slice(0, 99).every((answer) => answer.status === 200)).toBe(true);
      expect(run.inner[99]?.status).toBe(429);
      expect(run.inner[99]?.headers['Retry-After']).toMatch(/^\d+$/);
    },
  );

  it(
    "spends at most a caller's share with its batches: the tenant/org's other callers are still served",
    { timeout: 120_000 },
    async () => {
      const run = await runInOneWindow(async () => {
        const [tenant, org] = [uniqueKey('greedy'), uniqueKey('o')];
        const greedy = await mintToken({ tenant, org, sub: uniqueKey('greedy-client') });
        const requests = Array.from({ length: 100 }, (_, index) => ({
          id: `r${index}`,
          method: 'GET',
          url: 'operations/emailTemplates/odata?$top=1',
        }));
        const batches: { status: number; inner: number[]; ratelimit: string | null }[] = [];
        for (let index = 0; index < 6; index += 1) {
          const ctx = createExecutionContext();
          const init = {
            method: 'POST',
            headers: { authorization: `Bearer ${greedy}`, 'content-type': 'application/json' },
            body: JSON.stringify({ requests }),
          };
          const response = await worker.fetch(new Request(`${ORIGIN}/api/${tenant}/${org}/$batch`, init), limitedEnv, ctx);
          await waitOnExecutionContext(ctx);
          const answer = (await response.json()) as { responses?: { status: number }[] };
          batches.push({
            status: response.status,
            inner: (answer.responses ?? []).map((item) => item.status),
            ratelimit: response.headers.get('ratelimit'),
          });
        }
        // Another caller of the same tenant/org is served: the greedy one spent its share (300), not the whole (600).
        const others = await burst(SHARE - 10, listPath(tenant, org), await mintToken({ tenant, org, sub: uniqueKey('other-client') }));
        return { batches, others };
      });
      const innerOk = run.batches.flatMap((batch) => batch.inner).filter((status) => status === 200).length;
      // 3 batches (each counts itself and its 100): 297 inner requests within the share, then 429 inside and outside.
      expect(run.batches.slice(0, 3).map((batch) => batch.status)).toEqual([200, 200, 200]);
      expect(innerOk).toBe(SHARE - 3);
      expect(run.batches.slice(3).map((batch) => [batch.status, batch.ratelimit?.split(';')[0]])).toEqual(
        Array.from({ length: 3 }, () => [429, '"caller"']),
      );
      expect(run.others.filter((status) => status !== 200)).toEqual([]);
    },
  );

  it('limits a token subject across the tenants/orgs it uses', { timeout: 120_000 }, async () => {
    const run = await runInOneWindow(async () => {
      const [a, b, c, org] = [uniqueKey('spread-a'), uniqueKey('spread-b'), uniqueKey('spread-c'), uniqueKey('o')];
      const token = await mintToken({ orgs: [`${a}/${org}`, `${b}/${org}`, `${c}/${org}`], sub: uniqueKey('spread-client') });
      const first = await burst(LIMIT / 2, listPath(a, org), token);
      const second = await burst(LIMIT / 2, listPath(b, org), token);
      // A third tenant/org, where it has spent none of its caller share: the subject limit answers.
      const over = await send(`/api/${c}/${org}/unknown/path`, token);
      return { statuses: [...first, ...second], over };
    });
    expect(run.statuses.filter((status) => status !== 200)).toEqual([]);
    expect(run.over.status).toBe(429);
    expect(run.over.headers.get('ratelimit')).toMatch(/^"subject";r=0;t=\d+$/);
  });

  describe('failed client authentications at POST /connect/token', () => {
    const server: FailureScenarioServer = {
      send: async (request) => {
        const ctx = createExecutionContext();
        const response = await worker.fetch(new Request(request), limitedEnv, ctx);
        await waitOnExecutionContext(ctx);
        return response;
      },
      from: (address) => ({ 'cf-connecting-ip': address }),
      jwtSecret: env.JWT_SECRET,
    };

    it('never spend the budget of the tenant/org an invented client id names (no lockout)', { timeout: 120_000 }, async () => {
      await checkFloodSpendsNoBudget(server, LIMIT);
    });

    it('are limited per source address (429 temporarily_unavailable, Retry-After within 10 s)', async () => {
      await checkAddressFailureLimit(server);
    });

    it('are limited per client id, and the right secret still gets a token', async () => {
      await checkClientFailureLimit(server);
    });
  });

  it('counts a client and the /api requests of its tokens (sub = client id) in one budget', { timeout: 120_000 }, async () => {
    // Fresh keys and a fresh client (its id is the subject) in every run: a rerun starts in a new window.
    const run = await runInOneWindow(async () => {
      const [home, a, b, org] = [uniqueKey('client-home'), uniqueKey('client-a'), uniqueKey('client-b'), uniqueKey('o')];
      const admin = await mintToken({ tenant: home, org, scope: 'application admin', sub: uniqueKey('admin') });
      const client = (await sendJson(`/api/${home}/${org}/identity/apiClients`, admin, { name: 'Budget' })) as {
        clientId: string;
        clientSecret: string;
      };
      const token = await mintToken({ orgs: [`${a}/${org}`, `${b}/${org}`], sub: client.clientId });
      const first = await burst(LIMIT / 2, listPath(a, org), token);
      const second = await burst(LIMIT / 2, listPath(b, org), token);
      const over = await requestToken(client.clientId, client.clientSecret);
      return { statuses: [...first, ...second], over };
    });
    expect(run.statuses.filter((status) => status !== 200)).toEqual([]);
    expect(run.over.status).toBe(429);
    expect(run.over.error).toBe('temporarily_unavailable');
    expect(run.over.headers.get('ratelimit')).toMatch(/^"subject";r=0;t=\d+$/);
  });

  it('is off with RATE_LIMIT_PER_MINUTE=0 (the suite) and costs no header then', async () => {
    const [tenant, org] = [uniqueKey('limited'), uniqueKey('o')];
    const answer = await send(listPath(tenant, org), await mintToken({ tenant, org }), env);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('ratelimit-policy')).toBeNull();
  });
});
