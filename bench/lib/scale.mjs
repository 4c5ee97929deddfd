// The scale suite (npm run bench -- --scale): list scenarios on a tenant/org of 10,000 rows, then of 1,000,000, beside
// another tenant/org of as many rows in the same tenant database; each against the raw worker running the same SQL.
// At 1,000,000 rows each scenario also runs on a third tenant/org of the same database that keeps 10,000 rows, in
// alternating rounds with the big one: the loss by tenant/org size alone, measured at the same moments.
// Rows are loaded with one INSERT ... SELECT per tenant/org and size (wrangler d1 execute), not through the API.
import { compareRounds, runRound } from './load.mjs';
import { executeSql } from './servers.mjs';
import { send, sendAdmin } from './fixtures.mjs';
import { growListOrg, measureListSections, prepareListOrgs } from './scale-lists.mjs';

const TENANT = 'scale';
const MAIN = 'main';
const OTHER = 'other';
/** The tenant/org that keeps the small size while MAIN and OTHER grow (same tenant database). */
const SMALL = 'small';
/** Rows whose subject holds the rare term (at every size): `contains` with few matches. */
const NEEDLES = 5;

/** Email template rows n = from..to of tenant/org `org`: ids random, created one second apart, a culture in four. */
async function loadRows(worker, binding, org, from, to) {
  await executeSql(
    worker,
    binding,
    `WITH RECURSIVE seq(n) AS (SELECT ${from} UNION ALL SELECT n + 1 FROM seq WHERE n < ${to})
     INSERT INTO email_templates (id, tenant_key, org_key, template_key, subject, email_template_type, notification_body, culture,
       description, custom_attributes, is_active, version, created_on, created_by, modified_on, modified_by)
     SELECT lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-a' ||
       substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))), '${TENANT}', '${org}', 'tpl-' || n,
       'Subject ' || n || CASE WHEN n <= ${NEEDLES} THEN ' needle' ELSE '' END, 1 + n % 2,
       '<p>Body ' || n || '</p>', CASE n % 4 WHEN 0 THEN 'pt-PT' WHEN 1 THEN 'en-US' WHEN 2 THEN 'de-DE' ELSE 'fr-FR' END,
       'Bench row', '{}', n % 5 <> 0, 1, strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || n || ' seconds'), 'bench',
       strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || ((n * 7919) % 1000003) || ' seconds'), 'bench'
     FROM seq`,
  );
}

/**
 * A GET's JSON answer; a dropped connection or a 503 of `wrangler dev`'s proxy (workers-sdk#14641) is tried again
 * (reads only, so a retry changes nothing).
 */
async function fetchJson(url, headers) {
  for (let attempt = 1; ; attempt += 1) {
    try {
      const response = await fetch(url, { headers });
      if (response.status !== 503 || attempt >= 3) return { status: response.status, body: await response.json() };
      await response.arrayBuffer();
    } catch (error) {
      if (attempt >= 3) throw error;
    }
  }
}

/** Follows nextPageLink from `first` until page `page`; returns that page's URL and the previous page's last item. */
async function walkToPage(first, headers, page) {
  let url = first;
  let last;
  for (let index = 1; index < page; index += 1) {
    const { status, body } = await fetchJson(url, headers);
    if (!body.nextPageLink) throw new Error(`no page ${index + 1} (${status})`);
    last = body.items.at(-1);
    url = body.nextPageLink;
  }
  return { url, last };
}

/** Every short scalar of email templates: each read from its index (the last four since issue 26). */
const SORTABLE = [
  'templateKey',
  'createdOn',
  'culture',
  'emailTemplateType',
  'modifiedOn',
  'isActive',
  'subject',
  'description',
  'createdBy',
  'modifiedBy',
  'version',
];
/** Rows created before this instant: 86,399 of a 1,000,000-row tenant/org (one a second from 2026-01-01), under the sort budget. */
const SORTED_BEFORE = '2026-01-02T00:00:00Z';

