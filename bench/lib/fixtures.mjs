// Bench data: tokens, bulk rows loaded with SQL, and the records each scenario needs.
import { SignJWT } from 'jose';
import { executeSql } from './servers.mjs';

export const SECRET = 'bench-secret-of-at-least-thirty-two-characters';
export const TENANT = 'bench';
export const ORG = 'main';

export async function mintToken() {
  return new SignJWT({ scope: 'application admin', orgs: ['*'] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('bench')
    .setIssuedAt()
    .setExpirationTime('6h')
    .sign(new TextEncoder().encode(SECRET));
}

/** A token for the operator API (/admin). */
export async function mintOperatorToken() {
  return new SignJWT({ scope: 'operator', orgs: [] })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('bench')
    .setIssuedAt()
    .setExpirationTime('6h')
    .sign(new TextEncoder().encode(SECRET));
}

/** Operator API call (`/admin/...`); throws unless 2xx. */
export async function sendAdmin(api, method, path, body) {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${await mintOperatorToken()}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return JSON.parse(text);
}

/**
 * A GET that follows a job, sent again when no answer comes within `timeoutMs`. Under `wrangler dev` 4.86 a request
 * that arrives while a Durable Object alarm or a Workflow step runs is held until it ends, then sometimes dropped, and
 * the local proxy parks a dropped request other than `/` until the next request reaches it (it compares the failed
 * URL, path included, with the worker's origin: workers-sdk PR #14593 fixes it upstream). Any new request releases
 * it, so a poll that times out is simply sent again; production has no such proxy.
 */
export async function fetchPolling(url, init, { timeoutMs = 2_000, attempts = 300 } = {}) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await fetch(url, { ...init, signal: globalThis.AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      if (error?.name !== 'TimeoutError' || attempt >= attempts) throw error;
    }
  }
}

/**
 * Makes the raw Workers' bench tenant/org resident (`active`) as the API's is after its first write, so the raw side
 * pays the same tenant-database triggers on every write, the history triggers of restore (issue 30) included: the
 * ratios then measure the API's own overhead, not a feature the raw side skips.
 */
export async function placeRawTenant(...workers) {
  for (const worker of workers.filter(Boolean))
    await executeSql(
      worker,
      'DB',
      `INSERT OR IGNORE INTO tenant_residency (tenant_key, org_key, state, changed_on) VALUES ('${TENANT}', '${ORG}', 'active', '${new Date().toISOString()}')`,
    );
}

/**
 * Email template rows tpl-<from>..tpl-<to> in bench/`org` (main unless told), one culture in four, created one second
 * apart, loaded into D1 `binding` (for the API: the tenant database that holds the tenant/org).
 */
export async function loadTemplateRows(worker, binding, from, to, org = ORG) {
  await executeSql(
    worker,
    binding,
    `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to})
     INSERT INTO email_templates (id, tenant_key, org_key, template_key, subject, email_template_type, notification_body, culture,
       description, custom_attributes, is_active, version, created_on, created_by, modified_on, modified_by)
     SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' ||
       substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), '${TENANT}', '${org}', 'tpl-' || n, 'Subject ' || n, 1 + n % 2,
       '<p>Body ' || n || '</p>', CASE n % 4 WHEN 0 THEN 'pt-PT' WHEN 1 THEN 'en-US' WHEN 2 THEN 'de-DE' ELSE 'fr-FR' END,
       'Bench row', '{}', 1, 1, strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || n || ' seconds'), 'bench',
       strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || n || ' seconds'), 'bench'
     FROM seq`,
  );
}

const RESTARTED = /worker restarted mid-request/;

/**
 * A setup request; throws unless 2xx. A 503 "worker restarted mid-request" of `wrangler dev`'s proxy
 * (workers-sdk#14641) is sent again: setup writes are creates with fixed keys, so a first attempt that did commit
 * shows as DuplicateKey, which counts as done.
 */
export async function send(api, token, method, path, body, prefix = `/api/${TENANT}/${ORG}`) {
  let response;
  let text;
  for (let attempt = 1; ; attempt += 1) {
    response = await fetch(`${api.url}${prefix}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    text = await response.text();
    if (attempt > 1 && response.status === 400 && text.includes('"DuplicateKey"')) return undefined;
    if (response.status !== 503 || !RESTARTED.test(text) || attempt >= 3) break;
  }
  if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? undefined : JSON.parse(text);
}
