/**
 * Rate limits under Deno (in-process counters): a server of its own with RATE_LIMIT_PER_MINUTE=5 answers the sixth
 * request of a tenant/org within a minute with 429 RateLimited, Retry-After and the IETF RateLimit headers; the token
 * endpoint counts the same way, answering 429 in its RFC 6749 shape.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENO_TEST_JWT_SECRET, launchDenoServer } from '../deno/server.js';
import type { DenoTestServer } from '../deno/server.js';
import { runInOneWindow } from '../helpers/rate-limit-window.js';

let server: DenoTestServer;

function mint(orgs: string[], sub: string): Promise<string> {
  return new SignJWT({ scope: 'application', orgs })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(DENO_TEST_JWT_SECRET));
}

async function get(path: string, token: string): Promise<Response> {
  return fetch(`${server.baseUrl}${path}`, { headers: { authorization: `Bearer ${token}` } });
}

beforeAll(async () => {
  server = await launchDenoServer({ RATE_LIMIT_PER_MINUTE: '5' });
});

afterAll(async () => {
  await server.stop();
});

interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly code?: string;
}

async function getAnswer(path: string, token: string): Promise<Answer> {
  const response = await get(path, token);
  const body: unknown = await response.json();
  const code = typeof body === 'object' && body !== null && 'code' in body && typeof body.code === 'string' ? body.code : undefined;
  return { status: response.status, headers: response.headers, ...(code === undefined ? {} : { code }) };
}

describe('rate limits under Deno', () => {
  it('counts per tenant/org and per subject, and answers 429 with the headers over the limit', async () => {
    const run = await runInOneWindow(async () => {
      // Keys of this run's own: nothing else has counted against them.
      const suffix = crypto.randomUUID().slice(0, 8);
      const [a, b] = [`/api/deno-${suffix}/a/operations/emailTemplates/odata`, `/api/deno-${suffix}/b/operations/emailTemplates/odata`];
      const token = await mint([`deno-${suffix}/a`, `deno-${suffix}/b`], `deno-client-${suffix}`);
      const within: Answer[] = [];
      for (let index = 0; index < 5; index += 1) within.push(await getAnswer(a, token));
      const over = await getAnswer(a, token);
      // The subject has used 6 of its 5: another org of the same token is refused by the subject limit...
      const subject = await getAnswer(b, token);
      // ...while another subject on that org is served.
      const other = await getAnswer(b, await mint([`deno-${suffix}/b`], `someone-else-${suffix}`));
      return { within, over, subject, other };
    });
    for (const answer of run.within) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-policy')).toBe('"org";q=5;w=60, "subject";q=5;w=60');
    }
    expect(run.over.status).toBe(429);
    const retryAfter = Number(run.over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(run.over.headers.get('ratelimit')).toBe(`"org";r=0;t=${retryAfter}`);
    expect(run.over.code).toBe('RateLimited');
    expect(run.subject.status).toBe(429);
    expect(run.subject.headers.get('ratelimit')).toMatch(/^"subject";r=0;t=\d+$/);
    expect(run.other.status).toBe(200);
  });

  it('limits POST /connect/token per tenant/org of the client id (429 temporarily_unavailable)', async () => {
    const requestToken = async (clientId: string) => {
      const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: 'not-the-secret' });
      const response = await fetch(`${server.baseUrl}/connect/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
      const answer = (await response.json()) as { error?: string };
      return { status: response.status, headers: response.headers, error: answer.error };
    };
    const run = await runInOneWindow(async () => {
      const clientId = `deno-token-${crypto.randomUUID().slice(0, 8)}~a~${'0'.repeat(24)}`;
      const within = [];
      for (let index = 0; index < 5; index += 1) within.push(await requestToken(clientId));
      return { within, over: await requestToken(clientId) };
    });
    expect(run.within.map((answer) => answer.error)).toEqual(Array.from({ length: 5 }, () => 'invalid_client'));
    expect(run.over.status).toBe(429);
    expect(run.over.error).toBe('temporarily_unavailable');
    expect(run.over.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(run.over.headers.get('ratelimit')).toMatch(/^"org";r=0;t=\d+$/);
    expect(run.over.headers.get('ratelimit-policy')).toBe('"org";q=5;w=60, "subject";q=5;w=60');
  });
});
