/**
 * The token endpoint's limits on failed client authentications (src/services/identity/failed-authentications.ts),
 * as scenarios both runtimes run against a server with rate limiting on: `send` delivers a request to it, `from`
 * gives the headers that make a request come from an address.
 */
import { SignJWT } from 'jose';
import { expect } from 'vitest';
import { runInOneWindow } from './rate-limit-window.js';

export interface FailureScenarioServer {
  send(request: Request): Promise<Response>;
  /** Headers that make the request come from `address`. */
  from(address: string): Record<string, string>;
  /** The HS256 secret the server verifies tokens with. */
  readonly jwtSecret: string;
}

const ORIGIN = 'https://api.test';
const FAILURES = 10;
const PERIOD_SECONDS = 10;

interface TokenReply {
  readonly status: number;
  readonly headers: Headers;
  readonly error?: string;
}

const unique = (prefix: string) => `${prefix}-${crypto.randomUUID().slice(0, 8)}`;
const inventedClientId = (tenant: string, org: string) => `${tenant}~${org}~${crypto.randomUUID().replace(/-/g, '').slice(0, 24)}`;

async function requestToken(server: FailureScenarioServer, clientId: string, secret: string, address: string): Promise<TokenReply> {
  const body = new URLSearchParams({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret });
  const response = await server.send(
    new Request(`${ORIGIN}/connect/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...server.from(address) },
      body: body.toString(),
    }),
  );
  const answer = (await response.json()) as { error?: string };
  return { status: response.status, headers: response.headers, ...(answer.error === undefined ? {} : { error: answer.error }) };
}

async function mint(server: FailureScenarioServer, tenant: string, org: string, scope: string, sub: string): Promise<string> {
  return new SignJWT({ scope, orgs: [`${tenant}/${org}`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(sub)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(new TextEncoder().encode(server.jwtSecret));
}

async function get(server: FailureScenarioServer, path: string, token: string): Promise<number> {
  const response = await server.send(
    new Request(`${ORIGIN}${path}`, { headers: { authorization: `Bearer ${token}`, ...server.from('192.0.2.1') } }),
  );
  await response.arrayBuffer();
  return response.status;
}

/** A real client of a fresh tenant/org: its id and secret. */
async function createClient(
  server: FailureScenarioServer,
  tenant: string,
  org: string,
): Promise<{ clientId: string; clientSecret: string }> {
  const token = await mint(server, tenant, org, 'application admin', unique('admin'));
  const response = await server.send(
    new Request(`${ORIGIN}/api/${tenant}/${org}/identity/apiClients`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Victim sync' }),
    }),
  );
  expect(response.status).toBe(201);
  return (await response.json()) as { clientId: string; clientSecret: string };
}

/**
 * A flood of wrong secrets for invented client ids of a tenant/org (the lockout of the review) spends neither the
 * tenant/org's budget nor any subject's: its tokens and its real client keep working. `budget`: the server's
 * RATE_LIMIT_PER_MINUTE; the flood sends more than that.
 */
export async function checkFloodSpendsNoBudget(server: FailureScenarioServer, budget: number): Promise<void> {
  const [tenant, org] = [unique('victim'), 'main'];
  const client = await createClient(server, tenant, org);
  const token = await mint(server, tenant, org, 'application', unique('user'));
  const statuses = await runInOneWindow(async () => {
    const flood: TokenReply[] = [];
    for (let sent = 0; sent <= budget; sent += 50) {
      const batch = Array.from({ length: Math.min(50, budget + 1 - sent) }, (_, index) =>
        requestToken(server, inventedClientId(tenant, org), 'wrong', `198.51.100.${(sent + index) % 250}`),
      );
      flood.push(...(await Promise.all(batch)));
    }
    return {
      flood: flood.map((reply) => reply.status),
      api: await get(server, `/api/${tenant}/${org}/operations/emailTemplates/odata?$top=1`, token),
    };
  });
  expect(statuses.flood.filter((status) => status !== 401 && status !== 429)).toEqual([]);
  expect(statuses.api).toBe(200);
  const right = await requestToken(server, client.clientId, client.clientSecret, '203.0.113.9');
  expect(right.status).toBe(200);
}

/** Failures are limited per source address: past 10 failures within the period, its requests are refused unchecked. */
export async function checkAddressFailureLimit(server: FailureScenarioServer): Promise<void> {
  const run = await runInOneWindow(async () => {
    const [tenant, address, other] = [
      unique('probe'),
      `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`,
      `198.19.0.${Math.floor(Math.random() * 250)}`,
    ];
    const within: TokenReply[] = [];
    for (let index = 0; index <= FAILURES; index += 1)
      within.push(await requestToken(server, inventedClientId(tenant, 'main'), 'wrong', address));
    const over = await requestToken(server, inventedClientId(tenant, 'main'), 'wrong', address);
    const elsewhere = await requestToken(server, inventedClientId(tenant, 'main'), 'wrong', other);
    return { within, over, elsewhere };
  }, PERIOD_SECONDS);
  expect(run.within.map((reply) => reply.error)).toEqual(Array.from({ length: FAILURES + 1 }, () => 'invalid_client'));
  expect(run.over.status).toBe(429);
  expect(run.over.error).toBe('temporarily_unavailable');
  expect(run.over.headers.get('cache-control')).toBe('no-store');
  const retryAfter = Number(run.over.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(PERIOD_SECONDS);
  expect(run.elsewhere.status).toBe(401);
}

/**
 * Failures are limited per client id: once a client id is over its failures, wrong secrets are refused without a
 * look-up (429) from any address, while the right secret still gets a token at once.
 */
export async function checkClientFailureLimit(server: FailureScenarioServer): Promise<void> {
  const client = await createClient(server, unique('target'), 'main');
  const run = await runInOneWindow(async () => {
    const within: TokenReply[] = [];
    for (let index = 0; index <= FAILURES; index += 1)
      within.push(await requestToken(server, client.clientId, `wrong-${index}`, `100.64.${index}.${Math.floor(Math.random() * 250)}`));
    const over = await requestToken(server, client.clientId, 'wrong-again', '100.65.0.1');
    const right = await requestToken(server, client.clientId, client.clientSecret, '100.65.0.2');
    return { within, over, right };
  }, PERIOD_SECONDS);
  expect(run.within.map((reply) => reply.status)).toEqual(Array.from({ length: FAILURES + 1 }, () => 401));
  expect(run.over.status).toBe(429);
  expect(run.over.error).toBe('temporarily_unavailable');
  expect(run.right.status).toBe(200);
}
