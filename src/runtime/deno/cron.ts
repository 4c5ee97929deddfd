/**
 * The cron trigger under Deno: a timer that fires on every multiple of `intervalMinutes` of the UTC
 * clock (the Worker's cron is every 15 minutes). A tick that finds the previous run still busy is skipped.
 */

interface CronTimer {
  stop(): void;
}

export function startCronTimer(intervalMinutes: number, run: () => Promise<void>, now: () => number = Date.now): CronTimer {
  const interval = Math.round(intervalMinutes * 60_000);
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running = false;
  const plan = () => {
    timer = setTimeout(
      () => {
        plan();
        if (running) return;
        running = true;
        void run().finally(() => {
          running = false;
        });
      },
      interval - (now() % interval),
    );
  };
  if (interval > 0) plan();
  return {
    stop: () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
