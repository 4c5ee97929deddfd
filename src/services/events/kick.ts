/**
 * What starts deliveries: after every acknowledged write (off the request path, in `waitUntil`) a job per subscription
 * of the tenant/org that is behind, and a sweep on every cron trigger for whatever a lost kick left behind (an isolate
 * that died between the commit and its kick, events of cron recalculations).
 */
import { and, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import type { TenantScope } from '../../db/client';
import { changeEvents } from '../../events/table';
import type { ApiContext } from '../../http/context';
import type { ScheduledJob } from '../../jobs/scheduler';
import type { Platform } from '../../platform/types';
import { eventSubscriptions } from './tables';

/** Subscriptions behind the newest event of their tenant/org (not expired, not held by a consumer). */
function behindCondition(now: Date) {
  const at = now.toISOString();
  const newest = sql`(select max(${changeEvents.seq}) from ${changeEvents} where ${changeEvents.tenantKey} = ${eventSubscriptions.tenantKey} and ${changeEvents.orgKey} = ${eventSubscriptions.orgKey})`;
  return and(
    gt(eventSubscriptions.expirationDateTime, at),
    or(isNull(eventSubscriptions.leaseUntil), lt(eventSubscriptions.leaseUntil, at)),
    sql`${eventSubscriptions.cursorSeq} < coalesce(${newest}, 0)`,
  );
}

/** Sends a job for each of the tenant/org's subscriptions that has events to deliver. */
export async function kickDeliveries(platform: Platform, scope: TenantScope): Promise<void> {
  const queue = platform.deliveries;
  if (!queue) return;
  const db = await platform.openTenantDatabase(scope);
  const rows = await db
    .select({ id: eventSubscriptions.id })
    .from(eventSubscriptions)
    .where(and(scopeCondition(eventSubscriptions, scope), behindCondition(platform.now())));
  await Promise.all(rows.map((row) => queue.send({ ...scope, subscriptionId: row.id })));
}

/** After an acknowledged write: kick deliveries once the answer has left. */
export function kickAfterWrite(ctx: ApiContext): void {
  ctx.platform.waitUntil(
    kickDeliveries(ctx.platform, ctx.scope).catch((error: unknown) =>
      console.error(JSON.stringify({ level: 'error', message: 'delivery kick failed', ...ctx.scope, error: String(error) })),
    ),
  );
}

/** The cron sweep: a job for every subscription of every tenant database that is behind. */
export const deliverySweepJob: ScheduledJob = {
  name: 'events.deliveries',
  async run(platform) {
    const queue = platform.deliveries;
    if (!queue) return;
    let sent = 0;
    for (const db of await platform.openEveryTenantDatabase()) {
      const rows = await db
        .select({ tenantKey: eventSubscriptions.tenantKey, orgKey: eventSubscriptions.orgKey, subscriptionId: eventSubscriptions.id })
        .from(eventSubscriptions)
        .where(behindCondition(platform.now()))
        .limit(1000);
      await Promise.all(rows.map((row) => queue.send(row)));
      sent += rows.length;
    }
    if (sent > 0) console.log(JSON.stringify({ level: 'info', job: 'events.deliveries', sent }));
  },
};
