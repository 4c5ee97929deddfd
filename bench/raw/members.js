// The raw baseline of route membership changes: one D1 batch doing the API's checks (one route by routeKey, every key
// found, members of the route's company), the version bump while something changes and the member rows.
const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8' };

const ROUTE = 'SELECT id FROM routes WHERE tenant_key = ?1 AND org_key = ?2 AND route_key = ?3 LIMIT 1';
const NAMED = 'l.tenant_key = ?1 AND l.org_key = ?2 AND l.key IN (SELECT value FROM json_each(?4))';
const ALLOWED = `(SELECT count(*) FROM (SELECT 1 FROM routes WHERE tenant_key = ?1 AND org_key = ?2 AND route_key = ?3 LIMIT 2)) = 1
  AND (SELECT count(*) FROM ref_locations l WHERE ${NAMED}) = ?5
  AND NOT EXISTS (SELECT 1 FROM ref_locations l WHERE ${NAMED} AND l.company IS NOT (SELECT company FROM routes WHERE id = (${ROUTE})))`;
const MEMBER = `SELECT 1 FROM route_locations m WHERE m.route_id = (${ROUTE}) AND m.location = l.key`;

/**
 * POST /members/{add|remove}?tenant=&org=&route=[&event=1] with a JSON array of location keys. `event=1`: the batch
 * also writes the route's `updated` row in the change_events outbox (the keys it changes), under the version bump's
 * own condition, as the API does.
 */
export async function handleMembers(request, env, url) {
  const action = url.pathname.endsWith('/add') ? 'add' : 'remove';
  const withEvent = url.searchParams.get('event') === '1';
  const keys = await request.json();
  const parameters = [
    url.searchParams.get('tenant'),
    url.searchParams.get('org'),
    url.searchParams.get('route'),
    JSON.stringify(keys),
    keys.length,
    new Date().toISOString(),
  ];
  // D1 wants exactly the parameters a statement numbers (?1 .. its highest).
  const bind = (statement) =>
    env.DB.prepare(statement).bind(
      ...parameters.slice(0, Math.max(...[...statement.matchAll(/\?(\d)/g)].map((match) => Number(match[1])))),
    );
  const change =
    action === 'add'
      ? `EXISTS (SELECT 1 FROM ref_locations l WHERE ${NAMED} AND NOT EXISTS (${MEMBER}))`
      : `EXISTS (SELECT 1 FROM ref_locations l WHERE ${NAMED} AND EXISTS (${MEMBER}))`;
  const changed = `(SELECT json_group_array(l.key) FROM ref_locations l WHERE ${NAMED} AND ${action === 'add' ? 'NOT ' : ''}EXISTS (${MEMBER}))`;
  const event = bind(`INSERT INTO change_events (tenant_key, org_key, seq, id, resource, change_type, record_id, record_key, version,
      occurred_on, actor, changes)
    SELECT ?1, ?2, coalesce((SELECT max(seq) FROM change_events WHERE tenant_key = ?1 AND org_key = ?2), 0) + 1, lower(hex(randomblob(16))),
      'assetManagementCore/routes', 'updated', id, route_key, version + 1, ?6, 'raw',
      json_object('members', json_object('locations', json_object('${action === 'add' ? 'added' : 'removed'}', json(${changed}))))
    FROM routes WHERE id = (${ROUTE}) AND ${ALLOWED} AND ${change}`);
  const results = await env.DB.batch([
    bind('SELECT id, company, version FROM routes WHERE tenant_key = ?1 AND org_key = ?2 AND route_key = ?3 LIMIT 20'),
    bind(`SELECT l.id, l.key, l.company FROM ref_locations l WHERE ${NAMED}`),
    ...(withEvent ? [event] : []),
    bind(`UPDATE routes SET version = version + 1 WHERE id = (${ROUTE}) AND ${ALLOWED} AND ${change} RETURNING version`),
    action === 'add'
      ? bind(`INSERT INTO route_locations (route_id, tenant_key, org_key, location)
          SELECT (${ROUTE}), ?1, ?2, l.key FROM ref_locations l WHERE ${NAMED} AND (${ROUTE}) IS NOT NULL AND ${ALLOWED}
          ON CONFLICT DO NOTHING`)
      : bind(`DELETE FROM route_locations WHERE route_id = (${ROUTE})
          AND location IN (SELECT l.key FROM ref_locations l WHERE ${NAMED}) AND ${ALLOWED}`),
  ]);
  const route = results[0].results;
  if (route.length !== 1) return new Response('{"error":"route"}', { status: 400, headers: JSON_HEADERS });
  if (results[1].results.length !== keys.length) return new Response('{"error":"keys"}', { status: 400, headers: JSON_HEADERS });
  const version = results[withEvent ? 3 : 2].results[0]?.version ?? route[0].version;
  return new Response(null, { status: 200, headers: { etag: `"${version}"` } });
}
