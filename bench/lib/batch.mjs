// $batch (issue 28): 100 email template creates sent as one $batch (no group; one atomic group when the API runs
// them) against 100 single creates, over the same number of connections: records per second on each side.
import { compareRounds } from './load.mjs';
import { templateBody } from './write-paths.mjs';

export const BATCH_SIZE = 100;

let counter = 0;

function nextKey(prefix) {
  counter += 1;
  return `${prefix}-${process.pid}-${counter}`;
}

/** One $batch body of `BATCH_SIZE` creates with fresh keys, all in `group` when given. */
function batchBody(group) {
  const requests = Array.from({ length: BATCH_SIZE }, (_, index) => ({
    id: String(index + 1),
    method: 'POST',
    url: 'operations/emailTemplates',
    body: templateBody(nextKey('batch')),
    ...(group ? { atomicityGroup: group } : {}),
  }));
  return JSON.stringify({ requests });
}

function batchLoad(base, auth, group) {
  return {
    url: `${base}/$batch`,
    method: 'POST',
    headers: auth,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: batchBody(group) }) }],
  };
}

function singleLoad(base, auth) {
  return {
    url: `${base}/operations/emailTemplates`,
    method: 'POST',
    headers: auth,
    requests: [{ method: 'POST', setupRequest: (request) => ({ ...request, body: JSON.stringify(templateBody(nextKey('single'))) }) }],
  };
}

/** Every inner answer of one batch is a 201: the figures count records, so a batch that creates nothing must not count. */
async function checkBatch(base, auth, group) {
  const response = await fetch(`${base}/$batch`, { method: 'POST', headers: auth, body: batchBody(group) });
  const text = await response.text();
  if (response.status !== 200) return { ok: false, reason: `${response.status} ${text.slice(0, 200)}` };
  const statuses = JSON.parse(text).responses.map((entry) => entry.status);
  const created = statuses.filter((status) => status === 201).length;
  return created === BATCH_SIZE ? { ok: true } : { ok: false, reason: `${created} of ${BATCH_SIZE} created` };
}

/**
 * 100 creates per $batch vs single creates, same connections (autocannon's 8): records/s of each, the ratio, and the
 * time one batch of 100 takes (p50, p99). The atomic-group variant runs only where the API accepts groups.
 */
export async function measureBatch({ base, auth, rounds, seconds }) {
  const results = [];
  for (const group of [undefined, 'g1']) {
    const name = group ? `${BATCH_SIZE} creates in one $batch, one atomic group` : `${BATCH_SIZE} creates in one $batch, no group`;
    const probe = await checkBatch(base, auth, group);
    if (!probe.ok) {
      results.push({ name, skipped: probe.reason });
      continue;
    }
    const h = await compareRounds(batchLoad(base, auth, group), singleLoad(base, auth), rounds, seconds);
    results.push({
      name,
      batch: h.a,
      single: h.b,
      records_per_s: h.a.rps * BATCH_SIZE,
      single_records_per_s: h.b.rps,
      ratio: (h.a.rps * BATCH_SIZE) / h.b.rps,
    });
  }
  return results;
}
