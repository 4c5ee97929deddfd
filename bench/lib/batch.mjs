// $batch (issue 28): 100 email template creates sent as one $batch (no group; one atomic group when the API runs
// them) against 100 single creates, over the same number of connections: records per second on each side.
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

/** Creates records for `seconds` over `connections` request loops; answers records/s and the request latencies. */
async function runLoops({ connections, seconds, send }) {
  const latencies = [];
  let records = 0;
  let failed = 0;
  // What the failed ones answered, by status (`batch <status>`: the whole batch; `<status>`: an inner request).
  const statuses = {};
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      const outcome = await send();
      latencies.push(performance.now() - sent);
      records += outcome.created;
      failed += outcome.failed;
      for (const [status, count] of Object.entries(outcome.statuses ?? {})) statuses[status] = (statuses[status] ?? 0) + count;
    }
  };
  await Promise.all(Array.from({ length: connections }, loop));
  // Every request sent before the deadline is waited for and counted: nothing is left running into the next round.
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (share) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * share))] ?? 0);
  return { recordsPerSecond: records / elapsed, requests: latencies.length, p50: at(0.5), p99: at(0.99), failed, statuses };
}

async function sendBatch(base, auth, group) {
  const response = await fetch(`${base}/$batch`, { method: 'POST', headers: auth, body: batchBody(group) });
  const text = await response.text();
  // A whole batch refused: its status and the start of its answer (a proxy's 503 "restarted" says so; ours is problem+json).
  if (response.status !== 200)
    return { created: 0, failed: BATCH_SIZE, statuses: { [`batch ${response.status} ${text.slice(0, 80)}`]: BATCH_SIZE } };
  const answers = JSON.parse(text).responses;
  const created = answers.filter((entry) => entry.status === 201).length;
  return { created, failed: BATCH_SIZE - created, statuses: tallyFailures(answers.map((entry) => entry.status)) };
}

async function sendSingle(base, auth) {
  const response = await fetch(`${base}/operations/emailTemplates`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify(templateBody(nextKey('single'))),
  });
  await response.arrayBuffer();
  return response.status === 201 ? { created: 1, failed: 0 } : { created: 0, failed: 1, statuses: { [String(response.status)]: 1 } };
}

/** How many answers of each status other than 201. */
function tallyFailures(statuses) {
  const tally = {};
  for (const status of statuses) if (status !== 201) tally[String(status)] = (tally[String(status)] ?? 0) + 1;
  return tally;
}

function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Alternating rounds of batches and single creates (after a warm-up of each); the median of each side. */
async function compareLoops(base, auth, group, { rounds, seconds, connections }) {
  const batch = () => runLoops({ connections, seconds, send: () => sendBatch(base, auth, group) });
  const single = () => runLoops({ connections, seconds, send: () => sendSingle(base, auth) });
  await runLoops({ connections, seconds: 1, send: () => sendBatch(base, auth, group) });
  await runLoops({ connections, seconds: 1, send: () => sendSingle(base, auth) });
  const results = { batch: [], single: [] };
  for (let round = 0; round < rounds; round += 1) {
    results.batch.push(await batch());
    results.single.push(await single());
  }
  const summarize = (list) => ({
    recordsPerSecond: median(list.map((r) => r.recordsPerSecond)),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    failed: list.reduce((sum, r) => sum + r.failed, 0),
    failed_statuses: list.reduce((all, r) => {
      for (const [status, count] of Object.entries(r.statuses)) all[status] = (all[status] ?? 0) + count;
      return all;
    }, {}),
  });
  return { batch: summarize(results.batch), single: summarize(results.single) };
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
 * 100 creates per $batch vs single creates over the same number of connections (8, as the other scenarios): each
 * connection a loop of requests for `seconds`, every request waited for, so records/s count only what was created.
 * Also the time one batch of 100 takes (p50, p99). The atomic-group variant runs only where the API accepts groups.
 */
export async function measureBatch({ base, auth, rounds, seconds, connections = 8 }) {
  const results = [];
  for (const group of [undefined, 'g1']) {
    const name = group ? `${BATCH_SIZE} creates in one $batch, one atomic group` : `${BATCH_SIZE} creates in one $batch, no group`;
    const probe = await checkBatch(base, auth, group);
    if (!probe.ok) {
      results.push({ name, skipped: probe.reason });
      continue;
    }
    const h = await compareLoops(base, auth, group, { rounds, seconds, connections });
    results.push({
      name,
      batch: h.batch,
      single: h.single,
      records_per_s: h.batch.recordsPerSecond,
      single_records_per_s: h.single.recordsPerSecond,
      ratio: h.batch.recordsPerSecond / h.single.recordsPerSecond,
    });
  }
  return results;
}
