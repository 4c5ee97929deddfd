/**
 * What the backup jobs need of a tenant/org's coordinator (the Durable Object, or Deno's in-process one): start a
 * snapshot or a restore, and read a job.
 */
import type { TenantScope } from '../../db/client';
import type { JobStatus, RestorePlan } from './jobs';
import type { StartOutcome } from './runner';

/** The tenant/org's coordinator as far as snapshots and restores go. */
export interface BackupCoordinator {
  startSnapshot(scope: TenantScope, database: string, id: string): Promise<StartOutcome>;
  startRestore(scope: TenantScope, plan: RestorePlan, id: string): Promise<StartOutcome>;
  readJob(scope: TenantScope, id: string): Promise<JobStatus | null>;
}
