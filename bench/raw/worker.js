// The raw baseline: the least a Worker can do for each benchmark scenario, on the same bindings. Like the API (and any
// Worker run in production), it writes one JSON log line per request: under `wrangler dev` each console.log costs a
// trip through the inspector Wrangler attaches, a local cost both sides now pay alike.
import { handleMembers } from './members.js';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

/** Columns of the scale scenarios' orders (the API's sortable email template fields). */
const SORTABLE = new Map([
  ['templateKey', 'template_key'],
  ['createdOn', 'created_on'],
  ['culture', 'culture'],
  ['emailTemplateType', 'email_template_type'],
  ['modifiedOn', 'modified_on'],
  ['isActive', 'is_active'],
  ['subject', 'subject'],
  ['description', 'description'],
  ['createdBy', 'created_by'],
  ['modifiedBy', 'modified_by'],
  ['version', 'version'],
  ['notificationBody', 'notification_body'],
]);

const scopeOf = (url) => [url.searchParams.get('tenant'), url.searchParams.get('org')];

async function answerRows(statement) {
  const { results } = await statement.all();
  return new Response(JSON.stringify({ items: results }), { headers: JSON_HEADERS });
}

export default {
  async fetch(request, env) {
    const started = Date.now();
    const response = await answerScenario(request, env);
    const { pathname } = new URL(request.url);
    const line = { level: 'info', message: 'request', requestId: globalThis.crypto.randomUUID(), method: request.method, path: pathname };
    console.log(JSON.stringify({ ...line, status: response.status, durationMs: Date.now() - started }));
    return response;
  },
};

async function answerScenario(request, env) {
  const url = new URL(request.url);
  if (url.pathname.startsWith('/members/')) return handleMembers(request, env, url);
  switch (url.pathname) {
    case '/constant':
      return new Response('{"status":"ok"}', { headers: JSON_HEADERS });
    case '/d1/point': {
      const row = await env.DB.prepare('SELECT * FROM email_templates WHERE tenant_key = ? AND org_key = ? AND template_key = ?')
        .bind(url.searchParams.get('tenant'), url.searchParams.get('org'), url.searchParams.get('key'))
        .first();
      return row ? new Response(JSON.stringify(row), { headers: JSON_HEADERS }) : new Response('null', { status: 404 });
    }
    case '/d1/page': {
      const { results } = await env.DB.prepare(
        'SELECT * FROM email_templates WHERE tenant_key = ? AND org_key = ? AND culture = ? ORDER BY created_on, id LIMIT 50',
      )
        .bind(url.searchParams.get('tenant'), url.searchParams.get('org'), url.searchParams.get('culture'))
        .all();
      return new Response(JSON.stringify({ items: results }), { headers: JSON_HEADERS });
    }
    // Scale scenarios (bench/lib/scale.mjs): the same SQL the API sends for each list, nothing else.
    case '/scale/after':
      return answerRows(
        env.DB.prepare(
          'SELECT * FROM email_templates WHERE tenant_key = ? AND org_key = ? AND (created_on, id) > (?, ?) ORDER BY created_on, id LIMIT ?',
        ).bind(
          ...scopeOf(url),
          url.searchParams.get('createdOn'),
          url.searchParams.get('id'),
          Number(url.searchParams.get('top') ?? 50) + 1,
        ),
      );
    case '/scale/count': {
      const row = await env.DB.prepare("SELECT rows FROM entity_counts WHERE tenant_key = ? AND org_key = ? AND entity = 'email_templates'")
        .bind(...scopeOf(url))
        .first();
      return new Response(JSON.stringify({ count: row?.rows ?? 0 }), { headers: JSON_HEADERS });
    }
    case '/scale/contains':
      return answerRows(
        env.DB.prepare(
          'SELECT * FROM email_templates WHERE tenant_key = ? AND org_key = ? AND subject GLOB ? ORDER BY created_on, id LIMIT 51',
        ).bind(...scopeOf(url), `*${url.searchParams.get('term')}*`),
      );
    case '/scale/order': {
      const column = SORTABLE.get(url.searchParams.get('column') ?? '');
      if (!column) return new Response('unknown column', { status: 400 });
      return answerRows(
        env.DB.prepare(
          `SELECT * FROM email_templates WHERE tenant_key = ? AND org_key = ? ORDER BY ${column === 'created_on' ? '' : `${column}, `}created_on, id LIMIT 51`,
        ).bind(...scopeOf(url)),
      );
    }
    // An order no index serves, within the sort budget (issue 26): the bounded count of the filter's rows, then the sort.
    case '/scale/sorted': {
      const column = SORTABLE.get(url.searchParams.get('column') ?? '');
      if (!column) return new Response('unknown column', { status: 400 });
      const before = url.searchParams.get('before');
      await env.DB.prepare(
        'SELECT count(*) AS count FROM (SELECT 1 FROM email_templates WHERE tenant_key = ? AND org_key = ? AND created_on < ? LIMIT 100001)',
      )
        .bind(...scopeOf(url), before)
        .first();
      return answerRows(
        env.DB.prepare(
          `SELECT * FROM email_templates WHERE tenant_key = ? AND org_key = ? AND created_on < ? ORDER BY ${column} DESC, created_on DESC, id DESC LIMIT 51`,
        ).bind(...scopeOf(url), before),
      );
    }
    case '/kv': {
      const value = await env.CACHE.get(url.searchParams.get('key') ?? 'bench');
      return new Response(value ?? 'null', { headers: JSON_HEADERS });
    }
    case '/kv/put': {
      await env.CACHE.put(url.searchParams.get('key') ?? 'bench', await request.text(), { expirationTtl: 3600 });
      return new Response(null, { status: 204 });
    }
    // Write paths (issue 16): the least a Worker does for a create and for a batch of KPI measurements.
    case '/d1/create':
      return createTemplate(request, env, url);
    case '/d1/create-with-event':
      return createTemplate(request, env, url, { withEvent: true });
    case '/d1/measurements':
      return insertMeasurements(request, env, url);
    case '/d1/routes-json':
      return insertRoutes(request, env, url);
    case '/d1/routes-delete-json':
      return deleteRoutes(request, env, url);
    default:
      return new Response('not found', { status: 404 });
  }
}

