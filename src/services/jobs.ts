import type { ScheduledJob } from '../scheduler';

/** The cron trigger's jobs (KPI recalculation joins here). */
export const scheduledJobs: readonly ScheduledJob[] = [];
