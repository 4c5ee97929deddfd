/**
 * The retention job (cron): events older than the retention are deleted per tenant/org, and the highest sequence
 * number deleted is remembered (`change_event_retention`) so that an older cursor is answered 410.
 */
import { and, lt, sql } from 'drizzle-orm';
import { scopeCondition } from '../../db/client';
import { sqlBuilder } from '../../db/sql';
import { changeEventRetention, changeEvents } from '../../events/table';
import type { ScheduledJob } from '../../jobs/scheduler';
import type { Platform } from '../../runtime/platform';
import { RETENTION_DAYS } from '../../events/feed';
import { stageStatements } from '../../tenant/staged-statements';
import { openTenantSession } from '../../tenant/session';
import { commitAlone } from '../../tenant/unit-of-work';
import type { StagedWrite } from '../../tenant/unit-of-work';
import { eventDeliveries } from './tables';

/** Tenant/orgs pruned per run and database (the rest wait for the next trigger). */
const MAX_ORGS_PER_RUN = 200;

function retentionCutoff(now: Date): string {
  return new Date(now.getTime() - RETENTION_DAYS * 86_400_000).toISOString();
}

/**
 * Deletes the tenant/org's events up to the newest one older than the cutoff (everything at or below a sequence
 * number goes, so the mark is exact), raises its retention mark, and deletes delivery records as old, staged as one
 * write of the job's unit of work (one batch).
 */
function stagePruning(now: Date): StagedWrite<void> {
  const cutoff = retentionCutoff(now);
  return stageStatements('change_events', ({ scope }) => {
    const newestOld = sql`(select max(${changeEvents.seq}) from ${changeEvents} where ${and(scopeCondition(changeEvents, scope), lt(changeEvents.occurredOn, cutoff))})`;
    return [
      sqlBuilder
        .insert(changeEventRetention)
        .select(sql`select ${scope.tenantKey}, ${scope.orgKey}, ${newestOld}, ${now.toISOString()} where ${newestOld} is not null`)
        .onConflictDoUpdate({
          target: [changeEventRetention.tenantKey, changeEventRetention.orgKey],
          set: { prunedSeq: sql`max(${changeEventRetention.prunedSeq}, excluded.pruned_seq)`, prunedOn: sql`excluded.pruned_on` },
        }),
      sqlBuilder
        .delete(changeEvents)
        .where(and(scopeCondition(changeEvents, scope), sql`${changeEvents.seq} <= coalesce(${newestOld}, 0)`)),
      sqlBuilder.delete(eventDeliveries).where(and(scopeCondition(eventDeliveries, scope), lt(eventDeliveries.completedOn, cutoff))),
    ];
  });
}

/** Prunes every tenant/org that has events older than the retention (at most MAX_ORGS_PER_RUN per database). */
async function pruneAllEvents(platform: Platform): Promise<number> {
  const now = platform.now();
  const cutoff = retentionCutoff(now);
  let pruned = 0;
  for (const scan of platform.scanTenantDatabases()) {
    const orgs = await scan.read(
      sqlBuilder
        .selectDistinct({ tenantKey: changeEvents.tenantKey, orgKey: changeEvents.orgKey })
        .from(changeEvents)
        .where(lt(changeEvents.occurredOn, cutoff))
        .limit(MAX_ORGS_PER_RUN),
    );
    for (const scope of orgs) {
      // Each tenant/org's session, opened once (the job's writes carry no audit fields: `system`).
      const unit = openTenantSession({ executor: platform.openTenant(scope), stamp: { on: now.toISOString(), by: 'system' } });
      await commitAlone(unit, (batch) => batch.stage(stagePruning(now)));
      pruned += 1;
    }
  }
  return pruned;
}

export const eventRetentionJob: ScheduledJob = {
  name: 'events.retention',
  async run(platform) {
    const pruned = await pruneAllEvents(platform);
    if (pruned > 0) console.log(JSON.stringify({ level: 'info', job: 'events.retention', orgs: pruned }));
  },
};
