// Route membership changes of 100 members per request (issue 16): the API beside the raw Worker's single batch doing
// the same checks (bench/raw/members.js). Each connection owns one route and alternates add and remove, so every
// request changes 100 member rows on both sides. The tenant/org also holds 20,000 other routes of the same company,
// 100 of which hold the same 100 locations (10,000 member rows): finding the route or a member must not walk them.
import { randomUUID } from 'node:crypto';
import { compareRounds } from './load.mjs';
import { ORG, send, sendAdmin, TENANT } from './fixtures.mjs';
import { executeSql } from './servers.mjs';

export const MEMBERS_PER_REQUEST = 100;
const CONNECTIONS = 8;
const COMPANY = 'MB-CO';
const KEYS = Array.from({ length: MEMBERS_PER_REQUEST }, (_, index) => `MB-L${index}`);
const BODY = JSON.stringify(KEYS);

/** Other routes of the tenant/org, and how many of them hold the 100 locations: the indexes must not walk them. */
const OTHER_ROUTES = 20_000;
const OTHER_ROUTES_WITH_MEMBERS = 100;

/** SQL loading the other routes (company MB-CO, keys MB-X<n>) and their members into a tenant database. */
function buildOtherRoutesSql(now) {
  return [
    `WITH RECURSIVE seq(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seq WHERE n < ${OTHER_ROUTES})
     INSERT INTO routes (id, tenant_key, org_key, route_key, description, company, custom_attributes, is_active, version, created_on,
       created_by, modified_on, modified_by)
     SELECT 'mbx-' || n, '${TENANT}', '${ORG}', 'MB-X' || n, 'Other route', '${COMPANY}', '{}', 1, 1, '${now}', 'bench', '${now}', 'bench' FROM seq`,
    `INSERT INTO route_locations (route_id, tenant_key, org_key, location)
     SELECT r.id, r.tenant_key, r.org_key, l.key FROM routes r JOIN ref_locations l ON l.tenant_key = r.tenant_key AND l.org_key = r.org_key
     WHERE r.tenant_key = '${TENANT}' AND r.org_key = '${ORG}' AND r.id IN (${Array.from({ length: OTHER_ROUTES_WITH_MEMBERS }, (_, index) => `'mbx-${index + 1}'`).join(', ')})`,
  ].join(';\n');
}

/** The routes and locations on the API side (through the API) and on the raw side (SQL, same rows and residency). */
async function prepare(api, raw, token) {
  await send(api, token, 'PUT', '/referenceData/companies', [{ key: COMPANY, name: 'Members bench', baseCurrency: 'EUR' }]);
  await send(
    api,
    token,
    'PUT',
    '/referenceData/locations',
    KEYS.map((key) => ({ key, description: `Location ${key}`, company: COMPANY })),
  );
  for (let index = 0; index < CONNECTIONS; index += 1)
    await send(api, token, 'POST', '/assetManagementCore/routes', {
      routeKey: `MB-R${index}`,
      description: 'Members bench',
      company: COMPANY,
    });
  const now = new Date().toISOString();
  const values = (rows) => rows.map((row) => `(${row.map((value) => `'${value}'`).join(', ')})`).join(', ');
  await executeSql(
    raw,
    'DB',
    [
      `INSERT OR IGNORE INTO tenant_residency (tenant_key, org_key, state, changed_on) VALUES ('${TENANT}', '${ORG}', 'active', '${now}')`,
      `INSERT INTO ref_companies (id, tenant_key, org_key, key, name, base_currency) VALUES ('${randomUUID()}', '${TENANT}', '${ORG}', '${COMPANY}', 'Members bench', 'EUR')`,
      `INSERT INTO ref_locations (id, tenant_key, org_key, key, description, company) VALUES ${values(
        KEYS.map((key) => [randomUUID(), TENANT, ORG, key, `Location ${key}`, COMPANY]),
      )}`,
      `INSERT INTO routes (id, tenant_key, org_key, route_key, description, company, custom_attributes, is_active, version, created_on, created_by, modified_on, modified_by) VALUES ${values(
        Array.from({ length: CONNECTIONS }, (_, index) => [
          randomUUID(),
          TENANT,
          ORG,
          `MB-R${index}`,
          'Members bench',
          COMPANY,
          '{}',
          1,
          1,
          now,
          'bench',
          now,
          'bench',
        ]),
      )}`,
    ].join(';\n'),
  );
  const home = (await sendAdmin(api, 'GET', `/admin/placements/${TENANT}/${ORG}`)).database;
  await executeSql(api, home, buildOtherRoutesSql(now));
  await executeSql(raw, 'DB', buildOtherRoutesSql(now));
}

/** One connection's requests: add then remove the 100 members of its own route, again and again. */
function alternate(urlOf, headers) {
  let next = 0;
  return {
    url: urlOf('MB-R0', 'add'),
    method: 'POST',
    headers,
    connections: CONNECTIONS,
    requests: ['add', 'remove'].map((action) => ({
      method: 'POST',
      body: BODY,
      setupRequest: (request, context) => {
        context.route ??= `MB-R${next++ % CONNECTIONS}`;
        return { ...request, path: new URL(urlOf(context.route, action)).pathname + new URL(urlOf(context.route, action)).search };
      },
    })),
  };
}

/**
 * Runs the comparison; answers `{ api, raw }` figures of compareRounds, and `{ apiAgain, rawWithEvent }`: the API again
 * beside the raw batch that also writes the route's outbox event (the same durable writes as the API's batch).
 */
export async function compareMembership({ api, raw, token, rounds, seconds }) {
  await prepare(api, raw, token);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const apiLoad = alternate(
    (route, action) => `${api.url}/api/${TENANT}/${ORG}/assetManagementCore/routes/${route}/locations/${action}`,
    headers,
  );
  const rawLoad = (event) =>
    alternate((route, action) => `${raw.url}/members/${action}?tenant=${TENANT}&org=${ORG}&route=${route}${event ? '&event=1' : ''}`, {
      'content-type': 'application/json',
    });
  const result = await compareRounds(apiLoad, rawLoad(false), rounds, seconds);
  const same = await compareRounds(apiLoad, rawLoad(true), rounds, seconds);
  return { api: result.a, raw: result.b, apiAgain: same.a, rawWithEvent: same.b };
}
