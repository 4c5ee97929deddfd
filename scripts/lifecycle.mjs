// How the long-running scripts (npm start, npm run start:deno, npm run webhook:receiver) stop: on SIGINT, SIGTERM or
// SIGHUP, and when the process that started them ends (npm killed with SIGTERM ends the shell it ran the script in
// without passing the signal on; the npm scripts `exec` the script, so that npm's own forwarding of SIGINT and SIGTERM
// reaches it). `stop` runs once and must end the process.
import { setInterval } from 'node:timers';

/** Seconds since `since`, for the progress lines of a start. */
export function seconds(since) {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}

/** Calls `stop(signal)` on the first SIGINT, SIGTERM or SIGHUP, or when the parent process ends ('parent'). */
export function stopOnSignalsAndParent(stop) {
  let stopping = false;
  const once = (reason) => {
    if (stopping) return;
    stopping = true;
    stop(reason);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    // Libraries (wrangler) add listeners that exit at once: the script's own stop goes first and alone.
    process.removeAllListeners(signal);
    process.on(signal, () => once(signal));
  }
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) once('parent');
  }, 1_000).unref();
}
