// The scale suite's list sections (npm run bench -- --scale; issue 26): routes (with members), exchange rates documents
// (with a rate line each) and email templates, each list's `$orderby` on every sortable scalar property, ascending and
// descending, the multi-key orders issue 26 names, get by key and a filtered page; each scenario's first page on the
// large tenant/org against the small one of the same tenant database, in alternating rounds. Rows are loaded with one
// INSERT ... SELECT per table and size (wrangler d1 execute), through the real schema: the triggers keep the counts
// (entity_counts), the trigram text indexes and the reference rules exactly as API writes would.
import { compareRounds } from './load.mjs';
import { send } from './fixtures.mjs';
import { executeSql } from './servers.mjs';

const COMPANIES = 10;
const LOCATIONS_PER_COMPANY = 3;
/** Routes R-1..R-<n> of each tenant/org hold every location of their company (route_locations): get by key reads them. */
const ROUTES_WITH_MEMBERS = 10;
/**
 * Rows created before this instant: 86,399 of a 1,000,000-row tenant/org (one a second from 2026-01-01), under the
 * 100,000-row sort budget. An order no index serves is measured with this filter (without one, a list of more than
 * 100,000 rows answers 400 asking for a `$filter`, docs/odata.md "Sorting").
 */
const SORTED_BEFORE = '2026-01-02T00:00:00Z';

/**
 * Scenarios between two starts of the workers: `wrangler dev` gives out after a few hundred thousand requests (the
 * email template phases run 18 scenarios per start).
 */
const SCENARIOS_PER_START = 15;

const AUDIT = ['isActive', 'createdOn', 'createdBy', 'modifiedOn', 'modifiedBy', 'version'];

/**
 * Every sortable scalar property of each list, and the orders no index serves (docs/odata.md, "Sorting": sorted, so
 * measured with the createdOn filter). Each single property is measured ascending and descending.
 */
const LISTS = {
  routes: {
    path: '/assetManagementCore/routes',
    fields: [
      'id',
      'routeKey',
      'description',
      'company',
      'locationFunction',
      'family',
      'brand',
      'brandModel',
      'remarks',
      'responsible',
      ...AUDIT,
    ],
    orders: ['Company desc,RouteKey asc', 'RouteKey,Company', 'company,routeKey'],
    sorted: new Set(['id', 'remarks', 'Company desc,RouteKey asc', 'RouteKey,Company']),
    key: '/CO-5/R-5',
    filter: "company eq 'CO-3'",
  },
  exchangeRatesDocuments: {
    path: '/businessCore/exchangeRatesDocuments',
    fields: ['id', 'number', 'validFrom', 'exchangeRateType', 'isExternallyManaged', 'externalId', 'externalVersion', ...AUDIT],
    orders: ['ValidFrom desc', 'ValidFrom asc', 'validFrom,number'],
    sorted: new Set(['id']),
    key: '/5',
    filter: 'exchangeRateType eq 2',
  },
  emailTemplates: {
    path: '/operations/emailTemplates',
    fields: ['id', 'templateKey', 'subject', 'emailTemplateType', 'notificationBody', 'culture', 'description', ...AUDIT],
    orders: ['culture desc,templateKey asc'],
    sorted: new Set(['id', 'notificationBody', 'culture desc,templateKey asc']),
    key: '/tpl-5',
    filter: "culture eq 'pt-PT'",
  },
};

/** A timestamp n seconds after 2026-01-01 (created one second apart; modified in a scattered order), as SQL. */
const at = (seconds) => `strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || (${seconds}) || ' seconds')`;
const randomId = `lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' ||
  substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6)))`;
const sequence = (from, to) => `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to})`;

/**
 * The reference records the routes name (companies, location functions, families, brands, brand models, employees,
 * locations), through the API, in tenant/org `tenant`/`org`.
 */
async function createReferences(api, token, prefix) {
  const put = (kind, records) => send(api, token, 'PUT', `/referenceData/${kind}`, records, prefix);
  const range = (count) => Array.from({ length: count }, (_, index) => index);
  await put(
    'companies',
    range(COMPANIES).map((index) => ({ key: `CO-${index}`, name: `Company ${index}`, baseCurrency: 'EUR' })),
  );
  await put(
    'locationFunctions',
    range(5).map((index) => ({ key: `LF-${index}`, description: `Function ${index}` })),
  );
  await put(
    'families',
    range(7).map((index) => ({ key: `FA-${index}`, description: `Family ${index}` })),
  );
  await put(
    'brands',
    range(5).map((index) => ({ key: `BR-${index}`, description: `Brand ${index}` })),
  );
  await put(
    'brandModels',
    range(5).map((index) => ({ key: `BM-${index}`, description: `Model ${index}`, brand: `BR-${index}` })),
  );
  await put(
    'employees',
    range(20).map((index) => ({ key: `EMP-${index}`, name: `Employee ${index}`, company: `CO-${index % COMPANIES}` })),
  );
  await put(
    'locations',
    range(COMPANIES * LOCATIONS_PER_COMPANY).map((index) => ({
      key: `LOC-${index}`,
      description: `Location ${index}`,
      company: `CO-${index % COMPANIES}`,
    })),
  );
}

