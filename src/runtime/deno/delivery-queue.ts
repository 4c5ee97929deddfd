/**
 * The Deno equivalent of the delivery queue (Cloudflare Queues): messages persisted in a SQLite table, so a restart
 * loses none; a timer hands due messages to the consumer, at most `concurrency` at a time. A message is invisible while
 * it runs (5 minutes at most: a crashed run's message comes back), deleted when acknowledged, and due again after the
 * delay its consumer asks for. Its id stays the same across retries, as on Cloudflare.
 */
import type { DatabaseSync } from 'node:sqlite';
import type { DeliveryJob, DeliveryMessage, DeliveryOutcome, DeliveryQueue } from '../platform';
import { readColumn } from './sqlite-engine';

const RUN_TIMEOUT_MS = 5 * 60_000;
const FAILED_RUN_DELAY_MS = 60_000;

type DeliveryConsumer = (job: DeliveryJob) => Promise<DeliveryOutcome>;

export class LocalDeliveryQueue implements DeliveryQueue {
  private consumer: DeliveryConsumer | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly sqlite: DatabaseSync,
    private readonly concurrency = 8,
  ) {
    sqlite.exec('CREATE TABLE IF NOT EXISTS delivery_queue (id TEXT PRIMARY KEY, body TEXT NOT NULL, visible_at INTEGER NOT NULL)');
  }

  async send(message: DeliveryMessage, options?: { readonly delaySeconds?: number }): Promise<void> {
    const visibleAt = Date.now() + (options?.delaySeconds ?? 0) * 1000;
    this.sqlite
      .prepare('INSERT INTO delivery_queue (id, body, visible_at) VALUES (?, ?, ?)')
      .all(crypto.randomUUID(), JSON.stringify(message), visibleAt);
    this.plan(0);
  }

  /** Starts handing messages (those persisted by an earlier run too) to `consumer`. */
  start(consumer: DeliveryConsumer): void {
    this.consumer = consumer;
    this.plan(0);
  }

  private plan(delayMs: number): void {
    if (this.closed || !this.consumer) return;
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.dispatch(), Math.max(0, delayMs));
  }

  private dispatch(): void {
    this.timer = undefined;
    const consumer = this.consumer;
    if (this.closed || !consumer) return;
    const now = Date.now();
    const free = this.concurrency - this.running.size;
    const due =
      free > 0
        ? this.sqlite.prepare('SELECT id, body FROM delivery_queue WHERE visible_at <= ? ORDER BY visible_at LIMIT ?').all(now, free)
        : [];
    for (const row of due) {
      const id = String(readColumn(row, 'id'));
      const body = JSON.parse(String(readColumn(row, 'body'))) as DeliveryMessage;
      this.sqlite.prepare('UPDATE delivery_queue SET visible_at = ? WHERE id = ?').all(now + RUN_TIMEOUT_MS, id);
      const run = this.run(consumer, { id, body });
      this.running.add(run);
      void run.finally(() => {
        this.running.delete(run);
        this.plan(0);
      });
    }
    const next = this.sqlite.prepare('SELECT min(visible_at) AS next FROM delivery_queue').all()[0];
    const at = Number(readColumn(next, 'next') ?? NaN);
    if (Number.isFinite(at) && this.running.size < this.concurrency) this.plan(at - Date.now());
  }

  private async run(consumer: DeliveryConsumer, job: DeliveryJob): Promise<void> {
    let delayMs: number;
    try {
      const outcome = await consumer(job);
      if ('ack' in outcome) {
        this.sqlite.prepare('DELETE FROM delivery_queue WHERE id = ?').all(job.id);
        return;
      }
      delayMs = outcome.retryAfterSeconds * 1000;
    } catch (error) {
      console.error(JSON.stringify({ level: 'error', message: 'delivery job failed', job: job.body, error: String(error) }));
      delayMs = FAILED_RUN_DELAY_MS;
    }
    if (!this.closed) this.sqlite.prepare('UPDATE delivery_queue SET visible_at = ? WHERE id = ?').all(Date.now() + delayMs, job.id);
  }

  /** Stops handing out messages and waits for the running ones (what is left stays persisted for the next start). */
  async close(): Promise<void> {
    this.closed = true;
    if (this.timer !== undefined) clearTimeout(this.timer);
    while (this.running.size > 0) await Promise.all([...this.running]);
  }
}
