/**
 * A live hub's connection (src/live/hub.ts): how its replay waits for its client to take what it holds, and why it
 * ends when its replay fails.
 */
import { ApiError } from '../errors/api-error';
import type { EndReason } from './frames';
import type { LiveGrant } from './grant';
import { LIVE_LIMITS } from './limits';
import type { LiveTransport } from './transport';

export interface Connection {
  readonly id: string;
  readonly grant: LiveGrant;
  readonly transport: LiveTransport;
  /** The last sequence number this connection has been given (or that its resource filter passed over). */
  cursor: number;
  /** The cursor last sent as an SSE `id` (a heartbeat sends a newer one). */
  idSent: number | undefined;
}

/**
 * Waits while the transport holds more than half its buffer: `room` when it holds less, `closed` when it ended,
 * `stalled` when its client took nothing for LIVE_LIMITS.stallMs (or the wait passed it).
 */
export async function waitForRoom(transport: LiveTransport, now: () => number): Promise<'room' | 'closed' | 'stalled'> {
  const deadline = now() + LIVE_LIMITS.stallMs;
  while (!transport.closed && transport.pending() > LIVE_LIMITS.bufferBytes / 2) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stalled = new Promise<'stalled'>((resolve) => (timer = setTimeout(() => resolve('stalled'), LIVE_LIMITS.stallMs)));
    const outcome = await Promise.race([transport.drained(), stalled]);
    clearTimeout(timer);
    if (outcome === 'stalled' || now() > deadline) return 'stalled';
  }
  return transport.closed ? 'closed' : 'room';
}

/** Why a stream whose replay failed ends: its cursor is older than the feed's retention, or a failure (logged). */
export function explainFailure(error: unknown): EndReason {
  const expired = error instanceof ApiError && error.code === 'CursorExpired';
  if (!expired) console.error(JSON.stringify({ level: 'error', message: 'live stream failed', error: String(error) }));
  return expired ? 'cursorExpired' : 'serverError';
}
