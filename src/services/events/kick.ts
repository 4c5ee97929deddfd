/**
 * What starts deliveries: every write batch of a tenant/org ends with a read of its subscriptions that are behind
 * (a write watcher: same transaction, no extra round trip), and once the batch has committed a job per such
 * subscription goes to the queue (in `waitUntil`, off the request path). Writes run by requests, coordinator commands
 * and cron jobs alike. A sweep on every cron trigger sends whatever a lost kick left behind (an isolate that died
 * between the commit and its send).
 */
import { and, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import type { Placeholder } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/sqlite-core';
import { sqlBuilder } from '../../db/sql';
import { compileStatement } from '../../tenant/compiled';
import { defineCompiledQuery } from '../../tenant/compiled-families';
import { changeEvents } from '../../events/table';
import type { ScheduledJob } from '../../jobs/scheduler';
import type { WriteWatcherFactory } from '../../runtime/platform';
import { eventSubscriptions } from './tables';

/** Subscriptions behind the newest event of their tenant/org (not expired, not held by a consumer) at `at`. */
function behindCondition(at: string | Placeholder) {
  const newest = sql`(select max(${changeEvents.seq}) from ${changeEvents} where ${changeEvents.tenantKey} = ${eventSubscriptions.tenantKey} and ${changeEvents.orgKey} = ${eventSubscriptions.orgKey})`;
  return and(
    gt(eventSubscriptions.expirationDateTime, at),
    or(isNull(eventSubscriptions.leaseUntil), lt(eventSubscriptions.leaseUntil, at)),
    sql`${eventSubscriptions.cursorSeq} < coalesce(${newest}, 0)`,
  );
}

/** The tenant/org's subscriptions that are behind, as SQL with placeholders (compiled once per isolate). */
const readBehindQuery = defineCompiledQuery('subscriptions behind (write watcher)', () =>
  compileStatement(
    new QueryBuilder()
      .select({ id: eventSubscriptions.id })
      .from(eventSubscriptions)
      .where(
        and(
          eq(eventSubscriptions.tenantKey, sql.placeholder('tenantKey')),
          eq(eventSubscriptions.orgKey, sql.placeholder('orgKey')),
          behindCondition(sql.placeholder('at')),
        ),
      ),
    { id: eventSubscriptions.id },
  ),
);

/** The write watcher of the events service: a delivery job for each subscription a committed write left behind. */
export const watchDeliveries: WriteWatcherFactory = (scope, context) => ({
  sql: readBehindQuery().sql,
  params: readBehindQuery().fill({ tenantKey: scope.tenantKey, orgKey: scope.orgKey, at: context.now().toISOString() }),
  onCommit(rows) {
    const ids = rows.map((row) => row.id).filter((id): id is string => typeof id === 'string');
    if (ids.length === 0) return;
    context.waitUntil(
      Promise.all(ids.map((subscriptionId) => context.deliveries.send({ ...scope, subscriptionId }))).catch((error: unknown) =>
        console.error(JSON.stringify({ level: 'error', message: 'delivery kick failed', ...scope, error: String(error) })),
      ),
    );
  },
});

/** The cron sweep: a job for every subscription of every tenant database that is behind. */
export const deliverySweepJob: ScheduledJob = {
  name: 'events.deliveries',
  async run(platform) {
    const queue = platform.deliveries;
    let sent = 0;
    for (const scan of platform.scanTenantDatabases()) {
      const rows = await scan.read(
        sqlBuilder
          .select({ tenantKey: eventSubscriptions.tenantKey, orgKey: eventSubscriptions.orgKey, subscriptionId: eventSubscriptions.id })
          .from(eventSubscriptions)
          .where(behindCondition(platform.now().toISOString()))
          .limit(1000),
      );
      await Promise.all(rows.map((row) => queue.send(row)));
      sent += rows.length;
    }
    if (sent > 0) console.log(JSON.stringify({ level: 'info', job: 'events.deliveries', sent }));
  },
};
