/** Runs tasks one at a time, in arrival order; a failing task does not stop the ones after it. */
export class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  private pending = 0;

  run<T>(task: () => Promise<T>): Promise<T> {
    this.pending += 1;
    const result = this.tail.then(task, task);
    this.tail = result.then(
      () => undefined,
      () => undefined,
    );
    return result.finally(() => {
      this.pending -= 1;
    });
  }

  private readonly waiting = new Map<string, Promise<unknown>>();

  /**
   * Like `run`, but a call with the same `key` while an earlier one is queued and not yet started joins it
   * (same result, no second run). Once a task starts, later calls queue a new run: they may carry newer data.
   */
  runJoined<T>(key: string, task: () => Promise<T>): Promise<T> {
    const waiting = this.waiting.get(key);
    // A join key names one kind of task (callers never reuse a key for another result type), so its promise is a T.
    if (waiting) return waiting as Promise<T>;
    const result = this.run(() => {
      this.waiting.delete(key);
      return task();
    });
    this.waiting.set(key, result);
    return result;
  }

  /** Tasks queued or running. */
  get size(): number {
    return this.pending;
  }
}

/**
 * Waits until one of `settled`'s releases is called (true) or `timeoutMs` passes (false): writes held by a move or a
 * restore wait here for its end.
 */
export function waitForRelease(settled: Set<() => void>, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const release = () => {
      clearTimeout(timer);
      settled.delete(release);
      resolve(true);
    };
    const timer = setTimeout(() => {
      settled.delete(release);
      resolve(false);
    }, timeoutMs);
    settled.add(release);
  });
}
