/**
 * docs/live.md states the limits the live streams apply (src/live/limits.ts), the ticket's lifetime and the end
 * reasons with their WebSocket close codes, as the code has them.
 */
import { describe, expect, it } from 'vitest';
import { STREAM_TICKET_SECONDS } from '../../src/auth/stream-ticket';
import { END_REASONS } from '../../src/live/frames';
import { LIVE_LIMITS } from '../../src/live/limits';
import page from '../../docs/live.md?raw';

const limits = page.slice(page.indexOf('## Limits'), page.indexOf('## How it works'));

describe('docs/live.md', () => {
  it('states the limits of src/live/limits.ts', () => {
    const count = (value: number) => value.toLocaleString('en-US');
    expect(limits).toContain(`| open streams per tenant/org (SSE and WebSocket) | ${count(LIVE_LIMITS.perOrg)}: one more is 429`);
    expect(limits).toContain(`| open streams per bearer token (its tickets' included) | ${count(LIVE_LIMITS.perToken)}: one more is 429`);
    expect(limits).toContain(`\`Retry-After: ${LIVE_LIMITS.retryAfterSeconds}\``);
    expect(limits).toContain(`| ${LIVE_LIMITS.bufferBytes / (1024 * 1024)} MiB: past it, the stream ends as \`slowConsumer\``);
    expect(limits).toContain(`waits at most ${LIVE_LIMITS.stallMs / 1000} s`);
    expect(limits).toContain(`| heartbeat (SSE) | ${LIVE_LIMITS.heartbeatMs / 1000} s |`);
    expect(limits).toContain(`checked every ${LIVE_LIMITS.revocationCheckMs / 1000} s`);
  });

  it("states a ticket's lifetime and every end reason with its close code", () => {
    expect(page).toContain(`within ${STREAM_TICKET_SECONDS} s`);
    for (const [reason, { code }] of Object.entries(END_REASONS)) expect(page).toContain(`\`${reason}\` (${code}`);
  });
});
