/** Write watchers: what services learn from every write batch of a tenant database, at no extra round trip. */

/**
 * A read that rides at the end of every write batch a tenant database runs (same transaction, no extra round trip),
 * and what to do with its rows once that batch has committed. How a service reacts to writes wherever they run
 * (request, coordinator command, cron job): the events service kicks webhook deliveries this way.
 */
export interface WriteWatcher {
  readonly sql: string;
  readonly params: readonly unknown[];
  /** Called after the batch committed, with the read's rows; must not throw (log instead). */
  onCommit(rows: readonly Record<string, unknown>[]): void;
}
