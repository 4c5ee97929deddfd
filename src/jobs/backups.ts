/**
 * The daily backup pass (src/tenant/backup/cron.ts), in bounded runs: every cron run (every 15 minutes, all day)
 * handles at most a fixed number of the tenant/orgs due, the most overdue first; the next runs continue.
 */
import type { ScheduledJob } from './scheduler';

export const backupJob: ScheduledJob = {
  name: 'backups',
  async run(platform) {
    const report = await platform.backups.runDailyPass();
    console.log(JSON.stringify({ level: 'info', job: 'backups', ...report }));
  },
};
