/** Rate limit tests without waiting: a run is repeated (the caller uses fresh keys each run) until it fits one window. */

/** The 60 s window a request is counted in: windows are aligned to the epoch (local binding and Deno counters alike). */
export function currentWindow(periodSeconds = 60): number {
  return Math.floor(Date.now() / (periodSeconds * 1000));
}

/**
 * Runs `attempt` until a run starts and ends within one window: a run that straddles two windows is counted in both
 * and proves nothing, and the next run starts early in the new window. No waiting: only a rerun.
 */
export async function runInOneWindow<T>(attempt: () => Promise<T>, periodSeconds = 60): Promise<T> {
  for (let run = 0; run < 3; run += 1) {
    const window = currentWindow(periodSeconds);
    const outcome = await attempt();
    if (currentWindow(periodSeconds) === window) return outcome;
  }
  throw new Error('Three runs in a row straddled a rate limit window.');
}
