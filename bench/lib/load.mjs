// One load round with autocannon: requests/s, p50 and p99 latency; any non-2xx answer fails the run.
import autocannon from 'autocannon';

export async function runRound({ url, method = 'GET', headers = {}, body, requests, connections = 8, seconds = 5 }) {
  const result = await autocannon({
    url,
    method,
    headers,
    ...(body !== undefined ? { body } : {}),
    ...(requests ? { requests } : {}),
    connections,
    duration: seconds,
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`${method} ${url}: ${failed} failed requests of ${result.requests.total}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, total: result.requests.total };
}

/** Alternating rounds A, B, A, B...: the median of each side, so drift on a shared machine hits both alike. */
export async function compareRounds(a, b, rounds, seconds) {
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
  return { rps: median(list.map((r) => r.rps)), p50: median(list.map((r) => r.p50)), p99: median(list.map((r) => r.p99)) };
}