/**
 * Routes R-from..R-to of `tenant`/`org` (company CO-<n mod 10>; the optional references null in a share of the rows,
 * a brand model only with its brand) and, for R-1..R-10, their company's locations as members.
 */
function buildRoutesSql(tenant, org, from, to) {
  const statements = [
    `${sequence(from, to)}
     INSERT INTO routes (id, tenant_key, org_key, route_key, description, company, location_function, family, brand, brand_model,
       remarks, responsible, custom_attributes, is_active, version, created_on, created_by, modified_on, modified_by)
     SELECT ${randomId}, '${tenant}', '${org}', 'R-' || n, 'Route ' || n, 'CO-' || (n % ${COMPANIES}),
       CASE WHEN n % 3 = 0 THEN NULL ELSE 'LF-' || (n % 5) END, CASE WHEN n % 4 = 0 THEN NULL ELSE 'FA-' || (n % 7) END,
       CASE WHEN n % 6 = 0 THEN NULL ELSE 'BR-' || (n % 5) END, CASE WHEN n % 6 <> 0 AND n % 2 = 1 THEN 'BM-' || (n % 5) END,
       CASE WHEN n % 3 = 0 THEN 'Remarks ' || n END, CASE WHEN n % 5 = 0 THEN NULL ELSE 'EMP-' || (n % 20) END, '{}',
       n % 5 <> 0, 1 + n % 3, ${at('n')}, 'bench', ${at('(n * 7919) % 1000003')}, CASE n % 2 WHEN 0 THEN 'bench' ELSE 'admin' END
     FROM seq`,
  ];
  if (from <= ROUTES_WITH_MEMBERS)
    statements.push(
      `INSERT INTO route_locations (route_id, tenant_key, org_key, location)
       SELECT r.id, r.tenant_key, r.org_key, l.key FROM routes r
       JOIN ref_locations l ON l.tenant_key = r.tenant_key AND l.org_key = r.org_key AND l.company = r.company
       WHERE r.tenant_key = '${tenant}' AND r.org_key = '${org}'
         AND r.route_key IN (${Array.from({ length: ROUTES_WITH_MEMBERS }, (_, index) => `'R-${index + 1}'`).join(', ')})`,
    );
  return statements.join(';\n');
}

/** Exchange rates documents from..to of `tenant`/`org` (validFrom one day in 3,650, many ties), one EUR->USD line each. */
function buildDocumentsSql(tenant, org, from, to) {
  return [
    `${sequence(from, to)}
     INSERT INTO exchange_rates_documents (id, tenant_key, org_key, number, valid_from, exchange_rate_type, is_externally_managed,
       external_id, external_version, custom_attributes, is_active, version, created_on, created_by, modified_on, modified_by)
     SELECT ${randomId}, '${tenant}', '${org}', n, strftime('%Y-%m-%dT%H:%M:%fZ', '2016-01-01', '+' || (n % 3650) || ' days'),
       1 + n % 3, n % 4 = 0, CASE WHEN n % 4 = 0 THEN 'EXT-' || n END, CASE WHEN n % 4 = 0 THEN 'v' || (n % 10) END, '{}',
       n % 5 <> 0, 1 + n % 3, ${at('n')}, 'bench', ${at('(n * 7919) % 1000003')}, CASE n % 2 WHEN 0 THEN 'bench' ELSE 'admin' END
     FROM seq`,
    `INSERT INTO exchange_rate_lines (id, tenant_key, org_key, document_id, line_no, from_currency, to_currency, conversion_factor,
       custom_attributes, created_on, created_by, modified_on, modified_by)
     SELECT ${randomId}, tenant_key, org_key, id, 1, 'EUR', 'USD', '1.0834', '{}', created_on, created_by, created_on, created_by
     FROM exchange_rates_documents WHERE tenant_key = '${tenant}' AND org_key = '${org}' AND number BETWEEN ${from} AND ${to}`,
  ].join(';\n');
}

