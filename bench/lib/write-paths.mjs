// Write-path scenarios (issue 16): an entity create beside the raw Worker's one INSERT, and KPI ingestion in
// batches of 5000 measurements (rows/s through the API, and the raw Worker's one json_each INSERT of the same rows).
import { compareRounds } from './load.mjs';
import { send } from './fixtures.mjs';

export const INGEST_BATCH = 5000;
export const INGEST_COMPANY = 'INGEST-CO';
export const INGEST_CODES = ['I-MTBF', 'I-MTTR', 'I-AVAIL', 'I-COST'];

let counter = 0;

/** A fresh email template key (the create scenarios never collide, across runs either). */
function nextKey(prefix) {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

export function templateBody(templateKey) {
  return { templateKey, subject: 'S', emailTemplateType: 1, notificationBody: 'B', culture: 'en-US' };
}

/** Email template creates with fresh keys at `base` (`.../api/{tenant}/{org}`). */
export function createLoad(base, headers) {
  return {
    url: `${base}/operations/emailTemplates`,
    method: 'POST',
    headers,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: JSON.stringify(templateBody(nextKey('new'))) }) }],
  };
}

/**
 * The raw Worker's create: one INSERT of the same row (its own id, audit fields and JSON body parse); `withEvent`: and
 * its outbox row in the same batch (the API writes one with every create).
 */
export function rawCreateLoad(raw, tenant, org, { withEvent = false } = {}) {
  return {
    url: `${raw.url}/d1/${withEvent ? 'create-with-event' : 'create'}?tenant=${tenant}&org=${org}`,
    method: 'POST',
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: JSON.stringify(templateBody(nextKey('raw'))) }) }],
  };
}

/**
 * Create (email template) against the raw Worker's single INSERT (the baseline), and against the INSERT with
 * its outbox row in one batch (the same durable writes as the API's create).
 */
export async function measureCreate({ raw, base, auth, tenant, org, rounds, seconds }) {
  const h = await compareRounds(createLoad(base, auth), rawCreateLoad(raw, tenant, org), rounds, seconds);
  const e = await compareRounds(createLoad(base, auth), rawCreateLoad(raw, tenant, org, { withEvent: true }), rounds, seconds);
  return { api: h.a, raw: h.b, apiAgain: e.a, rawWithEvent: e.b };
}

/** Batch `index` of the ingestion scenario: 5000 measurements over four KPIs, values with up to 2 decimals. */
export function buildIngestBatch(index) {
  const start = Date.UTC(2024, 0, 1);
  const batch = [];
  for (let n = 0; n < INGEST_BATCH; n += 1) {
    const row = index * INGEST_BATCH + n;
    const date = new Date(start + ((row * 7919) % 1_000_000) * 60_000).toISOString();
    batch.push({ company: INGEST_COMPANY, code: INGEST_CODES[row % INGEST_CODES.length], date, value: 50 + ((row * 31) % 1000) / 4 });
  }
  return batch;
}

async function timeBatches(count, post) {
  const bodies = Array.from({ length: count }, (_, index) => JSON.stringify(buildIngestBatch(index)));
  const started = performance.now();
  for (const body of bodies) await post(body);
  const seconds = (performance.now() - started) / 1000;
  return { batches: count, rows: count * INGEST_BATCH, seconds, rowsPerSecond: (count * INGEST_BATCH) / seconds };
}

async function postOk(url, headers, body) {
  const response = await fetch(url, { method: 'POST', headers, body });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`POST ${url}: ${response.status} ${text.slice(0, 300)}`);
}

/** KPI ingestion, `count` batches of 5000 one after another (after one warm-up batch): rows/s, API and raw. */
export async function measureIngestion({ api, raw, token, tenant, org, count }) {
  await send(api, token, 'PUT', '/referenceData/companies', [{ key: INGEST_COMPANY, name: 'Ingestion company', baseCurrency: 'EUR' }]);
  await send(
    api,
    token,
    'PUT',
    '/referenceData/kpiDefinitions',
    INGEST_CODES.map((key) => ({ key, name: key, valueType: 'Number', valueFractionDigits: 2, aggregation: 'avg', higherIsBetter: true })),
  );
  const url = `${api.url}/api/${tenant}/${org}/maintenance/indicators/measurements`;
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const rawUrl = `${raw.url}/d1/measurements?tenant=${tenant}&org=${org}`;
  await postOk(url, headers, JSON.stringify(buildIngestBatch(count)));
  await postOk(rawUrl, {}, JSON.stringify(buildIngestBatch(count)));
  const measured = await timeBatches(count, (body) => postOk(url, headers, body));
  const baseline = await timeBatches(count, (body) => postOk(rawUrl, {}, body));
  return { api: measured, raw: baseline };
}
