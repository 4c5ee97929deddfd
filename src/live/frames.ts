/**
 * What a live stream sends, and how each transport writes it. Server-Sent Events: `id:` is the event's feed cursor,
 * so `Last-Event-ID` resumes after it; `event: change` carries the feed item (the shape of `GET /changes` items) as
 * `data`; `event: ready` says the replay is over (live from here); a comment line is the heartbeat; `event: end` says
 * why the server ends the stream. WebSocket: one JSON message per frame (`{"type": "change", "cursor", "change"}`,
 * `{"type": "ready", "cursor"}`, `{"type": "end", "reason", "detail"}`), then a close code of the reason.
 */
import { encodeCursor } from '../events/feed';

/** One event of the feed, encoded once for every connection that gets it. */
export interface LiveEvent {
  readonly seq: number;
  readonly resource: string;
  /** The feed item as JSON text. */
  readonly json: string;
  sse?: Uint8Array;
  ws?: string;
}

/** Why the server ends a stream. */
export type EndReason = 'tokenExpired' | 'clientRevoked' | 'slowConsumer' | 'cursorExpired' | 'serverError' | 'shutdown';

/** Each reason's explanation and WebSocket close code (4000 + an HTTP status of the same meaning). */
export const END_REASONS: Readonly<Record<EndReason, { readonly code: number; readonly detail: string }>> = {
  tokenExpired: { code: 4401, detail: 'The token that opened this stream has expired: open it again with a new token or ticket.' },
  clientRevoked: { code: 4403, detail: 'The API client of the token that opened this stream has been revoked or deleted.' },
  slowConsumer: {
    code: 4429,
    detail: 'The client fell too far behind (it did not read, or acknowledge, what was sent): reconnect from the last cursor it has.',
  },
  cursorExpired: {
    code: 4410,
    detail:
      'The cursor is older than the change feed retention: resynchronize with each resource /odata list, then open the stream without a cursor.',
  },
  serverError: { code: 4500, detail: 'The stream failed on the server: reconnect from the last cursor the client has.' },
  shutdown: { code: 4503, detail: 'The server is shutting down: reconnect from the last cursor the client has.' },
};

/** Changes in commit order (a page of them reaches the connections of one resource filter as one frame). */
export interface ChangesFrame {
  readonly kind: 'changes';
  readonly events: readonly LiveEvent[];
  /** Their Server-Sent Events bytes, encoded once for every connection that gets this frame. */
  sse?: Uint8Array;
}

export type LiveFrame =
  | ChangesFrame
  | { readonly kind: 'ready'; readonly seq: number }
  | { readonly kind: 'heartbeat'; readonly seq: number | undefined }
  | { readonly kind: 'end'; readonly reason: EndReason };

const encoder = new TextEncoder();

/** Headers of a Server-Sent Events answer: never cached, never buffered by a proxy. */
export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' };

/** How long an EventSource waits before it reconnects (sent once, first). */
export const SSE_PREAMBLE = encoder.encode('retry: 2000\n\n');

/** Events as Server-Sent Events bytes: each event's text encoded once, a page of them written as one chunk. */
function encodeEvents(events: readonly LiveEvent[]): Uint8Array {
  for (const event of events) event.sse ??= encoder.encode(`id: ${encodeCursor(event.seq)}\nevent: change\ndata: ${event.json}\n\n`);
  if (events.length === 1) return events[0]?.sse ?? new Uint8Array();
  const bytes = new Uint8Array(events.reduce((sum, event) => sum + (event.sse?.length ?? 0), 0));
  let offset = 0;
  for (const event of events) {
    bytes.set(event.sse ?? new Uint8Array(), offset);
    offset += event.sse?.length ?? 0;
  }
  return bytes;
}

/** A frame as Server-Sent Events bytes (a change is encoded once, whatever the number of connections). */
export function encodeSseFrame(frame: LiveFrame): Uint8Array {
  switch (frame.kind) {
    case 'changes':
      frame.sse ??= encodeEvents(frame.events);
      return frame.sse;
    case 'ready': {
      const cursor = encodeCursor(frame.seq);
      return encoder.encode(`id: ${cursor}\nevent: ready\ndata: ${JSON.stringify({ cursor })}\n\n`);
    }
    case 'heartbeat':
      return encoder.encode(frame.seq === undefined ? ': heartbeat\n\n' : `: heartbeat\nid: ${encodeCursor(frame.seq)}\n\n`);
    case 'end':
      return encoder.encode(`event: end\ndata: ${JSON.stringify({ reason: frame.reason, detail: END_REASONS[frame.reason].detail })}\n\n`);
  }
}

/** A change as a WebSocket text message (encoded once for every connection). */
export function encodeSocketChange(event: LiveEvent): string {
  event.ws ??= `{"type":"change","cursor":"${encodeCursor(event.seq)}","change":${event.json}}`;
  return event.ws;
}

/** Any other frame as a WebSocket text message (heartbeats are the client's pings: none is sent). */
export function encodeSocketFrame(frame: Exclude<LiveFrame, ChangesFrame>): string | undefined {
  switch (frame.kind) {
    case 'ready':
      return JSON.stringify({ type: 'ready', cursor: encodeCursor(frame.seq) });
    case 'heartbeat':
      return undefined;
    case 'end':
      return JSON.stringify({ type: 'end', reason: frame.reason, detail: END_REASONS[frame.reason].detail });
  }
}
