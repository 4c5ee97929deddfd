/**
 * What feeds live streams: every write batch of a tenant/org ends with a read of its newest event's sequence number (a
 * write watcher: same transaction, no extra round trip), and once the batch has committed the tenant/org's live hub
 * is told the feed reached it, off the answer's path (`waitUntil` to its Durable Object; the object's own commands
 * tell it directly), unless the hub said a moment ago that no stream is open. Requests, `$batch` groups (one batch, notified only once it commits), coordinator commands,
 * import steps and cron jobs alike; a refused or rolled-back batch commits nothing and notifies nothing. The hub reads
 * the events from D1 itself, so a stream shows exactly what the change feed holds.
 */
import { and, eq, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import { changeEvents } from '../../events/table';
import { compileStatement } from '../../tenant/compiled';
import { defineCompiledQuery } from '../../tenant/compiled-families';
import type { WriteWatcherFactory } from '../../runtime/platform';
import { LIVE_LIMITS } from '../../live/limits';

const newest = sql<number | null>`max(${changeEvents.seq})`.as('seq');

/** The tenant/org's newest sequence number, with placeholders (compiled once per isolate). */
const readNewestQuery = defineCompiledQuery('newest event (live write watcher)', () =>
  compileStatement(
    new QueryBuilder()
      .select({ seq: newest })
      .from(changeEvents)
      .where(and(eq(changeEvents.tenantKey, sql.placeholder('tenantKey')), eq(changeEvents.orgKey, sql.placeholder('orgKey')))),
    { seq: newest },
  ),
);

/** The newest sequence number this isolate has told each tenant/org's hub of: a write that added no event tells nothing. */
const told = new Map<string, number>();
/**
 * Until when a tenant/org is known to have no open stream (its hub said so): its writes tell nothing meanwhile. A hub
 * whose first stream opens reads the feed every LIVE_LIMITS.firstListenerPollMs for that long instead (src/live/hub.ts).
 */
const quietUntil = new Map<string, number>();
const MAX_REMEMBERED = 10_000;

function remember<T>(map: Map<string, T>, name: string, value: T): void {
  if (map.size >= MAX_REMEMBERED) map.clear();
  map.set(name, value);
}

/** The write watcher of live streams. */
export const watchLiveChanges: WriteWatcherFactory = (scope, context) => ({
  sql: readNewestQuery().sql,
  params: readNewestQuery().fill({ tenantKey: scope.tenantKey, orgKey: scope.orgKey }),
  onCommit(rows) {
    const seq = Number(rows[0]?.seq ?? 0);
    const name = `${scope.tenantKey}/${scope.orgKey}`;
    const now = Date.now();
    if (!(seq > (told.get(name) ?? 0)) || (quietUntil.get(name) ?? 0) > now) return;
    remember(told, name, seq);
    context.waitUntil(
      context.live.notify(scope, seq).then(
        (listening) => (listening ? quietUntil.delete(name) : remember(quietUntil, name, now + LIVE_LIMITS.quietMs)),
        (error: unknown) =>
          console.error(JSON.stringify({ level: 'error', message: 'live notification failed', ...scope, seq, error: String(error) })),
      ),
    );
  },
});
