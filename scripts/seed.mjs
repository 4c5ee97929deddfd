// Seeds the demo tenant/org (demo/demo) through the API itself, idempotently (rules in seed/apply.mjs). A start
// first checks in one request whether the seed's last record exists (a finished seed): then it sends nothing else,
// so a start on seeded state spends one request of the tenant/org's and the seed subject's rate limit budget.
// Each service's data lives in scripts/seed/<service>.mjs ({ referenceData, records }, and optionally
// `seed(send)` for data that needs its own idempotency check; it returns how many records it created).
import { SignJWT } from 'jose';
import { applySeedModule } from './seed/apply.mjs';
import { seedModules } from './seed/index.mjs';

export const DEMO = { tenant: 'demo', org: 'demo' };

let requestCount = 0;

async function send(baseUrl, token, method, path, body) {
  for (;;) {
    requestCount += 1;
    const response = await fetch(`${baseUrl}/api/${DEMO.tenant}/${DEMO.org}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    if (response.status !== 429) return { status: response.status, text };
    // Rate limited (a low RATE_LIMIT_PER_MINUTE): wait as told, then send again.
    const seconds = Number(response.headers.get('retry-after') ?? 1);
    console.log(`Seeding is rate limited; waiting ${seconds} s.`);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

export async function seedDemo(baseUrl, token) {
  let created = 0;
  for (const module of seedModules)
    created += await applySeedModule(module, (method, path, body) => send(baseUrl, token, method, path, body));
  return created;
}

async function waitForHealth(baseUrl) {
  for (let attempt = 0; attempt < 300; attempt += 1) {
    try {
      const response = await fetch(`${baseUrl}/health`);
      if (response.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`The server did not answer ${baseUrl}/health within 60 s`);
}

/** The last record the seed creates (the last module's last record with a `findPath`): present once a seed finished. */
function readLastSeedCheck() {
  for (const module of [...seedModules].reverse()) {
    const record = [...(module.records ?? [])].reverse().find((candidate) => candidate.findPath);
    if (record) return record.findPath;
  }
  return undefined;
}

/** Whether a seed finished earlier (one request). */
export async function isSeeded(baseUrl, token) {
  const path = readLastSeedCheck();
  if (!path) return false;
  const result = await send(baseUrl, token, 'GET', path);
  if (result.status !== 200) throw new Error(`Reading ${path} failed: ${result.status} ${result.text}`);
  return JSON.parse(result.text).items.length > 0;
}

/**
 * Waits for /health (then calls `onHealthy`), then seeds the demo tenant/org with a short-lived admin token signed
 * with `secret`, unless a finished seed is there already. Answers { present, created, requests, startedAt }.
 */
export async function seedWhenReady(baseUrl, secret, { onHealthy } = {}) {
  await waitForHealth(baseUrl);
  onHealthy?.();
  const startedAt = Date.now();
  requestCount = 0;
  const token = await new SignJWT({ scope: 'application admin', orgs: [`${DEMO.tenant}/${DEMO.org}`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('seed')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(secret));
  if (await isSeeded(baseUrl, token)) return { present: true, created: 0, requests: requestCount, startedAt };
  const created = await seedDemo(baseUrl, token);
  return { present: false, created, requests: requestCount, startedAt };
}
