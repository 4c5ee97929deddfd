// What the bench watches while a background job runs: how slowly other requests are answered (each probe is sent again
// only after its answer, never retried, so a held request shows as its own wait), the runtime's resident memory, and
// every 503 answer of the run ("Your worker restarted mid-request" is the dev proxy's, workers-sdk#14641: counted, not
// retried away).
import { readFileSync } from 'node:fs';
import { clearInterval, setInterval } from 'node:timers';

const answers = { total: 0, status503: 0, restarted: 0 };
let installed = false;

/** Counts every answer this process's fetch gets, and the 503s among them (those saying "worker restarted" apart). */
export function countAnswers() {
  if (installed) return;
  installed = true;
  const original = globalThis.fetch;
  globalThis.fetch = async (...args) => {
    const response = await original(...args);
    answers.total += 1;
    if (response.status === 503) {
      answers.status503 += 1;
      const text = await response
        .clone()
        .text()
        .catch(() => '');
      if (/restarted mid-request/i.test(text)) answers.restarted += 1;
    }
    return response;
  };
}

/** The answers counted so far: `{ total, status503, restarted }`. */
export function readAnswerCounts() {
  return { ...answers };
}

/** Resident memory of a process in MiB (VmRSS of /proc/<pid>/status), or undefined once it is gone. */
function readRssMib(pid) {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** Samples a process's resident memory every `everyMs` until `stop()`, which answers `{ peak_mib, mean_mib, last_mib }`. */
export function sampleMemory(pid, everyMs = 1_000) {
  const samples = [];
  const take = () => {
    const mib = pid ? readRssMib(pid) : undefined;
    if (mib !== undefined) samples.push(mib);
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    stop() {
      clearInterval(timer);
      take();
      if (samples.length === 0) return { peak_mib: null, mean_mib: null, last_mib: null, samples: 0 };
      const round = (value) => Math.round(value);
      return {
        peak_mib: round(Math.max(...samples)),
        mean_mib: round(samples.reduce((sum, value) => sum + value, 0) / samples.length),
        last_mib: round(samples.at(-1)),
        samples: samples.length,
      };
    },
  };
}

/** Latencies of a probe's answers: count, the slowest, the median, and how many took over a second. */
function summarize(latencies) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q) => (sorted.length === 0 ? null : Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]));
  return { count: sorted.length, max_ms: at(1), p50_ms: at(0.5), over_1s: sorted.filter((ms) => ms > 1_000).length };
}

/**
 * Sends each target's request again and again (one at a time, `everyMs` apart from its last start) until `stop()`, and
 * answers each target's latencies. A request without an answer within `timeoutMs` counts as that long, and failed.
 */
export function probeRequests(targets, { everyMs = 250, timeoutMs = 60_000 } = {}) {
  let running = true;
  const results = Object.fromEntries(targets.map((target) => [target.name, { latencies: [], failed: 0 }]));
  const loops = targets.map(async (target) => {
    while (running) {
      const started = performance.now();
      try {
        const response = await fetch(target.url, { headers: target.headers ?? {}, signal: globalThis.AbortSignal.timeout(timeoutMs) });
        await response.arrayBuffer();
        if (response.status >= 300) results[target.name].failed += 1;
      } catch {
        results[target.name].failed += 1;
      }
      const elapsed = performance.now() - started;
      results[target.name].latencies.push(elapsed);
      if (running) await new Promise((resolve) => setTimeout(resolve, Math.max(0, everyMs - elapsed)));
    }
  });
  return {
    async stop() {
      running = false;
      await Promise.all(loops);
      return Object.fromEntries(
        Object.entries(results).map(([name, { latencies, failed }]) => [name, { ...summarize(latencies), failed }]),
      );
    },
  };
}

/**
 * Runs `job` (an async function) while the probes and the memory sampler run; answers `{ result, slowest, memory }`:
 * `slowest` per probe target (its summary), `memory` of the process `pid`.
 */
export async function watchJob(job, { targets, pid }) {
  const probes = probeRequests(targets);
  const memory = sampleMemory(pid);
  try {
    const result = await job();
    return { result, slowest: await probes.stop(), memory: memory.stop() };
  } catch (error) {
    await probes.stop();
    memory.stop();
    throw error;
  }
}