/** The list scenarios of tenant/org `org` at its current size: [name, API load, raw load]. */
async function listScenarios(api, raw, auth, org = MAIN) {
  const base = `${api.url}/api/${TENANT}/${org}/operations/emailTemplates`;
  const scope = `tenant=${TENANT}&org=${org}`;
  const odata = (query) => ({ url: `${base}/odata?${query}`, headers: auth });
  const page1000 = await walkToPage(`${base}/odata?$top=10`, auth, 1000);
  const scenarios = [
    ['get by key', { url: `${base}/tpl-5`, headers: auth }, { url: `${raw.url}/d1/point?${scope}&key=tpl-5` }],
    [
      'filtered page of 50 (culture eq, by createdOn)',
      odata(`$filter=${encodeURIComponent("culture eq 'pt-PT'")}&$orderby=createdOn&$top=50`),
      { url: `${raw.url}/d1/page?${scope}&culture=pt-PT` },
    ],
    [
      'page 1,000 of 10 via nextPageLink',
      { url: page1000.url, headers: auth },
      {
        url: `${raw.url}/scale/after?${scope}&top=10&createdOn=${encodeURIComponent(page1000.last.createdOn)}&id=${page1000.last.id}`,
      },
    ],
    ['$count (unfiltered)', odata('$count=true&$top=0'), { url: `${raw.url}/scale/count?${scope}` }],
    [
      `contains, rare term (${NEEDLES} rows per tenant/org)`,
      odata(`$filter=${encodeURIComponent("contains(subject,'needle')")}&$top=50`),
      { url: `${raw.url}/scale/contains?${scope}&term=needle` },
    ],
    [
      'contains, common term (every row)',
      odata(`$filter=${encodeURIComponent("contains(subject,'Subject')")}&$top=50`),
      { url: `${raw.url}/scale/contains?${scope}&term=Subject` },
    ],
    ...SORTABLE.map((field) => [
      `$orderby=${field}, page of 50`,
      odata(`$orderby=${field}&$top=50`),
      { url: `${raw.url}/scale/order?${scope}&column=${field}` },
    ]),
    [
      '$orderby=notificationBody desc (no index: sorted), createdOn filter selecting up to 86,399 rows, page of 50',
      odata(
        `$filter=${encodeURIComponent(`createdOn lt ${SORTED_BEFORE}`)}&$orderby=${encodeURIComponent('notificationBody desc')}&$top=50`,
      ),
      { url: `${raw.url}/scale/sorted?${scope}&column=notificationBody&before=${encodeURIComponent(SORTED_BEFORE)}` },
    ],
  ];
  return { scenarios, offsetPage: odata('$top=10&$skip=9990') };
}

/**
 * `--scale-lists`: only the per-list first pages (bench/lib/scale-lists.mjs), the email template growth phases skipped
 * (their figures stay those of the last full run). The email templates are loaded into the API's database only.
 */
