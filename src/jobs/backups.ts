/**
 * The daily backup pass (src/platform/backup/cron.ts): run by the cron trigger (every 15 minutes) in its first run
 * of each UTC day, 00:00 to 00:14.
 */
import type { ScheduledJob } from './scheduler';

const WINDOW_MINUTES = 15;

export const backupJob: ScheduledJob = {
  name: 'backups',
  async run(platform) {
    const now = platform.now();
    if (now.getUTCHours() !== 0 || now.getUTCMinutes() >= WINDOW_MINUTES) return;
    const report = await platform.backups.runDailyPass();
    console.log(JSON.stringify({ level: 'info', job: 'backups', ...report }));
  },
};
