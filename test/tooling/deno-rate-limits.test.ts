/**
 * Rate limits under Deno (in-process counters): a server of its own with RATE_LIMIT_PER_MINUTE=5 answers the sixth
 * request of a tenant/org within a minute (the fourth of one caller: its share is 3) with 429 RateLimited, Retry-After
 * and the IETF RateLimit headers; the token
 * endpoint limits failed client authentications on their own (per client id and per source address).
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DENO_TEST_JWT_SECRET, launchDenoServer } from '../deno/server.js';
import type { DenoTestServer } from '../deno/server.js';
import { runInOneWindow } from '../helpers/rate-limit-window.js';
import { checkAddressFailureLimit, checkClientFailureLimit, checkFloodSpendsNoBudget } from '../helpers/token-failures.js';
import type { FailureScenarioServer } from '../helpers/token-failures.js';

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
  it('counts per tenant/org, per caller of a tenant/org and per subject, and answers 429 with the headers over a limit', async () => {
    const run = await runInOneWindow(async () => {
      // Keys of this run's own: nothing else has counted against them.
      const suffix = crypto.randomUUID().slice(0, 8);
      const [a, b] = [`/api/deno-${suffix}/a/operations/emailTemplates/odata`, `/api/deno-${suffix}/b/operations/emailTemplates/odata`];
      const token = await mint([`deno-${suffix}/a`, `deno-${suffix}/b`], `deno-client-${suffix}`);
      const second = await mint([`deno-${suffix}/a`], `deno-second-${suffix}`);
      const within: Answer[] = [];
      // Its share of a (3 of 5), then a second caller takes the 2 a has left.
      for (let index = 0; index < 3; index += 1) within.push(await getAnswer(a, token));
      const share = await getAnswer(a, token);
      for (let index = 0; index < 2; index += 1) within.push(await getAnswer(a, second));
      const over = await getAnswer(a, await mint([`deno-${suffix}/a`], `deno-third-${suffix}`));
      // The first subject has used 4 (3 and the refused one): 1 more on b, then its subject limit refuses it there...
      within.push(await getAnswer(b, token));
      const subject = await getAnswer(b, token);
      // ...while another subject on that org is served.
      const other = await getAnswer(b, await mint([`deno-${suffix}/b`], `someone-else-${suffix}`));
      return { within, share, over, subject, other };
    });
    for (const answer of run.within) {
      expect(answer.status).toBe(200);
      expect(answer.headers.get('ratelimit-policy')).toBe('"org";q=5;w=60, "caller";q=3;w=60, "subject";q=5;w=60');
    }
    expect(run.share.status).toBe(429);
    expect(run.share.headers.get('ratelimit')).toMatch(/^"caller";r=0;t=\d+$/);
    expect(run.over.status).toBe(429);
    const retryAfter = Number(run.over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(run.over.headers.get('ratelimit')).toBe(`"org";r=0;t=${retryAfter}`);
    expect(run.over.code).toBe('RateLimited');
    expect(run.subject.status).toBe(429);
    expect(run.subject.headers.get('ratelimit')).toMatch(/^"subject";r=0;t=\d+$/);
    expect(run.other.status).toBe(200);
  });

  describe('failed client authentications at POST /connect/token', () => {
    const scenarioServer: FailureScenarioServer = {
      send: async (request) => {
        const url = new URL(request.url);
        return fetch(new Request(`${server.baseUrl}${url.pathname}${url.search}`, request));
      },
      from: (address) => ({ 'x-forwarded-for': address }),
      jwtSecret: DENO_TEST_JWT_SECRET,
    };

    it('never spend the budget of the tenant/org an invented client id names (no lockout)', async () => {
      await checkFloodSpendsNoBudget(scenarioServer, 5);
    });

    it('are limited per source address (429 temporarily_unavailable, Retry-After within 10 s)', async () => {
      await checkAddressFailureLimit(scenarioServer);
    });

    it('are limited per client id, and the right secret still gets a token', async () => {
      await checkClientFailureLimit(scenarioServer);
    });
  });
});
