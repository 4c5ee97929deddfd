import type { ScheduledJob } from '../scheduler';
import { indicatorRecalculationJob } from './indicators/job';

/** The cron trigger's jobs (KPI recalculation joins here). */
export const scheduledJobs: readonly ScheduledJob[] = [indicatorRecalculationJob];
