/** The cron trigger's KPI job: recalculates every tenant/org with measurements newer than its last recalculation. */
import { asc } from 'drizzle-orm';
import { sqlBuilder } from '../../db/sql';
import type { Platform } from '../../runtime/platform';
import type { ScheduledJob } from '../../jobs/scheduler';
import { sendRecalculation } from './commands';
import { kpiPendingOrgs } from './tables';

/** Oldest first; the rest wait for the next trigger (keeps one invocation within its subrequest budget). */
const MAX_ORGS_PER_RUN = 500;
const PARALLEL_ORGS = 8;

interface PendingOrg {
  readonly tenantKey: string;
  readonly orgKey: string;
  readonly markedOn: string;
}

async function recalculateOrg(platform: Platform, org: PendingOrg): Promise<boolean> {
  try {
    // Each org in its own Durable Object; only its changed series are recalculated.
    await sendRecalculation(platform, org, { configurationKey: null, onlyChanged: true });
    return true;
  } catch (error) {
    console.error(
      JSON.stringify({ level: 'error', job: 'indicators.recalculate', tenantKey: org.tenantKey, orgKey: org.orgKey, error: String(error) }),
    );
    return false;
  }
}

async function recalculatePendingOrgs(platform: Platform): Promise<{ recalculated: number; failed: number }> {
  const pending: PendingOrg[] = [];
  // Each database lists its own pending orgs; each org's recalculation then opens that org's database.
  for (const scan of platform.scanTenantDatabases()) {
    pending.push(
      ...(await scan.read(
        sqlBuilder
          .select({ tenantKey: kpiPendingOrgs.tenantKey, orgKey: kpiPendingOrgs.orgKey, markedOn: kpiPendingOrgs.markedOn })
          .from(kpiPendingOrgs)
          .orderBy(asc(kpiPendingOrgs.markedOn))
          .limit(MAX_ORGS_PER_RUN),
      )),
    );
  }
  pending.sort((a, b) => (a.markedOn < b.markedOn ? -1 : a.markedOn > b.markedOn ? 1 : 0)).splice(MAX_ORGS_PER_RUN);
  let recalculated = 0;
  let next = 0;
  const worker = async () => {
    while (next < pending.length) {
      const org = pending[next];
      next += 1;
      if (org && (await recalculateOrg(platform, org))) recalculated += 1;
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL_ORGS, pending.length) }, worker));
  const outcome = { recalculated, failed: pending.length - recalculated };
  if (pending.length > 0) console.log(JSON.stringify({ level: 'info', job: 'indicators.recalculate', ...outcome }));
  return outcome;
}

export const indicatorRecalculationJob: ScheduledJob = {
  name: 'indicators.recalculate',
  run: async (platform) => {
    await recalculatePendingOrgs(platform);
  },
};
