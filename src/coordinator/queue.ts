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

  /** Tasks queued or running. */
  get size(): number {
    return this.pending;
  }
}