/** Loads routes and exchange rates documents from..to into tenant/org `tenant`/`org` of the API's database `binding`. */
async function loadListRows(api, binding, tenant, org, from, to) {
  const started = Date.now();
  await executeSql(api, binding, buildRoutesSql(tenant, org, from, to));
  await executeSql(api, binding, buildDocumentsSql(tenant, org, from, to));
  console.error(
    `  loaded routes and exchange rates documents ${from}..${to} of ${tenant}/${org} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
}

/**
 * Prepares `orgs` (already placed on one database `binding`): reference records through the API for all of them, then
 * the small size of each with SQL. The API's writes come first (under `wrangler dev`, an API write after a `wrangler d1
 * execute` into the same database, with no start of the worker in between, lost the worker's connection).
 */
export async function prepareListOrgs({ api, token, binding, tenant, orgs, small }) {
  for (const org of orgs) await createReferences(api, token, `/api/${tenant}/${org}`);
  for (const org of orgs) await loadListRows(api, binding, tenant, org, 1, small);
}

/** Grows tenant/org `org` from `from` to `to` rows of routes and exchange rates documents. */
export async function growListOrg({ api, binding, tenant, org, from, to }) {
  await loadListRows(api, binding, tenant, org, from, to);
}

/** The scenarios of one list on tenant/org `org`: [name, {order, served}, load]. */
function listScenarios(api, auth, tenant, org, list) {
  const base = `${api.url}/api/${tenant}/${org}${list.path}`;
  const page = (query) => ({ url: `${base}/odata?${query}`, headers: auth });
  const ordered = (order) => {
    const sorted = list.sorted.has(order) || list.sorted.has(order.replace(/ (asc|desc)$/, ''));
    const filter = sorted ? `$filter=${encodeURIComponent(`createdOn lt ${SORTED_BEFORE}`)}&` : '';
    return [
      `$orderby=${order}${sorted ? ' (no index: sorted), createdOn filter' : ''}, first page of 50`,
      { order, served: sorted ? 'sorted' : 'index' },
      page(`${filter}$orderby=${encodeURIComponent(order)}&$top=50`),
    ];
  };
  return [
    ['get by key', { served: 'key' }, { url: `${base}${list.key}`, headers: auth }],
    [
      `filtered page of 50 (${list.filter}, by createdOn)`,
      { filter: list.filter, served: 'index' },
      page(`$filter=${encodeURIComponent(list.filter)}&$orderby=createdOn&$top=50`),
    ],
    ...list.fields.flatMap((field) => [ordered(`${field} asc`), ordered(`${field} desc`)]),
    ...list.orders.map(ordered),
  ];
}

/**
 * Each list's scenarios, the `large` tenant/org against the `small` one (same database) in alternating rounds. Returns,
 * by list and scenario: the order, how it is served, req/s, p50 and p99 of both, the throughput loss and whether the
 * large one's first page answered under 1 s (p50 and p99). `restart` is called before each list.
 */
export async function measureListSections({ api, token, tenant, large, small, sizes, settings, record, restart }) {
  const auth = { authorization: `Bearer ${token}` };
  const sections = {};
  for (const [name, list] of Object.entries(LISTS)) {
    await restart();
    const big = listScenarios(api, auth, tenant, large, list);
    const little = listScenarios(api, auth, tenant, small, list);
    const section = {};
    for (const [index, [scenario, about, load]] of big.entries()) {
      if (index > 0 && index % SCENARIOS_PER_START === 0) await restart();
      const measured = await compareRounds(load, little[index][2], settings.rounds, settings.seconds);
      record(
        `${name}: ${scenario}, ${sizes.large.toLocaleString('en')}-row tenant/org vs a ${sizes.small.toLocaleString('en')}-row one, alternating`,
        measured.a,
        measured.b,
        `${sizes.small.toLocaleString('en')}-row tenant/org, same database`,
      );
      section[scenario] = {
        ...about,
        large: describe(measured.a),
        small: describe(measured.b),
        loss: measured.b.rps > 0 ? round(1 - measured.a.rps / measured.b.rps, 3) : null,
        // null: no request of the large tenant/org answered within the rounds (its latencies read 0, not measured).
        under_1s: measured.a.total > 0 ? { p50: measured.a.p50 < 1000, p99: measured.a.p99 < 1000 } : null,
      };
    }
    sections[name] = section;
  }
  return sections;
}

function describe(measured) {
  return { rps: round(measured.rps), p50_ms: measured.p50, p99_ms: measured.p99, answered: measured.total, failed: measured.failed };
}

function round(value, digits = 1) {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
