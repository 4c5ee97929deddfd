/** Scheduled (cron) work: every job runs; one failing job is logged and does not stop the others. */
import type { Platform } from '../runtime/platform';

export interface ScheduledJob {
  readonly name: string;
  run(platform: Platform): Promise<void>;
}

export async function runScheduledJobs(platform: Platform, jobs: readonly ScheduledJob[]): Promise<void> {
  const results = await Promise.allSettled(jobs.map((job) => job.run(platform)));
  results.forEach((result, index) => {
    if (result.status === 'rejected') {
      console.error(JSON.stringify({ level: 'error', job: jobs[index]?.name, error: String(result.reason) }));
    }
  });
}
