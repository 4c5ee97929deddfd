/**
 * What feeds live streams: every write batch of a tenant/org ends with a read of its newest event's sequence number (a
 * write watcher: same transaction, no extra round trip), and once the batch has committed the tenant/org's live hub
 * is told the feed reached it, off the answer's path (`waitUntil` to its Durable Object; the object's own commands
 * tell it directly). Requests, `$batch` groups (one batch, notified only once it commits), coordinator commands,
 * import steps and cron jobs alike; a refused or rolled-back batch commits nothing and notifies nothing. The hub reads
 * the events from D1 itself, so a stream shows exactly what the change feed holds.
 */
import { and, eq, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import { changeEvents } from '../../events/table';
import { compileStatement } from '../../tenant/compiled';
import { defineCompiledQuery } from '../../tenant/compiled-families';
import type { WriteWatcherFactory } from '../../runtime/platform';

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
const MAX_TOLD = 10_000;

/** The write watcher of live streams. */
export const watchLiveChanges: WriteWatcherFactory = (scope, context) => ({
  sql: readNewestQuery().sql,
  params: readNewestQuery().fill({ tenantKey: scope.tenantKey, orgKey: scope.orgKey }),
  onCommit(rows) {
    const seq = Number(rows[0]?.seq ?? 0);
    const name = `${scope.tenantKey}/${scope.orgKey}`;
    if (!(seq > (told.get(name) ?? 0))) return;
    if (told.size >= MAX_TOLD) told.clear();
    told.set(name, seq);
    context.waitUntil(
      context.live
        .notify(scope, seq)
        .catch((error: unknown) =>
          console.error(JSON.stringify({ level: 'error', message: 'live notification failed', ...scope, seq, error: String(error) })),
        ),
    );
  },
});
