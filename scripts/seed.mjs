// Seeds the demo tenant/org (demo/demo) through the API itself, idempotently (rules in seed/apply.mjs).
// Each service's data lives in scripts/seed/<service>.mjs ({ referenceData, records }, and optionally
// `seed(send)` for data that needs its own idempotency check; it returns how many records it created).
import { SignJWT } from 'jose';
import { applySeedModule } from './seed/apply.mjs';
import { seedModules } from './seed/index.mjs';

export const DEMO = { tenant: 'demo', org: 'demo' };

async function send(baseUrl, token, method, path, body) {
  for (;;) {
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

/** Waits for /health, then seeds the demo tenant/org with a short-lived admin token signed with `secret`. */
export async function seedWhenReady(baseUrl, secret) {
  await waitForHealth(baseUrl);
  const token = await new SignJWT({ scope: 'application admin', orgs: [`${DEMO.tenant}/${DEMO.org}`] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('seed')
    .setIssuedAt()
    .setExpirationTime('10m')
    .sign(new TextEncoder().encode(secret));
  return seedDemo(baseUrl, token);
}
