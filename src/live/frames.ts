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

export type LiveFrame =
  | { readonly kind: 'change'; readonly event: LiveEvent }
  | { readonly kind: 'ready'; readonly seq: number }
  | { readonly kind: 'heartbeat'; readonly seq: number | undefined }
  | { readonly kind: 'end'; readonly reason: EndReason };

const encoder = new TextEncoder();

/** Headers of a Server-Sent Events answer: never cached, never buffered by a proxy. */
export const SSE_HEADERS = { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store', 'x-accel-buffering': 'no' };

/** How long an EventSource waits before it reconnects (sent once, first). */
export const SSE_PREAMBLE = encoder.encode('retry: 2000\n\n');

/** A frame as Server-Sent Events bytes (a change is encoded once, whatever the number of connections). */
export function encodeSseFrame(frame: LiveFrame): Uint8Array {
  switch (frame.kind) {
    case 'change':
      frame.event.sse ??= encoder.encode(`id: ${encodeCursor(frame.event.seq)}\nevent: change\ndata: ${frame.event.json}\n\n`);
      return frame.event.sse;
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

/** A frame as a WebSocket text message (heartbeats are the client's pings: none is sent). */
export function encodeSocketFrame(frame: LiveFrame): string | undefined {
  switch (frame.kind) {
    case 'change':
      frame.event.ws ??= `{"type":"change","cursor":"${encodeCursor(frame.event.seq)}","change":${frame.event.json}}`;
      return frame.event.ws;
    case 'ready':
      return JSON.stringify({ type: 'ready', cursor: encodeCursor(frame.seq) });
    case 'heartbeat':
      return undefined;
    case 'end':
      return JSON.stringify({ type: 'end', reason: frame.reason, detail: END_REASONS[frame.reason].detail });
  }
}
