// One load round with autocannon: requests/s, p50 and p99 latency, and the failed answers (status and body).
import autocannon from 'autocannon';

let restartedInRounds = 0;

/** 503 "worker restarted mid-request" answers the load rounds got (the dev proxy's, workers-sdk#14641). */
export function readRestartedInRounds() {
  return restartedInRounds;
}

/** Several loads at once (`group`): their throughputs add up; p50 is their mean, p99 their worst. */
async function runGroup(group, seconds) {
  const results = await Promise.all(group.map((load) => runRound({ ...load, seconds })));
  return {
    rps: results.reduce((sum, r) => sum + r.rps, 0),
    p50: results.reduce((sum, r) => sum + r.p50, 0) / results.length,
    p99: Math.max(...results.map((r) => r.p99)),
    total: results.reduce((sum, r) => sum + r.total, 0),
    failed: results.reduce((sum, r) => sum + r.failed, 0),
  };
}

export async function runRound({ group, url, method = 'GET', headers = {}, body, requests, connections = 8, seconds = 5 }) {
  if (group) return runGroup(group, seconds);
  const failures = new Map();
  const noteFailure = (status, responseBody) => {
    if (status < 300) return;
    if (status === 503 && /restarted mid-request/i.test(String(responseBody ?? ''))) restartedInRounds += 1;
    const key = `${status} ${String(responseBody ?? '').slice(0, 200)}`;
    failures.set(key, (failures.get(key) ?? 0) + 1);
  };
  const list = (requests ?? [{ method, ...(body !== undefined ? { body } : {}) }]).map((request) => ({
    ...request,
    onResponse: noteFailure,
  }));
  const result = await autocannon({ url, method, headers, requests: list, connections, duration: seconds });
  const failed = result.non2xx + result.errors + result.timeouts;
  // Nothing answered at all: the worker is gone; its figures would be noise.
  if (result.requests.total === 0 && result.errors > 0) {
    throw new Error(`${method} ${url}: no answer in ${seconds} s (${result.errors} connection errors): the worker stopped answering`);
  }
  if (failed > 0) {
    console.error(
      `    ${method} ${url}: ${failed} of ${result.requests.total} failed (errors ${result.errors}, timeouts ${result.timeouts}): ${JSON.stringify([...failures])}`,
    );
  }
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total, failed };
}

/**
 * Alternating rounds A, B, A, B...: the median of each side, so drift on a shared machine hits both alike.
 * A one-second warm-up of each side comes first and is not counted (isolates, statement caches).
 */
export async function compareRounds(a, b, rounds, seconds) {
  await runRound({ ...a, seconds: 1 });
  if (b) await runRound({ ...b, seconds: 1 });
  const results = { a: [], b: [] };
  for (let round = 0; round < rounds; round += 1) {
    results.a.push(await runRound({ ...a, seconds }));
    if (b) results.b.push(await runRound({ ...b, seconds }));
  }
  return { a: summarize(results.a), b: b ? summarize(results.b) : undefined };
}

function median(values) {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function summarize(list) {
  return {
    rps: median(list.map((r) => r.rps)),
    p50: median(list.map((r) => r.p50)),
    p99: median(list.map((r) => r.p99)),
    total: list.reduce((sum, r) => sum + r.total, 0),
    failed: list.reduce((sum, r) => sum + r.failed, 0),
  };
}
