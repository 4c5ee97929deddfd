/**
 * Rate limits under Deno (in-process counters): a server of its own with RATE_LIMIT_PER_MINUTE=5 answers the sixth
 * request of a tenant/org within a minute with 429 RateLimited, Retry-After and the IETF RateLimit headers.
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENO_TEST_JWT_SECRET, launchDenoServer } from '../deno/server.js';
import type { DenoTestServer } from '../deno/server.js';

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

describe('rate limits under Deno', () => {
  it('counts per tenant/org and per subject, and answers 429 with the headers over the limit', async () => {
    // Windows are aligned to the minute: start with enough of the current one left.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const token = await mint(['deno/a', 'deno/b'], 'deno-client');
    for (let index = 0; index < 5; index += 1) {
      const response = await get('/api/deno/a/operations/emailTemplates/odata', token);
      expect(response.status).toBe(200);
      expect(response.headers.get('ratelimit-policy')).toBe('"org";q=5;w=60, "subject";q=5;w=60');
      await response.arrayBuffer();
    }
    const over = await get('/api/deno/a/operations/emailTemplates/odata', token);
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(over.headers.get('ratelimit')).toBe(`"org";r=0;t=${retryAfter}`);
    expect(((await over.json()) as { code: string }).code).toBe('RateLimited');
    // The subject has used 6 of its 5: another org of the same token is refused by the subject limit...
    const subject = await get('/api/deno/b/operations/emailTemplates/odata', token);
    expect(subject.status).toBe(429);
    expect(subject.headers.get('ratelimit')).toMatch(/^"subject";r=0;t=\d+$/);
    await subject.arrayBuffer();
    // ...while another subject on that org is served.
    const other = await get('/api/deno/b/operations/emailTemplates/odata', await mint(['deno/b'], 'someone-else'));
    expect(other.status).toBe(200);
    await other.arrayBuffer();
  });
});
