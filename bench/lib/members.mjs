// Route membership changes of 100 members per request (issue 16): the API beside the raw Worker's single batch doing
// the same checks (bench/raw/members.js). Each connection owns one route and alternates add and remove, so every
// request changes 100 member rows on both sides.
import { randomUUID } from 'node:crypto';
import { compareRounds } from './load.mjs';
import { ORG, send, TENANT } from './fixtures.mjs';
import { executeSql } from './servers.mjs';

export const MEMBERS_PER_REQUEST = 100;
const CONNECTIONS = 8;
const COMPANY = 'MB-CO';
const KEYS = Array.from({ length: MEMBERS_PER_REQUEST }, (_, index) => `MB-L${index}`);
const BODY = JSON.stringify(KEYS);

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
  executeSql(
    raw,
    'DB',
    [
      `INSERT INTO tenant_residency (tenant_key, org_key, state, changed_on) VALUES ('${TENANT}', '${ORG}', 'active', '${now}')`,
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

/** Runs the comparison; answers `{ api, raw }` figures of compareRounds. */
export async function compareMembership({ api, raw, token, rounds, seconds }) {
  await prepare(api, raw, token);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const apiLoad = alternate(
    (route, action) => `${api.url}/api/${TENANT}/${ORG}/assetManagementCore/routes/${route}/locations/${action}`,
    headers,
  );
  const rawLoad = alternate((route, action) => `${raw.url}/members/${action}?tenant=${TENANT}&org=${ORG}&route=${route}`, {
    'content-type': 'application/json',
  });
  const result = await compareRounds(apiLoad, rawLoad, rounds, seconds);
  return { api: result.a, raw: result.b };
}
