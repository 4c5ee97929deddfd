/**
 * Background work (import, undo and backup steps, alarm steps, cron runs) gives the runtime a turn between its units
 * of work, so that requests that arrived meanwhile are answered: a timer, not a resolved promise. Under workerd a chain
 * of in-process calls (D1, R2, the Durable Object) that never leaves the isolate idle keeps new connections unread
 * until it ends (measured: `GET /health` unanswered for the 24 s of a 100,000-row import step chain, 0.1-1.2 s with a
 * timer turn per chunk); under Deno, node:sqlite answers synchronously, so an await alone never lets the server read.
 */
export function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}