async function measureListsOnly({ api, token, record, settings, home }) {
  const started = Date.now();
  // The API's writes (the reference records) before any SQL load: see prepareListOrgs.
  await prepareListOrgs({ api, token, binding: home, tenant: TENANT, orgs: [SMALL, MAIN], small: settings.small });
  await loadRows(api, home, SMALL, 1, settings.small);
  await loadRows(api, home, MAIN, 1, settings.large);
  await growListOrg({ api, binding: home, tenant: TENANT, org: MAIN, from: settings.small + 1, to: settings.large });
  console.error(`  email templates, routes and exchange rates documents ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  await api.restart();
  return measureLists({ api, token, record, settings, restart: () => api.restart() });
}

/** Every list's first pages on `scale/main` against `scale/small`, alternating (bench/lib/scale-lists.mjs). */
function measureLists({ api, token, record, settings, restart }) {
  const sizes = { small: settings.small, large: settings.large };
  const rounds = { rounds: settings.rounds, seconds: settings.seconds };
  return measureListSections({ api, token, tenant: TENANT, large: MAIN, small: SMALL, sizes, settings: rounds, record, restart });
}

/**
 * Runs the suite on running `api` and `raw` workers (fresh state); `record(name, measured, baseline, baselineName)`
 * keeps each figure. Returns the growth of every email template scenario from the small to the large size and, by list
 * (routes, exchange rates documents, email templates), every order's first page at the large size against the small
 * one in alternating rounds (bench/lib/scale-lists.mjs).
 */
export async function runScaleSuite({ api, raw, token, record, settings }) {
  const auth = { authorization: `Bearer ${token}` };
  const body = (templateKey) => ({ templateKey, subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' });
  // The three tenant/orgs on one tenant database: the first write places each, the operator API moves the others beside it.
  await send(api, token, 'POST', '/operations/emailTemplates', body('placed'), `/api/${TENANT}/${MAIN}`);
  await send(api, token, 'POST', '/operations/emailTemplates', body('placed'), `/api/${TENANT}/${OTHER}`);
  await send(api, token, 'POST', '/operations/emailTemplates', body('placed'), `/api/${TENANT}/${SMALL}`);
  const home = (await sendAdmin(api, 'GET', `/admin/placements/${TENANT}/${MAIN}`)).database;
  for (const org of [OTHER, SMALL]) await sendAdmin(api, 'POST', `/admin/placements/${TENANT}/${org}/move`, { database: home });
  if (settings.listsOnly) return { growth: null, lists: await measureListsOnly({ api, token, record, settings, home }) };
  await loadRows(api, home, SMALL, 1, settings.small);
  await loadRows(raw, 'DB', SMALL, 1, settings.small);
  const load = async (from, to) => {
    const started = Date.now();
    for (const org of [MAIN, OTHER]) {
      await loadRows(api, home, org, from, to);
      await loadRows(raw, 'DB', org, from, to);
    }
    console.error(`  loaded rows ${from}..${to} of 2 tenant/orgs into both workers in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  };
  const opts = [settings.rounds, settings.seconds];
  const sizes = {};
  let from = 1;
  // Each phase on freshly started workers (same state): `wrangler dev` gives out after a few hundred thousand requests.
  const restart = async () => {
    await api.restart();
    await raw.restart();
  };
  for (const size of [settings.small, settings.large]) {
    await load(from, size);
    if (from > 1) await restart();
    from = size + 1;
    const { scenarios, offsetPage } = await listScenarios(api, raw, auth);
    sizes[size] = {};
    for (const [name, apiLoad, rawLoad] of scenarios) {
      const measured = await compareRounds(apiLoad, rawLoad, ...opts);
      record(`${name} (${size.toLocaleString('en')} rows)`, measured.a, measured.b, 'raw worker, same SQL');
      sizes[size][name] = { api: measured.a.rps, raw: measured.b.rps };
    }
    const offset = await runRound({ ...offsetPage, seconds: settings.seconds });
    record(`page 1,000 of 10 by $skip=9990, for comparison (${size.toLocaleString('en')} rows)`, offset);
  }
  // The same scenarios on the tenant/org that kept the small size, alternating with the big one's (same database).
  const alternating = {};
  await restart();
  const small = (await listScenarios(api, raw, auth, SMALL)).scenarios;
  const large = (await listScenarios(api, raw, auth, MAIN)).scenarios;
  for (const [index, [name, smallLoad]] of small.entries()) {
    const measured = await compareRounds(large[index][1], smallLoad, ...opts);
    record(
      `${name}, ${settings.large.toLocaleString('en')}-row tenant/org vs a ${settings.small.toLocaleString('en')}-row one, alternating`,
      measured.a,
      measured.b,
      `${settings.small.toLocaleString('en')}-row tenant/org, same database`,
    );
    alternating[name] = 1 - measured.a.rps / measured.b.rps;
  }
  // Routes and exchange rates documents, loaded now so the email template figures above keep their conditions.
  const started = Date.now();
  await prepareListOrgs({ api, token, binding: home, tenant: TENANT, orgs: [SMALL, MAIN], small: settings.small });
  await growListOrg({ api, binding: home, tenant: TENANT, org: MAIN, from: settings.small + 1, to: settings.large });
  console.error(`  routes and exchange rates documents ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  const lists = await measureLists({ api, token, record, settings, restart });
  const growth = {};
  for (const name of Object.keys(sizes[settings.small])) {
    const [before, after] = [sizes[settings.small][name], sizes[settings.large][name]];
    growth[name] = {
      api_loss: 1 - after.api / before.api,
      raw_loss: 1 - after.raw / before.raw,
      api_loss_alternating: alternating[name],
    };
  }
  return { growth, lists };
}