/**
 * One INSERT of an email template from its JSON body: id, audit fields, no checks. `withEvent`: the same INSERT and
 * its `created` row in the change_events outbox (next sequence number of the tenant/org), as one batch.
 */
async function createTemplate(request, env, url, { withEvent = false } = {}) {
  const body = await request.json();
  const id = globalThis.crypto.randomUUID();
  const now = new Date().toISOString();
  const tenant = url.searchParams.get('tenant');
  const org = url.searchParams.get('org');
  const insert = env.DB.prepare(
    `INSERT INTO email_templates (id, tenant_key, org_key, template_key, subject, email_template_type, notification_body, culture,
       custom_attributes, is_active, version, created_on, created_by, modified_on, modified_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, '{}', 1, 1, ?, 'raw', ?, 'raw')`,
  ).bind(id, tenant, org, body.templateKey, body.subject, body.emailTemplateType, body.notificationBody, body.culture, now, now);
  if (!withEvent) await insert.run();
  else
    await env.DB.batch([
      insert,
      env.DB.prepare(
        `INSERT INTO change_events (tenant_key, org_key, seq, id, resource, change_type, record_id, record_key, version, occurred_on, actor)
         SELECT ?1, ?2, coalesce(max(seq), 0) + 1, ?3, 'operations/emailTemplates', 'created', ?4, ?5, 1, ?6, 'raw'
         FROM change_events WHERE tenant_key = ?1 AND org_key = ?2`,
      ).bind(tenant, org, globalThis.crypto.randomUUID(), id, body.templateKey, now),
    ]);
  return new Response(null, { status: 201, headers: { location: `/d1/templates/${id}` } });
}

/** A JSON array of {company, code, date, value} as one INSERT ... SELECT FROM json_each(?): no validation. */
async function insertMeasurements(request, env, url) {
  const body = await request.text();
  await env.DB.prepare(
    `INSERT INTO kpi_measurements (tenant_key, org_key, company, code, measured_at, period, value_micros)
     SELECT ?1, ?2, value ->> '$.company', value ->> '$.code', value ->> '$.date', substr(value ->> '$.date', 1, 7),
       CAST(round((value ->> '$.value') * 1000000) AS INTEGER)
     FROM json_each(?3)`,
  )
    .bind(url.searchParams.get('tenant'), url.searchParams.get('org'), body)
    .run();
  return new Response(JSON.stringify({ accepted: true }), { headers: JSON_HEADERS });
}

/**
 * The floor of a file import's chunk (issue 29): a JSON array of {routeKey, description, remarks} as one
 * INSERT INTO routes ... SELECT ... FROM json_each(?) for company C1 (created here once), no checks, no events. The
 * tenant migrations' triggers (references, counts, text index) run as they do for the API.
 */
async function insertRoutes(request, env, url) {
  const tenant = url.searchParams.get('tenant');
  const org = url.searchParams.get('org');
  const now = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare(
      `INSERT OR IGNORE INTO ref_companies (id, tenant_key, org_key, key, name, base_currency) VALUES (?1 || '-' || ?2 || '-c1', ?1, ?2, 'C1', 'Company One', 'EUR')`,
    ).bind(tenant, org),
    env.DB.prepare(
      `INSERT INTO routes (id, tenant_key, org_key, route_key, description, company, remarks, custom_attributes, is_active,
         created_on, created_by, modified_on, modified_by, version)
       SELECT lower(hex(randomblob(16))), ?1, ?2, value ->> '$.routeKey', value ->> '$.description', 'C1', value ->> '$.remarks', '{}', 1,
         ?3, 'raw', ?3, 'raw', 1
       FROM json_each(?4)`,
    ).bind(tenant, org, now, await request.text()),
  ]);
  return new Response(JSON.stringify({ accepted: true }), { headers: JSON_HEADERS });
}

/**
 * The floor of a revert's chunk: a JSON array of route keys as one DELETE FROM routes ... WHERE route_key IN
 * (SELECT value FROM json_each(?)), no version check, no events; the tenant migrations' triggers run as for the API.
 */
async function deleteRoutes(request, env, url) {
  await env.DB.prepare(`DELETE FROM routes WHERE tenant_key = ?1 AND org_key = ?2 AND route_key IN (SELECT value FROM json_each(?3))`)
    .bind(url.searchParams.get('tenant'), url.searchParams.get('org'), await request.text())
    .run();
  return new Response(JSON.stringify({ accepted: true }), { headers: JSON_HEADERS });
}
