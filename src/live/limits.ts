/** The documented limits of live streams (docs/live.md): one place, read by the hub and the docs' tests. */
export const LIVE_LIMITS = {
  /** Open streams (Server-Sent Events and WebSockets) per tenant/org: one more is 429. */
  perOrg: 2000,
  /** Open streams per bearer token (the streams of its tickets included): one more is 429. */
  perToken: 20,
  /** Retry-After of those 429s (seconds). */
  retryAfterSeconds: 30,
  /** What a connection may hold that its client has not taken (SSE: not read; WebSocket: not acknowledged). */
  bufferBytes: 1024 * 1024,
  /** A catch-up waits for a connection over half its buffer at most this long, then ends it as a slow consumer. */
  stallMs: 30_000,
  /** Server-Sent Events heartbeats (comment lines); WebSocket clients ping instead. */
  heartbeatMs: 15_000,
  /** Events read per D1 round trip (a replay page, or a batch of live events). */
  pageSize: 200,
  /** How often the object asks KV whether the API clients of its streams were revoked (besides the revoke's push). */
  revocationCheckMs: 30_000,
  /** How long an isolate stops telling a hub with no open stream of new writes (src/services/events/live-watch.ts). */
  quietMs: 1_000,
  /** Meanwhile a hub whose first stream opened reads the feed itself this often (for writes of isolates still quiet). */
  firstListenerPollMs: 50,
  /** How often, at most, the object persists its position (for WebSockets that outlive a hibernation). */
  keepHeadMs: 5_000,
  /**
   * The time between the starts of two fan-outs, per live connection, and at most (src/live/pacer.ts): the commits of
   * that time reach each connection as one frame (one write per connection instead of one per commit). A fan-out also
   * waits, up to the most, while the runtime still holds the last frame of the one before (checking this often).
   */
  fanOutSpacingPerStreamMs: 0.025,
  fanOutSpacingMaxMs: 50,
  fanOutDrainCheckMs: 2,
} as const;

/** How long after a fan-out started the next one may start, with `streams` live connections. */
export function spaceFanOuts(streams: number): number {
  return Math.min(LIVE_LIMITS.fanOutSpacingMaxMs, streams * LIVE_LIMITS.fanOutSpacingPerStreamMs);
}
