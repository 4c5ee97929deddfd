/**
 * The two ways a live stream reaches its client, each bounded. Server-Sent Events: the frames written into the
 * response's stream and not yet read by the client count (the stream's own backpressure). WebSocket: the runtime
 * gives no measure of what it holds for a socket (workerd has no `bufferedAmount`), so the client acknowledges the
 * cursors it has processed (`{"type":"ack","cursor":"..."}`) and the changes sent after its last acknowledgement count.
 * Past LIVE_BUFFER_BYTES the hub ends the connection as a slow consumer.
 */
import { decodeCursor } from '../events/feed';
import { encodeSocketChange, encodeSocketFrame, encodeSseFrame, END_REASONS, SSE_PREAMBLE } from './frames';
import type { EndReason, LiveFrame } from './frames';
import type { LiveTransportKind } from './grant';

/** How long an ended Server-Sent Events stream may take to deliver what it holds before it is cut off. */
const CUT_OFF_MS = 10_000;

export interface LiveTransport {
  readonly kind: LiveTransportKind;
  /** Queues a frame for the client. */
  send(frame: LiveFrame): void;
  /** Bytes the client has not taken yet. */
  pending(): number;
  /** Resolves when pending() falls, or the connection ends. */
  drained(): Promise<void>;
  /** Ends the connection, with the frame that says why when there is a reason. */
  close(reason?: EndReason): void;
  readonly closed: boolean;
}

/** Wakes whoever waits for a transport to drain. */
class Waiters {
  private list: (() => void)[] = [];
  wait(): Promise<void> {
    return new Promise((resolve) => this.list.push(resolve));
  }
  wake(): void {
    const list = this.list;
    this.list = [];
    for (const resolve of list) resolve();
  }
}

/**
 * Server-Sent Events: the answer's body is a stream the transport enqueues into (no promise per chunk); what is queued
 * and not yet read by the client is what the stream holds (its desired size below zero).
 */
export class SseTransport implements LiveTransport {
  readonly kind = 'sse';
  /** The answer's body. */
  readonly body: ReadableStream<Uint8Array>;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private ended = false;
  private readonly waiters = new Waiters();

  /** `onGone`: the client went away (the body was cancelled). */
  constructor(private readonly onGone: () => void) {
    this.body = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.controller = controller;
        },
        // Called when the client has read everything queued and wants more.
        pull: () => this.waiters.wake(),
        cancel: () => this.finish(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: 0 }),
    );
    this.controller?.enqueue(SSE_PREAMBLE);
  }

  private finish(): void {
    if (!this.ended) this.onGone();
    this.ended = true;
    this.waiters.wake();
  }

  /**
   * Queues into the body or closes it; false when the body no longer takes either: the runtime errored or closed it
   * when the client went away, without cancelling it.
   */
  private tryOn(act: (controller: ReadableStreamDefaultController<Uint8Array>) => void): boolean {
    try {
      if (this.controller) act(this.controller);
      return true;
    } catch {
      return false;
    }
  }

  send(frame: LiveFrame): void {
    if (!this.ended && !this.tryOn((controller) => controller.enqueue(encodeSseFrame(frame)))) this.finish();
  }

  pending(): number {
    return Math.max(0, -(this.controller?.desiredSize ?? 0));
  }

  drained(): Promise<void> {
    return this.ended ? Promise.resolve() : this.waiters.wait();
  }

  close(reason?: EndReason): void {
    if (this.ended) return;
    if (!reason) this.onGone();
    this.ended = true;
    this.waiters.wake();
    const controller = this.controller;
    if (reason) this.tryOn((open) => open.enqueue(encodeSseFrame({ kind: 'end', reason })));
    if (!controller || !this.tryOn((open) => open.close())) return;
    // What is queued (the reason last) still reaches a client that reads; one that has not read it within the grace
    // period is cut off, so that its queue is freed.
    setTimeout(() => {
      if ((controller.desiredSize ?? 0) < 0) controller.error(new Error(END_REASONS.slowConsumer.detail));
    }, CUT_OFF_MS);
  }

  get closed(): boolean {
    return this.ended;
  }
}

/** What the transport needs of a WebSocket (the runtime's, hibernatable on Cloudflare). */
interface SocketLike {
  send(text: string): void;
  close(code: number, reason: string): void;
}

/** A WebSocket: one JSON text message per frame; the client acknowledges cursors. */
export class SocketTransport implements LiveTransport {
  readonly kind = 'ws';
  private readonly unacknowledged: { seq: number; bytes: number }[] = [];
  private total = 0;
  private ended = false;
  private readonly waiters = new Waiters();

  constructor(private readonly socket: SocketLike) {}

  send(frame: LiveFrame): void {
    if (frame.kind !== 'changes') return void this.write(encodeSocketFrame(frame));
    for (const event of frame.events) {
      const text = encodeSocketChange(event);
      if (!this.write(text)) return;
      this.unacknowledged.push({ seq: event.seq, bytes: text.length });
      this.total += text.length;
    }
  }

  private write(text: string | undefined): boolean {
    if (this.ended || text === undefined) return false;
    try {
      this.socket.send(text);
      return true;
    } catch {
      this.gone();
      return false;
    }
  }

  /** A message from the client: an acknowledgement moves the window; anything else is ignored. */
  receive(message: string): void {
    let cursor: unknown;
    try {
      cursor = (JSON.parse(message) as { type?: unknown; cursor?: unknown }).cursor;
    } catch {
      return;
    }
    if (typeof cursor !== 'string') return;
    let seq: number;
    try {
      seq = decodeCursor(cursor);
    } catch {
      return;
    }
    while ((this.unacknowledged[0]?.seq ?? Infinity) <= seq) this.total -= this.unacknowledged.shift()?.bytes ?? 0;
    this.waiters.wake();
  }

  pending(): number {
    return this.total;
  }

  drained(): Promise<void> {
    return this.ended ? Promise.resolve() : this.waiters.wait();
  }

  /** The client closed the socket, or it failed. */
  gone(): void {
    this.ended = true;
    this.waiters.wake();
  }

  close(reason?: EndReason): void {
    if (this.ended) return;
    if (reason) this.send({ kind: 'end', reason });
    this.ended = true;
    this.waiters.wake();
    try {
      this.socket.close(reason ? END_REASONS[reason].code : 1000, reason ?? 'closed');
    } catch {
      // already closed
    }
  }

  get closed(): boolean {
    return this.ended;
  }
}
